"""How many playouts a master move gets in its budget, and at what rate per CPU second.

Plays greedy games from fixed seeds and, at every third decision with two or more legal moves, runs
the master's search (``MasterPlayer.estimates``) with the budget given; prints the median and mean
playouts a move (the candidates' visits summed) and the median playouts per CPU second of the
searching thread. Run it on two sources (``PYTHONPATH=/path/to/src``, ``DILOTI_PURE=1`` for the
pure core) to see which budget of one searches as much as another's: docs/STRENGTH.md (*The
default budget*) uses it to find the compiled master's budget that searches as much as the pure
master's second did.

    .venv/bin/python bench/master_budget.py --seconds 1 --positions 30 --cpu
    DILOTI_PURE=1 PYTHONPATH=/tmp/before/src .venv/bin/python bench/master_budget.py --seconds 1 --positions 30

It also runs on sources from before the games' packages and the compiled core (``git archive a454abd^ src``),
the master of the day issue 25 was filed.

``--cpu`` counts the budget on the CPU clock (sources that have the ``cpu`` setting); without it the
budget is wall-clock time, and the rate per CPU second is the figure to compare on a loaded machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

import diloti
from diloti.ai import make_player
from diloti.ai.master import MasterPlayer

try:
    from diloti.games.diloti.state import State
except ImportError:  # sources from before the games' packages (the day before the compiled core, a454abd^)
    from diloti.core.state import State  # type: ignore[import-not-found,no-redef]

CORE = getattr(diloti, "CORE", "pure")  # sources from before the compiled core have only the pure one


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="the master's budget a move (default 1)")
    ap.add_argument("--positions", type=int, default=30, help="how many positions (default 30)")
    ap.add_argument("--cpu", action="store_true", help="count the budget on the CPU clock")
    ap.add_argument("--each", action="store_true", help="also print each position's playouts per CPU second")
    args = ap.parse_args()
    if args.seconds <= 0 or args.positions < 1:
        ap.error(f"--seconds {args.seconds} and --positions {args.positions}: expected a positive budget and "
                 "at least one position")
    greedy = make_player("greedy", seed=1)
    playouts: list[int] = []
    rates: list[float] = []
    seed = 0
    while len(playouts) < args.positions:
        seed += 1
        state = State.new(seed=seed)
        k = 0
        while not state.is_over and len(playouts) < args.positions:
            view = state.view(state.turn)
            if len(view.legal) >= 2 and k % 3 == 0:
                extra = {"cpu": True} if args.cpu else {}
                master = MasterPlayer(seed=seed * 100 + k, seconds=args.seconds, **extra)
                t = time.thread_time()
                estimates = master.estimates(view)
                cpu = time.thread_time() - t
                if len(estimates) >= 2:  # a single candidate is not searched
                    n = sum(e.visits for e in estimates)
                    playouts.append(n)
                    rates.append(n / cpu)
            k += 1
            state.play(greedy.choose(view))
    if args.each:
        print(" ".join(f"{r:.0f}" for r in rates))
    print(f"core {CORE}, budget {args.seconds:g} s ({'CPU' if args.cpu else 'wall'} clock), {len(playouts)} "
          f"positions: playouts a move median {statistics.median(playouts):.0f}, mean "
          f"{statistics.mean(playouts):.0f}; playouts per CPU second median {statistics.median(rates):.0f}")


if __name__ == "__main__":
    main()
