"""Benchmark: the compiled core against the pure-Python core, side by side in one run.

Usage: .venv/bin/python bench/core_speed.py [--seconds S] [--rounds N] [--only NAME ...] [--against SRC] [--json]

Each round runs one child process per core (``DILOTI_PURE=1``, then ``DILOTI_PURE=0``, alternately, so both
see the same load) that measures every figure for ``--seconds`` each on the CPU-time clock
(``time.process_time``: the machine is shared, and a process's CPU time moves much less with the load than
the wall clock). The figures are the medians over the rounds; the ratio is compiled / pure.

- ``engine``: ``diloti bench``'s loop (random playouts, full move generation), actions per second;
- ``pettingzoo``: ``env()`` with PettingZoo's wrappers, random masked agents, steps per second
  (and ``pettingzoo-raw``: ``raw_env()``);
- ``gymnasium``: ``CardGameEnv(opponent="random")`` steps per second;
- ``openspiel``: ``python_diloti`` decisions per second; ``openspiel-clone``: clones per second of
  states in mid-round;
- ``expert``: the expert's playouts per second (bench/playouts.py's loop: sampled worlds, rollouts);
- ``master``: the master's playouts per second (moves with a playout budget, no clock);
- ``counted``: the master's counted rollout moves per second (``counted_move`` with no random moves, on
  mid-round positions whose legal moves are known: the heuristic's scores of the mover's moves);
- ``import_ms``: ``import diloti`` in a fresh process, CPU milliseconds (median of 5); ``peak_rss_mb``: the
  child's peak memory after its figures (the same work for both cores), MiB. For these two, lower is better.

``--against SRC`` measures two sources side by side as well: each round runs both cores of ``SRC`` (another
checkout's ``src``, its core built in place, e.g. a worktree of main: ``PYTHONPATH=SRC``) and of the sources
this process imports, alternately, and prints the four columns with the ratios compiled / pure of each, after /
before (compiled against compiled) and after compiled / before pure (the issue's measure against the pure core).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAMES = ["engine", "pettingzoo", "pettingzoo-raw", "gymnasium", "openspiel", "openspiel-clone", "expert", "master",
         "counted"]


def _rate(work: Callable[[], int], seconds: float) -> float:
    """Units of ``work`` per CPU second, calling it until ``seconds`` of CPU time have passed."""
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        done += work()
    return done / (time.process_time() - start)


def child(names: list[str], seconds: float) -> dict[str, float | str]:
    sys.path.insert(0, str(HERE))
    import envs  # bench/envs.py

    from diloti._core import CORE

    envs.clock = time.process_time
    out: dict[str, float | str] = {"core": CORE}

    def from_envs(run: envs.Run) -> float:
        run(min(seconds, 0.5), 99)  # warm the shape cache, as a long run would be
        steps, elapsed = run(seconds, 1)
        return steps / elapsed

    for name in names:
        if name == "engine":
            out[name] = from_envs(envs.engine(2, "diloti"))
        elif name in ("pettingzoo", "pettingzoo-raw"):
            out[name] = from_envs(envs.pettingzoo(2, name == "pettingzoo", "diloti"))
        elif name == "gymnasium":
            out[name] = from_envs(envs.gymnasium_env(2, "diloti"))
        elif name == "openspiel":
            out[name] = from_envs(envs.openspiel(2, [], "diloti"))
        elif name == "openspiel-clone":
            out[name] = _clones(seconds)
        elif name == "expert":
            out[name] = _expert(seconds)
        elif name == "master":
            out[name] = _master(seconds)
        elif name == "counted":
            out[name] = _counted(seconds)
    import resource

    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def import_time(pure: str, runs: int = 5, extra: dict[str, str] | None = None) -> float:
    """Milliseconds of CPU time to import diloti in a fresh process (the median of ``runs``)."""
    env = {**os.environ, **(extra or {}), "DILOTI_PURE": pure}
    code = "import time; t = time.process_time(); import diloti; print(time.process_time() - t)"
    times = [float(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                  check=True).stdout) for _ in range(runs)]
    return statistics.median(times) * 1000


def _clones(seconds: float) -> float:
    import envs  # bench/envs.py

    states = envs.mid_round_states(20, 5)

    def work() -> int:
        for s in states:
            s.clone()  # type: ignore[attr-defined]
        return len(states)
    return _rate(work, seconds)


def _views(n: int, seed: int) -> list[object]:
    from diloti.games.diloti.players.rollout import rollout_move
    from diloti.games.diloti.players.sampler import Worlds
    from diloti.games.diloti.state import State

    rng = random.Random(seed)
    views = []
    for _ in range(n):
        s = State.new(seed=rng.randrange(10**9))
        for _ in range(rng.randrange(40)):
            s.push(rollout_move(s, rng))
        views.append(Worlds(s.view(s.turn)))  # as the expert does: the shared work once a view
    return views


def _expert(seconds: float) -> float:
    from diloti.ai.games import players_part
    from diloti.ai.part import SearchSettings
    from diloti.ai.search import playout

    rng = random.Random(3)
    worlds = _views(40, 3)
    rollouts = players_part(worlds[0].view).rollouts(SearchSettings())  # type: ignore[attr-defined]
    i = 0

    def work() -> int:
        nonlocal i
        w = worlds[i % len(worlds)]
        i += 1
        playout(w.sample(rng), w.view.side, rng, rollouts)  # type: ignore[attr-defined]
        return 1
    return _rate(work, seconds)


def _master(seconds: float) -> float:
    from diloti.ai.master import MasterPlayer
    from diloti.games.diloti.state import State

    rng = random.Random(4)
    views = []
    for _ in range(12):
        s = State.new(seed=rng.randrange(10**9))
        for _ in range(rng.randrange(30)):
            s.push(rng.choice(s.legal_moves()))
        if not s.is_over and len(s.legal_moves()) > 1:
            views.append(s.view(s.turn))
    player = MasterPlayer(seed=1, iterations=50, seconds=None)
    i = 0

    def work() -> int:
        nonlocal i
        player.choose(views[i % len(views)])
        i += 1
        return 50
    return _rate(work, seconds)


def _counted(seconds: float) -> float:
    from diloti.games.diloti.players.rollout import counted_move
    from diloti.games.diloti.state import State

    rng = random.Random(5)
    states = []
    while len(states) < 200:
        s = State.new(rng.choice([2, 4]), seed=rng.randrange(10**9))
        for _ in range(rng.randrange(40)):
            if s.is_over:
                break
            s.push(rng.choice(s.legal_moves()))
        if not s.is_over and len(s.legal_moves()) > 1 and s.legal_moves()[0][0] is not None:
            states.append(s)  # its legal moves are worked out now and kept: the figure is the policy's

    def work() -> int:
        for s in states:
            counted_move(s, rng, 0.0)
        return len(states)
    return _rate(work, seconds)


Runs = dict[str, list[dict[str, float | str]]]


def _measure(names: list[str], seconds: float, rounds: int, sides: dict[str, dict[str, str]]) -> dict[str, Runs]:
    """Each side's runs of each core (``sides``: a name and the environment it adds), alternating."""
    runs: dict[str, Runs] = {side: {"pure": [], "compiled": []} for side in sides}
    for _ in range(rounds):
        for pure in ("1", "0"):
            for side, extra in sides.items():
                env = {**os.environ, **extra, "DILOTI_PURE": pure}
                command = [sys.executable, __file__, "--child", "--seconds", str(seconds), "--only", *names]
                out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
                result = json.loads(out)
                result["import_ms"] = import_time(pure, extra=extra)
                runs[side][str(result["core"])].append(result)
    return runs


