"""Load benchmark for ``diloti serve`` (a script, not a test).

Starts the server in a subprocess on a fresh SQLite file (or ``--url`` of a running server),
creates ``--tables`` tables, and plays every game to the end with simulated players over
websockets on loopback: each player answers its turn after a random think time by choosing a
random legal move. Prints moves per second, the move latency (from sending a move to the
server's ``played`` announcement coming back) p50/p90/p99/max, and checks that every game
finished and that the database holds every move.

    .venv/bin/python bench/load.py --tables 200
    .venv/bin/python bench/load.py --tables 50 --bots      # one simulated human + one server bot per table
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    finished: int = 0
    errors: list[str] = field(default_factory=list)
    reconnects: int = 0


PROBE = """
import signal, sys, time
lags = []
def done(*_):
    lags.sort()
    n = len(lags)
    print(f"{lags[n // 2] * 1000:.1f} {lags[int(n * 0.99)] * 1000:.1f} {lags[-1] * 1000:.1f}" if n else "nan nan nan")
    sys.exit(0)
signal.signal(signal.SIGTERM, done)
while True:
    t = time.perf_counter()
    time.sleep(0.005)
    lags.append(time.perf_counter() - t - 0.005)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def player(url: str, table: str, token: str, rng: random.Random, think: tuple[float, float],
                 stats: Stats, started: asyncio.Event) -> int:
    """Play one seat to the end of the game; returns the number of moves it made."""
    ws_url = url.replace("http://", "ws://") + "/ws"
    made = 0
    pending: dict[int, float] = {}  # ply after my move -> send time
    async with connect(ws_url, max_size=2**22, open_timeout=60, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table, "token": token}))
        started.set()
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "played":
                sent = pending.pop(msg["ply"], None)
                if sent is not None:
                    stats.latencies.append(time.perf_counter() - sent)
            elif kind == "error":
                stats.errors.append(f"{table}: {msg['code']}: {msg['message']}")
            elif kind == "game_over":
                return made
            elif kind == "state" and msg["your_turn"] and msg["phase"] != "over":
                await asyncio.sleep(rng.uniform(*think))
                choice = rng.choice(msg["legal"])["move"]
                pending[msg["ply"] + 1] = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": choice, "ply": msg["ply"]}))
                made += 1
                stats.moves += 1
    raise RuntimeError(f"table {table}: connection closed before the end of the game")


async def one_table(client: httpx.AsyncClient, url: str, i: int, args: argparse.Namespace, stats: Stats) -> str:
    rng = random.Random(args.seed * 1_000_003 + i)
    seats: list[dict[str, Any]] = [{"kind": "human"}, {"kind": "bot", "level": args.bot_level} if args.bots
                                   else {"kind": "human"}]
    r = await client.post(f"{url}/api/tables", json={"name": f"p{i}a", "seats": seats,
                                                      "options": {"target": args.target}, "private": True})
    r.raise_for_status()
    t = r.json()
    tokens = [t["token"]]
    if not args.bots:
        j = await client.post(f"{url}/api/tables/{t['table']}/join", json={"name": f"p{i}b"})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    think = (args.think_min, args.think_max)
    started = [asyncio.Event() for _ in tokens]
    await asyncio.gather(*(player(url, t["table"], tok, random.Random(rng.random()), think, stats, ev)
                           for tok, ev in zip(tokens, started, strict=True)))
    stats.finished += 1
    return str(t["table"])


def pct(data: list[float], p: float) -> float:
    if not data:
        return float("nan")
    data = sorted(data)
    k = min(len(data) - 1, max(0, round(p / 100 * (len(data) - 1))))
    return data[k] * 1000


async def run(args: argparse.Namespace, url: str) -> tuple[Stats, list[str], float]:
    stats = Stats()
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        t0 = time.perf_counter()
        # Tables start over the first `ramp` seconds, like players arriving.
        async def delayed(i: int) -> str:
            await asyncio.sleep(args.ramp * i / max(1, args.tables))
            return await one_table(client, url, i, args, stats)

        progress = asyncio.create_task(report(stats, args.tables))
        results = await asyncio.gather(*(delayed(i) for i in range(args.tables)), return_exceptions=True)
        progress.cancel()
        wall = time.perf_counter() - t0
    ids = []
    for res in results:
        if isinstance(res, BaseException):
            stats.errors.append(f"table failed: {res!r}")
        else:
            ids.append(res)
    return stats, ids, wall


