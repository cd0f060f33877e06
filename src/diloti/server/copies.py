"""This process's copy of a table brought up to date from the database.

With several processes on one PostgreSQL (:mod:`diloti.server.cluster`), a table's moves, seats and status may
change through another process. :class:`Copies` reads what changed into the copy held here and tells this
process's players: the moves it lacks, who sits where, the status, the tables' last use. The other parts call
it when the database says something other than what they expected (a ply stored first by another process, a
seat claimed elsewhere, an end that came too late); :class:`~diloti.server.replica.Replica` when a notice says so.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from typing import Any

from diloti.core.errors import DilotiError
from diloti.core.moves import Move
from diloti.server.cluster import Ownership
from diloti.server.held import ACTIVE, HeldTables
from diloti.server.live import LiveTable
from diloti.server.storage import TableStore
from diloti.server.tasks import Background

log = logging.getLogger("diloti.server")


class Copies:
    """Read a table's changes from the database into the copy held here."""

    def __init__(self, storage: TableStore, held: HeldTables, owners: Ownership, background: Background) -> None:
        self.storage = storage
        self.store = storage.store
        self.held = held
        self.owners = owners
        self.background = background

    def advance(self, table: LiveTable, seat: int, move: Move, left: int | None = None) -> None:
        """Push a stored move into the table and tell its players; a game it ends is no longer run here."""
        table.advance(seat, move, left)
        if table.game.is_over:
            self.owners.let_go(table.id)

    def absorb(self, table: LiveTable, seat: Any, text: Any, by: Any = None, left: Any = None) -> bool:
        """Apply a move another process stored (checked all the same: the database is shared, not trusted)."""
        try:
            move = Move.parse(text)
        except DilotiError:
            move = None
        if (move is None or table.game.is_over or seat != table.game.state.turn
                or not table.game.state.is_legal(move)):
            log.error("table %s: stored move %s %r does not follow; reloading it", table.id, table.ply, text)
            self.held.drop(table, reconnect=True)  # its players reconnect to a copy read afresh
            return False
        if isinstance(by, str):
            table.by[table.ply] = by
        self.advance(table, seat, move, left if type(left) is int else None)
        if table.game.is_over:
            # Normally the process that stored the last move stores the end too; in case it stopped in between,
            # every process that sees the end stores it as well (written once: its results go in only once).
            self.background.spawn(self.storage.store_end(table))
        return True

    async def catch_up(self, table: LiveTable) -> None:
        """Apply every stored move this copy lacks (the caller holds the table's lock)."""
        for ply, seat, text, by, left in await self.storage.db(self.store.moves_since, table.id, table.ply):
            if ply != table.ply or not self.absorb(table, seat, text, by, left):
                break

    async def refresh_seats(self, table: LiveTable) -> None:
        """Read who sits where, and the status, as stored (the caller holds the table's lock)."""
        got = await self.storage.db(self.store.seats_of, table.id)
        if got is None:
            return
        ending, seats = got
        status = ending.status
        was = table.status
        changed = False
        for stored in seats:
            s = table.seats[stored.seat]
            if (s.name, s.token_hash, s.away, s.player) != (stored.name, stored.token_hash, stored.away,
                                                            stored.player_id):
                if s.token_hash != stored.token_hash and s.conns:
                    # The seat was left through another process: its connections here hold it no more.
                    for c in list(s.conns):
                        c.send({"type": "left", "table": table.id, "seat": s.seat})
                        c.close()
                    s.conns.clear()
                    s.gone = time.monotonic()
                s.name, s.token_hash, s.away, s.player = stored.name, stored.token_hash, stored.away, stored.player_id
                changed = True
        if status == "closed":
            self.held.drop(table, closed=True)
            return
        if (status == "over" and ending.end_reason is not None and ending.winner is not None
                and table.end_reason is None and not table.game.is_over):
            table.end(ending.winner, ending.end_reason)  # resigned through another process
            self.owners.let_go(table.id)
            return
        if was in ACTIVE and status in ACTIVE:
            table.status = status
        rearmed = table.arm()
        if changed or table.status != was:
            table.send_all({"type": "table", "table": table.summary()})
            if table.status == "playing" and was == "waiting":
                table.send_states()
            elif rearmed:
                table.send_clock()

    async def refresh_activity(self, tables: list[LiveTable]) -> None:
        """Read when these tables were last used (through any process)."""
        if not tables:
            return
        stored = await self.storage.db(self.store.progress, [t.id for t in tables])
        now, wall = time.monotonic(), datetime.now(UTC)
        for table in tables:
            if table.id in stored:
                age = (wall - stored[table.id][2]).total_seconds()
                table.activity = max(table.activity, now - max(0.0, age))
