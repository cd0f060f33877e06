"""Benchmark: environment steps per second of the research wrappers, with random agents.

Usage: .venv/bin/python bench/envs.py [--game diloti|xeri|kontsina] [--seconds S] [--repeat N] [--players 2|3|4]
                            [--only NAME ...] [--cpu-clock] [--research] [--interleave]
       .venv/bin/python bench/envs.py --tensor-cost [--seconds S]
       .venv/bin/python bench/envs.py --against SRC [--rounds N] [--seconds S] [--only NAME ...]
       .venv/bin/python bench/envs.py --search-moves [--rounds N]

Each figure is the median of ``--repeat`` runs of about ``--seconds`` each, in
one process (the engine's shape cache warms up in the first runs, as in any
long training run); with ``--interleave`` the figures take turns, one run each,
so that a load that comes and goes meets them alike (for ratios on a shared
machine). A *step* is one action id taken by an agent: a head, an item or STOP;
chance outcomes (OpenSpiel) are counted apart.

- ``engine``: random playouts with full move generation (``diloti bench``'s loop).
- ``pettingzoo``: ``pettingzoo_env.env()`` with PettingZoo's wrappers, the usual
  ``agent_iter``/``last``/``step`` loop, a random legal action from the mask.
- ``pettingzoo-raw``: the same loop on ``raw_env`` (no wrappers).
- ``gymnasium``: ``CardGameEnv(opponent="random")``; the agent's steps (the
  opponent's moves are played inside ``step``).
- ``openspiel``: ``python_diloti`` states, random decisions and chance outcomes.
- ``openspiel-clone``: ``clone()`` of mid-round ``python_diloti`` states (clones per second; the states of
  ``bench/core_speed.py``: after 5 to 40 random actions, some in the middle of a move);
  ``openspiel-clone-move``: states in the middle of a move, their legal actions asked (what a search clones).
- ``driver`` and ``driver-bare``: the parts of a step under PettingZoo's loop, for the cost of each part by
  difference: ``driver-bare`` takes random actions through the game's driver (the engine's moves and the
  action tree's decisions, no observation, no mask), ``driver`` also builds the acting seat's observation
  and mask and picks from the mask as the PettingZoo loop does; ``pettingzoo-raw`` adds the AEC
  environment's bookkeeping, ``pettingzoo`` PettingZoo's wrappers.

Issue 52's figures (``--research`` runs them all, side by side, in one process):

- ``batched-1``, ``batched-64``, ``batched-1024``: :class:`diloti.envs.batch.SelfPlayBatch` of N games, one call
  a step for all of them, a random legal action for each game's seat to act drawn from the masks by numpy
  (``sample_actions``); every game's step counted (steps per second of the whole batch, on one core). Its
  backend is the default's (Diloti's C kernel where built: ``diloti.envs.batch``), printed beside the figure;
  ``batched-1-python``, ``batched-64-python``, ``batched-1024-python``: the same with ``backend="python"`` (the
  drivers), for the two side by side in one run.
- ``vector-1024``: :class:`diloti.envs.vector.CardGameVectorEnv` of 1,024 games against the random level
  (the agent's steps, as ``gymnasium``; ``copy=False``).
- ``make-vec``: ``gymnasium.make_vec("diloti/Diloti-v0", num_envs=64, vectorization_mode="sync")``.
- ``openspiel-tensor``: ``openspiel`` with the acting player's information-state tensor at every decision,
  through ``make_observation`` (numpy, filled in place); ``openspiel-tensor-list``: through
  ``state.information_state_tensor(player)`` (pyspiel returns a Python list of 9,004 floats).
- ``hearts``, ``leduc``: OpenSpiel's C++ ``hearts`` and ``leduc_poker`` by ``pyspiel.load_game``, random
  decisions (the yardstick); ``hearts-tensor-list``: with ``information_state_tensor`` at every decision.

``--tensor-cost`` prints the CPU microseconds of one ``set_from`` of the OpenSpiel observers (information state
and observation) at every decision of random rounds, for every game and player count, and of the same
decisions' own step through pyspiel (``step``: ``legal_actions`` and ``apply_action``) as the yardstick.

``--against SRC`` measures side by side in one run: child processes alternate between ``PYTHONPATH=SRC``
(e.g. main's sources: ``mkdir /tmp/main-src && git archive main src | tar -x -C /tmp/main-src``, then
``--against /tmp/main-src/src``)
and this checkout's ``src``, ``--rounds`` times each, every figure on the CPU-time clock after a warm-up;
it prints the medians and the ratio after / before.

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
NAMES = ["engine", "driver-bare", "driver", "pettingzoo", "pettingzoo-raw", "gymnasium", "openspiel",
         "openspiel-clone", "openspiel-clone-move", "batched-1", "batched-64", "batched-1024", "batched-1-python",
         "batched-64-python", "batched-1024-python", "vector-1024", "make-vec", "openspiel-tensor",
         "openspiel-tensor-list", "hearts", "leduc", "hearts-tensor-list"]
DEFAULT = ["engine", "pettingzoo", "pettingzoo-raw", "gymnasium", "openspiel"]  # without --only
#: Issue 52's figures side by side (``--research``): the batched environment, the single ones, Gymnasium's
#: ``make_vec``, pyspiel with and without the information-state tensor, and OpenSpiel's C++ games.
RESEARCH = ["engine", "batched-1", "batched-64", "batched-1024", "batched-1024-python", "vector-1024", "pettingzoo",
            "gymnasium", "make-vec", "openspiel", "openspiel-tensor", "openspiel-tensor-list", "hearts", "leduc",
            "hearts-tensor-list"]
clock: Callable[[], float] = time.perf_counter  # --cpu-clock: time.process_time
BACKENDS: dict[tuple[int, str], str] = {}  # the backend each batched figure ran, printed beside it


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
    from diloti.envs.gym_env import CardGameEnv

    def run(seconds: float, seed: int) -> tuple[int, float]:
        env = CardGameEnv(opponent="random", players=players, game=game)
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


def openspiel(players: int, chance_counts: list[int], name: str, tensor: str = "", cpp: str = "") -> Run:
    """Random decisions of ``python_<name>`` (or of OpenSpiel's C++ game ``cpp``). ``tensor``: the acting
    player's information-state tensor at every decision too, ``"observer"`` through ``make_observation`` (a
    numpy array filled in place, OpenSpiel's way for Python games), ``"list"`` through
    ``state.information_state_tensor`` (pyspiel copies it into a Python list of floats)."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    import diloti.envs.openspiel_game  # noqa: F401 - registers the three games

    game = pyspiel.load_game(cpp) if cpp else pyspiel.load_game(f"python_{name}", {"players": players})
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True)) if tensor else None

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
                    if tensor == "list":
                        state.information_state_tensor(state.current_player())
                    elif observation is not None:
                        observation.set_from(state, state.current_player())
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    steps += 1
        chance_counts.append(chance)
        return steps, clock() - start
    return run


