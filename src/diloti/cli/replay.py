"""``diloti replay``: step through a saved game record, validating it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from diloti.cli import CliError
from diloti.cli.common import join_words, one_line_errors, other_games, positive_int
from diloti.core.cards import NAMES
from diloti.core.registry import default_game, find_game
from diloti.formats.games import formats_of, load_any_record


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "replay", help="step through a saved game record",
        description="Replay a game record move by move (Enter for the next move, q to stop), checking every "
                    "move and score as it goes. Problems are reported with their line numbers; what could be "
                    "read is still replayed. Exit status 1 if the record has problems.",
    ))
    p.add_argument("record", metavar="RECORD",
                   help=f"the record file (of any game: its Game header names "
                        f"{join_words([g.title for g in other_games()], 'or')}; none: {default_game().title})")
    p.add_argument("--all", action="store_true", help="print the whole game without waiting for Enter")
    p.add_argument("--round", type=positive_int, metavar="N", help="only round N")
    p.add_argument("--positions", action="store_true", help="print the table and every hand before each move")
    p.set_defaults(func=run)


def _show_state(state: Any) -> None:
    table = " ".join([NAMES[c] for c in state.table] + [str(p) for p in getattr(state, "declarations", ())]) or "-"
    hands = " | ".join(f"s{i}: " + (" ".join(NAMES[c] for c in h) or "-") for i, h in enumerate(state.hands))
    print(f"     table {table}; {hands}; stock {state.stock_size}")


def _start(args: argparse.Namespace, rec: Any, what: str, named: bool) -> range:
    """Print the record's problems and its headline; the indices of the rounds (hands) to replay."""
    if not rec.rounds and not rec.errors:
        raise CliError(f"record {args.record!r}: no {what} in it (is it a game record?)")
    for line, msg in rec.errors:
        print(f"{args.record}:{line}: {msg}", file=sys.stderr)
    names = rec.names or [f"seat {s}" for s in range(rec.players)]
    print(f"{rec.headers.get('Event', rec.game)}, {rec.headers.get('Date', '?')}: "
          f"{rec.game + ', ' if named else ''}{rec.players} players ({', '.join(names)}), "
          f"options: {rec.options.changed() or 'standard'}, seed {rec.seed}")
    if args.round is None:
        return range(len(rec.rounds))
    if args.round > len(rec.rounds):
        raise CliError(f"invalid --round {args.round}: the record has {len(rec.rounds)} readable {what}s")
    return range(args.round - 1, args.round)


def _quit_asked() -> bool:
    """Wait for Enter between moves; True if the reader typed q (or the input ended)."""
    try:
        answer = input()
    except EOFError:
        answer = "q"
    return answer.strip().lower() in ("q", "quit")


def run(args: argparse.Namespace) -> int:
    rec = load_any_record(args.record)
    info = find_game(rec.game)
    look = formats_of(rec.game).TERMINAL  # the game's words for a move and a round's end
    word = info.round_word
    indices = _start(args, rec, word, info.named)
    interactive = not args.all and sys.stdin.isatty()
    totals = [0] * info.sides(rec.players, rec.options)
    for idx in indices:
        r = rec.rounds[idx]
        print(f"=== {word} {r.number}, dealer seat {r.dealer} ===")
        moved = False
        for n, (state, seat, move) in enumerate(rec.replay(idx), 1):
            if args.positions:
                _show_state(state)
            print(f"{n:3}. s{seat} {move!s:<24} {look.describe(state.view(seat), move)}")
            moved = True
            if interactive and _quit_asked():
                return 1 if rec.errors else 0
        for line in look.replay_end(r, totals, moved):
            print("  " + line)
    if args.round is None:
        print(f"result {rec.result}, score {'-'.join(map(str, rec.scores))}"
              + (f" ({rec.termination})" if rec.termination else ""))
    if rec.errors:
        print(f"{len(rec.errors)} problem(s) in {args.record}; replayed what could be read", file=sys.stderr)
        return 1
    return 0
