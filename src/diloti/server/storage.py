"""The tables' storage: every database call of the table manager, off the event loop.

:class:`TableStore` runs database calls on one worker thread (SQLite sees one writer; the event loop never waits
on the disk), stores the moves of all tables in shared transactions (group commit, :mod:`diloti.server.writer`),
stores a game's end with its results and ratings, runs SQLite's checkpoints on a thread of their own every 2 s,
and knows whether the database is reachable (:class:`~diloti.server.health.Outage`: during an outage a call is
refused at once rather than queued behind a database that does not answer).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from diloti.server.health import Outage, Unreachable, is_outage
from diloti.server.live import LiveTable
from diloti.server.metrics import Metrics
from diloti.server.ratings import game_result, rate_seats
from diloti.server.tasks import Background, report_failure
from diloti.server.writer import GroupCommit
from diloti.store.db import Store
from diloti.store.players import PlayerStore

log = logging.getLogger("diloti.server")
T = TypeVar("T")


class TableStore:
    """The database of the tables, their moves and their players' results, as the event loop reaches it."""

    def __init__(self, store: Store, metrics: Metrics, background: Background) -> None:
        self.store = store
        self.players = PlayerStore(store)
        self.metrics = metrics
        self.background = background
        # Told of each game's end this process stored: (table, winning side, reason).
        self.on_end: list[Callable[[LiveTable, int | None, str | None], None]] = []
        self._db = ThreadPoolExecutor(1, thread_name_prefix="diloti-db")
        self._ckpt = ThreadPoolExecutor(1, thread_name_prefix="diloti-checkpoint")
        self._checkpointer: asyncio.Task[None] | None = None
        self._moves = GroupCommit(lambda rows: self.db(self.store.add_moves, rows))
        # What this process knows of its database (diloti.server.health): /readyz, the outage's log lines,
        # and what is refused at once while the database is out of reach.
        self.outage = Outage(on_change=self._outage_changed)

    def start(self) -> None:
        """Start the checkpoints (SQLite) and the outage's probe."""
        if self.store.is_sqlite:
            self._checkpointer = asyncio.create_task(self._checkpoint_loop())
        self.outage.start(self.store.ping, self.store)

    def tasks(self) -> list[asyncio.Task[None]]:
        """The tasks to cancel when the manager stops: the group commit's and the checkpoints'."""
        return [t for t in (self._moves.task, self._checkpointer) if t is not None]

    def close(self) -> None:
        """Let the worker threads go (once nothing is submitted any more)."""
        self._ckpt.shutdown(wait=True)
        self._db.shutdown(wait=True)

    def trouble(self, kind: str) -> None:
        """A database failure of this ``kind`` (the metrics' label)."""
        self.metrics.db_errors.labels(kind).inc()

    def _outage_changed(self, down: bool) -> None:
        self.metrics.db_up.set(0 if down else 1)
        if down:  # the moves waiting for a commit are refused now, not when the database answers
            self._moves.abandon(Unreachable("the database is out of reach"))

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the database's worker thread."""
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

    async def _checkpoint_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(2.0)
            try:
                # Its own thread: a checkpoint fsyncs, and commits must not queue behind that.
                await loop.run_in_executor(self._ckpt, self.store.checkpoint)
            except Exception:
                log.exception("checkpoint failed")

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

    async def store_end(self, table: LiveTable, end: tuple[int | None, str] | None = None) -> bool:
        """Store that the game is over (``end``: ended early, ``(winner, reason)``; else played out) with, once,
        its players' results and ratings (one transaction). False: an early end came too late (the game was
        no longer under way).

        The store runs in a task of its own, awaited through a shield: the callers await it in a connection's
        handler or the computer's task, and that connection closing (or that task stopping) right after the
        last move cancelled the await, so the end and its results waited for the table's next load."""
        winner, reason = end if end is not None else (table.game.winner, None)
        stored = self.background.spawn(self.db(self.players.finish, game_result(table, winner, reason), rate_seats,
                                               end), report=False)  # its failure reaches the caller, who logs it
        try:
            ok: bool = await asyncio.shield(stored)
        except asyncio.CancelledError:
            stored.add_done_callback(report_failure)  # nobody awaits the store now: log its failure here
            raise
        if ok:
            for listener in self.on_end:  # the bot accounts' event streams (diloti.server.bots)
                listener(table, winner, reason)
        return ok