def batched(players: int, game: str, num_envs: int, backend: str = "auto") -> Run:
    """:class:`~diloti.envs.batch.SelfPlayBatch` of ``num_envs`` games, a random legal action for each game's
    seat to act (``sample_actions``, from the masks) each call: every game's step counted, as PettingZoo's."""
    from diloti.envs.batch import SelfPlayBatch

    batch = SelfPlayBatch(num_envs, game=game, players=players, backend=backend)
    BACKENDS[num_envs, backend] = batch.backend

    def run(seconds: float, seed: int) -> tuple[int, float]:
        batch.reset(seed=seed * 100_000)
        rng = np.random.default_rng(seed)
        steps, start = 0, clock()
        end = start + seconds
        while clock() < end:
            batch.step(batch.sample_actions(rng))
            steps += num_envs
        return steps, clock() - start
    return run


def vector(players: int, game: str, num_envs: int) -> Run:
    """:class:`~diloti.envs.vector.CardGameVectorEnv` against the random level (the agent's steps, as
    ``gymnasium``), with its buffers returned as they are (``copy=False``)."""
    from diloti.envs.vector import CardGameVectorEnv

    envs = CardGameVectorEnv(num_envs, game=game, players=players, copy=False)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        envs.reset(seed=seed * 100_000)
        rng = np.random.default_rng(seed)
        steps, start = 0, clock()
        end = start + seconds
        while clock() < end:
            envs.step(envs.sample_actions(rng))
            steps += num_envs
        return steps, clock() - start
    return run


