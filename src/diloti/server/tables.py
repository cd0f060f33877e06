"""Live tables: seats, connections, moves checked by the engine, computer seats, idle cleanup.

A :class:`LiveTable` holds one :class:`~diloti.core.game.Game` rebuilt from the
stored seed, options and moves. The :class:`TableManager` owns every live
table; it stores each move before announcing it, runs computer players and hints in
worker processes (:mod:`diloti.match.workers`: never on the event loop, never under this
process's GIL) and closes tables left idle.

Database calls run on one worker thread (SQLite sees one writer; the event loop
never waits on the disk); SQLite checkpoints run every 2 s on a thread of their own. Moves of all tables
are written in shared transactions (group commit).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from diloti.ai import LEVELS
from diloti.ai.analysis import rank_moves
from diloti.core.errors import DilotiError
from diloti.core.game import Game
from diloti.core.moves import Move
from diloti.core.options import Options
from diloti.core.seeds import derive_seed
from diloti.core.view import View
from diloti.match.workers import choose_move, worker_pool
from diloti.server.protocol import ProtocolError, clean_name, move_dict, side_dict, state_message
from diloti.store.db import SeatData, Store, StoreError, TableData

log = logging.getLogger("diloti.server")
T = TypeVar("T")
ACTIVE = ("waiting", "playing")


class Connection(Protocol):
    """What the manager needs of a websocket connection."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message (never blocks; a connection that cannot keep up is closed)."""
        ...

    def close(self) -> None:
        ...


