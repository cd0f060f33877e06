"""``diloti perft``: count move sequences from positions (checks move generation)."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass

from diloti.cli import CliError
from diloti.cli.common import (
    add_game_flag,
    add_players_flag,
    load_any_position_arg,
    non_negative_int,
    one_line_errors,
    options_from_args,
    read_text_file,
)
from diloti.core.errors import DilotiError
from diloti.core.interface import RoundRules
from diloti.core.perft import divide, perft
from diloti.core.registry import find_game
from diloti.formats.games import load_any_position, position_from_dict


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "perft", help="count legal move sequences to a depth (checks the move generator)",
        description="perft(p, 0) = 1; perft(p, d) sums perft over every legal move's result at d-1. "
                    "Positions are JSON (the interchange format) or compact lines, one per line; "
                    "one count is printed per position, in order. A line may also be a test case, "
                    'as in tests/fixtures/perft.jsonl: {"name": ..., "position": {...}, "perft": [d1, d2, ...]}; '
                    "its name is printed after the count (tab-separated) and the count is checked against "
                    "the expected one for DEPTH (exit status 1 on a difference). A deal from the stock happens "
                    "inside the move that empties the last hand; a finished round has no moves. A JSON position "
                    "names its game (\"game\": \"xeri\"; none: diloti), as in tests/fixtures/perft-xeri.jsonl; "
                    "--position deal:SEED counts from a fresh deal of --game.",
    ))
    p.add_argument("depth", type=non_negative_int, metavar="DEPTH", help="number of moves (0 or more)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--json", metavar="FILE", help="file of positions, one per line ('-' for standard input)")
    src.add_argument("--position", metavar="POSITION",
                     help="one position (JSON or compact) on the command line, or a file holding one; "
                          "deal:SEED is the first position of a hand of --game dealt from SEED (dealer seat 0)")
    add_game_flag(p)
    add_players_flag(p)
    p.add_argument("--divide", action="store_true",
                   help="for the first position, print each legal move with its count, then the total")
    p.add_argument("--time", action="store_true", help="print the time taken and nodes per second to stderr")
    p.set_defaults(func=run)


@dataclass
class Case:
    """A position to count, with the name and expected counts (by depth, from 1) of a test case."""

    state: RoundRules
    name: str | None = None
    expected: list[int] | None = None


def _case(line: str) -> Case:
    text = line.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict) and "position" in data:  # a test case around the position
            name, expected = data.get("name"), data.get("perft")
            if expected is not None and not (isinstance(expected, list)
                                             and all(isinstance(n, int) for n in expected)):
                raise CliError(f"field 'perft': expected a list of counts, got {expected!r}")
            return Case(position_from_dict(data["position"]), None if name is None else str(name), expected)
    return Case(load_any_position(text))


def read_positions(source: str) -> list[Case]:
    """Positions from a file (or ``-``), one per line; blank lines and ``#`` comments are skipped.

    >>> import json, os, tempfile
    >>> from diloti.games.diloti.state import State
    >>> from diloti.games.diloti.formats.position import format_position, position_to_dict
    >>> case = {"name": "start", "position": position_to_dict(State.new(seed=1)), "perft": [7, 50]}
    >>> with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
    ...     _ = f.write(json.dumps(case) + "\\n# a comment\\n" + format_position(State.new(seed=2)) + "\\n")
    >>> [(c.name, c.expected) for c in read_positions(f.name)]
    [('start', [7, 50]), (None, None)]
    >>> os.remove(f.name)
    """
    if source == "-":
        text = sys.stdin.read()
        name = "<stdin>"
    else:
        text = read_text_file(source, "positions file")
        name = source
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            out.append(_case(line))
        except DilotiError as exc:
            raise CliError(f"{name}:{i}: {exc}") from None
    return out


def run(args: argparse.Namespace) -> int:
    deal = re.fullmatch(r"deal:(\d+)", (args.position or "").strip())
    if deal is not None:
        seed = int(deal.group(1))
        cases = [Case(find_game(args.game).new_state(args.players, options_from_args(args), 0, seed=seed),
                      f"{args.game} deal {seed}")]
    elif args.position is not None:
        cases = [Case(load_any_position_arg(args.position))]
    else:
        cases = read_positions(args.json)
    if not cases:
        raise CliError("no positions to count")
    start = time.perf_counter()
    total = 0
    wrong = 0
    if args.divide:
        rows = divide(cases[0].state, args.depth) if args.depth > 0 else []
        for move, n in rows:
            print(f"{move}: {n}")
        total = sum(n for _, n in rows) if args.depth > 0 else 1
        print(f"total: {total}")
    else:
        for c in cases:
            n = perft(c.state, args.depth)
            total += n
            print(n if c.name is None else f"{n}\t{c.name}", flush=True)
            if c.expected and 1 <= args.depth <= len(c.expected) and c.expected[args.depth - 1] != n:
                wrong += 1
                print(f"perft: {c.name or 'position'}: expected {c.expected[args.depth - 1]} at depth {args.depth}, "
                      f"counted {n}", file=sys.stderr)
    if args.time:
        secs = time.perf_counter() - start
        rate = total / secs if secs > 0 else 0.0
        print(f"perft: {total} leaves in {secs:.3f}s ({rate:,.0f} per second)", file=sys.stderr)
    return 1 if wrong else 0
