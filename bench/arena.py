"""An arena of simulated players on ``diloti serve`` processes: the pairing delay and the moves' round trips.

Each simulated player (:class:`arena_player.ArenaPlayer`, a coroutine: all of them in this process's one event
loop) is a client of its own address (X-Forwarded-For, trusted from this machine): it follows the arena on a
websocket with its arena secret, which keeps it present and brings each of its games as the server pairs it
(``arena_game``; ``GET /api/arenas/{id}/me`` only as the fallback, or alone with ``--no-push``), plays each game
over another websocket (a random legal move at once) and notes how long it waited between the end of a game and
the start of the next (the pairing delay) and each move's round trip (sent to seen played). A player whose server
dies goes on through the next one (its game is taken over there). The tests of the arena (tests/test_arena.py,
tests/test_arena_cluster.py) drive the same players, each in a thread.

    .venv/bin/python bench/arena.py --players 200 --processes 2 --minutes 3 --minute 20

prints the pairing delay p50/p99, the moves' p99, the games played and whether the standings agree with the
games' results (docs/SERVER.md, Arenas).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from arena_player import ArenaPlayer as ArenaPlayer  # re-exported: the tests import it from here
from load_servers import dies_with_parent, free_port, fresh_postgres

from diloti.cli.common import positive_float, positive_int
from diloti.store.arena import score_sheet


def signed_up(base: str, name: str) -> tuple[str, str]:
    """A new player: (id, key)."""
    r = httpx.post(f"{base}/api/players", json={"name": name}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["player"], r.json()["key"]


def open_arena(base: str, key: str, **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/arenas", json=body, headers={"Authorization": f"Bearer {key}"}, timeout=10)
    assert r.status_code == 201, r.text
    return dict(r.json())


def join(base: str, key: str, arena: str) -> str:
    r = httpx.post(f"{base}/api/arenas/{arena}/join", json={}, headers={"Authorization": f"Bearer {key}"}, timeout=10)
    assert r.status_code == 200, r.text
    return str(r.json()["secret"])


def expected_scores(players: list[ArenaPlayer]) -> dict[str, int]:
    """Each player's score from the games' results as the players saw them (lichess's arena scoring)."""
    return {p.player: score_sheet([g.won for g in p.games])[0] for p in players}


@dataclass
class Stored:
    """A game of the arena as the database holds it (the arena's record, not a client's view)."""

    table: str
    players: tuple[str | None, str | None]
    created: datetime
    ended: datetime | None  # None: under way (or closed unfinished)


def arena_record(db: str, arena: str) -> tuple[datetime, datetime, dict[str, datetime], list[Stored]]:
    """(start, end, each player's joining time, the games by creation) of an arena, read from its database."""
    from sqlalchemy import create_engine, func, select

    from diloti.store.db import _aware, normalize_url
    from diloti.store.models import ArenaGameRow, ArenaPlayerRow, ArenaRow, MoveRow, TableRow

    engine = create_engine(normalize_url(db))
    try:
        with engine.connect() as conn:
            row = conn.execute(select(ArenaRow.starts, ArenaRow.seconds).where(ArenaRow.id == arena)).one()
            joined = {pid: _aware(at) for pid, at in conn.execute(
                select(ArenaPlayerRow.player_id, ArenaPlayerRow.joined).where(ArenaPlayerRow.arena_id == arena))}
            # A game's end: its last move, or for a game that ended otherwise (resigned) the table's last change.
            # Not the table's last change alone: a finished table changes again (its seats leave; after a kill
            # the other process takes it over), and that would read as the players still playing.
            last = (select(MoveRow.table_id, func.max(MoveRow.created).label("at"))
                    .group_by(MoveRow.table_id).subquery())
            games = [Stored(t, (p0, p1), _aware(created),
                            None if status != "over" else _aware(updated if reason or at is None else at))
                     for t, p0, p1, created, status, updated, reason, at in conn.execute(
                         select(ArenaGameRow.table_id, ArenaGameRow.p0, ArenaGameRow.p1, ArenaGameRow.created,
                                TableRow.status, TableRow.updated, TableRow.end_reason, last.c.at)
                         .join(TableRow, TableRow.id == ArenaGameRow.table_id)
                         .outerjoin(last, last.c.table_id == ArenaGameRow.table_id)
                         .where(ArenaGameRow.arena_id == arena).order_by(ArenaGameRow.created))]
    finally:
        engine.dispose()
    starts = _aware(row[0])
    return starts, starts + timedelta(seconds=row[1]), joined, games


def late_pairings(db: str, arena: str, within: float) -> tuple[list[str], list[float]]:
    """Every time a player of the arena was free (from their joining or the start, and from each game's end)
    while it ran, they must have been paired within ``within`` seconds (the arena's wait for the computer, plus
    its passes): (a line for each time they were not, each free time's wait until paired), from the arena's
    record. A player free less than ``within`` seconds before the end may be left unpaired."""
    starts, ends, joined, games = arena_record(db, arena)
    late: list[str] = []
    waits: list[float] = []
    for pid, at in joined.items():
        mine = [g for g in games if pid in g.players]
        free: datetime | None = max(at, starts)
        for g in [*mine, None]:
            if free is None:
                break
            if g is None:
                if (ends - free).total_seconds() > within:
                    late.append(f"{pid} free at {free:%H:%M:%S.%f} and never paired again before the end "
                                f"({ends:%H:%M:%S.%f})")
                break
            wait = (g.created - free).total_seconds()
            waits.append(wait)
            if wait < 0:
                late.append(f"{pid} paired into {g.table} at {g.created:%H:%M:%S.%f}, while still playing")
            elif wait > within:
                late.append(f"{pid} free at {free:%H:%M:%S.%f} waited {wait:.1f} s for {g.table}")
            free = g.ended
    return late, waits


def final_scores(db: str, arena: str) -> dict[str, int]:
    """Each player's score in the arena's stored final standings."""
    from sqlalchemy import create_engine, select

    from diloti.store.db import normalize_url
    from diloti.store.models import ArenaResultRow

    engine = create_engine(normalize_url(db))
    try:
        with engine.connect() as conn:
            return dict(conn.execute(select(ArenaResultRow.player_id, ArenaResultRow.score)
                                     .where(ArenaResultRow.arena_id == arena)).all())
    finally:
        engine.dispose()


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Serve:
    """A ``diloti serve`` process for the arenas (its log in a file)."""

    def __init__(self, db: str, *args: str, logdir: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = (logdir / f"serve-{self.port}.log").open("w")
        self.proc = subprocess.Popen([sys.executable, "-m", "diloti", "serve", "--db", db, "--port", str(self.port),
                                      "--log-level", "warning", *args], stdout=self.log, stderr=subprocess.STDOUT,
                                     preexec_fn=dies_with_parent)
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{self.base}/healthz", timeout=2, trust_env=False).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"arena: the server did not start (log: {self.log.name})")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


def cpu_seconds(pid: int) -> float:
    """The CPU seconds (user and system) a process and its waited-for children used so far (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    import os

    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


async def everyone(players: list[ArenaPlayer], limit: float) -> list[BaseException | None]:
    """Run every player in this event loop until each is done (at most ``limit`` seconds): what each raised."""
    # An HTTP client each, as a page has: one client shared by all 200 answered 877 requests with errors (measured).
    tasks = [asyncio.create_task(p.run()) for p in players]
    await asyncio.wait(tasks, timeout=limit)
    late = [t for t in tasks if not t.done()]
    for t in late:
        t.cancel()
    await asyncio.gather(*late, return_exceptions=True)
    return [TimeoutError("not done in time") if t.cancelled() else t.exception() for t in tasks]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=positive_int, default=200)
    p.add_argument("--servers", "--processes", dest="servers", type=positive_int, default=2,
                   help="diloti serve processes on the one PostgreSQL (default 2)")
    p.add_argument("--minutes", type=positive_int, default=3, help="the arena's length in its minutes (default 3)")
    p.add_argument("--minute", type=positive_float, default=20.0, help="seconds an arena minute lasts (default 20)")
    p.add_argument("--target", type=positive_int, default=11, help="the games' target points (default 11: short games)")
    p.add_argument("--workers", type=positive_int, default=1, help="worker processes of each server (default 1)")
    p.add_argument("--poll", type=positive_float, default=1.0,
                   help="with --no-push: seconds between a free player's polls "
                   "(default 1: the pairing delay includes up to one poll)")
    p.add_argument("--no-push", action="store_true", help="players poll /me for their games (the fallback) "
                   "instead of following the arena on the websocket")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    db = fresh_postgres("diloti_arena")
    logdir = Path(tempfile.mkdtemp(prefix="diloti-arena-"))
    flags = ("--workers", str(args.workers), "--arena-minute", str(args.minute), "--arena-tick", "0.5",
             "--limit", "players=100000/hour", "--limit", "arena_join=100000/minute",
             "--limit", "poll=100000/minute")
    servers: list[Serve] = []
    try:
        for _ in range(args.servers):  # one after the other: the first migrates the fresh database alone
            servers.append(Serve(db, *flags, logdir=logdir))
        bases = [s.base for s in servers]
        rng = random.Random(args.seed)
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(16) as pool:  # sign-ups and joins 16 at a time (a loaded machine is slow at them)
            accounts = list(pool.map(lambda i: signed_up(bases[i % len(bases)], f"Sim{i:03d}"), range(args.players)))
            # Time to join everyone before it starts.
            arena = open_arena(bases[0], accounts[0][1], minutes=args.minutes, starts_in=20 + args.players // 2,
                               wait=10, options={"target": args.target}, clock={"move": 10, "reserve": 30})
            homes = [bases[i % len(bases):] + bases[:i % len(bases)] for i in range(args.players)]
            secrets = list(pool.map(lambda i: join(homes[i][0], accounts[i][1], arena["id"]), range(args.players)))
        players = [ArenaPlayer(homes[i], key, pid, arena["id"], secrets[i], random.Random(rng.random()), poll=args.poll,
                               push=not args.no_push, address=f"10.77.{i // 250}.{i % 250 + 1}")
                   for i, (pid, key) in enumerate(accounts)]
        load0 = Path("/proc/loadavg").read_text().split()[:3]
        cpu0 = [cpu_seconds(s.proc.pid) for s in servers]
        me0 = time.process_time()
        outcomes = asyncio.run(everyone(players, args.minutes * args.minute + 600))
        me1 = time.process_time() - me0
        failed = [f"{p.player}: {o!r}"[:200] for p, o in zip(players, outcomes, strict=True) if o is not None]
        final = httpx.get(f"{bases[0]}/api/arenas/{arena['id']}", timeout=30).json()
        while final["status"] != "over":
            time.sleep(1)
            final = httpx.get(f"{bases[0]}/api/arenas/{arena['id']}", timeout=30).json()
        cpu = [cpu_seconds(s.proc.pid) - c for s, c in zip(servers, cpu0, strict=True)]
        load1 = Path("/proc/loadavg").read_text().split()[:3]
        delays = [g.delay for pl in players for g in pl.games[1:]]
        moves = [m for pl in players for m in pl.moves]
        want = expected_scores(players)
        shown = {ln["player"]: ln["score"] for ln in final["standings"]}
        got = final_scores(db, arena["id"])  # every player's (the document shows the first 100)
        agree = sum(got.get(p, 0) == s for p, s in want.items())  # no row: no game, 0
        agree_shown = sum(shown[p] == want.get(p) for p in shown)
        late, waits = late_pairings(db, arena["id"], 10 + 2.0)
        print(f"arena: {args.players} players on {args.servers} processes, {args.minutes} min of {args.minute:g} s, "
              f"target {args.target}, games {'polled' if args.no_push else 'pushed'}: "
              f"{sum(len(pl.games) for pl in players)} player-games")
        print(f"pairing delay: p50 {quantile(delays, 0.5) * 1000:.0f} ms, "
              f"p99 {quantile(delays, 0.99) * 1000:.0f} ms ({len(delays)} pairings after a game, as the players "
              "saw them: from a game's end to the next game)")
        print(f"paired after being free (the arena's record): p50 {quantile(waits, 0.5) * 1000:.0f} ms, "
              f"p99 {quantile(waits, 0.99) * 1000:.0f} ms ({len(waits)}; a player alone waits the arena's 10 s for "
              f"the computer); later than 12 s: {len(late)}")
        print(f"moves: p50 {quantile(moves, 0.5) * 1000:.0f} ms, p99 {quantile(moves, 0.99) * 1000:.0f} ms "
              f"({len(moves)} moves)")
        found: dict[str, int] = {}
        for g in (g for pl in players for g in pl.games):
            found[g.found] = found.get(g.found, 0) + 1
        print(f"games found: by push {found.pop('push', 0)}, by /me {sum(found.values())} "
              f"({', '.join(f'{n} {w}' for w, n in sorted(found.items())) or 'none'}: 'quiet' asked after "
              f"{players[0].fallback:g} s without a message, 'end' at the arena's end, 'poll' without push); "
              f"of those, pushed later: {sum(pl.late for pl in players)}")
        print(f"games pushed {sum(pl.pushed for pl in players)}, /me requests {sum(pl.polls for pl in players)}, "
              f"answers rate_limited {sum(pl.limited for pl in players)}, failovers "
              f"{sum(pl.failovers for pl in players)}")
        print(f"cost: server CPU {' + '.join(f'{c:.0f}' for c in cpu)} s, the players' process {me1:.0f} s over "
              f"the arena; load average "
              f"{' '.join(load0)} before, {' '.join(load1)} after")
        kinds: dict[str, int] = {}
        for e in (e for pl in players for e in pl.errors):  # "12.3s game T: Class what it said"
            kind = e.split(": ", 1)[-1].replace(arena["id"], "ID")
            kinds[kind] = kinds.get(kind, 0) + 1
        print(f"errors failed over (the server kept if it answered): "
              f"{'; '.join(f'{n} {k}' for k, n in sorted(kinds.items(), key=lambda x: -x[1])[:6]) or 'none'}")
        for line in failed[:5]:
            print(f"player failed: {line}")
        print(f"final standings (stored) agree with the games' results for {agree}/{len(want)} players; the "
              f"document's first {len(shown)} lines for {agree_shown}")
        return 0
    finally:
        for s in servers:
            s.stop()


if __name__ == "__main__":
    raise SystemExit(main())
