"""``diloti analyse``: the expert's ranking of every legal move in a position."""

from __future__ import annotations

import argparse
import json

from diloti.ai.analysis import format_ranking, rank_moves, win_chances
from diloti.cli import CliError
from diloti.cli.common import (
    add_game_flags,
    join_words,
    load_any_position_arg,
    non_negative_int,
    one_line_errors,
    options_from_args,
    other_games,
    positive_float,
    positive_int,
)
from diloti.core.errors import InvalidPositionError
from diloti.core.registry import find_game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "analyse", help="the expert's ranking of the legal moves in a position",
        description="Rank every legal move of the seat to move by the expert's search. POSITION is a position "
                    "(JSON or compact, docs/NOTATION.md) on the command line, a file holding one, or '-' for "
                    "standard input; "
                    "without it a new round of --game is dealt from --seed. Each estimate is the expected round "
                    "points difference (the mover's side minus the other; in "
                    f"{join_words([g.title for g in other_games()])} the best other side) the move leads to. "
                    "Only the mover's view is given to the search: hidden cards in the position do not change "
                    "the answer.",
    ))
    p.add_argument("position", nargs="?", default=None, metavar="POSITION")
    p.add_argument("--seed", type=non_negative_int, default=0, help="deal seed when no POSITION is given (default 0)")
    p.add_argument("--dealer", type=non_negative_int, default=0,
                   help="dealer of the dealt round: a seat 0..PLAYERS-1 (default 0)")
    p.add_argument("--iterations", type=positive_int, default=800, metavar="N",
                   help="playouts shared by all moves (default 800)")
    p.add_argument("--seconds", type=positive_float, default=None, metavar="S",
                   help="time cap (default: none, so the answer is reproducible)")
    p.add_argument("--level", choices=("expert", "master"), default="expert",
                   help="whose search: expert (uniform worlds) or master (worlds weighted by the evidence of "
                        "play); default expert")
    p.add_argument("--search-seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument("--json", action="store_true", help="print the ranking as JSON")
    p.add_argument("--scores", type=scores_arg, default=(0, 0), metavar="A-B",
                   help="the game's points of side 0 and side 1 before this round (Diloti: for the chance to win "
                        "the game after each move; default 0-0)")
    add_game_flags(p)
    p.set_defaults(func=run)


def scores_arg(text: str) -> tuple[int, int]:
    """``--scores A-B``: two game scores.

    >>> scores_arg("30-45")
    (30, 45)
    """
    a, sep, b = text.partition("-")
    if not sep or not a.strip().isdigit() or not b.strip().isdigit():
        raise argparse.ArgumentTypeError(f"invalid scores {text!r}: expected A-B, two whole numbers (30-45)")
    return int(a), int(b)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.dealer < args.players:
        raise CliError(f"invalid --dealer {args.dealer}: expected a seat 0..{args.players - 1} "
                       f"with {args.players} players")
    if args.position is None:
        state = find_game(args.game).new_state(args.players, options_from_args(args), args.dealer, args.seed)
    else:
        state = load_any_position_arg(args.position)
    if state.is_over:
        raise InvalidPositionError("the round in this position is over: there is no move to analyse")
    view = state.view(state.turn, args.scores)
    ranked = rank_moves(view, seed=args.search_seed, iterations=args.iterations, seconds=args.seconds,
                        level=args.level)  # a game whose master searches as its expert ranks the same either way
    wins = win_chances(view, ranked)  # with the game's scores of the position (0-0 when it gives none); None if
    # the game has no model of the chance to win
    if args.json:
        print(json.dumps({"seat": view.seat, "estimate": "expected round points difference for the mover's side",
                          "moves": [{"move": str(m), "estimate": v, "win": None if wins is None else wins[i]}
                                    for i, (m, v) in enumerate(ranked)]}, indent=2))
        return 0
    print(f"{state.describe()}")
    print(f"seat {view.seat} to move; expected round points difference for its side (best first)"
          + ("" if wins is None else f", and the chance to win the game to {view.options.target} from "
             f"{view.scores[view.side]}-{view.scores[1 - view.side]}") + ":")
    for line in format_ranking(ranked, wins=wins):
        print("  " + line)
    return 0
