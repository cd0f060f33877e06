"""Bot API benchmark (a script, not a test): N outside bots play at once against the server's computer seats.

Starts ``diloti serve`` on a fresh SQLite file (or ``--postgres``: a fresh database on the project's private
PostgreSQL), makes N bot accounts with a token each (each from a loopback address of its own, as N people would),
and has every bot open a table against the computer (``POST /api/bot/computer``) and play it to the end through
the Bot API: its game stream (NDJSON), each decision made by a player of ``--player`` from the view the stream
carries (rebuilt as the game's own view class), each move posted. Prints the moves' round trips (the ``POST
.../move`` from sending to the answer: the move checked, stored and announced) p50/p90/p99/max, and the server's
CPU a bot move: the server process alone (the HTTP, the streams, the database calls) and with its worker processes
(the computer seats' moves).

    .venv/bin/python bench/bots.py --bots 50
    .venv/bin/python bench/bots.py --bots 50 --postgres --level greedy
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_check import pct
from load_servers import Server, fresh_postgres, own_cpu

from diloti.ai import make_player
from diloti.formats.views import view_from_dict


def account(base: str, i: int) -> tuple[str, httpx.Client]:
    """Bot ``i``: its account and token, made from loopback address 127.0.0.(i+2); its HTTP client."""
    client = httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address=f"127.0.{(i + 2) // 250}."
                                                                                       f"{(i + 2) % 250 + 1}"),
                          timeout=httpx.Timeout(30.0, read=120.0))
    p = client.post("/api/players", json={"name": f"Benchbot {i}"})
    p.raise_for_status()
    key = {"Authorization": f"Bearer {p.json()['key']}"}
    client.post("/api/me/bot", headers=key).raise_for_status()
    t = client.post("/api/me/bot/tokens", json={"label": "bench"}, headers=key)
    t.raise_for_status()
    client.headers["Authorization"] = f"Bearer {t.json()['token']}"
    return t.json()["token"], client


def play(client: httpx.Client, spec: str, level: str, target: int, seed: int, out: dict[str, Any]) -> None:
    """One bot's game against the computer, to the end; its moves' round trips in ``out``."""
    made = client.post("/api/bot/computer", json={"level": level, "rated": False, "options": {"target": target}})
    made.raise_for_status()
    tid = made.json()["table"]
    player = make_player(spec, seed=seed, outside=True)
    times: list[float] = out.setdefault("times", [])
    moved = -1
    with client.stream("GET", f"/api/bot/game/stream/{tid}") as stream:
        for line in stream.iter_lines():
            if not line.strip():
                continue
            msg = json.loads(line)
            state = msg.get("state") if msg["type"] == "gameFull" else msg if msg["type"] == "state" else None
            view = msg.get("view")
            if msg["type"] == "game_over" or (state is not None and state["phase"] == "over"):
                break
            if state is None or view is None or not state["your_turn"] or state["ply"] <= moved:
                continue
            move = player.choose(view_from_dict(view))
            moved = state["ply"]
            t0 = time.perf_counter()
            r = client.post(f"/api/bot/game/{tid}/move", json={"move": str(move), "ply": moved})
            times.append(time.perf_counter() - t0)
            if r.status_code != 200:
                out.setdefault("refused", []).append(r.json().get("code"))
    out["table"] = tid
    out["over"] = client.get(f"/api/tables/{tid}").json()["status"] == "over"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", type=int, default=50)
    ap.add_argument("--player", default="random", help="the bots' player (default random: the client's CPU small)")
    ap.add_argument("--level", default="random", help="the computer seats' level (default random)")
    ap.add_argument("--target", type=int, default=31, help="the games' target points (default 31)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--postgres", action="store_true", help="on a fresh database of the private PostgreSQL")
    args = ap.parse_args()
    db = fresh_postgres("diloti_bots") if args.postgres else f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    server = Server(db, 0, args.workers, Path(tempfile.mkdtemp(prefix="diloti-bots-logs-")))
    server.wait_ready()
    try:
        clients = [account(server.url, i) for i in range(args.bots)]
        outs: list[dict[str, Any]] = [{} for _ in clients]
        cpu0, own0 = server.tree_cpu(), own_cpu(server.proc.pid)
        server.sample_workers()
        t0 = time.perf_counter()
        threads = [threading.Thread(target=play, args=(c, args.player, args.level, args.target, i, outs[i]))
                   for i, (_, c) in enumerate(clients)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        wall = time.perf_counter() - t0
        server.sample_workers()
        cpu, own = server.tree_cpu() - cpu0, own_cpu(server.proc.pid) - own0
        times = sorted(t for o in outs for t in o.get("times", []))
        over = sum(1 for o in outs if o.get("over"))
        refused = [c for o in outs for c in o.get("refused", [])]
        n = len(times)
        print(f"bots {args.bots} ({args.player} against {args.level}), database "
              f"{'PostgreSQL' if args.postgres else 'SQLite'}, server workers {args.workers}")
        print(f"games over {over}/{args.bots}; bot moves {n} in {wall:.1f} s ({n / wall:.1f}/s); refused "
              f"{len(refused)} {sorted(set(refused))}")
        if n:
            print(f"move round trip ms: p50 {pct(times, 50):.1f}  p90 {pct(times, 90):.1f}  "
                  f"p99 {pct(times, 99):.1f}  max {times[-1] * 1000:.1f}  mean "
                  f"{statistics.fmean(times) * 1000:.1f}")
            print(f"server CPU a bot move: {own / n * 1000:.2f} ms (server process), {cpu / n * 1000:.2f} ms "
                  f"(with its workers: the computer seats' moves too); CPU {own:.1f} s + workers {cpu - own:.1f} s")
        for _, c in clients:
            c.close()
        return 0 if over == args.bots else 1
    finally:
        server.stop()


if __name__ == "__main__":
    raise SystemExit(main())
