"""The tables this process holds: loaded from the database on first use, let go when they close.

:class:`HeldTables` is the table manager's dict of :class:`~diloti.server.live.LiveTable` and what every other
part asks of it: a table by id (loaded and replayed if needed), whether a table is still the one held here
(a table closed, or read again, is another object or none), a table used by a player, a table let go.
"""

from __future__ import annotations

import asyncio
import time

from diloti.server.cluster import Ownership
from diloti.server.live import LiveTable
from diloti.server.protocol import ProtocolError
from diloti.server.storage import TableStore
from diloti.server.tasks import Background

ACTIVE = ("waiting", "playing")


class HeldTables:
    """Every live table of this process, by id."""

    def __init__(self, storage: TableStore, owners: Ownership, background: Background, idle_seconds: float) -> None:
        self.storage = storage
        self.owners = owners
        self.background = background
        self.idle_seconds = idle_seconds
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}

    def add(self, table: LiveTable) -> None:
        """Hold a table made here (a new table, a rematch)."""
        self.tables[table.id] = table

    def holds(self, table: LiveTable) -> bool:
        """``table`` is the copy held here (not one closed, or let go to be read again, meanwhile)."""
        return self.tables.get(table.id) is table

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
            data = await self.storage.db(self.storage.store.load, table_id)
            table = None if data is None else LiveTable(data)
            if table is not None:
                self.tables[table_id] = table
                if data is not None and table.over and data.status in ACTIVE:
                    # The process stopped between the last move and storing the end: store it now.
                    self.background.spawn(self.storage.store_end(table))
            fut.set_result(table)
            return table
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: waiters get it through shield
            raise
        finally:
            del self._loading[table_id]

    async def must_get(self, table_id: str) -> LiveTable:
        """The live table, or the ``unknown_table`` error."""
        table = await self.get(table_id)
        if table is None:
            raise ProtocolError("unknown_table", f"no table {table_id!r:.40}", 404)
        return table

    def check_open(self, table: LiveTable) -> None:
        """Refuse a table closed for idleness (or let go meanwhile)."""
        if table.status == "closed" or not self.holds(table):
            raise ProtocolError("table_closed", f"table {table.id} was closed for idleness")

    def check_live(self, table: LiveTable) -> None:
        """Refuse a table closed, or whose game is over."""
        self.check_open(table)
        if table.over:
            raise ProtocolError("game_over", "the game is over")

    def touch(self, table: LiveTable) -> None:
        """A player used the table: it is not idle (told to the other processes now and then)."""
        now = time.monotonic()
        table.activity = now
        table.warned = False
        if self.owners.shared and now - table.touched > min(30.0, self.idle_seconds / 10):
            table.touched = now
            self.background.spawn(self.storage.db(self.storage.store.touch, [table.id]))

    def drop(self, table: LiveTable, closed: bool = False, reconnect: bool = False) -> None:
        """Let a table go from this process.

        ``closed`` (for idleness): its players are told and disconnected. ``reconnect``: they
        are disconnected, and their pages reconnect to the table read again from the database.
        """
        if closed:
            table.status = "closed"
            table.send_all({"type": "table", "table": table.summary()})
        if closed or reconnect:
            table.close_all()
        if self.holds(table):
            del self.tables[table.id]
        if not reconnect:  # a table read again is still this process's to run
            self.owners.let_go(table.id)