def make_vec(players: int, game: str, num_envs: int = 64) -> Run:
    """``gymnasium.make_vec(..., vectorization_mode="sync")`` of ``num_envs`` of the single environments against
    the random level: Gymnasium's own loop over them (the agent's steps)."""
    import gymnasium

    from diloti.envs import gym_id

    envs = gymnasium.make_vec(gym_id(game), num_envs=num_envs, vectorization_mode="sync",
                              players=players, opponent="random")

    def run(seconds: float, seed: int) -> tuple[int, float]:
        obs, _ = envs.reset(seed=seed * 100_000)
        rng = np.random.default_rng(seed)
        steps, start = 0, clock()
        end = start + seconds
        while clock() < end:
            masks = obs["action_mask"]
            pick = (rng.random(num_envs) * masks.sum(axis=1)).astype(np.int64)
            actions = (np.cumsum(masks, axis=1) <= pick[:, None]).sum(axis=1)
            obs, *_ = envs.step(actions)
            steps += num_envs
        return steps, clock() - start
    return run


def driver_loop(players: int, game: str, parts: bool) -> Run:
    """Random actions through the game's driver; with ``parts``, the acting seat's observation and its mask too."""
    from diloti.envs.games import find_env_game

    g = find_env_game(game)
    options = g.check_options(None, players)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        steps, start = 0, clock()
        end = start + seconds
        episode = 0
        while clock() < end:
            d = g.driver(players, options, episode % players, seed * 100_000 + episode)
            episode += 1
            while not d.over:
                if parts:
                    d.observation(d.to_act)
                    legal = np.flatnonzero(d.mask())
                    d.apply(int(legal[rng.randrange(len(legal))]))
                else:
                    legal = d.actions()
                    d.apply(legal[rng.randrange(len(legal))])
                steps += 1
        return steps, clock() - start
    return run


def _mid_move_states(n: int, seed: int) -> list[object]:
    """States in the middle of a move (items being chosen), its legal actions asked: what a search clones."""
    import pyspiel

    import diloti.envs.openspiel_game  # noqa: F401 - registers python_diloti

    game = pyspiel.load_game("python_diloti")
    rng = random.Random(seed)
    states: list[object] = []
    while len(states) < n:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            legal = state.legal_actions()
            if state.taken and rng.random() < 0.3:
                states.append(state)
                break
            state.apply_action(rng.choice(legal))
    return states


def mid_round_states(n: int, seed: int) -> list[object]:
    """``n`` OpenSpiel states of Diloti part-way through a round (random play from ``seed``): what
    ``openspiel-clone`` here and ``bench/core_speed.py`` clone."""
    import pyspiel

    import diloti.envs.openspiel_game  # noqa: F401 - registers python_diloti

    game = pyspiel.load_game("python_diloti")
    rng = random.Random(seed)
    states = []
    while len(states) < n:
        state = game.new_initial_state()
        stop = rng.randrange(5, 40)
        for _ in range(stop):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        if not state.is_terminal():
            states.append(state)
    return states


def openspiel_clone(players: int, name: str, mid_move: bool) -> Run:
    if players != 2 or name != "diloti":
        raise SystemExit("openspiel-clone: Diloti with 2 players only")

    def run(seconds: float, seed: int) -> tuple[int, float]:
        states = _mid_move_states(20, 5) if mid_move else mid_round_states(20, 5)
        clones, start = 0, clock()
        while clock() < start + seconds:
            for s in states:
                s.clone()  # type: ignore[attr-defined]
            clones += len(states)
        return clones, clock() - start
    return run


