"""``diloti analyse``: the expert's ranking of every legal move in a position."""

from __future__ import annotations

import argparse
import json
import os
import sys

from diloti.ai.analysis import format_ranking, rank_moves
from diloti.cli.common import (
    add_option_flags,
    add_players_flag,
    non_negative_int,
    one_line_errors,
    options_from_args,
    positive_float,
    positive_int,
)
from diloti.core.errors import InvalidPositionError
from diloti.core.state import State


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "analyse", help="the expert's ranking of the legal moves in a position",
        description="Rank every legal move of the seat to move by the expert's search. POSITION is a JSON "
                    "position file, '-' for JSON on stdin, or a compact one-line position (docs/NOTATION.md); "
                    "without it a new round is dealt from --seed. Each estimate is the expected round points "
                    "difference (the mover's side minus the other) the move leads to. Only the mover's view "
                    "is given to the search: hidden cards in the position do not change the answer.",
    ))
    p.add_argument("position", nargs="?", default=None, metavar="POSITION")
    p.add_argument("--seed", type=non_negative_int, default=0, help="deal seed when no POSITION is given (default 0)")
    p.add_argument("--dealer", type=non_negative_int, default=0, help="dealer of the dealt round (default 0)")
    p.add_argument("--iterations", type=positive_int, default=800, metavar="N",
                   help="playouts shared by all moves (default 800)")
    p.add_argument("--seconds", type=positive_float, default=None, metavar="S",
                   help="time cap (default: none, so the answer is reproducible)")
    p.add_argument("--search-seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument("--json", action="store_true", help="print the ranking as JSON")
    add_players_flag(p)
    add_option_flags(p)
    p.set_defaults(func=run)


def load_position(arg: str) -> State:
    """A position from a JSON file, '-' (stdin) or compact text."""
    from diloti.formats.position import parse_position, position_from_json

    if arg == "-":
        return position_from_json(sys.stdin.read())
    if os.path.exists(arg):
        with open(arg, encoding="utf-8") as f:
            text = f.read()
        try:
            return position_from_json(text)
        except InvalidPositionError as exc:
            raise InvalidPositionError(f"{arg}: {exc}") from None
    if arg.lstrip().startswith("{"):
        return position_from_json(arg)
    try:
        return parse_position(arg)
    except InvalidPositionError as exc:
        raise InvalidPositionError(f"{exc} (POSITION is a JSON file, '-', or a compact position)") from None


def run(args: argparse.Namespace) -> int:
    if args.position is None:
        state = State.new(args.players, options_from_args(args), dealer=args.dealer % args.players, seed=args.seed)
    else:
        state = load_position(args.position)
    if state.is_over:
        raise InvalidPositionError("the round in this position is over: there is no move to analyse")
    view = state.view(state.turn)
    ranked = rank_moves(view, seed=args.search_seed, iterations=args.iterations, seconds=args.seconds)
    if args.json:
        print(json.dumps({"seat": view.seat, "estimate": "expected round points difference for the mover's side",
                          "moves": [{"move": str(m), "estimate": v} for m, v in ranked]}, indent=2))
        return 0
    print(f"{state.describe()}")
    print(f"seat {view.seat} to move; expected round points difference for its side (best first):")
    for line in format_ranking(ranked):
        print("  " + line)
    return 0
