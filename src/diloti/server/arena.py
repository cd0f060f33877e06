"""Arena tournaments, as lichess runs them: a start, a length, a game for two with its options and a clock.

Players who come back join before or during it; as soon as a player's game ends they are paired again, by a
pass every :attr:`ArenaConfig.tick` seconds, with a free player of the nearest tournament score who was not
their last opponent; a player left alone the arena's ``wait`` plays the computer of the level nearest their
rating, so a player alone still plays. Pairing stops at the end; the games under way then are played out and
count, and the final standings are stored once they are over (or :attr:`ArenaConfig.grace` seconds after the
end, whatever is still played). Scoring is lichess's (:func:`diloti.store.arena.score_sheet`): win 2, draw 1,
loss 0, each doubled after two wins in a row. The games are rated as any rated game.

Every process runs the same loop: the pairing of one arena is one transaction with the arena's row locked
(:meth:`~diloti.store.arena.ArenaStore.pair`: made once), the standings are computed from the stored results (the
same from every process), and a process killed mid-arena loses nothing its games did not store: its tables are
taken over as any table. Scheduled arenas (``--arena hourly:minutes=30``) are made by whichever process comes
first (unique by schedule and start). A player is paired only while their page is open: it follows the arena on
its websocket with the player's arena secret (which keeps them present, and brings each new game of theirs as an
``arena_game`` message, from whichever process paired it: a PostgreSQL notice), or, as a fallback, polls
``GET /api/arenas/{id}/me``; a player who closes the tab mid-game keeps the game, played on under the table's away
rules, and may come back or withdraw.

>>> parse_schedule("hourly:minutes=30,at=15")
Scheduled(name='hourly', every=3600, offset=900, minutes=30, clock=(20, 120), wait=30)
>>> parse_schedule("daily:at=18:30,minutes=60").offset
66600
>>> parse_schedule("weekly")
Traceback (most recent call last):
...
ValueError: invalid arena schedule 'weekly': expected hourly or daily, then :KEY=VALUE,... (minutes, at, move, \
reserve, wait)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request

from diloti.core.errors import DilotiError
from diloti.games import DEFAULT_GAME, GAMES
from diloti.server.event_models import Arena, ArenaJoined, ArenaList, ArenaMine, ArenaSecret, NewArena, PlayerArenas
from diloti.server.limits import Limiter
from diloti.server.live import AWAY_LEVEL, GRACE, Connection, token_hash
from diloti.server.player_models import Done
from diloti.server.protocol import ProtocolError, clean_name, read_body
from diloti.server.quickplay import level_near
from diloti.server.ratings import shown
from diloti.server.seating import parse_clock
from diloti.store.arena import GAME_NOTICE, LIVE, ArenaData, ArenaStore, Entry, Game, Line, Paired
from diloti.store.db import SeatData, TableData, now

if TYPE_CHECKING:
    from diloti.server.players import Players
    from diloti.server.tables import TableManager

log = logging.getLogger("diloti.server")

CLOCK = (20, 120)  # an arena's default clock: seconds a move, reserve seconds
FOLLOW_MAX = 5  # arenas one websocket may follow
SHOWN = 100  # standings lines and games an arena's document holds
PRESENT_WRITE = 5.0  # seconds between two writes of a polling player's presence (counted present for 20)


@dataclass
class Scheduled:
    """A scheduled arena: every hour (``offset`` seconds past it) or every day (``offset`` past midnight UTC)."""

    name: str
    every: int
    offset: int
    minutes: int = 30
    clock: tuple[int, int] = CLOCK
    wait: int = 30

    def starts(self, at: datetime) -> list[datetime]:
        """The starts of the occurrence under way at ``at`` (if any) and of the next one."""
        epoch = int(at.timestamp())
        base = (epoch - self.offset) // self.every * self.every + self.offset
        out = [datetime.fromtimestamp(base, UTC), datetime.fromtimestamp(base + self.every, UTC)]
        return [s for s in out if s + timedelta(minutes=self.minutes) > at]


def parse_schedule(text: str) -> Scheduled:
    """A ``--arena`` setting: ``hourly`` or ``daily``, then ``:KEY=VALUE,...`` (``minutes``, ``at``: minutes past
    the hour or HH:MM UTC, ``move``/``reserve``: the clock's seconds, ``wait``: seconds before a computer)."""
    kind, _, rest = text.partition(":")
    bad = ValueError(f"invalid arena schedule {text!r:.60}: expected hourly or daily, then :KEY=VALUE,... "
                     "(minutes, at, move, reserve, wait)")
    if kind not in ("hourly", "daily"):
        raise bad
    s = Scheduled(kind, 3600 if kind == "hourly" else 86400, 0)
    move, reserve = CLOCK
    for part in filter(None, rest.split(",")):
        key, _, value = part.partition("=")
        try:
            if key == "at":
                h, _, m = value.partition(":")
                s.offset = int(h) * 60 if kind == "hourly" and not m else int(h) * 3600 + int(m or 0) * 60
                if not 0 <= s.offset < s.every:
                    raise bad
            elif key in ("minutes", "move", "reserve", "wait"):
                number = int(value)
                if number < (0 if key == "reserve" else 1):
                    raise bad
                if key == "minutes":
                    s.minutes = number
                elif key == "move":
                    move = number
                elif key == "reserve":
                    reserve = number
                else:
                    s.wait = number
            else:
                raise bad
        except ValueError:
            raise bad from None
    if s.minutes * 60 > s.every:
        raise ValueError(f"invalid arena schedule {text!r:.60}: {s.minutes} minutes do not fit in its period")
    s.clock = (move, reserve)
    return s


@dataclass
class ArenaConfig:
    """The arenas' timing: the scheduled arenas, the pairing pass's period, how recent a player's poll must be for
    them to be paired, the grace after the end before the final standings are stored whatever is still played,
    and ``minute``: the seconds an arena's minute lasts (60; the tests run a real 3-minute arena in less)."""

    schedules: list[Scheduled] = field(default_factory=list)
    tick: float = 1.0
    present: float = 20.0
    grace: float = 600.0
    minute: float = 60.0


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _status(a: ArenaData, at: datetime) -> str:
    if a.final:
        return "over"
    return "upcoming" if at < a.starts else "running" if at < a.ends else "finishing"


def document(a: ArenaData, lines: list[Line], games: list[Game], at: datetime,
             shown_max: int = SHOWN) -> dict[str, Any]:
    """The arena as the API and the websocket show it."""
    playing = [g for g in games if g.status in LIVE]
    return {"id": a.id, "name": a.name, "game": a.game, "players": a.players, "options": a.options,
            "clock": {"move": a.clock[0], "reserve": a.clock[1]}, "starts": _iso(a.starts), "seconds": a.seconds,
            "wait": a.wait, "status": _status(a, at),
            "starts_in": max(0, int((a.starts - at).total_seconds())),
            "ends_in": max(0, int((a.ends - at).total_seconds())), "schedule": a.schedule, "creator": a.creator,
            "standings": [ln.public() for ln in lines[:shown_max]],
            "playing": [{"table": g.table_id, "players": g.names, "level": g.level, "status": g.status}
                        for g in playing[:shown_max]],
            "played": [{"table": g.table_id, "players": g.names, "level": g.level, "winner": g.winner,
                        "end_reason": g.end_reason, "replay": f"/?replay={g.table_id}"}
                       for g in reversed(games) if g.status == "over"][:shown_max]}


class ArenaDesk:
    """The arenas' routes' work, the pairing loop of this process and the websockets that follow arenas."""

    def __init__(self, manager: Callable[[], TableManager], players: Players, limiter: Limiter,
                 config: ArenaConfig) -> None:
        self.manager = manager
        self.players = players
        self.limiter = limiter
        self.config = config
        self.followers: dict[str, set[Connection]] = {}
        self.following: dict[Connection, set[str]] = {}
        self._sent: dict[str, str] = {}
        self._task: asyncio.Task[None] | None = None
        self._scheduled_at = 0.0
        self.paired = 0  # tables this process made by pairing (the benchmark reads it)
        self._marked: dict[tuple[str, str], float] = {}  # (arena, player) -> when their presence was written
        # The connections that follow an arena with a player's secret: (arena, player) -> them, and back.
        self.seated: dict[tuple[str, str], set[Connection]] = {}
        self.seats_of: dict[Connection, set[tuple[str, str]]] = {}
        self._present_at: dict[str, float] = {}  # arena -> when its connected players' presence was last written
        # arena -> (when, its document as the last pass computed it for the followers): a new follower gets that,
        # not a document of its own (200 pages opening at once each read the whole arena: minutes on a busy
        # process); it is what every follower has, and the next change is pushed to all.
        self._docs: dict[str, tuple[float, dict[str, Any]]] = {}
        self._reading: dict[str, asyncio.Future[dict[str, Any] | None]] = {}

    @property
    def store(self) -> ArenaStore:
        return ArenaStore(self.manager().store)

    # ---------------------------------------------------------------- the loop
    def start(self) -> None:
        mgr = self.manager()
        mgr.arenas = self
        if mgr.replica is not None:  # a pairing made by another process, for a player connected here
            mgr.replica.listeners[GAME_NOTICE] = self.heard
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _loop(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database out of reach, a bug: the next pass tries again
                log.warning("arena pass failed: %s", exc, exc_info=not isinstance(exc, DilotiError))
            await asyncio.sleep(self.config.tick)

    async def tick(self) -> None:
        """One pass: the scheduled arenas made, each running arena paired, each ended one finished, the standings
        sent to those who follow them."""
        mgr = self.manager()
        at = now()
        loop = asyncio.get_running_loop()
        if self.config.schedules and loop.time() - self._scheduled_at >= 30.0:
            await self._schedule(at)
            self._scheduled_at = loop.time()
        for a in await mgr.db(self.store.listing, at, timedelta(seconds=0), 0):
            if a.starts <= at < a.ends:
                await self._keep_present(a.id)
                made = await mgr.db(self.store.pair, a.id, at, self.config.present, level_near, self._table)
                await self._seat(a.id, made)
            elif at >= a.ends:
                await mgr.db(self.store.finish, a.id, at, self.config.grace)
        for arena_id, conns in list(self.followers.items()):
            if conns:
                await self._push(arena_id, conns)

    async def _schedule(self, at: datetime) -> None:
        for s in self.config.schedules:
            for starts in s.starts(at):
                name = f"{s.name.capitalize()} {s.minutes}′ {_iso(starts)[11:16]}"
                a = ArenaData(secrets.token_urlsafe(6), name, DEFAULT_GAME, 2, GAMES[DEFAULT_GAME].options().to_dict(),
                              s.clock, starts, int(s.minutes * self.config.minute), s.wait, s.name, None, at)
                await self.manager().db(self.store.create, a)

    def _table(self, arena: ArenaData, entries: list[Entry | None], level: str | None) -> TableData:
        """A new arena game's table: its players' seats held by their arena secrets, rated, the arena's clock."""
        seats = [SeatData(i, "bot", level) if e is None else
                 SeatData(i, "human", None, e.name, e.secret_hash, player_id=e.player_id)
                 for i, e in enumerate(entries)]
        return TableData(secrets.token_urlsafe(8), arena.players, arena.options, secrets.randbelow(2**63), 0, True,
                         "playing", seats=seats, away_level=AWAY_LEVEL, grace=GRACE, clock=arena.clock, rated=True,
                         game=arena.game, event=f"arena:{arena.id}")

    async def _seat(self, arena_id: str, made: list[Paired]) -> None:
        """Each player connected here told, then the new tables held here and their computer seats run here.

        Every player is told first, at once: the games are stored (the pairing's transaction committed), and the
        other processes' players heard of theirs at that commit. Telling them after each table's claim and load
        (round trips queued behind the moves' commits on a busy database thread) held the last games' players
        back for seconds, so that their pages found their games through ``/me`` before the push. The tables are
        claimed in one statement, not one each, and loaded in the background."""
        mgr = self.manager()
        for g in made:
            self.paired += 1
            for seat, pid in enumerate(g.seats):
                if pid is not None:
                    self.tell(arena_id, pid, g.table, seat)
        if made:
            await mgr.owners.claim([g.table for g in made])
            # Loaded off the pass: a hundred tables loaded one by one, each behind the moves' commits, held the
            # next passes back for tens of seconds (measured: two passes paired in a 60-second arena of 200).
            # The computer's games first: their computer may have the first move.
            mgr.background.spawn(self._hold([g.table for g in sorted(made, key=lambda g: not g.computer)]))

    async def _hold(self, tables: list[str]) -> None:
        """The new tables loaded here and their computer seats run."""
        mgr = self.manager()
        for tid in tables:
            table = await mgr.get(tid)
            if table is not None:
                mgr.computers.kick(table)

    def tell(self, arena_id: str, player_id: str, table_id: str, seat: int) -> None:
        """The player's new game, to their connections here that follow the arena."""
        for c in list(self.seated.get((arena_id, player_id), ())):
            c.send({"type": "arena_game", "arena": arena_id, "table": table_id, "seat": seat})

    def heard(self, notice: dict[str, Any]) -> None:
        """Another process paired a player: told to their connections here (a notice is checked, never trusted)."""
        arena_id, pid, tid, seat = notice.get("a"), notice.get("p"), notice.get("t"), notice.get("s")
        if isinstance(arena_id, str) and isinstance(pid, str) and isinstance(tid, str) and type(seat) is int:
            self.tell(arena_id, pid, tid, seat)

    async def _keep_present(self, arena_id: str) -> None:
        """The players whose websockets follow the arena here are present: written once in PRESENT_WRITE seconds
        for all of them (one statement), so that any process's pass may pair them."""
        clock = asyncio.get_running_loop().time()
        if clock - self._present_at.get(arena_id, -1e9) < min(PRESENT_WRITE, self.config.present / 4):
            return
        here = sorted(pid for (aid, pid), conns in self.seated.items() if aid == arena_id and conns)
        if here:
            await self.manager().db(self.store.seen_many, arena_id, here, now())
        self._present_at[arena_id] = clock

    async def _push(self, arena_id: str, conns: set[Connection]) -> None:
        doc = await self.document(arena_id)
        if doc is None:
            return
        self._docs[arena_id] = (asyncio.get_running_loop().time(), doc)
        key = json.dumps({k: v for k, v in doc.items() if k not in ("starts_in", "ends_in")}, sort_keys=True)
        if self._sent.get(arena_id) == key:
            return
        self._sent[arena_id] = key
        for c in list(conns):
            c.send({"type": "arena", "arena": doc})

    # ---------------------------------------------------------------- following
    async def follow(self, conn: Connection, arena_id: str, secret: str | None = None) -> None:
        """``conn`` follows the arena: its document now, and again at each change; with the player's arena secret,
        their games too (the one under way now, then each new one), and it keeps them present while open."""
        mine = self.following.setdefault(conn, set())
        if arena_id not in mine and len(mine) >= FOLLOW_MAX:
            raise ProtocolError("too_many_arenas", f"a connection follows at most {FOLLOW_MAX} arenas")
        doc = await self._shared(arena_id)
        if doc is None:
            raise ProtocolError("unknown_arena", f"no arena {arena_id!r:.40}")
        mgr = self.manager()
        found = None if secret is None else await mgr.db(self.store.player_of, arena_id, token_hash(secret))
        if secret is not None and found is None:
            raise ProtocolError("bad_token", f"that secret is no player's of arena {arena_id} (joined, not withdrawn)")
        mine.add(arena_id)
        self.followers.setdefault(arena_id, set()).add(conn)
        conn.send({"type": "arena", "arena": doc})
        if found is not None:
            pid, table, seat = found
            self.seated.setdefault((arena_id, pid), set()).add(conn)
            self.seats_of.setdefault(conn, set()).add((arena_id, pid))
            await mgr.db(self.store.seen, arena_id, pid, now())  # present from now, not from the next write
            if table is not None and seat is not None:
                conn.send({"type": "arena_game", "arena": arena_id, "table": table, "seat": seat})

    async def _shared(self, arena_id: str) -> dict[str, Any] | None:
        """The arena's document for a new follower: the last pass's if recent, else one read for all the followers
        that come meanwhile (pages opened at once wait for the same read)."""
        loop = asyncio.get_running_loop()
        last = self._docs.get(arena_id)
        if last is not None and loop.time() - last[0] <= 2 * self.config.tick + 1.0:
            return last[1]
        reading = self._reading.get(arena_id)
        if reading is None:
            reading = self._reading[arena_id] = asyncio.ensure_future(self.document(arena_id))
            reading.add_done_callback(lambda _: self._reading.pop(arena_id, None))
        at = loop.time()
        doc = await asyncio.shield(reading)
        if doc is not None and (arena_id not in self._docs or self._docs[arena_id][0] < at):
            self._docs[arena_id] = (at, doc)
        return doc

    def forget(self, conn: Connection) -> None:
        for key in self.seats_of.pop(conn, set()):
            held = self.seated.get(key)
            if held is not None:
                held.discard(conn)
                if not held:
                    del self.seated[key]
        for arena_id in self.following.pop(conn, set()):
            conns = self.followers.get(arena_id)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self.followers[arena_id]
                    self._sent.pop(arena_id, None)
                    self._docs.pop(arena_id, None)

    # ---------------------------------------------------------------- the routes' work
    async def document(self, arena_id: str, shown_max: int = SHOWN) -> dict[str, Any] | None:
        mgr = self.manager()
        a = await mgr.db(self.store.get, arena_id) if isinstance(arena_id, str) and len(arena_id) <= 16 else None
        if a is None:
            return None
        lines, games = await mgr.db(self.store.standings, arena_id)
        return document(a, lines, games, now(), shown_max)

    async def _must(self, arena_id: str) -> ArenaData:
        a = await self.manager().db(self.store.get, arena_id) if len(arena_id) <= 16 else None
        if a is None:
            raise ProtocolError("unknown_arena", f"no arena {arena_id!r:.40}", 404)
        return a

    async def one(self, request: Request, arena_id: str) -> dict[str, Any]:
        """The arena; with the player's key, their line (and the poll marks them present: they may be paired)."""
        player = await self.players.optional(request)
        self.limiter.check("poll", request, key=None if player is None else f"player:{player.id}")
        await self._must(arena_id)
        mgr = self.manager()
        if player is not None:
            await mgr.db(self.store.seen, arena_id, player.id, now())
        doc = await self.document(arena_id)
        assert doc is not None
        if player is not None:
            lines, _ = await mgr.db(self.store.standings, arena_id)
            me = next((ln for ln in lines if ln.player_id == player.id), None)
            doc["me"] = None if me is None else me.public()
        return doc

    async def mine(self, request: Request, arena_id: str) -> dict[str, Any]:
        """The player's game now (polled by their page: it marks them present, so they may be paired)."""
        player = await self.players.me(request)
        self.limiter.check("poll", request, key=f"player:{player.id}")
        a = await self._must(arena_id)
        at = now()
        # Present for PRESENT_WRITE seconds after a write: a poll every second writes once in five (each write a
        # commit; 200 players polling every second would otherwise queue up the database's thread).
        key = (arena_id, player.id)
        clock = asyncio.get_running_loop().time()
        mark = clock - self._marked.get(key, -1e9) >= PRESENT_WRITE
        joined, table, seat = await self.manager().db(self.store.current, arena_id, player.id, at if mark else None)
        if mark and joined:
            if len(self._marked) > 100_000:
                self._marked.clear()
            self._marked[key] = clock
        return {"arena": a.id, "status": _status(a, at), "joined": joined, "table": table, "seat": seat,
                "starts_in": max(0, int((a.starts - at).total_seconds())),
                "ends_in": max(0, int((a.ends - at).total_seconds()))}

    async def listing(self, request: Request) -> dict[str, Any]:
        """The arenas running and those starting within a day (and those the player joined), then the last over."""
        self.limiter.check("poll", request)
        player = await self.players.optional(request)
        mgr = self.manager()
        at = now()
        arenas = await mgr.db(self.store.listing, at, timedelta(days=1), 5)
        ids = [a.id for a in arenas]
        if player is not None:
            ids += [i for i in await mgr.db(self.store.joined_by, player.id) if i not in ids]
        docs = [d for i in ids if (d := await self.document(i, 10)) is not None]
        return {"arenas": docs}

    async def create(self, request: Request, req: dict[str, Any]) -> dict[str, Any]:
        player = await self.players.me(request)
        self.limiter.check("arena_create", request)
        self.limiter.check("arena_create", request, key=f"player:{player.id}")
        game = req.get("game", DEFAULT_GAME)
        if game not in GAMES:
            raise ProtocolError("bad_game", f"unknown game {game!r:.40} (known: {', '.join(GAMES)})")
        info = GAMES[game]
        if 2 not in info.players:
            raise ProtocolError("bad_game", f"{game} is not played by two: an arena's games are")
        try:
            options = info.options.from_dict(req.get("options") or {})
        except DilotiError as exc:
            raise ProtocolError("bad_options", str(exc)) from None
        clock = parse_clock(req.get("clock")) or CLOCK
        name = clean_name(req["name"]) if req.get("name") else f"{player.name}'s arena"[:40]
        at = now()
        a = ArenaData(secrets.token_urlsafe(6), name, game, 2, options.to_dict(), clock,
                      at + timedelta(seconds=req.get("starts_in", 60)),
                      int(req.get("minutes", 30) * self.config.minute), req.get("wait", 30), None, player.id, at)
        await self.manager().db(self.store.create, a)
        doc = await self.document(a.id)
        assert doc is not None
        return doc

    async def join(self, request: Request, arena_id: str) -> dict[str, Any]:
        player = await self.players.me(request)
        self.limiter.check("arena_join", request)
        self.limiter.check("arena_join", request, key=f"player:{player.id}")
        a = await self._must(arena_id)
        if player.bot:
            # Arenas pair people, rated: a bot enters no human rating pool without the humans' choice (docs/BOTS.md).
            raise ProtocolError("bot_account", "a bot account does not join arenas: they pair people", 403)
        at = now()
        if a.final or at >= a.ends:
            raise ProtocolError("arena_over", f"arena {a.id} is over: players join before or during it", 409)
        mgr = self.manager()
        mode = GAMES[a.game].rating_mode(2)
        rating = max((shown(r.mu, r.sigma)["rating"] for r in await mgr.db(self.players.store.ratings, player.id)
                      if r.mode == mode), default=1500)
        secret = secrets.token_urlsafe(32)
        await mgr.db(self.store.join, a.id, Entry(player.id, player.name or "?", token_hash(secret), float(rating),
                                                   at, at))
        return {"arena": a.id, "player": player.id, "secret": secret}

    async def withdraw(self, request: Request, arena_id: str) -> dict[str, Any]:
        player = await self.players.me(request)
        self.limiter.check("arena_join", request, key=f"player:{player.id}")
        await self._must(arena_id)
        if not await self.manager().db(self.store.withdraw, arena_id, player.id):
            raise ProtocolError("not_joined", f"you have not joined arena {arena_id}", 409)
        return {"ok": True}

    async def results(self, player_id: str) -> dict[str, Any]:
        rows = await self.manager().db(self.store.results_of, player_id)
        return {"player": player_id, "arenas": [
            {"arena": a.id, "name": a.name, "starts": _iso(a.starts), "rank": r.rank, "score": r.score,
             "games": r.games, "wins": r.wins} for a, r in rows]}


def add_routes(app: FastAPI, desk: ArenaDesk, body: Callable[[Request], Awaitable[Any]],
               documented: Callable[..., dict[str, Any]]) -> None:
    """The arenas' routes on ``app``."""

    @app.get("/api/arenas", **documented(ArenaList))
    async def arenas(request: Request) -> dict[str, Any]:
        return await desk.listing(request)

    @app.post("/api/arenas", status_code=201, **documented(Arena, NewArena, 201))
    async def create(request: Request) -> dict[str, Any]:
        return await desk.create(request, read_body(NewArena, await body(request)))

    @app.get("/api/arenas/{arena_id}", **documented(Arena))
    async def one(arena_id: str, request: Request) -> dict[str, Any]:
        return await desk.one(request, arena_id)

    @app.get("/api/arenas/{arena_id}/me", **documented(ArenaMine))
    async def mine(arena_id: str, request: Request) -> dict[str, Any]:
        return await desk.mine(request, arena_id)

    @app.post("/api/arenas/{arena_id}/join", **documented(ArenaJoined))
    async def join(arena_id: str, request: Request) -> dict[str, Any]:
        return await desk.join(request, arena_id)

    @app.post("/api/arenas/{arena_id}/withdraw", **documented(Done))
    async def withdraw(arena_id: str, request: Request) -> dict[str, Any]:
        return await desk.withdraw(request, arena_id)

    @app.get("/api/players/{player_id}/arenas", **documented(PlayerArenas))
    async def results(player_id: str) -> dict[str, Any]:
        return await desk.results(player_id)


__all__ = ["ArenaConfig", "ArenaDesk", "ArenaSecret", "Scheduled", "add_routes", "parse_schedule"]