def tensor_costs(seconds: float, seed: int) -> dict[str, float]:
    """CPU microseconds a call of the OpenSpiel observer's ``set_from`` for the acting player at every decision of
    random rounds, information state and observation, for every game and player count (the same loop on any
    tree: with ``PYTHONPATH`` set to another checkout's ``src``, that code's cost); and ``step``, the same
    decisions' own step through pyspiel (``legal_actions`` and ``apply_action``), the yardstick in the same run."""
    import pyspiel

    import diloti.envs.openspiel_game  # noqa: F401 - registers the games
    from diloti.envs.games import env_games

    out: dict[str, float] = {}
    steps: dict[str, float] = {}  # the same decisions' own step (legal_actions and apply_action), last measured
    for name, g in env_games().items():
        for players in g.players:
            game = pyspiel.load_game(f"python_{name}", {"players": players})
            for recall in (True, False):
                obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=recall))
                rng = random.Random(seed)
                spent, stepped, calls = 0.0, 0.0, 0
                while spent < seconds:
                    state = game.new_initial_state()
                    while not state.is_terminal():
                        if state.is_chance_node():
                            outcomes = state.chance_outcomes()
                            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                            continue
                        player = state.current_player()
                        t = time.process_time()
                        obs.set_from(state, player)
                        t2 = time.process_time()
                        legal = state.legal_actions()
                        state.apply_action(legal[rng.randrange(len(legal))])
                        stepped += time.process_time() - t2
                        spent += t2 - t
                        calls += 1
                key = f"{name}-{players}p {'infostate' if recall else 'observation'}"
                out[key] = round(spent / calls * 1e6, 1)
                steps[f"{name}-{players}p step"] = round(stepped / calls * 1e6, 1)
    out.update(steps)
    return out


