"""Benchmark: environment steps per second of the research wrappers, with random agents.

Usage: .venv/bin/python bench/envs.py [--game diloti|xeri|kontsina] [--seconds S] [--repeat N] [--players 2|3|4]
                            [--only NAME ...] [--cpu-clock]
       .venv/bin/python bench/envs.py --search-moves [--rounds N]

Each figure is the median of ``--repeat`` runs of about ``--seconds`` each, in
one process (the engine's shape cache warms up in the first runs, as in any
long training run). A *step* is one action id taken by an agent: a head, an
item or STOP; chance outcomes (OpenSpiel) are counted apart.

- ``engine``: random playouts with full move generation (``diloti bench``'s loop).
- ``pettingzoo``: ``pettingzoo_env.env()`` with PettingZoo's wrappers, the usual
  ``agent_iter``/``last``/``step`` loop, a random legal action from the mask.
- ``pettingzoo-raw``: the same loop on ``raw_env`` (no wrappers).
- ``gymnasium``: ``DilotiEnv(opponent="random")``; the agent's steps (the
  opponent's moves are played inside ``step``).
- ``openspiel``: ``python_diloti`` states, random decisions and chance outcomes.

``--game xeri`` or ``--game kontsina`` measures the same for a parent game (its
hands, ``game=`` environments and ``python_xeri`` / ``python_kontsina``).

``--search-moves`` looks for large legal-move lists: rounds where the seat to
move lays a card whenever it can (the table grows), over option mixes, and
prints the largest count found with its position.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from diloti.cli.bench import playout_rate
from diloti.core.moves import LAY
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State

Run = Callable[[float, int], tuple[int, float]]  # (seconds, seed) -> (steps, elapsed)
clock: Callable[[], float] = time.perf_counter  # --cpu-clock: time.process_time


def engine(players: int, game: str) -> Run:
    from diloti.games import find_game

    options = find_game(game).options()

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rate, actions, _ = playout_rate(players, options, seconds, seed, clock, game=game)
        return actions, actions / rate
    return run


def pettingzoo(players: int, wrapped: bool, game: str) -> Run:
    from diloti.envs import pettingzoo_env

    def run(seconds: float, seed: int) -> tuple[int, float]:
        make = pettingzoo_env.env if wrapped else pettingzoo_env.raw_env
        env = make(players=players, game=game)
        rng = random.Random(seed)
        steps, start = 0, clock()
        end = start + seconds
        episode = 0
        while clock() < end:
            env.reset(seed=seed * 100_000 + episode)
            episode += 1
            for _ in env.agent_iter():
                obs, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps, clock() - start
    return run


def gymnasium_env(players: int, game: str) -> Run:
    from diloti.envs.gym_env import DilotiEnv

    def run(seconds: float, seed: int) -> tuple[int, float]:
        env = DilotiEnv(opponent="random", players=players, game=game)
        rng = random.Random(seed)
        steps, start = 0, clock()
        end = start + seconds
        episode = 0
        while clock() < end:
            obs, _ = env.reset(seed=seed * 100_000 + episode)
            episode += 1
            while True:
                legal = np.flatnonzero(obs["action_mask"])
                obs, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
                if terminated or truncated:
                    break
        return steps, clock() - start
    return run


def openspiel(players: int, chance_counts: list[int], name: str) -> Run:
    import pyspiel

    import diloti.envs.openspiel_game  # noqa: F401 - registers the three games

    game = pyspiel.load_game(f"python_{name}", {"players": players})

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        steps = chance = 0
        start = clock()
        end = start + seconds
        while clock() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    chance += 1
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    steps += 1
        chance_counts.append(chance)
        return steps, clock() - start
    return run


def measure(run: Run, seconds: float, repeat: int, seed: int) -> tuple[float, list[float]]:
    rates = []
    for i in range(repeat):
        steps, elapsed = run(seconds, seed + i)
        rates.append(steps / elapsed)
    return statistics.median(rates), rates


def search_moves(rounds: int, seed: int) -> dict[str, object]:
    """Rounds in which every seat lays whenever it can: the largest legal-move count seen."""
    mixes = [Options(), Options(liberal_groups=True, liberal_raise=True, liberal_capture=True, self_raise=True)]
    rng = random.Random(seed)
    best: dict[str, object] = {"moves": 0}
    for r in range(rounds):
        options = mixes[r % len(mixes)]
        players = 2 if r % 4 < 2 else 4
        s = State.new(players, options, rng.randrange(players), seed=rng.randrange(2**62))
        while not s.is_over:
            if len(s.table) >= 20:  # past this one move list can hold millions of moves (seconds to list)
                break
            moves = s.legal_moves()
            if len(moves) > int(best["moves"]):  # type: ignore[call-overload]
                best = {"moves": len(moves), "players": players, "options": options.to_text() or "standard",
                        "position": s.describe()}
            lays = [m for m in moves if m.kind == LAY]
            s.push(rng.choice(lays) if lays and rng.random() < 0.95 else rng.choice(moves))
    return best


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--players", type=int, default=2, choices=[2, 3, 4], help="3: Kontsina only")
    p.add_argument("--game", default="diloti", choices=["diloti", "xeri", "kontsina"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", nargs="*", choices=["engine", "pettingzoo", "pettingzoo-raw", "gymnasium", "openspiel"])
    p.add_argument("--json", action="store_true")
    p.add_argument("--cpu-clock", action="store_true",
                   help="time by the process CPU time (time.process_time): steadier on a shared machine")
    p.add_argument("--search-moves", action="store_true", help="search for large legal-move lists instead")
    p.add_argument("--rounds", type=int, default=200, help="rounds for --search-moves")
    args = p.parse_args(argv)
    if args.search_moves:
        print(json.dumps(search_moves(args.rounds, args.seed), indent=1))
        return 0
    global clock
    if args.cpu_clock:
        clock = time.process_time
    chance: list[int] = []
    runs: dict[str, Run] = {
        "engine": engine(args.players, args.game),
        "pettingzoo": pettingzoo(args.players, wrapped=True, game=args.game),
        "pettingzoo-raw": pettingzoo(args.players, wrapped=False, game=args.game),
        "gymnasium": gymnasium_env(args.players, args.game),
        "openspiel": openspiel(args.players, chance, args.game),
    }
    out = {}
    for name, run in runs.items():
        if args.only and name not in args.only:
            continue
        median, rates = measure(run, args.seconds, args.repeat, args.seed)
        out[name] = round(median)
        if not args.json:
            spread = ", ".join(f"{r:,.0f}" for r in rates)
            print(f"{name:15} {median:10,.0f} steps/s   (runs: {spread})")
    if not args.json and chance:
        print(f"{'':15} openspiel chance outcomes besides: {statistics.median(chance) / args.seconds:,.0f}/s")
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