async def report(stats: Stats, tables: int) -> None:
    while True:
        await asyncio.sleep(5)
        lat = stats.latencies[-2000:]
        print(f"  ... {stats.moves} moves, {stats.finished}/{tables} games finished, "
              f"p99 (recent) {pct(lat, 99):.1f} ms", file=sys.stderr, flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    ap.add_argument("--target", type=int, default=11, help="target score of each game (default 11: one or two rounds)")
    ap.add_argument("--think-min", type=float, default=0.5, help="shortest think time, seconds (default 0.5)")
    ap.add_argument("--think-max", type=float, default=2.0, help="longest think time, seconds (default 2.0)")
    ap.add_argument("--ramp", type=float, default=10.0, help="seconds over which tables start (default 10)")
    ap.add_argument("--bots", action="store_true", help="second seat is a server-side computer player")
    ap.add_argument("--bot-level", default="random", help="level of those computer players (default random)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nice", type=int, default=0,
                    help="run the server and this client at this niceness (negative needs root; a control on a "
                         "shared machine: shows the latency when the other work on it does not delay us)")
    ap.add_argument("--url", default=None, help="use a running server (http://HOST:PORT) instead of starting one")
    args = ap.parse_args()

    server = None
    db_path = None
    url = args.url
    if url is None:
        port = free_port()
        db_path = Path(tempfile.mkdtemp(prefix="diloti-load-")) / "load.sqlite3"
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if args.nice:
            os.nice(args.nice)  # the server inherits it
        server = subprocess.Popen([sys.executable, "-m", "diloti", "serve", "--port", str(port), "--db",
                                   f"sqlite:///{db_path}", "--log-level", "warning"], env=env)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                print("load: the server did not start", file=sys.stderr)
                return 2
            time.sleep(0.3)
    def cpu(pid: int) -> float:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return float("nan")

    server_cpu = 0.0
    probe_out = ["nan", "nan", "nan"]
    try:
        print(f"load: {args.tables} tables, {'1 player + 1 server bot' if args.bots else '2 players'} each, "
              f"target {args.target}, think {args.think_min}-{args.think_max} s, server {url}", flush=True)
        cpu0 = cpu(server.pid) if server else float("nan")
        # A bystander process that only sleeps 5 ms at a time: how late the machine wakes it up
        # tells how much of the latency is the machine's scheduling (other work), not the server.
        probe = subprocess.Popen([sys.executable, "-c", PROBE], stdout=subprocess.PIPE, text=True)
        stats, ids, wall = asyncio.run(run(args, url))
        server_cpu = cpu(server.pid) - cpu0 if server else float("nan")
        probe.terminate()
        probe_out = (probe.communicate(timeout=10)[0] or "nan nan nan").split()
    finally:
        if server is not None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
    lost = 0
    stored = None
    if db_path is not None:
        con = sqlite3.connect(db_path)
        over = {r[0] for r in con.execute("SELECT id FROM tables WHERE status = 'over'")}
        stored = con.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
        con.close()
        lost = len([i for i in ids if i not in over]) + (args.tables - len(ids))
    lat = stats.latencies
    print(f"games finished: {stats.finished}/{args.tables}   lost: {lost}   errors: {len(stats.errors)}")
    print(f"moves by players: {stats.moves}   stored moves (incl. bots): {stored}   wall: {wall:.1f} s")
    rate = f"   stored moves/s: {stored / wall:.1f}" if stored else ""
    print(f"moves/s (players): {stats.moves / wall:.1f}{rate}")
    print(f"latency ms: p50 {pct(lat, 50):.1f}  p90 {pct(lat, 90):.1f}  p99 {pct(lat, 99):.1f}  "
          f"max {max(lat) * 1000 if lat else float('nan'):.1f}  mean {statistics.fmean(lat) * 1000 if lat else 0:.1f}")
    client_cpu = time.process_time()
    print(f"CPU seconds: server {server_cpu:.1f}, load client {client_cpu:.1f} "
          f"(server {1000 * server_cpu / max(1, stored or stats.moves):.2f} ms per move); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"scheduling delay of an idle bystander process, ms: p50 {probe_out[0]}  p99 {probe_out[1]}  "
          f"max {probe_out[2]}")
    for e in stats.errors[:10]:
        print("  error:", e)
    return 0 if stats.finished == args.tables and not stats.errors and not lost else 1


if __name__ == "__main__":
    sys.exit(main())
