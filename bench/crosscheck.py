"""A long check (not a test): the engine's move generator against the brute-force reference.

Usage: .venv/bin/python bench/crosscheck.py [--seconds S] [--seed N] [--max-items K]

Plays random games (each rule option on with probability 1/2, 2 or 4 players,
and a policy that plays at random, prefers declarations or prefers lays, to
build varied tables) and, at every position with at most ``--max-items`` loose
cards and piles, compares the legal moves with ``tests/reference.py``, which
enumerates every subset and partition straight from RULES.md. Prints what it
checked and the first position of each option mix that differs; exits 1 on
any difference. The test suite runs a short version of the same check.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from diloti.core.moves import LAY
from diloti.games.diloti.state import State
from reference import reference_moves
from test_table import random_options


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=600.0, help="how long to check (default 600)")
    ap.add_argument("--seed", type=int, default=5000, help="seed of the first game (default 5000)")
    ap.add_argument("--max-items", type=int, default=7, help="largest table checked (default 7)")
    args = ap.parse_args()
    end = time.time() + args.seconds
    checked = games = 0
    bad: dict[tuple[str, ...], str] = {}
    seed = args.seed
    while time.time() < end:
        rng = random.Random(seed)
        opts = random_options(rng, 0.5)
        s = State.new(rng.choice([2, 4]), opts, dealer=rng.randrange(2), seed=seed)
        policy = rng.choice(["random", "declare", "lay"])
        while not s.is_over:
            fast = s.legal_moves()
            if len(s.table) + len(s.declarations) <= args.max_items:
                ref = reference_moves(s)
                checked += 1
                if len(fast) != len(set(fast)) or set(fast) != ref:
                    bad.setdefault(tuple(sorted(opts.changed())), (
                        f"seed {seed} {s.describe()}: only the engine {[str(m) for m in set(fast) - ref]}, "
                        f"only the reference {[str(m) for m in ref - set(fast)]}"))
            pick = ([m for m in fast if m.is_declaration] if policy == "declare"
                    else [m for m in fast if m.kind == LAY] if policy == "lay" else [])
            s.push(rng.choice(pick if pick and rng.random() < 0.6 else fast))
        games += 1
        seed += 1
    print(f"{games} games (seeds {args.seed}..{seed - 1}), {checked} positions checked, "
          f"{len(bad)} option mixes with differences")
    for mix, where in bad.items():
        print(f"  {', '.join(mix) or 'standard rules'}: {where}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