def against(src: str, names: list[str], seconds: float, rounds: int, as_json: bool) -> int:
    """Both cores of ``src`` (before) and of these sources (after), side by side in one run."""
    runs = _measure(names, seconds, rounds, {"before": {"PYTHONPATH": src}, "after": {}})
    if not (runs["before"]["compiled"] and runs["after"]["compiled"]):
        print("bench/core_speed.py: a side has no compiled core built (bash scripts/build-core)", file=sys.stderr)
        return 1
    table = {}
    for name in [*names, "import_ms", "peak_rss_mb"]:
        row = {f"{side} {core}": statistics.median(float(r[name]) for r in runs[side][core])
               for side in ("before", "after") for core in ("pure", "compiled")}
        table[name] = {**{k: round(v, 1) for k, v in row.items()},
                       "before compiled/pure": round(row["before compiled"] / row["before pure"], 2),
                       "after compiled/pure": round(row["after compiled"] / row["after pure"], 2),
                       "after/before compiled": round(row["after compiled"] / row["before compiled"], 2),
                       "after compiled/before pure": round(row["after compiled"] / row["before pure"], 2)}
    if as_json:
        print(json.dumps(table))
        return 0
    head = ["before pure", "before compiled", "after pure", "after compiled", "before compiled/pure",
            "after compiled/pure", "after/before compiled", "after compiled/before pure"]
    print(f"CPU time, median of {rounds}; before: {src}")
    print(f"{'figure':<16} " + " ".join(f"{h:>{max(len(h), 10)}}" for h in head))
    for name, cells in table.items():
        print(f"{name:<16} " + " ".join(f"{cells[h]:>{max(len(h), 10)},.{0 if i < 4 else 2}f}"
                                         for i, h in enumerate(head)))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure per run (default 2)")
    p.add_argument("--rounds", type=int, default=3, help="runs of each core, alternating (default 3)")
    p.add_argument("--only", nargs="*", choices=NAMES, help="these figures only")
    p.add_argument("--json", action="store_true")
    p.add_argument("--against", metavar="SRC", help="side by side with PYTHONPATH=SRC too (see the description)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    names = args.only or NAMES
    if args.child:
        print(json.dumps(child(names, args.seconds)))
        return 0
    if args.against:
        return against(args.against, names, args.seconds, args.rounds, args.json)
    runs = _measure(names, args.seconds, args.rounds, {"": {}})[""]
    if not runs["compiled"]:
        print("bench/core_speed.py: no compiled core is built (bash scripts/build-core)", file=sys.stderr)
        return 1
    table = {}
    for name in [*names, "import_ms", "peak_rss_mb"]:
        pure_rate = statistics.median(float(r[name]) for r in runs["pure"])
        compiled_rate = statistics.median(float(r[name]) for r in runs["compiled"])
        table[name] = {"pure": round(pure_rate, 1), "compiled": round(compiled_rate, 1),
                       "ratio": round(compiled_rate / pure_rate, 2)}
    if args.json:
        print(json.dumps(table))
    else:
        print(f"{'figure':<16} {'pure /s':>12} {'compiled /s':>12} {'ratio':>6}   (CPU time, median of {args.rounds})")
        for name, row in table.items():
            print(f"{name:<16} {row['pure']:>12,.0f} {row['compiled']:>12,.0f} {row['ratio']:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
