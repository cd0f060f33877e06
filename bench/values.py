"""Benchmark: what engine values cost to copy and pickle (replay buffers, worker processes).

Usage: .venv/bin/python bench/values.py [--positions N] [--seed S]

Takes N positions from random 2-player rounds (mid-round: 10 to 30 moves in,
with the undo stack) and prints the median pickled size of a ``State``, a
``View``, a ``Game``, and the median time of ``copy.copy``, ``copy.deepcopy``,
``pickle.dumps``/``loads`` of a ``State``. Figures come from here, never from tests.
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import statistics
import time
from collections.abc import Callable

from diloti.games.diloti.game import Game
from diloti.games.diloti.state import State


def per_call(fn: Callable[[], object], repeat: int = 200) -> float:
    """Median seconds of one call over ``repeat`` calls (timed in batches of 10)."""
    times = []
    for _ in range(repeat // 10):
        start = time.perf_counter()
        for _ in range(10):
            fn()
        times.append((time.perf_counter() - start) / 10)
    return statistics.median(times)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = random.Random(args.seed)
    states = []
    for _ in range(args.positions):
        s = State.new(2, seed=rng.randrange(2**63))
        for _ in range(rng.randrange(10, 31)):
            s.push(rng.choice(s.legal_moves()))
        states.append(s)
    game = Game(2, seed=args.seed)
    for _ in range(20):
        game.play(rng.choice(game.state.legal_moves()))
    sizes = [len(pickle.dumps(s)) for s in states]
    view_sizes = [len(pickle.dumps(s.view(s.turn))) for s in states]
    rows = [
        ("pickled State (bytes)", statistics.median(sizes), max(sizes)),
        ("pickled View (bytes)", statistics.median(view_sizes), max(view_sizes)),
        ("pickled Game, 20 moves in (bytes)", len(pickle.dumps(game)), len(pickle.dumps(game))),
    ]
    for name, fn in [("copy.copy(State)", copy.copy), ("copy.deepcopy(State)", copy.deepcopy),
                     ("pickle.dumps(State)", pickle.dumps),
                     ("pickle.loads(dumps(State))", lambda s: pickle.loads(pickle.dumps(s)))]:
        t = [per_call(lambda s=s, fn=fn: fn(s)) * 1e6 for s in states]  # type: ignore[misc]
        rows.append((f"{name} (µs)", statistics.median(t), max(t)))
    print(f"{'':36} {'median':>10} {'max':>10}   ({args.positions} positions, seed {args.seed})")
    for name, med, top in rows:
        print(f"{name:36} {med:10,.1f} {top:10,.1f}")


if __name__ == "__main__":
    main()
