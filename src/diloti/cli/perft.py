"""``diloti perft``: count move sequences from positions (checks move generation)."""

from __future__ import annotations

import argparse
import sys
import time

from diloti.cli import CliError
from diloti.cli.common import non_negative_int, one_line_errors
from diloti.core.errors import DilotiError
from diloti.core.perft import divide, perft
from diloti.core.state import State
from diloti.formats.position import load_position


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "perft", help="count legal move sequences to a depth (checks the move generator)",
        description="perft(p, 0) = 1; perft(p, d) sums perft over every legal move's result at d-1. "
                    "Positions are JSON (the interchange format) or compact lines, one per line; "
                    "one count is printed per position, in order. A deal from the stock happens inside "
                    "the move that empties the last hand; a finished round has no moves.",
    ))
    p.add_argument("depth", type=non_negative_int, metavar="DEPTH", help="number of moves (0 or more)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--json", metavar="FILE", help="file of positions, one per line ('-' for standard input)")
    src.add_argument("--position", metavar="POSITION", help="one position (JSON or compact) on the command line")
    p.add_argument("--divide", action="store_true",
                   help="for the first position, print each legal move with its count, then the total")
    p.add_argument("--time", action="store_true", help="print the time taken and nodes per second to stderr")
    p.set_defaults(func=run)


def read_positions(source: str) -> list[State]:
    """Positions from a file (or ``-``), one per line; blank lines and ``#`` comments are skipped."""
    if source == "-":
        text = sys.stdin.read()
        name = "<stdin>"
    else:
        try:
            with open(source, encoding="utf-8") as f:
                text = f.read()
        except UnicodeDecodeError:
            raise CliError(f"{source}: not a text file of positions") from None
        except OSError as exc:
            raise CliError(f"cannot read {source!r}: {exc.strerror or exc}") from None
        name = source
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            out.append(load_position(line))
        except DilotiError as exc:
            raise CliError(f"{name}:{i}: {exc}") from None
    return out


def run(args: argparse.Namespace) -> int:
    states = [load_position(args.position)] if args.position is not None else read_positions(args.json)
    if not states:
        raise CliError("no positions to count")
    start = time.perf_counter()
    total = 0
    if args.divide:
        rows = divide(states[0], args.depth) if args.depth > 0 else []
        for move, n in rows:
            print(f"{move}: {n}")
        total = sum(n for _, n in rows) if args.depth > 0 else 1
        print(f"total: {total}")
    else:
        for s in states:
            n = perft(s, args.depth)
            total += n
            print(n, flush=True)
    if args.time:
        secs = time.perf_counter() - start
        rate = total / secs if secs > 0 else 0.0
        print(f"perft: {total} leaves in {secs:.3f}s ({rate:,.0f} per second)", file=sys.stderr)
    return 0