def against(src: str, names: list[str], seconds: float, rounds: int, players: int, game: str) -> int:
    """Child processes alternating between ``PYTHONPATH=src`` (before) and this checkout's src (after)."""
    import os
    import subprocess
    from pathlib import Path

    here = Path(__file__).resolve().parent
    sides = {"before": str(Path(src).resolve()), "after": str(here.parent / "src")}
    got: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for _ in range(rounds):
        for side, path in sides.items():
            env = {**os.environ, "PYTHONPATH": path}
            command = [sys.executable, __file__, "--json", "--cpu-clock", "--warm", "--repeat", "1", "--seconds",
                       str(seconds), "--players", str(players), "--game", game, "--only", *names]
            out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
            got[side].append(json.loads(out))
    print(f"{'figure':16} {'before /s':>11} {'after /s':>11} {'ratio':>6}   {'pairs':>11}   (CPU time, median of "
          f"{rounds} alternating runs; before = {sides['before']})")
    for name in names:
        b = statistics.median(r[name] for r in got["before"])
        a = statistics.median(r[name] for r in got["after"])
        pairs = [y[name] / x[name] for x, y in zip(got["before"], got["after"], strict=True)]
        print(f"{name:16} {b:11,.0f} {a:11,.0f} {a / b:6.2f}   {min(pairs):.2f}..{max(pairs):.2f}")
    return 0


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
    p.add_argument("--only", nargs="*", choices=NAMES)
    p.add_argument("--against", metavar="SRC", help="side by side with PYTHONPATH=SRC (see the description)")
    p.add_argument("--warm", action="store_true", help="run each figure once for a moment before measuring it")
    p.add_argument("--interleave", action="store_true",
                   help="run the figures in turn, one run each, --repeat times (not each figure's runs together)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--cpu-clock", action="store_true",
                   help="time by the process CPU time (time.process_time): steadier on a shared machine")
    p.add_argument("--search-moves", action="store_true", help="search for large legal-move lists instead")
    p.add_argument("--research", action="store_true",
                   help="issue 52's figures side by side (RESEARCH: batched, single, make_vec, pyspiel, OpenSpiel C++)")
    p.add_argument("--rounds", type=int, default=None,
                   help="rounds for --search-moves; with --against, runs of each side (default 3)")
    p.add_argument("--tensor-cost", action="store_true",
                   help="CPU us a call of the OpenSpiel observer's set_from, every game and player count, instead")
    args = p.parse_args(argv)
    if args.tensor_cost:
        costs = tensor_costs(args.seconds, args.seed)
        if args.json:
            print(json.dumps(costs))
        for key, us in costs.items():
            if not args.json:
                print(f"{key:28} {us:8.1f} us a call (CPU)")
        return 0
    if args.search_moves:
        print(json.dumps(search_moves(args.rounds or 200, args.seed), indent=1))
        return 0
    if args.against:
        return against(args.against, args.only or DEFAULT, args.seconds, args.rounds or 3,
                       args.players, args.game)
    global clock
    if args.cpu_clock:
        clock = time.process_time
    chance: list[int] = []
    runs: dict[str, Callable[[], Run]] = {
        "engine": lambda: engine(args.players, args.game),
        "driver-bare": lambda: driver_loop(args.players, args.game, parts=False),
        "driver": lambda: driver_loop(args.players, args.game, parts=True),
        "pettingzoo": lambda: pettingzoo(args.players, wrapped=True, game=args.game),
        "pettingzoo-raw": lambda: pettingzoo(args.players, wrapped=False, game=args.game),
        "gymnasium": lambda: gymnasium_env(args.players, args.game),
        "openspiel": lambda: openspiel(args.players, chance, args.game),
        "openspiel-clone": lambda: openspiel_clone(args.players, args.game, mid_move=False),
        "openspiel-clone-move": lambda: openspiel_clone(args.players, args.game, mid_move=True),
        "batched-1": lambda: batched(args.players, args.game, 1),
        "batched-64": lambda: batched(args.players, args.game, 64),
        "batched-1024": lambda: batched(args.players, args.game, 1024),
        "batched-1-python": lambda: batched(args.players, args.game, 1, "python"),
        "batched-64-python": lambda: batched(args.players, args.game, 64, "python"),
        "batched-1024-python": lambda: batched(args.players, args.game, 1024, "python"),
        "vector-1024": lambda: vector(args.players, args.game, 1024),
        "make-vec": lambda: make_vec(args.players, args.game),
        "openspiel-tensor": lambda: openspiel(args.players, [], args.game, tensor="observer"),
        "openspiel-tensor-list": lambda: openspiel(args.players, [], args.game, tensor="list"),
        "hearts": lambda: openspiel(4, [], "", cpp="hearts"),
        "leduc": lambda: openspiel(2, [], "", cpp="leduc_poker"),
        "hearts-tensor-list": lambda: openspiel(4, [], "", tensor="list", cpp="hearts"),
    }
    out = {}
    names = args.only or (RESEARCH if args.research else DEFAULT)
    if args.interleave:  # one run of each figure in turn, repeat times: a load that changes meets them alike
        made = {name: runs[name]() for name in names}
        if args.warm:
            for run in made.values():
                run(min(args.seconds, 0.5), 99)
        got: dict[str, list[float]] = {name: [] for name in names}
        for i in range(args.repeat):
            for name, run in made.items():
                steps, elapsed = run(args.seconds, args.seed + i)
                got[name].append(steps / elapsed)
        for name, rates in got.items():
            out[name] = round(statistics.median(rates))
            if not args.json:
                spread = ", ".join(f"{r:,.0f}" for r in rates)
                print(f"{name:15} {statistics.median(rates):10,.0f} steps/s   (runs: {spread})")
        names = []
    for name in names:
        run = runs[name]()
        if args.warm:
            run(min(args.seconds, 0.5), 99)  # the shape cache warmed, as in a long run
        median, rates = measure(run, args.seconds, args.repeat, args.seed)
        out[name] = round(median)
        if not args.json:
            spread = ", ".join(f"{r:,.0f}" for r in rates)
            backend = ""
            if name.startswith("batched-"):
                size, _, kind = name[len("batched-"):].partition("-")
                backend = f" [{BACKENDS[int(size), kind or 'auto']}]"
            print(f"{name:19} {median:10,.0f} steps/s{backend}   (runs: {spread})")
    if not args.json and chance:
        print(f"{'':15} openspiel chance outcomes besides: {statistics.median(chance) / args.seconds:,.0f}/s")
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
