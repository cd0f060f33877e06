"""Group commit: the moves of every table that arrive while a commit runs share the next one.

Many tables then cost one transaction, not one each. A batch that fails (one duplicate
ply fails the whole transaction) is stored again row by row, so one bad row fails only
its own caller; a batch the database did not take because it is out of reach (an outage:
:func:`~diloti.server.health.is_outage`) fails every caller at once, with that error, and
is not tried again row by row. When an outage begins, :meth:`GroupCommit.abandon` fails at
once every row still waiting, queued or in a commit the database does not answer: nothing
waits for a database that is out (the commit may still land when it is back: a move sent
again then finds its ply stored, and the caller catches up with it).

>>> import asyncio, threading
>>> stored = []
>>> async def write(rows):
...     stored.append(list(rows))
>>> async def main():
...     commit = GroupCommit(write)
...     await asyncio.gather(*(commit.store(("t", p, 0, "7H", None)) for p in range(3)))
...     commit.task.cancel()
>>> # (on a thread of its own: the example may run where an event loop is already running)
>>> worker = threading.Thread(target=asyncio.run, args=(main(),)); worker.start(); worker.join()
>>> [len(batch) for batch in stored]
[3]
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from diloti.server.health import is_outage

log = logging.getLogger("diloti.server")

# table id, ply, seat, move, computer level (for an away player), clock reserve left after it (ms)
Row = tuple[str, int, int, str, str | None, int | None]


class GroupCommit:
    """Queue rows for ``write`` (a coroutine storing a list of rows in one transaction)."""

    def __init__(self, write: Callable[[list[Row]], Awaitable[None]]) -> None:
        self.write = write
        self.task: asyncio.Task[None] | None = None
        self._queued: list[tuple[Row, asyncio.Future[None]]] = []
        self._writing: list[tuple[Row, asyncio.Future[None]]] = []  # the batch being committed
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    async def store(self, row: Row) -> None:
        """Returns once ``row`` is committed; raises what storing it raised."""
        self._loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = self._loop.create_future()
        self._queued.append((row, fut))
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())
        self._wake.set()
        await fut

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queued:
                batch, self._queued = self._queued, []
                self._writing = batch
                try:
                    t0 = time.perf_counter()
                    await self.write([row for row, _ in batch])
                    took = time.perf_counter() - t0
                    if took > 0.2 and not all(fut.done() for _, fut in batch):  # (abandoned: the outage said it)
                        log.warning("storing %d moves took %.0f ms", len(batch), took * 1000)
                    results: list[BaseException | None] = [None] * len(batch)
                except Exception as exc:
                    if is_outage(exc):  # no row could be stored: each caller is told so, once
                        self._fail(batch, exc)
                        continue
                    results = []
                    for row, fut in batch:
                        if fut.done():  # abandoned: its caller was told it is not stored, so it is not tried again
                            results.append(None)
                            continue
                        try:
                            await self.write([row])
                            results.append(None)
                        except Exception as row_exc:
                            results.append(row_exc)
                finally:
                    self._writing = []
                for (_, fut), failure in zip(batch, results, strict=True):
                    if fut.done():
                        continue
                    if failure is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(failure)

    def abandon(self, exc: BaseException) -> None:
        """Fail with ``exc`` every row still waiting, queued or being committed (from any thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._abandon, exc)

    def _abandon(self, exc: BaseException) -> None:
        self._fail(self._writing, exc)
        self._fail(self._queued, exc)
        self._queued = []

    @staticmethod
    def _fail(batch: list[tuple[Row, asyncio.Future[None]]], exc: BaseException) -> None:
        for _, fut in batch:
            if not fut.done():
                fut.set_exception(exc)
