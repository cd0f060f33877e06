"""Benchmark data: how a round's points fall between two equal sides, for the win chance of hints.

Usage: .venv/bin/python bench/round_points.py [--rounds N] [--level LEVEL] [--seed S] [--out FILE]

Plays N rounds of Diloti (standard rules) for 2 and for 4 players, every seat the same level (default
heuristic), and writes how often each split (points of one side, points of the other) happened, counted
both ways round (the sides are equal), to ``src/diloti/games/diloti/players/data/round_points.json``:
``{"level": ..., "rounds": N, "2p": [[x, y, count], ...], "4p": [...]}``. :mod:`diloti.ai.winchance`
reads it.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from diloti.ai import make_player
from diloti.games.diloti.state import State

OUT = Path(__file__).resolve().parent.parent / "src/diloti/games/diloti/players/data/round_points.json"


def splits(players: int, rounds: int, level: str, seed: int) -> Counter[tuple[int, int]]:
    seen: Counter[tuple[int, int]] = Counter()
    bots = [make_player(level, seed=seed + s, measurement=True) for s in range(players)]
    for r in range(rounds):
        s = State.new(players, None, r % players, seed=seed * 1_000_003 + r)
        while not s.is_over:
            s.push(bots[s.turn].choose(s.view(s.turn)))
        a, b = s.points()
        seen[a, b] += 1
        seen[b, a] += 1
    return seen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=4000)
    ap.add_argument("--level", default="heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    data: dict[str, object] = {"level": args.level, "rounds": args.rounds, "seed": args.seed}
    for players in (2, 4):
        t = time.perf_counter()
        seen = splits(players, args.rounds, args.level, args.seed)
        data[f"{players}p"] = [[x, y, n] for (x, y), n in sorted(seen.items())]
        mean = sum(x * n for (x, _), n in seen.items()) / sum(seen.values())
        print(f"{players} players: {args.rounds} rounds in {time.perf_counter() - t:.0f} s, {len(seen)} splits, "
              f"mean {mean:.2f} points a side")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"written: {args.out}")


if __name__ == "__main__":
    main()
