"""Idle tables: their players warned, then the tables closed (and finished ones let go from memory).

:class:`Sweeper` runs every quarter of the idle limit (at most a minute). In a cluster another process may have
seen the table's players meanwhile: a table is closed only by a conditional update that sees no use by any
process.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from diloti.server.cluster import Ownership
from diloti.server.health import is_outage
from diloti.server.held import ACTIVE, HeldTables
from diloti.server.live import LiveTable
from diloti.server.storage import TableStore

log = logging.getLogger("diloti.server")


class Sweeper:
    """Warn, then close, the tables left idle."""

    def __init__(self, storage: TableStore, held: HeldTables, owners: Ownership,
                 refresh_activity: Callable[[list[LiveTable]], Awaitable[None]], idle_seconds: float) -> None:
        self.storage = storage
        self.store = storage.store
        self.held = held
        self.owners = owners
        self.refresh_activity = refresh_activity  # when the tables were last used through any process
        self.idle_seconds = idle_seconds
        # Players hear this long before an idle table closes (5 minutes of the default 60).
        self.warn_seconds = min(300.0, self.idle_seconds / 4)

    def start(self) -> asyncio.Task[None]:
        """Sweep now and then; returns the task, for the manager to stop."""
        return asyncio.create_task(self._sweep_loop())

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
        tables = self.held.tables
        if self.owners.shared:
            # Another process may have seen players here meanwhile: the database knows.
            await self.refresh_activity([t for t in tables.values() if t.activity < limit + self.warn_seconds])
        gone = 0
        for table in list(tables.values()):
            if table.activity >= limit:
                if table.status in ACTIVE and not table.warned and table.activity < limit + self.warn_seconds:
                    table.warned = True
                    table.send_all({"type": "idle_warning",  # to the players: they can keep it open
                                    "closes_in": max(1, round(table.activity + self.idle_seconds - now))},
                                   watchers=False)
                continue
            async with table.lock:
                if table.activity >= limit or not self.held.holds(table):
                    continue
                if table.status in ACTIVE:
                    if not self.owners.shared:
                        await self.storage.db(self.store.set_status, table.id, "closed", None)
                    else:
                        cutoff = datetime.now(UTC) - timedelta(seconds=self.idle_seconds)
                        if not await self.storage.db(self.store.close_if_idle, table.id, cutoff):
                            table.activity = time.monotonic()  # used through another process
                            continue
                    self.held.drop(table, closed=True)
                else:
                    self.held.drop(table)
                gone += 1
        return gone
