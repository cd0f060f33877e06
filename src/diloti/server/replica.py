"""How this process follows the others when several share one PostgreSQL (:mod:`diloti.server.cluster`).

:class:`Replica` is the cluster side of the table manager: it handles the other processes' notices (moves,
seats, statuses, chat, rematches), resyncs every few seconds and after the listener reconnects (a notice may
have gone missing), and takes over the computer seats of tables whose runner died. What a notice changes in a
table's copy is read from the database by :class:`~diloti.server.copies.Copies`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from diloti.server.cluster import Cluster
from diloti.server.copies import Copies
from diloti.server.health import is_outage
from diloti.server.held import ACTIVE, HeldTables
from diloti.server.live import LiveTable
from diloti.server.metrics import Metrics
from diloti.server.storage import TableStore
from diloti.store.db import ChatLine, StoreError

log = logging.getLogger("diloti.server")


class Rematched(Protocol):
    """What the other processes' rematch notices tell (:class:`~diloti.server.rematch.Rematches`)."""

    def rematched(self, table: LiveTable, new_id: str) -> None: ...

    async def offer_heard(self, table: LiveTable, seats: set[int], left: float) -> None: ...


class Replica:
    """This process's copies of the tables follow the database, and its watcher the other processes."""

    def __init__(self, cluster: Cluster, storage: TableStore, held: HeldTables, copies: Copies,
                 rematches: Rematched, kick: Callable[[LiveTable], None], metrics: Metrics) -> None:
        self.cluster = cluster
        self.storage = storage
        self.store = storage.store
        self.held = held
        self.tables = held.tables
        self.copies = copies
        self.rematches = rematches
        self.kick = kick  # play a table's computer seats, if this process runs them
        self.metrics = metrics
        self._watcher: asyncio.Task[None] | None = None
        # Told the notices that are no table's news (an arena's pairing: diloti.server.arena; the Bot API's events:
        # diloti.server.bots), by their kind.
        self.listeners: dict[str, Callable[[dict[str, Any]], None]] = {}

    async def join(self) -> None:
        """Listen to the other processes (returns once notices flow)."""
        await self.cluster.start(self.on_notice, self.resync)

    def watch(self) -> asyncio.Task[None]:
        """Watch the locks and the other processes (every second); returns the task, for the manager to stop."""
        self._watcher = asyncio.create_task(self._watch_loop())
        return self._watcher

    async def on_notice(self, notice: dict[str, Any]) -> None:
        """A change committed by another process: apply it to our copy and tell our players."""
        kind, tid = notice.get("k"), notice.get("t")
        heard = self.listeners.get(kind) if isinstance(kind, str) else None
        if heard is not None:
            heard(notice)
            return
        if not isinstance(tid, str) or await self._on_held_notice(kind, notice, self.tables.get(tid)):
            return
        table = await self.held.get(tid)  # a table created elsewhere, or one we did not hold, is loaded whole
        if table is None:
            return
        async with table.lock:
            if kind == "move":
                ply = notice.get("p")
                if ply == table.ply:
                    self.copies.absorb(table, notice.get("s"), notice.get("m"), notice.get("b"), notice.get("l"))
                elif isinstance(ply, int) and ply > table.ply:
                    await self.copies.catch_up(table)  # a notice went missing: the database has them all
            elif kind in ("seat", "status"):
                await self.copies.refresh_seats(table)
            elif kind == "timeout":
                await self._on_timeout(table, notice.get("s"), notice.get("p"), notice.get("r"))
        self.kick(table)

    async def _on_held_notice(self, kind: Any, notice: dict[str, Any], held: LiveTable | None) -> bool:
        """The notices that matter only to a table held here (none is loaded for them); False for the others."""
        if kind == "status" and notice.get("status") == "closed":
            if held is not None:
                async with held.lock:
                    self.held.drop(held, closed=True)
        elif kind == "rematch":
            new_id = notice.get("n")
            if held is not None and isinstance(new_id, str):
                self.rematches.rematched(held, new_id)
        elif kind == "offer":  # seats that asked for a rematch through another process
            seats, left = notice.get("s"), notice.get("l")
            if (held is not None and isinstance(seats, list) and all(type(x) is int for x in seats)
                    and isinstance(left, int | float)):
                await self.rematches.offer_heard(held, set(seats), float(left))
        elif kind == "chat":
            line = ChatLine.from_notice(notice)
            if line is not None and held is not None:  # a table not held here reads its chat when it is loaded
                held.hear(line)
        else:
            return False
        return True

    async def _on_timeout(self, table: LiveTable, seat: Any, ply: Any, reason: Any) -> None:
        """Another process's clock put ``seat`` in the computer's hands: our seats again, and the reason told here."""
        if not (isinstance(seat, int) and 0 <= seat < table.players and isinstance(ply, int)
                and isinstance(reason, str)):
            await self.copies.refresh_seats(table)
            return
        was = table.seats[seat].away
        await self.copies.refresh_seats(table)
        if not was and table.seats[seat].away:  # told here too: this process's players see why
            table.timed_out(seat, ply, reason)

    async def resync(self) -> None:
        """Compare every table we hold with the database, and load the unfinished ones we lack.

        Run after the listener reconnects (notices sent meanwhile are lost) and every few seconds.
        """
        for tid in await self.storage.db(self.store.active_ids):
            if tid not in self.tables:
                try:
                    await self.held.get(tid)
                except StoreError as exc:
                    log.error("cannot load %s", exc)
        held = [t for t in self.tables.values() if t.status in ACTIVE]
        stored = await self.storage.db(self.store.progress, [t.id for t in held])
        for table in held:
            if table.id not in stored:
                continue
            count, status, _ = stored[table.id]
            if count > table.ply or status != table.status:
                async with table.lock:
                    if count > table.ply:
                        await self.copies.catch_up(table)
                    if self.held.holds(table):
                        await self.copies.refresh_seats(table)
            self.kick(table)

    async def _watch_loop(self) -> None:
        tick = 0
        while True:
            await asyncio.sleep(1.0)
            tick += 1
            try:
                await self.cluster.check()
                await self._take_over()
                if tick % 5 == 0:
                    await self.resync()
            except Exception as exc:
                if not is_outage(exc):  # an outage: its own log lines say it (tried again next second)
                    log.exception("watching the other processes failed")

    async def _take_over(self) -> None:
        """Run the unfinished tables whose runner is gone (its lock died with its process).

        Every unfinished table is locked by a process from its creation, so a lock found free means its process
        is gone (or lost its connection to PostgreSQL). A copy here may be behind, though: the game it shows
        under way may have ended, and its lock been let go. So a table whose lock is taken is first brought up
        to date from the database, and counted as a takeover only if it is still under way.
        """
        orphans = [t.id for t in self.tables.values() if t.id not in self.cluster.owned and t.status in ACTIVE]
        for tid in await self.cluster.claim(orphans) if orphans else ():
            table = self.tables.get(tid)
            if table is None or not await self._still_active(table):
                await self.cluster.release(tid)
                continue
            self.metrics.takeovers.inc()
            log.warning("takeover: running the computer seats of %s (the process that ran them is gone)", tid)
            self.kick(table)

    async def _still_active(self, table: LiveTable) -> bool:
        """Bring a copy up to date from the database; is its game still under way?"""
        stored = (await self.storage.db(self.store.progress, [table.id])).get(table.id)
        if stored is None:
            return False
        async with table.lock:
            if stored[0] > table.ply:
                await self.copies.catch_up(table)
            if stored[1] != table.status and self.held.holds(table):
                await self.copies.refresh_seats(table)
            return self.held.holds(table) and table.status in ACTIVE and not table.over
