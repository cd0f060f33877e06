"""Two players compared through a common opponent met on the same deals: A against C and B against C.

Usage: .venv/bin/python bench/common_opponent.py A_vs_C.jsonl B_vs_C.jsonl

Both files are ``diloti tournament --results`` files of the same seed, so game ``i`` of one was dealt as game
``i`` of the other (the files' ``game_seed`` fields are checked). For every duplicate pair in both, the
second player's points a round over C minus the first's is one value; the mean of those values, with its
normal 95% interval over the pairs, is how far B's edge over C exceeds A's. It is weaker evidence than a match
of A against B: the deals are shared but not the games (C's replies, and so the rest of each round, differ),
and it says nothing C cannot tell apart. Also printed: each player's points a round over C and games won, on
the pairs both files hold.

>>> from diloti.match.tournament import GameResult
>>> g = lambda i, a, b: GameResult(i, i % 2, a, b, 4, "a" if a > b else "b", 1.0, 96, game_seed=i // 2)
>>> edge(common_pairs([g(0, 40, 20), g(1, 30, 30)], [g(0, 50, 10), g(1, 30, 30)]))
Interval(mean=2.5, low=2.5, high=2.5)
"""

from __future__ import annotations

import argparse
import os
import sys
from statistics import fmean

from diloti.match.sequential import read_results
from diloti.match.tournament import GameResult, Interval, TournamentError, pairs_of

Pair = list[GameResult]  # the two games of one duplicate pair


def common_pairs(first: list[GameResult], second: list[GameResult]) -> list[tuple[Pair, Pair]]:
    """The duplicate pairs both files hold, each as (the first file's two games, the second's)."""
    a, b = pairs_of(first, whole=True), pairs_of(second, whole=True)
    out = []
    for p in sorted(set(a) & set(b)):
        if {g.game_seed for g in a[p]} != {g.game_seed for g in b[p]}:
            raise TournamentError(f"pair {p} was dealt differently in the two files: not the same seed")
        out.append((a[p], b[p]))
    return out


def _ppr(pair: Pair) -> float:
    return fmean(g.ppr for g in pair)


def edge(pairs: list[tuple[Pair, Pair]]) -> Interval:
    """The second player's points a round over the common opponent minus the first's, over ``pairs``."""
    return Interval.of([_ppr(b) - _ppr(a) for a, b in pairs])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("first", help="A's results against C (a tournament --results file)")
    ap.add_argument("second", help="B's results against C, from the same seed")
    args = ap.parse_args(argv)
    for path in (args.first, args.second):
        if not os.path.isfile(path):
            print(f"common_opponent: results file {path!r}: no such file", file=sys.stderr)
            return 2
    try:
        pairs = common_pairs(read_results(args.first), read_results(args.second))
    except TournamentError as exc:
        print(f"common_opponent: {exc}", file=sys.stderr)
        return 2
    if len(pairs) < 2:
        print(f"common_opponent: {len(pairs)} pair(s) in both files: too few to compare", file=sys.stderr)
        return 2
    for k, name in enumerate((args.first, args.second)):
        own = Interval.of([_ppr(pair[k]) for pair in pairs])
        won = sum(g.winner == "a" for pair in pairs for g in pair[k])
        print(f"{name}: {won} of {2 * len(pairs)} games won, {own.mean:+.2f} [{own.low:+.2f}, {own.high:+.2f}] "
              "points a round over the common opponent")
    diff = edge(pairs)
    print(f"{len(pairs)} pairs in both: the second's edge minus the first's {diff.mean:+.2f} [{diff.low:+.2f}, "
          f"{diff.high:+.2f}] points a round")
    return 0


if __name__ == "__main__":
    sys.exit(main())
