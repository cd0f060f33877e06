"""Group commit: the moves of every table that arrive while a commit runs share the next one.

Many tables then cost one transaction, not one each. A batch that fails (one duplicate
ply fails the whole transaction) is stored again row by row, so one bad row fails only
its own caller.

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

log = logging.getLogger("diloti.server")

# table id, ply, seat, move, computer level (for an away player), clock reserve left after it (ms)
Row = tuple[str, int, int, str, str | None, int | None]


class GroupCommit:
    """Queue rows for ``write`` (a coroutine storing a list of rows in one transaction)."""

    def __init__(self, write: Callable[[list[Row]], Awaitable[None]]) -> None:
        self.write = write
        self.task: asyncio.Task[None] | None = None
        self._queued: list[tuple[Row, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()

    async def store(self, row: Row) -> None:
        """Returns once ``row`` is committed; raises what storing it raised."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
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
                try:
                    t0 = time.perf_counter()
                    await self.write([row for row, _ in batch])
                    took = time.perf_counter() - t0
                    if took > 0.2:
                        log.warning("storing %d moves took %.0f ms", len(batch), took * 1000)
                    results: list[BaseException | None] = [None] * len(batch)
                except Exception:
                    results = []
                    for row, _ in batch:
                        try:
                            await self.write([row])
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
