"""The computer players of the tables, and the worker processes they (and hints, and reviews) run in.

:class:`Workers` is the pool of worker processes (:mod:`diloti.match.workers`): a computer move or a hint takes
up to a second of CPU, so it runs outside this process's GIL and never delays another table's messages.
:class:`Computers` runs the computer seats of the tables this process runs (and the seats of away players): one
task a table while a computer is to move, its moves chosen in the workers and played like a player's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, Protocol, TypeVar

from diloti.core.moves import Move
from diloti.core.seeds import derive_seed
from diloti.games import GameInfo
from diloti.match.workers import PoolSpec, choose_move, in_game, worker_pool
from diloti.server.cluster import Ownership
from diloti.server.health import Outage, is_outage
from diloti.server.live import LiveTable, Seat
from diloti.server.metrics import Metrics
from diloti.server.protocol import ProtocolError

log = logging.getLogger("diloti.server")
T = TypeVar("T")


class Workers:
    """The worker processes, and how many of their jobs for the tables wait for an answer (the metrics' queue)."""

    def __init__(self, spec: PoolSpec) -> None:
        # Computer moves and hints take up to a second of CPU: in worker processes, outside this
        # process's GIL, so that one table's search never delays another table's messages.
        self.pool = _keeping_sigterm(worker_pool, spec)
        self.queue = 0  # computer moves and hints submitted to the workers, not yet answered

    async def compute(self, game: GameInfo, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker pool (CPU-heavy work such as a review's decisions: never on the loop), with
        ``game`` (the game it is about) known to the worker (:func:`~diloti.match.workers.in_game`)."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, in_game, game, fn, *args)

    @contextlib.contextmanager
    def queued(self) -> Iterator[None]:
        """Counted in the queue meanwhile (a job submitted, or waiting for its turn to be)."""
        self.queue += 1
        try:
            yield
        finally:
            self.queue -= 1

    async def run(self, game: GameInfo, fn: Callable[..., T], *args: Any) -> T:
        """:meth:`compute`, counted in the queue while it runs."""
        with self.queued():
            return await self.compute(game, fn, *args)

    def submit(self, game: GameInfo, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """:meth:`compute` as a future that others may await too, counted in the queue until it is answered."""
        fut = asyncio.get_running_loop().run_in_executor(self.pool, in_game, game, fn, *args)
        self.queue += 1
        fut.add_done_callback(self._answered)
        return fut

    def _answered(self, _fut: asyncio.Future[Any]) -> None:
        self.queue -= 1

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class Play(Protocol):
    """Store and announce a checked move (:meth:`diloti.server.moves.Moves.apply`); ``by``: the computer's level,
    playing for an away human."""

    def __call__(self, table: LiveTable, seat: int, move: Move, ply: int | None,
                 by: str | None = None) -> Awaitable[None]: ...


class Computers:
    """The computer seats' moves, on the tables this process runs."""

    def __init__(self, workers: Workers, play: Play, holds: Callable[[LiveTable], bool], owners: Ownership,
                 outage: Outage, metrics: Metrics, *, delay: float = 0.0, slots: int = 4) -> None:
        self.workers = workers
        self.play = play
        self.holds = holds
        self.owners = owners
        self.outage = outage
        self.metrics = metrics
        self.delay = delay  # seconds a computer waits before each move (a server for tests and demos)
        self.errors = 0  # computer moves that failed (a first legal move played instead) or were refused
        # One client's tables share this many computer moves at a time: 300 tables opened by one
        # address queue behind each other instead of filling the worker pool for everyone.
        self.slots = slots
        self._slots: dict[str, tuple[asyncio.Semaphore, list[int]]] = {}

    def kick(self, table: LiveTable) -> None:
        """Play the table's computer seats now, if one is to move (and no task plays them already)."""
        if table.bot_task is not None and not table.bot_task.done():
            return
        if not self.owners.runs(table.id):
            return  # another process runs its computer seats (the watcher takes over if it dies)
        if self.to_move(table) is not None:
            table.bot_task = asyncio.create_task(self._run(table))

    async def run_for(self, table: LiveTable) -> None:
        """Make sure a process runs the table's computer moves now that one of its seats is away."""
        if not self.owners.runs(table.id):
            await self.owners.claim([table.id])  # else the process that holds the lock runs them
        self.kick(table)

    @staticmethod
    def to_move(table: LiveTable) -> Seat | None:
        """The seat to move, if a computer plays it (a computer seat, or an away player's)."""
        if table.status != "playing" or table.over:
            return None
        s = table.seats[table.game.state.turn]
        return s if table.runs_for(s) is not None else None

    async def _run(self, table: LiveTable) -> None:
        while (s := self.to_move(table)) is not None and self.holds(table) and self.owners.runs(table.id):
            ply = table.ply
            view = table.game.view(s.seat)
            level = table.runs_for(s)
            assert level is not None
            by = level if s.kind == "human" else None
            # Seeded by table, seat and ply: a restarted server makes the same choices.
            seed = derive_seed("diloti-bot", table.seed, s.seat, ply)
            if self.delay:
                await asyncio.sleep(self.delay)
            t0 = time.perf_counter()
            with self.workers.queued():  # (waiting for its slot too)
                try:
                    async with self._slot(table):
                        move = await self.workers.compute(table.info, choose_move, level, seed, view)
                    self.metrics.computer_seconds.observe(time.perf_counter() - t0)
                except Exception:
                    self.errors += 1
                    log.exception("computer player %s failed at %s ply %s; playing its first legal move",
                                  level, table.id, ply)
                    move = view.legal[0]
            if table.ply != ply:
                continue
            try:
                await self.play(table, s.seat, move, ply, by)
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
                self.errors += 1
                log.error("computer player %s at %s ply %s: %s", level, table.id, ply, exc)
                if exc.code != "illegal_move":
                    return
                await self.play(table, s.seat, view.legal[0], ply, by)

    @contextlib.asynccontextmanager
    async def _slot(self, table: LiveTable) -> AsyncIterator[None]:
        """One of the table's client's computer-move slots (held while its move is computed)."""
        key = table.client or f"table:{table.id}"  # a resumed table's creator is not known: its own slots
        entry = self._slots.get(key)
        if entry is None:
            entry = self._slots[key] = (asyncio.Semaphore(self.slots), [0])
        entry[1][0] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1][0] -= 1
            if not entry[1][0]:
                del self._slots[key]


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
