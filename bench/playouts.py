"""Benchmark: the expert's playouts per second and time per move.

Usage: .venv/bin/python bench/playouts.py [--seconds S] [--iterations N] [--seed S]

Plays games of expert against heuristic (expert with no time cap) and prints
playouts/s, actions/s inside rollouts, and the mean and largest time per
expert move. Speed figures come from here, never from tests.
"""

from __future__ import annotations

import argparse
import random
import time

from diloti.ai.expert import ExpertPlayer
from diloti.ai.part import SearchSettings
from diloti.ai.search import playout
from diloti.games.diloti.game import Game
from diloti.games.diloti.players import rollouts
from diloti.games.diloti.players.rollout import rollout_move
from diloti.games.diloti.players.sampler import Worlds
from diloti.games.diloti.state import State


def playout_rate(seconds: float, seed: int, deals: int) -> float:
    """Playouts per second (each on a freshly sampled world) from positions across rounds."""
    rng = random.Random(seed)
    views = []
    for _ in range(40):
        s = State.new(seed=rng.randrange(10**9))
        for _ in range(rng.randrange(40)):
            s.push(rollout_move(s, rng))
        views.append(Worlds(s.view(s.turn)))  # as the expert does: the shared work once a view
    policy = rollouts(SearchSettings())  # the expert's rollouts, as the search resolves them once a decision
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        worlds = views[n % len(views)]
        playout(worlds.sample(rng), worlds.view.side, rng, policy, deals=deals)
        n += 1
    return n / (time.perf_counter() - start)


def move_times(iterations: int, games: int, seed: int) -> list[float]:
    times = []
    from diloti.ai.heuristic import HeuristicPlayer

    for g in range(games):
        game = Game(2, seed=seed + g)
        bots = [ExpertPlayer(seed=g, iterations=iterations, seconds=None), HeuristicPlayer(seed=g)]
        while not game.is_over and len(times) < 400:
            seat = game.state.turn
            view = game.view(seat)
            t = time.perf_counter()
            move = bots[seat].choose(view)
            if seat == 0:
                times.append(time.perf_counter() - t)
            game.push(move)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="how long to measure playouts")
    ap.add_argument("--iterations", type=int, default=300, help="the expert's playouts per move")
    ap.add_argument("--games", type=int, default=1, help="games for the time per move")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for deals in (1, 4):
        rate = playout_rate(args.seconds, args.seed, deals)
        label = "to the deal's end (default)" if deals == 1 else "to the round's end"
        print(f"playouts/s, rollouts {label}: {rate:.0f}")
    times = move_times(args.iterations, args.games, args.seed)
    times.sort()
    print(f"expert ({args.iterations} playouts, no cap): {len(times)} moves, mean {sum(times) / len(times):.3f} s, "
          f"median {times[len(times) // 2]:.3f} s, max {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
