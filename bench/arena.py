"""An arena of simulated players on ``diloti serve`` processes: the pairing delay and the moves' round trips.

Each simulated player is a thread, a client of its own address (X-Forwarded-For, trusted from this machine): it
follows the arena on a websocket with its arena secret, which keeps it present and brings each of its games as
the server pairs it (``arena_game``; ``GET /api/arenas/{id}/me`` only as the fallback, or alone with
``--no-push``), plays each game over another websocket (a random legal move at once) and notes how long it waited
between the end of a game and the start of the next (the pairing delay) and each move's round trip (sent to seen
played). A player whose server dies goes on through the next one (its game is taken over there). The tests of the
arena (tests/test_arena.py, tests/test_arena_cluster.py) drive the same players.

    .venv/bin/python bench/arena.py --players 200 --processes 2 --minutes 3 --minute 20

prints the pairing delay p50/p99, the moves' p99, the games played and whether the standings agree with the
games' results (docs/SERVER.md, Arenas).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_servers import dies_with_parent, free_port, fresh_postgres

from diloti.store.arena import score_sheet


@dataclass
class Played:
    """One game a simulated player finished."""

    table: str
    seat: int
    won: bool | None  # None: drawn
    delay: float  # seconds from the end of the previous game (or the start) to this one's pairing
    opponent: str | None = None  # the other seat's player id (None: the computer)


class Unreachable(Exception):
    """The server did not answer (refused, reset, closed mid-game): another one is tried."""


@dataclass
class ArenaPlayer:
    """A simulated player of one arena, on the servers ``bases`` (the first that answers).

    A server that answers is kept, whatever it answers (a ``429`` is waited out as its ``Retry-After`` says);
    only one that does not answer is left for the next (a killed process's players go on through the other).
    A server that did not answer is tried again only when every other did not answer either: a dead process is
    not flipped back to while a live one answers."""

    bases: list[str]
    key: str
    player: str
    arena: str
    secret: str
    rng: random.Random
    poll: float = 0.2  # seconds between two polls of /me, without push
    push: bool = True  # follow the arena on a websocket with the secret: games pushed, /me only as a fallback
    fallback: float = 5.0  # seconds without a message after which /me is asked (push)
    address: str | None = None  # the player's own address, as a trusted proxy names it (X-Forwarded-For)
    games: list[Played] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)  # each move's round trip, seconds
    errors: list[str] = field(default_factory=list)
    failovers: int = 0
    limited: int = 0  # answers "rate_limited" (HTTP 429, or a move dropped by the websocket's rate), waited out
    pushed: int = 0  # games learnt of from an arena_game message
    polls: int = 0  # requests to /me
    thread: threading.Thread | None = None
    down: set[str] = field(default_factory=set)  # bases that did not answer last time they were tried
    born: float = field(default_factory=time.monotonic)

    @property
    def base(self) -> str:
        return self.bases[0]

    def fail_over(self, why: str) -> None:
        """Something failed on the current server: it is kept if it still answers (a connection dropped by a
        loaded server, a slow answer), else the next one that has not failed too (any, if all have) is tried."""
        self.errors.append(f"{time.monotonic() - self.born:.1f}s {why}")
        time.sleep(0.2)
        try:
            if httpx.get(f"{self.base}/healthz", timeout=5, trust_env=False).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        self.down.add(self.base)
        if len(self.bases) > 1:
            alive = [b for b in self.bases[1:] if b not in self.down]
            if not alive:
                self.down.clear()  # every one failed: each is tried again in turn
            nxt = alive[0] if alive else self.bases[1]
            i = self.bases.index(nxt)
            self.bases = self.bases[i:] + self.bases[:i]
            self.failovers += 1

    def headers(self, key: bool = True) -> dict[str, str]:
        """The player's key, and their address as the proxy (this machine, trusted by default) names it: each
        simulated player is a client of its own, under the per-address limits (20 websockets ...)."""
        out = {"Authorization": f"Bearer {self.key}"} if key else {}
        return out | ({"X-Forwarded-For": self.address} if self.address else {})

    def socket(self) -> ClientConnection:
        return connect(f"{self.base.replace('http', 'ws', 1)}/ws", open_timeout=10, max_queue=4096,
                       additional_headers=self.headers(key=False), proxy=None)

    def answered(self) -> None:
        self.down.discard(self.base)

    def start(self) -> None:
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def get(self, path: str) -> dict[str, Any]:
        """``GET path`` on the current server with the player's key: waits out a 429, raises Unreachable for a
        server that does not answer (or answers 5xx: a process being killed), AssertionError for another error."""
        while True:
            try:
                r = httpx.get(f"{self.base}{path}", timeout=10, headers=self.headers(), trust_env=False)
            except httpx.HTTPError as exc:
                raise Unreachable(f"GET {path}: {exc.__class__.__name__}") from None
            if r.status_code == 429:  # over the poll limit: this server answered, so it is waited out here
                self.limited += 1
                time.sleep(min(5.0, float(r.headers.get("retry-after") or 1)))
                continue
            if r.status_code >= 500:
                raise Unreachable(f"GET {path}: {r.status_code}")
            assert r.status_code == 200, f"GET {path}: {r.status_code} {r.text[:200]}"
            self.answered()
            return dict(r.json())

    def run(self) -> None:
        self._free = time.monotonic()
        self._done: set[str] = set()
        while True:
            try:
                if self.push:
                    with self.socket() as ws:
                        self._listen(ws)
                else:
                    self._poll()
                return
            except (OSError, TimeoutError, Unreachable) as exc:
                self.fail_over(f"arena: {exc.__class__.__name__}")
            except Exception as exc:  # the connection closed by a dying server
                if "ConnectionClosed" not in exc.__class__.__name__ and "InvalidStatus" not in exc.__class__.__name__:
                    raise
                self.fail_over(f"arena: {exc.__class__.__name__}")

    def _listen(self, ws: ClientConnection) -> None:
        """The arena followed with the player's secret: each game as the server pushes it (``arena_game``), until
        the arena is over; ``/me`` asked only when nothing came for ``fallback`` seconds, or at the end."""
        ws.send(json.dumps({"type": "arena", "arena": self.arena, "secret": self.secret}))
        self.answered()
        while True:
            try:
                msg = json.loads(ws.recv(timeout=self.fallback))
            except TimeoutError:
                msg = None
            if msg is None or (msg["type"] == "arena" and msg["arena"]["status"] in ("finishing", "over")):
                # Nothing for a while (a lost message?), or the end: /me says whether a game is left to play.
                me = self.get(f"/api/arenas/{self.arena}/me")
                self.polls += 1
                if me["table"] is not None and me["table"] not in self._done:
                    self._game(me["table"], me["seat"])
                elif me["status"] in ("finishing", "over"):
                    return
            elif msg["type"] == "arena_game":
                if msg["table"] not in self._done:
                    self.pushed += 1
                    self._game(msg["table"], msg["seat"])
            elif msg["type"] == "error" and msg["code"] != "rate_limited":
                raise AssertionError(f"arena {self.arena}: {msg}")

    def _poll(self) -> None:
        """The fallback alone: ``/me`` every ``poll`` seconds (it keeps the player present, and says their game)."""
        while True:
            me = self.get(f"/api/arenas/{self.arena}/me")
            self.polls += 1
            if me["table"] is not None and me["table"] not in self._done:
                self._game(me["table"], me["seat"])
                continue
            if me["status"] in ("finishing", "over") and (me["table"] is None or me["table"] in self._done):
                return
            time.sleep(self.poll)

    def _game(self, table: str, seat: int) -> None:
        delay = time.monotonic() - self._free
        won = self.play(table, seat)
        self._done.add(table)
        self.games.append(Played(table, seat, won, delay))
        self._free = time.monotonic()

    def play(self, table: str, seat: int) -> bool | None:
        """Play the game out (through another server if this one dies); who won, from this seat's side."""
        while True:
            try:
                with self.socket() as ws:
                    result = self._play(ws, table, seat)
                self.answered()
                return result
            except (OSError, TimeoutError, Unreachable) as exc:
                self.fail_over(f"game {table}: {exc.__class__.__name__}")
            except Exception as exc:  # the connection closed by a dying server
                if "ConnectionClosed" not in exc.__class__.__name__ and "InvalidStatus" not in exc.__class__.__name__:
                    raise
                self.fail_over(f"game {table}: {exc.__class__.__name__}")

    def _play(self, ws: ClientConnection, table: str, seat: int) -> bool | None:
        ws.send(json.dumps({"type": "hello", "table": table, "token": self.secret}))
        sent: dict[int, float] = {}
        pending: dict[str, Any] | None = None  # the move sent and not yet seen played
        while True:
            msg = json.loads(ws.recv(timeout=60))
            kind = msg["type"]
            if kind == "error":
                if msg["code"] == "rate_limited" and pending is not None:
                    # Dropped by the connection's message rate (a person does not play 20 moves a second; a
                    # simulated one at a fast table does): sent again once the rate has room, or the game would
                    # wait for this seat's clock to run out.
                    self.limited += 1
                    time.sleep(0.1)
                    sent[pending["ply"]] = time.monotonic()
                    ws.send(json.dumps(pending))
                    continue
                if msg["code"] in ("stale", "not_your_turn"):  # the next state says where the game is
                    if pending is not None:
                        sent.pop(pending["ply"], None)  # a state at that ply again is played again
                    pending = None
                    continue
                raise AssertionError(f"{table}: {msg}")
            if kind == "played":
                at = sent.pop(msg.get("ply", -1) - 1, None)
                if at is not None:
                    self.moves.append(time.monotonic() - at)
            if kind != "state":
                continue
            if msg["phase"] == "over":  # the winner as stored (the summary's: a resignation's too)
                w = self.get(f"/api/tables/{table}")["winner"]
                return None if w is None else w == seat % 2
            if msg["your_turn"] and msg["ply"] not in sent:
                pending = {"type": "move", "move": self.rng.choice(msg["legal"])["move"], "ply": msg["ply"]}
                sent[msg["ply"]] = time.monotonic()
                ws.send(json.dumps(pending))


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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--servers", "--processes", dest="servers", type=int, default=2,
                   help="diloti serve processes on the one PostgreSQL (default 2)")
    p.add_argument("--minutes", type=int, default=3, help="the arena's length in its minutes (default 3)")
    p.add_argument("--minute", type=float, default=20.0, help="seconds an arena minute lasts (default 20)")
    p.add_argument("--target", type=int, default=11, help="the games' target points (default 11: short games)")
    p.add_argument("--workers", type=int, default=1, help="worker processes of each server (default 1)")
    p.add_argument("--poll", type=float, default=1.0, help="with --no-push: seconds between a free player's polls "
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
        for pl in players:
            pl.start()
        for pl in players:
            assert pl.thread is not None
            pl.thread.join(args.minutes * args.minute + 600)
        final = httpx.get(f"{bases[0]}/api/arenas/{arena['id']}", timeout=30).json()
        while final["status"] != "over":
            time.sleep(1)
            final = httpx.get(f"{bases[0]}/api/arenas/{arena['id']}", timeout=30).json()
        cpu = [cpu_seconds(s.proc.pid) - c for s, c in zip(servers, cpu0, strict=True)]
        load1 = Path("/proc/loadavg").read_text().split()[:3]
        delays = [g.delay for pl in players for g in pl.games[1:]]
        moves = [m for pl in players for m in pl.moves]
        want = expected_scores(players)
        got = {ln["player"]: ln["score"] for ln in final["standings"]}
        agree = sum(got.get(p) == s for p, s in want.items())
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
        print(f"games pushed {sum(pl.pushed for pl in players)}, /me requests {sum(pl.polls for pl in players)}, "
              f"answers rate_limited {sum(pl.limited for pl in players)}, failovers "
              f"{sum(pl.failovers for pl in players)}")
        print(f"cost: server CPU {' + '.join(f'{c:.0f}' for c in cpu)} s over the arena; load average "
              f"{' '.join(load0)} before, {' '.join(load1)} after")
        print(f"standings agree with the games' results for {agree}/{len(want)} players (shown: the first "
              f"{len(got)})")
        return 0
    finally:
        for s in servers:
            s.stop()


if __name__ == "__main__":
    raise SystemExit(main())
