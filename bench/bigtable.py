"""Large tables: what a table grown by lays costs each floor (a script, not a test).

In Diloti a player may lay a card instead of capturing, so a round where nobody captures grows the table card
by card; past about 20 loose cards its legal moves number in the hundreds of thousands. This plays such rounds
and prints, for tables of ``--sizes`` loose cards (10, 20, 25, 30 by default):

- **server**: a ``diloti serve`` process (SQLite, one worker) with a private table whose two seats (one person in
  two tabs) lay every turn, while a second table (a human against the greedy computer) plays on the same
  process. Per size: the time from a lay sent to the next ``state`` received (the largest at that size), the
  largest ``state`` message, a ``choices`` answer's time, and over the whole run ``/healthz``'s slowest answer
  (polled every 0.1 s), the other table's slowest move and the server's largest memory (its process and its
  workers, resident);
- **environment**: PettingZoo's ``env(players=2)`` stepped by a policy that always lays (what an untrained or
  collapsed policy does): the CPU time of a step at each size (median and largest), and the whole run's steps
  per second;
- **master**: the master's move (its default 0.25 s budget) on a position with that many loose cards: CPU
  seconds and the moves it considered.

    .venv/bin/python bench/bigtable.py                      # all three, sizes 10,20,25,30
    .venv/bin/python bench/bigtable.py --only env --sizes 20,30
    .venv/bin/python bench/bigtable.py --json figures.json  # the figures as JSON too

Figures: docs/PERFORMANCE.md (Large tables).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_servers import Server, children

SEED = 27  # a deal whose lays reach a 30-card table by ply 31 (seeds 5, 16, 18, 28, 32 ... do too)


def rss_mb(pid: int) -> float:
    """The resident memory of a process, in MB (0 once it has gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def recv(ws: ClientConnection, kind: str, timeout: float = 60.0) -> tuple[dict[str, Any], int]:
    """The next message of ``kind`` and its size in bytes (an error message fails the run)."""
    deadline = time.monotonic() + timeout
    while True:
        raw = ws.recv(timeout=max(0.01, deadline - time.monotonic()))
        msg = json.loads(raw)
        if msg["type"] == "error" and kind != "error":
            raise SystemExit(f"bigtable: the server answered {msg}")
        if msg["type"] == kind:
            return msg, len(raw.encode() if isinstance(raw, str) else raw)


def lay_of(state: dict[str, Any]) -> str:
    """The "always lay" policy: a lay if the seat has one, else its first legal move."""
    lays = [m["move"] for m in state["legal"] if m["kind"] == "lay"]
    return lays[0] if lays else str(state["legal"][0]["move"])


class Watch(threading.Thread):
    """Polls /healthz every 0.1 s and samples the server's memory, until stopped."""

    def __init__(self, base: str, pid: int) -> None:
        super().__init__(daemon=True)
        self.base, self.pid = base, pid
        self.worst = 0.0
        self.failures = 0
        self.rss = 0.0
        self.stop = threading.Event()

    def run(self) -> None:
        with httpx.Client(timeout=30) as client:
            while not self.stop.is_set():
                t = time.perf_counter()
                try:
                    ok = client.get(f"{self.base}/healthz").status_code == 200
                except httpx.HTTPError:
                    ok = False
                self.worst = max(self.worst, time.perf_counter() - t)
                self.failures += not ok
                self.rss = max(self.rss, rss_mb(self.pid) + sum(rss_mb(c) for c in children(self.pid)))
                self.stop.wait(0.1)


class OtherTable(threading.Thread):
    """A human against the greedy computer on the same process: plays its first legal move every turn and
    notes each move's time to the next state (its table is unaffected by the large one, or not)."""

    def __init__(self, base: str, port: int) -> None:
        super().__init__(daemon=True)
        r = httpx.post(f"{base}/api/tables", json={"name": "Cid", "seed": 3, "seats": [
            {"kind": "human"}, {"kind": "bot", "level": "greedy"}]}, timeout=30)
        r.raise_for_status()
        self.table, self.token = r.json()["table"], r.json()["token"]
        self.port = port
        self.times: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        with connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=30) as ws:
            ws.send(json.dumps({"type": "hello", "table": self.table, "token": self.token}))
            while not self.stop.is_set():
                st, _ = recv(ws, "state")
                if st["phase"] == "over":
                    return
                if not st["your_turn"]:
                    continue
                t = time.perf_counter()
                ws.send(json.dumps({"type": "move", "move": st["legal"][0]["move"], "ply": st["ply"]}))
                recv(ws, "played")
                self.times.append(time.perf_counter() - t)
                time.sleep(0.05)


