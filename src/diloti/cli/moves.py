"""``diloti moves``: list the legal moves of a position in notation."""

from __future__ import annotations

import argparse
import json
import sys
from itertools import islice

from diloti.cli.common import load_any_position_arg, one_line_errors, positive_int
from diloti.core.phase import Phase
from diloti.formats.games import describe_move


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "moves", help="list the legal moves of a position",
        description="Print the legal moves of a position of any game (JSON interchange format, which names "
                    "its game, or Diloti's compact line; given "
                    "on the command line, in a file, or on standard input with '-'), one per line in "
                    "canonical notation.",
    ))
    p.add_argument("position", metavar="POSITION",
                   help="the position (JSON or compact), a file holding one, or '-' for standard input")
    p.add_argument("--describe", action="store_true", help="add a readable, declaration-aware form of each move")
    p.add_argument("--json", action="store_true", help="print a JSON list of the moves instead")
    p.add_argument("--limit", type=positive_int, default=None, metavar="N",
                   help="print at most N moves (a table grown by lays can have millions; they are listed one "
                        "at a time either way, in bounded memory)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    state = load_any_position_arg(args.position)
    moves = islice(state.generate_legal_moves(), args.limit)  # lazy: a large table's moves one at a time
    if args.json:
        out = sys.stdout
        out.write("[")
        for i, m in enumerate(moves):
            out.write((", " if i else "") + json.dumps(str(m)))
        out.write("]\n")
        return 0
    shown = 0
    for m in moves:
        print(f"{m!s:<28} {describe_move(state, m)}" if args.describe else str(m))
        shown += 1
    if not shown:
        print(f"no legal moves (phase {Phase(state.phase).label})", file=sys.stderr)
    return 0