def token_hash(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(eq=False)
class Seat:
    """A seat of a live table and the connections holding it."""

    seat: int
    kind: str
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    conns: set[Connection] = field(default_factory=set)

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


class LiveTable:
    """One table in memory: its game rebuilt from the stored moves."""

    def __init__(self, data: TableData) -> None:
        self.id = data.id
        self.players = data.players
        self.options = Options.from_dict(data.options)
        self.seed = data.seed
        self.private = data.private
        self.status = data.status
        self.created = data.created
        self.seats = [Seat(s.seat, s.kind, s.level, s.name, s.token_hash) for s in data.seats]
        self.game = Game(self.players, self.options, self.seed, data.first_dealer)
        self.ply = 0
        self.last: dict[str, Any] | None = None
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.hint: tuple[int, asyncio.Future[list[dict[str, Any]]]] | None = None
        age = (datetime.now(UTC) - data.updated).total_seconds()
        self.activity = time.monotonic() - max(0.0, age)
        for seat, text in data.moves:
            try:
                move = Move.parse(text)
            except DilotiError as exc:
                raise StoreError(f"table {self.id}: stored move {self.ply} {text!r} is unreadable: {exc}") from None
            if self.game.is_over or self.game.state.turn != seat or not self.game.state.is_legal(move):
                raise StoreError(f"table {self.id}: stored move {self.ply} {text!r} is not legal when replayed")
            self.record_move(seat, move)
        if self.game.is_over and self.status != "closed":
            self.status = "over"  # the process stopped between storing the last move and the status

    @property
    def hints(self) -> bool:
        """Hints only when every opponent of every human seat is a computer."""
        humans = [s for s in self.seats if s.kind == "human"]
        return all(o.kind == "bot" for h in humans for o in self.seats if (o.seat - h.seat) % 2)

    def free(self) -> list[int]:
        return [s.seat for s in self.seats if not s.taken]

    def record_move(self, seat: int, move: Move) -> tuple[bool, bool]:
        """Push a checked move into the game; returns (xeri, round ended)."""
        st = self.game.state
        side = seat & 1
        before = st.xeri[side]
        round_no = self.game.round_no
        self.game.push(move)
        self.ply += 1
        xeri = st.xeri[side] > before
        self.last = {"seat": seat, **move_dict(move), "xeri": xeri, "ply": self.ply, "round": round_no}
        return xeri, self.game.is_over or self.game.round_no != round_no

    def rounds(self) -> list[dict[str, Any]]:
        """Every finished round's breakdown (public), with the game totals after it."""
        out = []
        totals = [0, 0]
        for rec in self.game.rounds:
            if rec.score is None:
                continue
            pts = rec.points
            totals = [totals[0] + pts[0], totals[1] + pts[1]]
            out.append({"number": rec.number, "dealer": rec.dealer,
                        "score": [side_dict(rec.score[0]), side_dict(rec.score[1])],
                        "totals": list(pts), "scores": list(totals)})
        return out

    def summary(self) -> dict[str, Any]:
        """The public table summary (no cards)."""
        return {
            "id": self.id, "players": self.players, "options": self.options.to_dict(),
            "target": self.options.target, "private": self.private, "status": self.status,
            "seats": [{"seat": s.seat, "kind": s.kind, "level": s.level,
                       "name": s.level if s.kind == "bot" else s.name, "taken": s.taken,
                       "connected": s.kind == "bot" or bool(s.conns), "side": s.seat & 1} for s in self.seats],
            "free": self.free(), "scores": list(self.game.scores), "round": self.game.round_no,
            "winner": self.game.winner, "hints": self.hints, "ply": self.ply,
            "created": self.created.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }

    def state_for(self, seat: int) -> dict[str, Any]:
        return state_message(self.game.view(seat), ply=self.ply, round_no=self.game.round_no,
                             target=self.options.target, last=self.last, rounds=self.rounds())

    def send_all(self, message: dict[str, Any]) -> None:
        for s in self.seats:
            for c in list(s.conns):
                c.send(message)

    def send_states(self) -> None:
        for s in self.seats:
            if s.conns:
                msg = self.state_for(s.seat)
                for c in list(s.conns):
                    c.send(msg)


class TableManager:
    """Every live table, the database worker and the computer players' worker processes."""

    def __init__(self, store: Store, *, idle_minutes: float = 60.0, bot_delay: float = 0.0,
                 allow_seed: bool = False, workers: int = 2) -> None:
        self.store = store
        self.idle_seconds = idle_minutes * 60.0
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._db = ThreadPoolExecutor(1, thread_name_prefix="diloti-db")
        # Computer moves and hints take up to a second of CPU: in worker processes, outside this
        # process's GIL, so that one table's search never delays another table's messages.
        self._cpu = worker_pool(workers)
        self._ckpt = ThreadPoolExecutor(1, thread_name_prefix="diloti-checkpoint")
        self._sweeper: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._queued: list[tuple[tuple[str, int, int, str], asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self.bot_errors = 0

    # ---------------------------------------------------------------- lifecycle
    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        # On the worker thread: a disk stall (seen here: 0.2-0.7 s commits on a busy machine)
        # delays the moves waiting for that commit, never the event loop and the other messages.
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def _checkpoint_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(2.0)
            try:
                # Its own thread: a checkpoint fsyncs, and commits must not queue behind that.
                await loop.run_in_executor(self._ckpt, self.store.checkpoint)
            except Exception:
                log.exception("checkpoint failed")

    async def start(self) -> None:
        """Resume every unfinished table (computer seats to move play on) and start the sweeper."""
        for tid in await self.db(self.store.active_ids):
            try:
                table = await self.get(tid)
            except StoreError as exc:
                log.error("cannot resume %s", exc)
                continue
            if table is not None:
                self._kick(table)
        self._sweeper = asyncio.create_task(self._sweep_loop())
        if self.store.is_sqlite:
            self._checkpointer = asyncio.create_task(self._checkpoint_loop())

    async def store_move(self, table_id: str, ply: int, seat: int, move: str) -> None:
        """Store one move; returns once it is committed.

        Moves of all tables that arrive while a commit is running share the next one
        (group commit), so many tables cost one transaction, not one each.
        """
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queued.append(((table_id, ply, seat, move), fut))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_moves())
        self._wake.set()
        await fut

    async def _write_moves(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queued:
                batch, self._queued = self._queued, []
                try:
                    t0 = time.perf_counter()
                    await self.db(self.store.add_moves, [row for row, _ in batch])
                    took = time.perf_counter() - t0
                    if took > 0.2:
                        log.warning("storing %d moves took %.0f ms", len(batch), took * 1000)
                    results: list[BaseException | None] = [None] * len(batch)
                except Exception:
                    # One bad row must not fail the others: store them one by one.
                    results = []
                    for row, _ in batch:
                        try:
                            await self.db(self.store.add_moves, [row])
                            results.append(None)
                        except Exception as exc:
                            results.append(exc)
                for (_, fut), failure in zip(batch, results, strict=True):
                    if fut.done():
                        continue
                    if failure is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(failure)

    async def stop(self) -> None:
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        if self._writer is not None:
            tasks.append(self._writer)
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        if self._checkpointer is not None:
            tasks.append(self._checkpointer)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self._cpu.shutdown(wait=True, cancel_futures=True)
        self._ckpt.shutdown(wait=True)
        self._db.shutdown(wait=True)

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table, loaded (and its game replayed) from the database if needed."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32:
            return None
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            data = await self.db(self.store.load, table_id)
            table = None if data is None else LiveTable(data)
            if table is not None:
                self.tables[table_id] = table
            fut.set_result(table)
            return table
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: waiters get it through shield
            raise
        finally:
            del self._loading[table_id]

    async def must_get(self, table_id: str) -> LiveTable:
        table = await self.get(table_id)
        if table is None:
            raise ProtocolError("unknown_table", f"no table {table_id!r:.40}", 404)
        return table

    # ---------------------------------------------------------------- tables and seats
    async def create(self, req: Any) -> dict[str, Any]:
        """A new table from a ``POST /api/tables`` body; returns the creator's seat and token."""
        if not isinstance(req, dict):
            raise ProtocolError("bad_request", "the request body must be a JSON object")
        known = {"players", "options", "seats", "seat", "name", "private", "seed"}
        for k in req:
            if k not in known:
                raise ProtocolError("bad_request", f"unknown field {k!r:.40} (known: {', '.join(sorted(known))})")
        players = req.get("players", 2)
        if players not in (2, 4) or isinstance(players, bool):
            raise ProtocolError("bad_players", f"invalid players {players!r:.40}: expected 2 or 4")
        try:
            options = Options.from_dict(req.get("options") or {})
        except DilotiError as exc:
            raise ProtocolError("bad_options", str(exc)) from None
        seats = self._parse_seats(req.get("seats"), players)
        humans = [s.seat for s in seats if s.kind == "human"]
        seat = req.get("seat", humans[0])
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in humans:
            raise ProtocolError("bad_seat", f"invalid seat {seat!r:.40}: expected a human seat ({humans})")
        name = clean_name(req.get("name"))
        private = req.get("private", False)
        if not isinstance(private, bool):
            raise ProtocolError("bad_request", f"invalid private {private!r:.40}: expected true or false")
        seed = req.get("seed")
        if seed is not None:
            if not self.allow_seed:
                raise ProtocolError("bad_seed", "this server does not accept seeds (they reveal the deck)")
            if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
                raise ProtocolError("bad_seed", f"invalid seed {seed!r:.40}: expected an integer 0..2^63-1")
        else:
            seed = secrets.randbelow(2**63)
        token = secrets.token_urlsafe(32)
        seats[seat].name = name
        seats[seat].token_hash = token_hash(token)
        status = "playing" if all(s.kind == "bot" or s.token_hash for s in seats) else "waiting"
        tid = secrets.token_urlsafe(8)
        data = TableData(tid, players, options.to_dict(), seed, 0, private, status, seats=seats)
        try:
            await self.db(self.store.create_table, data)
        except Exception as exc:
            log.exception("cannot store a new table")
            raise ProtocolError("server_error", f"could not store the table: {exc.__class__.__name__}", 500) from None
        table = LiveTable(data)
        self.tables[tid] = table
        self._kick(table)
        return {"table": tid, "seat": seat, "token": token, "invite": f"/?join={tid}"}

    @staticmethod
    def _parse_seats(raw: Any, players: int) -> list[SeatData]:
        if raw is None:
            return [SeatData(i, "human") for i in range(players)]
        if not isinstance(raw, list) or len(raw) != players:
            raise ProtocolError("bad_seats", f"seats must be a list of {players} entries")
        out = []
        for i, s in enumerate(raw):
            if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
                raise ProtocolError("bad_seats", f"seat {i}: expected {{\"kind\": \"human\"}} or "
                                                 f"{{\"kind\": \"bot\", \"level\": LEVEL}}")
            if s["kind"] == "bot":
                level = s.get("level")
                if not isinstance(level, str) or level not in LEVELS:
                    raise ProtocolError("bad_level", f"seat {i}: unknown level {level!r:.40} "
                                                     f"(known: {', '.join(LEVELS)})")
                out.append(SeatData(i, "bot", level))
            else:
                out.append(SeatData(i, "human"))
        if all(s.kind == "bot" for s in out):
            raise ProtocolError("bad_seats", "at least one seat must be human")
        return out

    async def join(self, table_id: str, req: Any) -> dict[str, Any]:
        """Claim a free human seat (``POST /api/tables/{id}/join``)."""
        if not isinstance(req, dict):
            raise ProtocolError("bad_request", "the request body must be a JSON object")
        for k in req:
            if k not in ("name", "seat"):
                raise ProtocolError("bad_request", f"unknown field {k!r:.40} (known: name, seat)")
        table = await self.must_get(table_id)
        name = clean_name(req.get("name"))
        async with table.lock:
            if table.status == "closed":
                raise ProtocolError("table_closed", f"table {table.id} was closed for idleness", 409)
            free = table.free()
            seat = req.get("seat")
            if seat is None:
                if not free:
                    raise ProtocolError("table_full", f"table {table.id} has no free seat", 409)
                seat = free[0]
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.players:
                raise ProtocolError("bad_seat", f"invalid seat {seat!r:.40}: expected 0..{table.players - 1}")
            if seat not in free:
                raise ProtocolError("seat_taken", f"seat {seat} of table {table.id} is not free", 409)
            token = secrets.token_urlsafe(32)
            h = token_hash(token)
            status = "playing" if len(free) == 1 else "waiting"
            if not await self.db(self.store.claim_seat, table.id, seat, name, h, status):
                raise ProtocolError("seat_taken", f"seat {seat} of table {table.id} is not free", 409)
            table.seats[seat].name = name
            table.seats[seat].token_hash = h
            table.status = status
            table.activity = time.monotonic()
            table.send_all({"type": "table", "table": table.summary()})
            if status == "playing":
                table.send_states()
        self._kick(table)
        return {"table": table.id, "seat": seat, "token": token, "invite": f"/?join={table.id}"}

    async def lobby(self, status: str = "waiting") -> list[dict[str, Any]]:
        """Public tables waiting for players (or recently finished, for ``status='over'``)."""
        if status == "waiting":
            tables = [t for t in self.tables.values() if t.status == "waiting" and not t.private]
        else:
            tables = []
            for tid in await self.db(self.store.recent_ids, "over", 50):
                t = await self.get(tid)
                if t is not None and not t.private:
                    tables.append(t)
        tables.sort(key=lambda t: t.created, reverse=True)
        out = []
        for t in tables[:50]:
            s = t.summary()
            s["options"] = t.options.changed()
            out.append(s)
        return out

    # ---------------------------------------------------------------- connections
    async def hello(self, conn: Connection, table_id: str, token: str) -> tuple[LiveTable, int]:
        table = await self.must_get(table_id)
        h = token_hash(token)
        seat = next((s for s in table.seats if s.token_hash and hmac.compare_digest(s.token_hash, h)), None)
        if seat is None:
            raise ProtocolError("bad_token", f"that token holds no seat at table {table.id}")
        if table.status == "closed":
            raise ProtocolError("table_closed", f"table {table.id} was closed for idleness")
        seat.conns.add(conn)
        table.activity = time.monotonic()
        conn.send({"type": "welcome", "table": table.id, "seat": seat.seat, "name": seat.name})
        table.send_all({"type": "table", "table": table.summary()})
        if table.status in ("playing", "over"):
            conn.send(table.state_for(seat.seat))
        return table, seat.seat

    def detach(self, conn: Connection, table: LiveTable, seat: int) -> None:
        s = table.seats[seat]
        if conn in s.conns:
            s.conns.discard(conn)
            if self.tables.get(table.id) is table:
                table.send_all({"type": "table", "table": table.summary()})

    def sync(self, conn: Connection, table: LiveTable, seat: int) -> None:
        table.activity = time.monotonic()
        conn.send({"type": "table", "table": table.summary()})
        if table.status in ("playing", "over"):
            conn.send(table.state_for(seat))

    # ---------------------------------------------------------------- moves
    def _check_turn(self, table: LiveTable, seat: int, ply: int | None) -> None:
        if table.status == "closed" or self.tables.get(table.id) is not table:
            raise ProtocolError("table_closed", f"table {table.id} was closed for idleness")
        if table.status == "waiting":
            raise ProtocolError("not_started", f"table {table.id} is waiting for players: {table.free()} free")
        if table.game.is_over:
            raise ProtocolError("game_over", "the game is over")
        if table.game.state.turn != seat:
            raise ProtocolError("not_your_turn", f"it is seat {table.game.state.turn}'s turn, not seat {seat}'s")
        if ply is not None and ply != table.ply:
            raise ProtocolError("stale", f"move sent for ply {ply} but the game is at ply {table.ply}")

    async def play_text(self, table: LiveTable, seat: int, text: str, ply: int | None) -> None:
        """A human's move, as notation: checked, stored, announced."""
        table.activity = time.monotonic()
        try:
            move = Move.parse(text)
        except DilotiError as exc:
            async with table.lock:
                self._check_turn(table, seat, ply)  # out-of-turn is the better error, when it applies
            raise ProtocolError("invalid_move", str(exc)) from None
        await self.apply(table, seat, move, ply)

    async def apply(self, table: LiveTable, seat: int, move: Move, ply: int | None) -> None:
        async with table.lock:
            self._check_turn(table, seat, ply)
            if not table.game.state.is_legal(move):
                raise ProtocolError("illegal_move", f"illegal move {str(move)!r}: not a legal move in this position")
            try:
                # Stored before it is announced: a restart replays exactly what players saw.
                await self.store_move(table.id, table.ply, seat, str(move))
            except Exception as exc:
                log.exception("cannot store move %s of %s", table.ply, table.id)
                raise ProtocolError("server_error", f"could not store the move ({exc.__class__.__name__}); "
                                    "the game is unchanged", 500) from None
            round_no = table.game.round_no
            rec = table.game.current
            st = table.game.state
            _, round_over = table.record_move(seat, move)
            table.activity = time.monotonic()
            assert table.last is not None
            table.send_all({"type": "played", **table.last})
            if round_over:
                assert rec.score is not None
                swept_to = st.last_capturer & 1 if rec.swept and st.last_capturer is not None else None
                table.send_all({"type": "round_over", "round": round_no,
                                "score": [side_dict(rec.score[0]), side_dict(rec.score[1])],
                                "totals": list(rec.points),
                                "swept": [str(c) for c in _cards(rec.swept)], "swept_to": swept_to,
                                "scores": list(table.game.scores)})
            if table.game.is_over:
                table.status = "over"
                table.send_all({"type": "game_over", "winner": table.game.winner,
                                "scores": list(table.game.scores), "rounds": table.game.round_no})
                table.send_all({"type": "table", "table": table.summary()})
                try:
                    await self.db(self.store.set_status, table.id, "over", table.game.winner)
                except Exception:  # the replay on load marks it over anyway
                    log.exception("cannot store the end of %s", table.id)
            table.send_states()
        self._kick(table)

    # ---------------------------------------------------------------- computer seats
    def _kick(self, table: LiveTable) -> None:
        if table.bot_task is not None and not table.bot_task.done():
            return
        if self._bot_to_move(table) is not None:
            table.bot_task = asyncio.create_task(self._run_bots(table))

    @staticmethod
    def _bot_to_move(table: LiveTable) -> Seat | None:
        if table.status != "playing" or table.game.is_over:
            return None
        s = table.seats[table.game.state.turn]
        return s if s.kind == "bot" else None

    async def _run_bots(self, table: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        while (s := self._bot_to_move(table)) is not None and self.tables.get(table.id) is table:
            ply = table.ply
            view = table.game.view(s.seat)
            assert s.level is not None
            # Seeded by table, seat and ply: a restarted server makes the same choices.
            seed = derive_seed("diloti-bot", table.seed, s.seat, ply)
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            try:
                move = await loop.run_in_executor(self._cpu, choose_move, s.level, seed, view)
            except Exception:
                self.bot_errors += 1
                log.exception("computer player %s failed at %s ply %s; playing its first legal move",
                              s.level, table.id, ply)
                move = view.legal[0]
            if table.ply != ply:
                continue
            try:
                await self.apply(table, s.seat, move, ply)
            except ProtocolError as exc:
                self.bot_errors += 1
                log.error("computer player %s at %s ply %s: %s", s.level, table.id, ply, exc)
                if exc.code != "illegal_move":
                    return
                await self.apply(table, s.seat, view.legal[0], ply)

    async def hint(self, table: LiveTable, seat: int) -> dict[str, Any]:
        """The expert's ranking of this seat's legal moves (tables where every opponent is a computer)."""
        if not table.hints:
            raise ProtocolError("hints_unavailable", "hints are offered only when every opponent is a computer")
        self._check_turn(table, seat, None)
        table.activity = time.monotonic()
        ply = table.ply
        # One search per position, shared by every request for it: hint floods cost nothing more.
        if table.hint is None or table.hint[0] != ply:
            view = table.game.view(seat)
            fut = asyncio.get_running_loop().run_in_executor(self._cpu, rank_for_hint, view, table.seed, ply)
            table.hint = (ply, fut)
        ranked = await asyncio.shield(table.hint[1])
        return {"type": "hint", "ply": ply, "moves": ranked[:5]}

    # ---------------------------------------------------------------- idle cleanup
    async def _sweep_loop(self) -> None:
        every = max(0.05, min(60.0, self.idle_seconds / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:
                log.exception("idle sweep failed")

    async def sweep(self) -> int:
        """Close tables idle longer than the limit; returns how many were let go."""
        limit = time.monotonic() - self.idle_seconds
        gone = 0
        for table in list(self.tables.values()):
            if table.activity >= limit:
                continue
            async with table.lock:
                if table.activity >= limit or self.tables.get(table.id) is not table:
                    continue
                if table.status in ACTIVE:
                    await self.db(self.store.set_status, table.id, "closed", None)
                    table.status = "closed"
                    table.send_all({"type": "table", "table": table.summary()})
                    for s in table.seats:
                        for c in list(s.conns):
                            c.close()
                del self.tables[table.id]
                gone += 1
        return gone


def _cards(mask: int) -> list[Any]:
    from diloti.core.cards import cards_of

    return list(cards_of(mask))


def rank_for_hint(view: View, seed: int, ply: int) -> list[dict[str, Any]]:
    """The expert's ranking of the legal moves, best first (estimates in round points)."""
    ranked = rank_moves(view, seed=derive_seed("diloti-hint", seed, ply))
    return [{**move_dict(move), "score": round(float(score), 3)} for move, score in ranked]