def bucket(n: int, sizes: list[int]) -> int | None:
    """The size a table of ``n`` loose cards is counted at: the largest of ``sizes`` at most n, within 2."""
    for s in sorted(sizes, reverse=True):
        if s <= n < s + 3:
            return s
    return None


def server_run(sizes: list[int], seed: int) -> dict[str, Any]:
    logdir = Path(tempfile.mkdtemp(prefix="diloti-bigtable-"))
    server = Server(f"sqlite:///{logdir / 'bench.sqlite3'}", 0, 1, logdir, allow_seed=True)
    server.wait_ready()
    watch = Watch(server.url, server.proc.pid)
    other = OtherTable(server.url, server.port)
    rows: dict[int, dict[str, float]] = {}
    try:
        t = httpx.post(f"{server.url}/api/tables", json={"name": "Ann", "seed": seed}, timeout=30).json()
        j = httpx.post(f"{server.url}/api/tables/{t['table']}/join", json={"name": "Bob"}, timeout=30).json()
        tabs = [connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=30, max_size=None, legacy=True)
                for _ in range(2)]
        for ws, token in zip(tabs, (t["token"], j["token"]), strict=True):
            ws.send(json.dumps({"type": "hello", "table": t["table"], "token": token}))
        states = [recv(ws, "state")[0] for ws in tabs]
        watch.start()
        other.start()
        biggest = 0
        while True:
            mover = next((i for i, s in enumerate(states) if s["your_turn"]), None)
            if mover is None or states[mover]["phase"] != "play":
                break
            st = states[mover]
            n = len(st["table"])
            biggest = max(biggest, n)
            size = bucket(n, sizes)
            if size is not None:
                row = rows.setdefault(size, {"cards": n, "move_s": 0.0, "state_bytes": 0, "choices_s": 0.0})
                card = st["hand"][0]
                c0 = time.perf_counter()
                tabs[mover].send(json.dumps({"type": "choices", "card": card, "chosen": []}))
                recv(tabs[mover], "choices")
                row["choices_s"] = max(row["choices_s"], time.perf_counter() - c0)
            if n >= max(sizes) + 3:
                break
            t0 = time.perf_counter()
            tabs[mover].send(json.dumps({"type": "move", "move": lay_of(st), "ply": st["ply"]}))
            got = [recv(ws, "state") for ws in tabs]
            spent = time.perf_counter() - t0
            states = [g[0] for g in got]
            if size is not None:
                rows[size]["move_s"] = max(rows[size]["move_s"], spent)
                rows[size]["state_bytes"] = max(rows[size]["state_bytes"], *(g[1] for g in got))
        for ws in tabs:
            ws.close()
    finally:
        watch.stop.set()
        other.stop.set()
        time.sleep(0.3)
        server.proc.terminate()
        server.proc.wait(30)
    return {"rows": {str(k): v for k, v in sorted(rows.items())}, "largest_table": biggest,
            "healthz_worst_s": watch.worst, "healthz_failures": watch.failures, "rss_mb": watch.rss,
            "other_table_moves": len(other.times), "other_table_worst_s": max(other.times, default=0.0)}


