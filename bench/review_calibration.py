"""Benchmark data: how many expected points the review finds lost, to calibrate its marks.

Usage: nice -n 10 .venv/bin/python bench/review_calibration.py [--rounds N] [--worlds W] [--levels A,B,...]

For each level, plays N rounds of 2-player Diloti between two players of that level (self-play), and
reviews every decision of both seats with the master at ``--worlds`` worlds a decision
(:func:`diloti.ai.review.review_decision`). Prints, for each level, the percentiles of the points lost over
the judged decisions and how often each mark would be given; then the **noise**: every judged decision is
reviewed a second time with another seed, and the move the first review called best is scored by the
second one (a truly best move would lose 0 there: what it loses is the search's own noise). The marks'
thresholds stand above most of that noise (docs/REVIEW.md).
"""

from __future__ import annotations

import argparse
import time

from diloti.ai import make_player
from diloti.ai.review import BLUNDER, DEFAULT_WORLDS, INACCURACY, MISTAKE, Point, accuracy_of, review_decision
from diloti.core.moves import Move
from diloti.games.diloti.state import State


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    ap.add_argument("--levels", default="random,greedy,heuristic,expert:iterations=200,seconds=none")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    noise: list[float] = []
    start = time.perf_counter()
    reviewed = 0
    levels = []
    for part in args.levels.split(","):  # "expert:iterations=200,seconds=none" holds commas of its own
        if "=" in part and ":" not in part and levels:
            levels[-1] += "," + part
        else:
            levels.append(part)
    for level in levels:
        lost: list[float] = []
        bots = [make_player(level, seed=args.seed + s) for s in range(2)]
        for r in range(args.rounds):
            s = State.new(2, None, r % 2, seed=args.seed * 1_000_003 + r)
            ply = 0
            while not s.is_over:
                view = s.view(s.turn)
                move: Move = bots[s.turn].choose(view)
                if len(view.legal) > 1:
                    a = review_decision(Point(r + 1, ply, ply + 1, view, move), args.worlds, args.seed)
                    reviewed += 1
                    if a.judged:
                        lost.append(a.lost)
                        best = Move.parse(a.best)
                        b = review_decision(Point(r + 1, ply, ply + 1, view, best), args.worlds, args.seed + 7)
                        noise.append(b.lost)
                s.push(move)
                ply += 1
        n = len(lost)
        marks = [sum(INACCURACY <= x < MISTAKE for x in lost), sum(MISTAKE <= x < BLUNDER for x in lost),
                 sum(x >= BLUNDER for x in lost)]
        print(f"{level}: {n} judged decisions; points lost p50 {pct(lost, .5):.2f} p75 {pct(lost, .75):.2f} "
              f"p90 {pct(lost, .9):.2f} p95 {pct(lost, .95):.2f} p99 {pct(lost, .99):.2f}; "
              f"inaccuracy {100 * marks[0] / n:.1f}% mistake {100 * marks[1] / n:.1f}% "
              f"blunder {100 * marks[2] / n:.1f}%; accuracy {sum(map(accuracy_of, lost)) / n:.1f}", flush=True)
    print(f"noise (best move of one seed scored by another): {len(noise)} decisions; p50 {pct(noise, .5):.2f} "
          f"p90 {pct(noise, .9):.2f} p95 {pct(noise, .95):.2f} p99 {pct(noise, .99):.2f}; "
          f"over the inaccuracy line {100 * sum(x >= INACCURACY for x in noise) / max(1, len(noise)):.1f}%, "
          f"over the mistake line {100 * sum(x >= MISTAKE for x in noise) / max(1, len(noise)):.1f}%")
    print(f"{reviewed} decisions reviewed (+ as many again for the noise) in {time.perf_counter() - start:.0f} s, "
          f"worlds {args.worlds}")


if __name__ == "__main__":
    main()
