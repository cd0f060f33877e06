"""Benchmark: time per move of any player, with 2 and 4 players.

Usage: .venv/bin/python bench/movetime.py SPEC [SPEC ...] [--moves 60] [--players 2 4] [--seed 1]

Each SPEC (``master``, ``expert``, ``master:seconds=0.5`` ...) plays whole rounds
in every seat against ``heuristic`` partners and opponents until it has made
``--moves`` decisions (a forced move, the only legal one, is not counted); its
time per decision is printed as median, p95 and max, in seconds. The wall
clock is measured, so on a loaded machine a search that runs to a fixed number
of playouts takes longer, and one that runs to a time budget plays fewer.
"""

from __future__ import annotations

import argparse
import time

from diloti.ai import make_player
from diloti.core.phase import Phase
from diloti.games.diloti.players.knowledge import decide_redeal
from diloti.games.diloti.state import State


def times(spec: str, players: int, moves: int, seed: int) -> list[float]:
    """Seconds per decision of ``spec`` (at seat 0 and its partner) against heuristic."""
    out: list[float] = []
    r = 0
    while len(out) < moves:
        s = State.new(players, seed=seed * 10_007 + r)
        mine = [seat % 2 == r % 2 for seat in range(players)]  # the spec's seats (and partner); heuristic the rest
        bots = [make_player(spec if mine[seat] else "heuristic", seed + seat, measurement=True)
                for seat in range(players)]
        while not s.is_over and len(out) < moves:
            v = s.view(s.turn)
            if v.phase == Phase.DECIDE:
                s.push(decide_redeal(v))
                continue
            bot = bots[s.turn]
            start = time.perf_counter()
            m = bot.choose(v)
            took = time.perf_counter() - start
            if mine[s.turn] and len(v.legal) > 1:
                out.append(took)
            s.push(m)
        r += 1
    return out


def quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``xs``.

    >>> quantile([3.0, 1.0, 2.0], 0.5)
    2.0
    """
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="+", metavar="SPEC")
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=(2, 4))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{'player':<40} {'players':>7} {'moves':>5} {'median':>8} {'p95':>8} {'max':>8}")
    for spec in args.specs:
        for n in args.players:
            t = times(spec, n, args.moves, args.seed)
            print(f"{spec:<40} {n:>7} {len(t):>5} {quantile(t, 0.5):8.4f} {quantile(t, 0.95):8.4f} {max(t):8.4f}")


if __name__ == "__main__":
    main()