def env_run(sizes: list[int], episodes: int) -> dict[str, Any]:
    import numpy as np

    from diloti.core.moves import LAY
    from diloti.envs import pettingzoo_env
    from diloti.games.diloti.envs.actions import HEADS

    lay_ids = {i for i, h in enumerate(HEADS) if h[1] == LAY}
    env = pettingzoo_env.env(players=2)
    per: dict[int, list[float]] = {s: [] for s in sizes}
    steps = 0
    total = 0.0
    biggest = 0
    for seed in range(episodes):
        env.reset(seed=seed)
        for _ in env.agent_iter(max_iter=20_000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            allowed = np.flatnonzero(obs["action_mask"])
            action = next((int(a) for a in allowed if int(a) in lay_ids), int(allowed[0]))
            state = env.unwrapped.driver.state
            n = len(state.table)
            biggest = max(biggest, n)
            t = time.process_time()
            env.step(action)
            if env.agents:
                env.last()  # the next observation and mask are part of a step's cost
            dt = time.process_time() - t
            total += dt
            steps += 1
            size = bucket(n, sizes)
            if size is not None:
                per[size].append(dt)
    # The same episodes under a random policy (tables of the usual size), for the usual steps per second.
    rng = np.random.default_rng(0)
    random_steps, spent = 0, 0.0
    for seed in range(episodes * 3):
        env.reset(seed=seed)
        for _ in env.agent_iter(max_iter=20_000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            t = time.process_time()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if env.agents:
                env.last()
            spent += time.process_time() - t
            random_steps += 1
    return {"rows": {str(s): {"steps": len(v), "median_ms": 1000 * statistics.median(v) if v else None,
                              "max_ms": 1000 * max(v) if v else None} for s, v in per.items()},
            "steps_per_s": steps / total if total else 0.0, "steps": steps, "largest_table": biggest,
            "random_steps_per_s": random_steps / spent if spent else 0.0}


def master_run(sizes: list[int], seed: int) -> dict[str, Any]:
    from diloti.ai.master import MasterPlayer
    from diloti.core.moves import LAY
    from diloti.games.diloti.game import Game

    g = Game(seed=seed)
    rows: dict[str, Any] = {}
    todo = sorted(sizes)
    while todo and not g.is_over:
        st = g.state
        n = len(st.table)
        if n >= todo[0] and st.phase.name == "PLAY":
            view = g.view(st.turn)
            bot = MasterPlayer(seed=1)
            t, w = time.process_time(), time.perf_counter()
            move = bot.choose(view)
            rows[str(todo[0])] = {"cards": n, "cpu_s": time.process_time() - t, "wall_s": time.perf_counter() - w,
                                  "considered": len(view.legal), "complete": view.complete, "move": str(move)}
            assert st.is_legal(move), move
            while todo and todo[0] <= n:
                todo.pop(0)
        moves, _ = st.candidate_moves()
        lays = [m for m in moves if m.kind == LAY]
        g.push(lays[0] if lays else moves[0])
    return {"rows": rows}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="10,20,25,30", help="table sizes (loose cards) to report (default 10,20,25,30)")
    p.add_argument("--seed", type=int, default=SEED, help=f"the deal of the grown table (default {SEED})")
    p.add_argument("--episodes", type=int, default=3, help="environment episodes (default 3)")
    p.add_argument("--only", choices=("server", "env", "master"), help="run one part only")
    p.add_argument("--json", type=Path, help="also write the figures to this file")
    args = p.parse_args(argv)
    try:
        sizes = sorted({int(s) for s in args.sizes.split(",")})
    except ValueError:
        p.error(f"argument --sizes: expected numbers separated by commas, got {args.sizes!r}")
    if not sizes or sizes[0] < 1:
        p.error("argument --sizes: expected positive numbers")
    out: dict[str, Any] = {"sizes": sizes, "seed": args.seed}
    if args.only in (None, "server"):
        r = out["server"] = server_run(sizes, args.seed)
        print(f"server (seed {args.seed}; largest table {r['largest_table']} loose cards):")
        print(f"  {'cards':>5} {'move s':>8} {'state KiB':>10} {'choices s':>10}")
        for size, row in r["rows"].items():
            print(f"  {size:>5} {row['move_s']:8.3f} {row['state_bytes'] / 1024:10.1f} {row['choices_s']:10.3f}")
        print(f"  /healthz slowest {r['healthz_worst_s']:.3f} s ({r['healthz_failures']} failures); other table "
              f"{r['other_table_moves']} moves, slowest {r['other_table_worst_s']:.3f} s; memory {r['rss_mb']:.0f} MB")
    if args.only in (None, "env"):
        r = out["env"] = env_run(sizes, args.episodes)
        print(f"environment (PettingZoo, always lay, {args.episodes} episodes, {r['steps']} steps, largest table "
              f"{r['largest_table']}): {r['steps_per_s']:,.0f} steps/s; a random policy's (the usual tables): "
              f"{r['random_steps_per_s']:,.0f} steps/s")
        for size, row in r["rows"].items():
            if row["steps"]:
                print(f"  {size:>5} cards: step median {row['median_ms']:.2f} ms, max {row['max_ms']:.2f} ms "
                      f"({row['steps']} steps)")
    if args.only in (None, "master"):
        r = out["master"] = master_run(sizes, args.seed)
        print("master (0.25 s budget):")
        for size, row in r["rows"].items():
            print(f"  {size:>5} cards ({row['cards']}): {row['cpu_s']:.2f} s CPU, {row['wall_s']:.2f} s, "
                  f"{row['considered']} moves considered ({'all' if row['complete'] else 'a sample'}): {row['move']}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
