"""Benchmark: OpenSpiel ``clone()`` of mid-round ``python_diloti`` states, per CPU second, on any source tree.

Usage: .venv/bin/python bench/openspiel_clone.py [--seconds S] [--states N]

It uses only pyspiel's API and ``diloti.envs.openspiel_game`` (which registers ``python_diloti``), so it
runs on this tree and on an older one alike, e.g. the code of the day before the compiled core::

    mkdir /tmp/filing && git archive a454abd^ src | tar -x -C /tmp/filing
    DILOTI_PURE=1 PYTHONPATH=/tmp/filing/src .venv/bin/python bench/openspiel_clone.py

The states: ``--states`` games of random actions (chance outcomes and decisions), each stopped after 5 to 40
actions, its legal actions asked (what a search does before it clones). It prints JSON, the median of three
runs of ``--seconds`` each: ``{"clone": clones per CPU second}``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import pyspiel

import diloti.envs.openspiel_game  # noqa: F401 - registers python_diloti


def states(n: int, seed: int) -> list[object]:
    game = pyspiel.load_game("python_diloti")
    rng = random.Random(seed)
    out: list[object] = []
    while len(out) < n:
        s = game.new_initial_state()
        for _ in range(rng.randrange(5, 41)):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            if not s.is_chance_node():
                s.legal_actions()
            out.append(s)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="OpenSpiel clone() of mid-round python_diloti states per CPU second.")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds a run (default 2)")
    parser.add_argument("--states", type=int, default=300, help="states cloned in turn (default 300)")
    args = parser.parse_args()
    if args.seconds <= 0 or args.states <= 0:
        parser.error("--seconds and --states must be positive")
    pool = states(args.states, 7)
    rates = []
    for _ in range(3):
        done, start = 0, time.process_time()
        while time.process_time() - start < args.seconds:
            for s in pool:
                s.clone()  # type: ignore[attr-defined]
            done += len(pool)
        rates.append(done / (time.process_time() - start))
    print(json.dumps({"clone": round(statistics.median(rates))}))


if __name__ == "__main__":
    main()
