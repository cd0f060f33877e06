"""The table manager: tables and seats, moves checked by the engine, computer seats, idle cleanup.

A :class:`~diloti.server.live.LiveTable` holds one game rebuilt from the stored seed,
options and moves. The :class:`TableManager` owns every live table of this process;
it stores each move before announcing it, runs computer players and hints in worker
processes (:mod:`diloti.match.workers`: never on the event loop, never under this
process's GIL) and closes tables left idle.

On PostgreSQL several processes share the tables (:mod:`diloti.server.cluster`): each
holds a copy of every unfinished table, kept current by the database's notices; a move
is stored as the row for its ply, so exactly one writer wins each ply and the others are
told ``stale``; one process at a time runs a table's computer seats (an advisory lock,
released by PostgreSQL when that process dies), and a table is closed for idleness only
by a conditional update that sees no use by any process.

Database calls run on one worker thread (SQLite sees one writer; the event loop
never waits on the disk); SQLite checkpoints run every 2 s on a thread of their own. Moves of all tables
are written in shared transactions (group commit).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from diloti.core.cards import NAMES, Card, cards_of, mask_of
from diloti.core.choice import candidates_after, choices_of
from diloti.core.errors import DilotiError
from diloti.core.moves import Move
from diloti.core.seeds import derive_seed
from diloti.games import GameInfo
from diloti.match.workers import PoolSpec, choose_move, in_game, rank_hint, worker_pool
from diloti.server.cluster import Cluster
from diloti.server.health import Outage, Unreachable, is_outage
from diloti.server.live import Connection, LiveTable, Seat, token_hash
from diloti.server.metrics import Metrics
from diloti.server.protocol import ProtocolError, clean_chat, move_dict
from diloti.server.seating import Seating
from diloti.server.tasks import report_failure
from diloti.server.writer import GroupCommit
from diloti.store.db import DuplicateMove, Store, StoreError
from diloti.store.players import PlayerStore

__all__ = ["Connection", "LiveTable", "Seat", "TableManager", "token_hash"]

log = logging.getLogger("diloti.server")
T = TypeVar("T")
ACTIVE = ("waiting", "playing")


class TableManager(Seating):
    """Every live table, the database worker and the computer players' worker processes."""

    def __init__(self, store: Store, *, idle_minutes: float = 60.0, bot_delay: float = 0.0,
                 allow_seed: bool = False, workers: PoolSpec = 2, bot_slots: int = 4,
                 metrics: Metrics | None = None) -> None:
        self.store = store
        self.metrics = metrics or Metrics()
        self.cpu_queue = 0  # computer moves and hints submitted to the workers, not yet answered
        self.players = PlayerStore(store)
        self.idle_seconds = idle_minutes * 60.0
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._db = ThreadPoolExecutor(1, thread_name_prefix="diloti-db")
        # Computer moves and hints take up to a second of CPU: in worker processes, outside this
        # process's GIL, so that one table's search never delays another table's messages.
        self._cpu = _keeping_sigterm(worker_pool, workers)
        self._ckpt = ThreadPoolExecutor(1, thread_name_prefix="diloti-checkpoint")
        self._sweeper: asyncio.Task[None] | None = None
        self._moves = GroupCommit(lambda rows: self.db(self.store.add_moves, rows))
        self._checkpointer: asyncio.Task[None] | None = None
        self.bot_errors = 0
        # One client's tables share this many computer moves at a time: 300 tables opened by one
        # address queue behind each other instead of filling the worker pool for everyone.
        self.bot_slots = bot_slots
        self._slots: dict[str, tuple[asyncio.Semaphore, list[int]]] = {}
        # Players hear this long before an idle table closes (5 minutes of the default 60).
        self.warn_seconds = min(300.0, self.idle_seconds / 4)
        self.cluster: Cluster | None = None  # several processes on one PostgreSQL
        self._watcher: asyncio.Task[None] | None = None
        self._clocker: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()
        self.metrics.watch(self._gauges)
        # What this process knows of its database (diloti.server.health): /readyz, the outage's log lines,
        # and what is refused at once while the database is out of reach.
        self.outage = Outage(on_change=self._outage_changed)

    # ---------------------------------------------------------------- lifecycle
    def _gauges(self) -> dict[str, Any]:
        """What the metrics read at each scrape."""
        tables: dict[str, int] = {"waiting": 0, "playing": 0, "over": 0, "closed": 0}
        for t in self.tables.values():
            tables[t.status] = tables.get(t.status, 0) + 1
        return {"tables": tables, "queue": self.cpu_queue,
                "owned": len(self.cluster.owned) if self.cluster is not None else len(self.tables)}

    def _db_trouble(self, kind: str) -> None:
        self.metrics.db_errors.labels(kind).inc()

    def _outage_changed(self, down: bool) -> None:
        self.metrics.db_up.set(0 if down else 1)
        if down:  # the moves waiting for a commit are refused now, not when the database answers
            self._moves.abandon(Unreachable("the database is out of reach"))

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        # On the worker thread: a disk stall (seen here: 0.2-0.7 s commits on a busy machine)
        # delays the moves waiting for that commit, never the event loop and the other messages.
        # During an outage nothing queues behind a database that does not answer: refused at once.
        self.outage.check()
        t0 = self.outage.clock()
        try:
            out = await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)
        except Exception as exc:
            if is_outage(exc):
                self.outage.failed(exc, t0)
            raise
        self.outage.ok(t0)
        return out

    async def compute(self, game: GameInfo, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker pool (CPU-heavy work such as a review's decisions: never on the loop), with
        ``game`` (the game it is about) known to the worker (:func:`~diloti.match.workers.in_game`)."""
        return await asyncio.get_running_loop().run_in_executor(self._cpu, in_game, game, fn, *args)

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
        """Resume every unfinished table (computer seats to move play on) and start the sweeper.

        On PostgreSQL, first join the other processes: listen for their notices, and take
        over the computer seats of tables that no live process runs.
        """
        if self.store.is_postgres:
            self.cluster = Cluster(self.store.url)
            self.cluster.on_trouble = self._db_trouble
            self.cluster.outage = self.outage
            self.store.origin = self.cluster.origin
            await self.cluster.start(self._on_notice, self._resync)
        tables = []
        for tid in await self.db(self.store.active_ids):
            try:
                table = await self.get(tid)
            except StoreError as exc:
                log.error("cannot resume %s", exc)
                continue
            if table is not None:
                tables.append(table)
        if self.cluster is not None:
            await self.cluster.claim([t.id for t in tables])  # those another process runs stay its own
            self._watcher = asyncio.create_task(self._watch_loop())
        for table in tables:
            self._kick(table)
        self._sweeper = asyncio.create_task(self._sweep_loop())
        self._clocker = asyncio.create_task(self._clock_loop())
        if self.store.is_sqlite:
            self._checkpointer = asyncio.create_task(self._checkpoint_loop())
        self.outage.start(self.store.ping, self.store)

    def _spawn(self, coro: Any, report: bool = True) -> asyncio.Task[Any]:
        # A task nobody has to await: kept here so it is not collected mid-flight, its failure logged
        # (``report=False``: a caller awaits it and logs its failure itself).
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        if report:
            task.add_done_callback(report_failure)
        return task

    def _touch(self, table: LiveTable) -> None:
        """A player used the table: it is not idle (told to the other processes now and then)."""
        now = time.monotonic()
        table.activity = now
        table.warned = False
        if self.cluster is not None and now - table.touched > min(30.0, self.idle_seconds / 10):
            table.touched = now
            self._spawn(self.db(self.store.touch, [table.id]))

    async def store_move(self, table_id: str, ply: int, seat: int, move: str, by: str | None = None,
                         left: int | None = None) -> None:
        """Store one move; returns once it is committed (moves of all tables share commits).

        ``by``: the level of the computer that made it for an away player; ``left``: the mover's clock
        reserve after it, in ms."""
        t0 = time.perf_counter()
        self.outage.check()  # not queued behind a commit the database does not answer
        await self._moves.store((table_id, ply, seat, move, by, left))
        self.metrics.moves.inc()
        self.metrics.move_seconds.observe(time.perf_counter() - t0)

    async def stop(self) -> None:
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        if self._moves.task is not None:
            tasks.append(self._moves.task)
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        if self._checkpointer is not None:
            tasks.append(self._checkpointer)
        if self._watcher is not None:
            tasks.append(self._watcher)
        if self._clocker is not None:
            tasks.append(self._clocker)
        tasks.extend(self._background)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        await self.outage.stop()
        if self.cluster is not None:
            await self.cluster.stop()
        self._cpu.shutdown(wait=True, cancel_futures=True)
        self._ckpt.shutdown(wait=True)
        self._db.shutdown(wait=True)

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table, loaded (and its game replayed) from the database if needed."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32 or "\x00" in table_id:
            return None  # (PostgreSQL cannot even compare a text holding NUL)
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
                if data is not None and table.over and data.status in ACTIVE:
                    # The process stopped between the last move and storing the end: store it now.
                    self._spawn(self._store_end(table))
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

    # ---------------------------------------------------------------- connections
    async def hello(self, conn: Connection, table_id: str, token: str) -> tuple[LiveTable, int]:
        table = await self.must_get(table_id)
        h = token_hash(token)
        seat = table.seat_of(h)
        if seat is None and self.cluster is not None:
            async with table.lock:  # the seat may have been taken through another process just now
                await self._refresh_seats(table)
            seat = table.seat_of(h)
        if seat is None:
            raise ProtocolError("bad_token", f"that token holds no seat at table {table.id}")
        if table.status == "closed":
            raise ProtocolError("table_closed", f"table {table.id} was closed for idleness")
        if seat.away:  # the player takes the seat back from the computer
            async with table.lock:
                if seat.away and seat.token_hash is not None:
                    await self._set_away(table, seat, False)
        seat.conns.add(conn)
        self._touch(table)
        conn.send({"type": "welcome", "table": table.id, "seat": seat.seat, "name": seat.name})
        table.send_all({"type": "table", "table": table.summary()})
        if table.status in ("playing", "over"):
            conn.send(table.state_for(seat.seat))
        table.send_chat(conn)
        return table, seat.seat

    async def watch(self, conn: Connection, table_id: str) -> LiveTable:
        """Make ``conn`` a spectator of the table: public messages only (no token: the id is the invitation).

        Watching is not playing: it does not keep a table from closing for idleness.
        """
        table = await self.must_get(table_id)
        if table.status == "closed":
            raise ProtocolError("table_closed", f"table {table.id} was closed for idleness")
        table.watchers.add(conn)
        conn.send({"type": "welcome", "table": table.id, "seat": None, "name": None})
        table.send_all({"type": "table", "table": table.summary()})
        if table.status in ("playing", "over"):
            conn.send(table.state_for(None))
        table.send_chat(conn)
        return table

    def detach(self, conn: Connection, table: LiveTable, seat: int | None) -> None:
        held = table.watchers if seat is None else table.seats[seat].conns
        if conn in held:
            held.discard(conn)
            if seat is not None and not held:
                table.seats[seat].gone = time.monotonic()
            if self.tables.get(table.id) is table:
                table.send_all({"type": "table", "table": table.summary()})

    def sync(self, conn: Connection, table: LiveTable, seat: int | None) -> None:
        if seat is not None:
            self._touch(table)
        conn.send({"type": "table", "table": table.summary()})
        if table.status in ("playing", "over"):
            conn.send(table.state_for(seat))

    # ---------------------------------------------------------------- chat
    async def chat(self, table: LiveTable, seat: int, text: str) -> None:
        """A seated player's chat line: checked, stored (it outlives a restart), told to the table."""
        line = clean_chat(text)
        if table.status == "closed" or self.tables.get(table.id) is not table:
            raise ProtocolError("table_closed", f"table {table.id} was closed for idleness")
        self._touch(table)
        name = table.seats[seat].name or f"seat {seat + 1}"
        try:
            stored = await self.db(self.store.add_chat, table.id, seat, name, line)
        except Exception as exc:
            if is_outage(exc):
                self.outage.refuse("other", exc, f"cannot store a chat line of {table.id}")
                raise ProtocolError("server_error", "the database is out of reach: the chat line was not stored",
                                    500) from None
            log.exception("cannot store a chat line of %s", table.id)
            raise ProtocolError("server_error", f"could not store the chat line ({exc.__class__.__name__})",
                                500) from None
        table.hear(stored)

    # ---------------------------------------------------------------- moves
    def _check_turn(self, table: LiveTable, seat: int, ply: int | None) -> None:
        if table.status == "closed" or self.tables.get(table.id) is not table:
            raise ProtocolError("table_closed", f"table {table.id} was closed for idleness")
        if table.status == "waiting":
            raise ProtocolError("not_started", f"table {table.id} is waiting for players: {table.free()} free")
        if table.over:
            raise ProtocolError("game_over", "the game is over")
        if table.game.state.turn != seat:
            raise ProtocolError("not_your_turn", f"it is seat {table.game.state.turn}'s turn, not seat {seat}'s")
        if ply is not None and ply != table.ply:
            raise ProtocolError("stale", f"move sent for ply {ply} but the game is at ply {table.ply}")

    async def play_text(self, table: LiveTable, seat: int, text: str, ply: int | None) -> None:
        """A human's move, as notation: checked, stored, announced."""
        self._touch(table)
        try:
            move = Move.parse(text)
        except DilotiError as exc:
            async with table.lock:
                self._check_turn(table, seat, ply)  # out-of-turn is the better error, when it applies
            raise ProtocolError("invalid_move", str(exc)) from None
        if not table.over and not table.game.state.is_legal(move):
            # The game's formats may read it otherwise: in Xeri a card alone names its one move, as in the records.
            with contextlib.suppress(DilotiError):
                move = table.formats.read_played(table.game.state, text)
        await self.apply(table, seat, move, ply)

    async def apply(self, table: LiveTable, seat: int, move: Move, ply: int | None, by: str | None = None) -> None:
        """Store and announce a checked move; ``by``: the computer's level, playing for an away human."""
        async with table.lock:
            self._check_turn(table, seat, ply)
            s = table.seats[seat]
            if s.kind == "human" and by is not None and table.runs_for(s) != by:
                raise ProtocolError("stale", f"seat {seat} is played by its player again")
            if not table.game.state.is_legal(move):
                raise ProtocolError("illegal_move", f"illegal move {str(move)!r}: not a legal move in this position")
            if s.kind == "human" and by is None and s.away:
                await self._set_away(table, s, False)  # the player is back (reached us through another process)
            at = table.ply
            left = table.clock.left_after(seat) if table.clock is not None and by is None and s.kind == "human" \
                else None
            try:
                # Stored before it is announced: a restart replays exactly what players saw.
                await self.store_move(table.id, at, seat, str(move), by if s.kind == "human" else None, left)
            except DuplicateMove:
                # Another process stored a move for this ply first: take its moves, refuse this one.
                await self._catch_up(table)
                raise ProtocolError("stale", f"a move for ply {at} was already played; the game is now at "
                                    f"ply {table.ply}") from None
            except Exception as exc:
                self._db_trouble("move")
                if is_outage(exc):  # counted in the outage's log lines, not a line (and a traceback) each
                    self.outage.refuse("moves", exc, f"cannot store move {at} of {table.id}")
                    raise ProtocolError("server_error", "the database is out of reach: the move was not stored "
                                        "and the game is unchanged; send it again shortly", 500) from None
                log.exception("cannot store move %s of %s", table.ply, table.id)
                raise ProtocolError("server_error", f"could not store the move ({exc.__class__.__name__}); "
                                    "the game is unchanged", 500) from None
            if by is not None and s.kind == "human":
                table.by[at] = by
            await self._candidates_after(table, move)
            self._advance(table, seat, move, left)
            if table.game.is_over:
                try:
                    await self._store_end(table)
                except Exception as exc:  # the replay on load marks it over anyway, and stores its end then
                    if not is_outage(exc):
                        log.exception("cannot store the end of %s", table.id)
        self._kick(table)

    async def _candidates_after(self, table: LiveTable, move: Move) -> None:
        """On a table that may grow too large to list its moves, the next position's candidates (the ``legal`` of
        the next ``state``) worked out in a worker process, and kept by the state for when it gets there: the
        event loop does not work them out. A failure leaves them to the state (bounded either way)."""
        state = table.game.state
        if not state.may_sample():
            return
        self.cpu_queue += 1
        try:
            kept = await asyncio.get_running_loop().run_in_executor(self._cpu, in_game, table.info, candidates_after,
                                                                    state.copy(), move)
            state.keep_candidates(*kept)
        except Exception:
            log.exception("could not work out the candidates after %s at %s; the state will", move, table.id)
        finally:
            self.cpu_queue -= 1

    def _advance(self, table: LiveTable, seat: int, move: Move, left: int | None = None) -> None:
        table.advance(seat, move, left)
        if table.game.is_over and self.cluster is not None:
            self._spawn(self.cluster.release(table.id))

    # ---------------------------------------------------------------- computer seats
    def _kick(self, table: LiveTable) -> None:
        if table.bot_task is not None and not table.bot_task.done():
            return
        if self.cluster is not None and table.id not in self.cluster.owned:
            return  # another process runs its computer seats (the watcher takes over if it dies)
        if self._bot_to_move(table) is not None:
            table.bot_task = asyncio.create_task(self._run_bots(table))

    @staticmethod
    def _bot_to_move(table: LiveTable) -> Seat | None:
        """The seat to move, if a computer plays it (a computer seat, or an away player's)."""
        if table.status != "playing" or table.over:
            return None
        s = table.seats[table.game.state.turn]
        return s if table.runs_for(s) is not None else None

    async def _run_bots(self, table: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        while ((s := self._bot_to_move(table)) is not None and self.tables.get(table.id) is table
               and (self.cluster is None or table.id in self.cluster.owned)):
            ply = table.ply
            view = table.game.view(s.seat)
            level = table.runs_for(s)
            assert level is not None
            by = level if s.kind == "human" else None
            # Seeded by table, seat and ply: a restarted server makes the same choices.
            seed = derive_seed("diloti-bot", table.seed, s.seat, ply)
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            t0 = time.perf_counter()
            self.cpu_queue += 1
            try:
                async with self._slot(table):
                    move = await loop.run_in_executor(self._cpu, in_game, table.info, choose_move, level, seed,
                                                      view)
                self.metrics.computer_seconds.observe(time.perf_counter() - t0)
            except Exception:
                self.bot_errors += 1
                log.exception("computer player %s failed at %s ply %s; playing its first legal move",
                              level, table.id, ply)
                move = view.legal[0]
            finally:
                self.cpu_queue -= 1
            if table.ply != ply:
                continue
            try:
                await self.apply(table, s.seat, move, ply, by)
            except ProtocolError as exc:
                if exc.code == "stale":
                    continue  # another process stored this ply first, or the away player is back
                if exc.code in ("game_over", "table_closed"):
                    return  # resigned or closed meanwhile
                cause = exc.__context__  # (what storing the move raised)
                if exc.code == "server_error" and (self.outage.down or (cause is not None and is_outage(cause))):
                    await asyncio.sleep(0.5)
                    await self.outage.back()  # the database is out of reach: play on once it answers
                    continue
                self.bot_errors += 1
                log.error("computer player %s at %s ply %s: %s", level, table.id, ply, exc)
                if exc.code != "illegal_move":
                    return
                await self.apply(table, s.seat, view.legal[0], ply, by)

    @contextlib.asynccontextmanager
    async def _slot(self, table: LiveTable) -> AsyncIterator[None]:
        """One of the table's client's computer-move slots (held while its move is computed)."""
        key = table.client or f"table:{table.id}"  # a resumed table's creator is not known: its own slots
        entry = self._slots.get(key)
        if entry is None:
            entry = self._slots[key] = (asyncio.Semaphore(self.bot_slots), [0])
        entry[1][0] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1][0] -= 1
            if not entry[1][0]:
                del self._slots[key]

    async def hint(self, table: LiveTable, seat: int) -> dict[str, Any]:
        """The ranking of this seat's legal moves (tables where every opponent is a computer): the master's
        search when a master sits at the table (Diloti), else the expert's."""
        if not table.hints:
            raise ProtocolError("hints_unavailable", "hints are offered only when every opponent is a computer")
        self._check_turn(table, seat, None)
        self._touch(table)
        ply = table.ply
        # One search per position, shared by every request for it: hint floods cost nothing more.
        if table.hint is None or table.hint[0] != ply:
            view = table.game.view(seat)
            fut = asyncio.get_running_loop().run_in_executor(self._cpu, in_game, table.info, rank_hint, view,
                                                             table.seed, ply, table.hint_level)
            table.hint = (ply, fut)
            self.cpu_queue += 1
            fut.add_done_callback(self._answered)
        ranked = await asyncio.shield(table.hint[1])
        return {"type": "hint", "ply": ply, "level": table.hint_level,
                "moves": [{**move_dict(move), "score": round(score, 3), "win": None if win is None else round(win, 3)}
                          for move, score, win in ranked[:5]]}

    async def choices(self, table: LiveTable, seat: int, card_text: str, chosen: list[str]) -> dict[str, Any]:
        """What a hand card can do with some table cards (the ``choices`` message), worked out in a worker
        process: bounded on any table (:meth:`SeatView.choices`)."""
        self._check_turn(table, seat, None)
        self._touch(table)
        try:
            card = Card(card_text)
            picked = mask_of([Card(c) for c in chosen])
        except DilotiError as exc:
            raise ProtocolError("invalid_card", f"choices: {exc}") from None
        view = table.game.view(seat)
        if card not in view.hand:
            raise ProtocolError("invalid_card", f"choices: {card_text!r} is not in your hand")
        if picked & ~sum(view.items()):
            raise ProtocolError("invalid_card", f"choices: {', '.join(chosen)} not all on the table")
        ply = table.ply
        self.cpu_queue += 1
        try:
            ch = await asyncio.get_running_loop().run_in_executor(self._cpu, in_game, table.info, choices_of, view,
                                                                  card, picked)
        finally:
            self.cpu_queue -= 1
        return {"type": "choices", "ply": ply, "card": NAMES[card], "chosen": [NAMES[c] for c in cards_of(ch.chosen)],
                "moves": [move_dict(m) for m in ch.moves], "open": [NAMES[c] for c in cards_of(ch.open)]}

    def _answered(self, _fut: Any) -> None:
        self.cpu_queue -= 1

    # ---------------------------------------------------------------- idle cleanup
    async def _sweep_loop(self) -> None:
        every = max(0.05, min(60.0, self.idle_seconds / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception as exc:
                if not is_outage(exc):  # an outage: its own log lines say it
                    log.exception("idle sweep failed")

    async def sweep(self) -> int:
        """Warn, then close, tables idle longer than the limit; returns how many were let go."""
        now = time.monotonic()
        limit = now - self.idle_seconds
        if self.cluster is not None:
            # Another process may have seen players here meanwhile: the database knows.
            await self._refresh_activity([t for t in self.tables.values() if t.activity < limit + self.warn_seconds])
        gone = 0
        for table in list(self.tables.values()):
            if table.activity >= limit:
                if table.status in ACTIVE and not table.warned and table.activity < limit + self.warn_seconds:
                    table.warned = True
                    table.send_all({"type": "idle_warning",  # to the players: they can keep it open
                                    "closes_in": max(1, round(table.activity + self.idle_seconds - now))},
                                   watchers=False)
                continue
            async with table.lock:
                if table.activity >= limit or self.tables.get(table.id) is not table:
                    continue
                if table.status in ACTIVE:
                    if self.cluster is None:
                        await self.db(self.store.set_status, table.id, "closed", None)
                    else:
                        cutoff = datetime.now(UTC) - timedelta(seconds=self.idle_seconds)
                        if not await self.db(self.store.close_if_idle, table.id, cutoff):
                            table.activity = time.monotonic()  # used through another process
                            continue
                    self._drop(table, closed=True)
                else:
                    self._drop(table)
                gone += 1
        return gone

    def _drop(self, table: LiveTable, closed: bool = False, reconnect: bool = False) -> None:
        """Let a table go from this process.

        ``closed`` (for idleness): its players are told and disconnected. ``reconnect``: they
        are disconnected, and their pages reconnect to the table read again from the database.
        """
        if closed:
            table.status = "closed"
            table.send_all({"type": "table", "table": table.summary()})
        if closed or reconnect:
            table.close_all()
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if self.cluster is not None and not reconnect:  # a table read again is still this process's to run
            self._spawn(self.cluster.release(table.id))


def _keeping_sigterm(make: Callable[[PoolSpec], T], spec: PoolSpec) -> T:
    """``make(spec)``, keeping this process's SIGTERM handler.

    Connecting to Ray installs Ray's own handler, which kills the process at once; the web
    server's handler (stop taking requests, finish, close the database) must stay.
    """
    on_main = threading.current_thread() is threading.main_thread()
    before = signal.getsignal(signal.SIGTERM) if on_main else None
    made = make(spec)
    if before is not None:
        signal.signal(signal.SIGTERM, before)
    return made
