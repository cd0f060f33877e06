"""How a table manager keeps its copies current when several processes share one PostgreSQL.

:class:`Replica` is a part of :class:`~diloti.server.tables.TableManager`: the handling
of the other processes' notices (moves, seats, statuses, chat, rematches), the catch-up
from the database when a notice went missing, the resync every few seconds, and the
takeover of the computer seats of tables whose runner died. It names below, as
abstract methods, what it uses of the manager.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from diloti.core.errors import DilotiError
from diloti.core.moves import Move
from diloti.server.cluster import Cluster
from diloti.server.health import is_outage
from diloti.server.live import LiveTable, Seat
from diloti.server.metrics import Metrics
from diloti.store.db import ChatLine, Store, StoreError

log = logging.getLogger("diloti.server")
T = TypeVar("T")
ACTIVE = ("waiting", "playing")


class Replica(ABC):
    """The manager's side of the cluster: its copies of the tables follow the database."""

    tables: dict[str, LiveTable]
    store: Store
    cluster: Cluster | None
    metrics: Metrics

    @abstractmethod
    async def db(self, fn: Callable[..., T], *args: Any) -> T: ...

    @abstractmethod
    async def get(self, table_id: str) -> LiveTable | None: ...

    @abstractmethod
    def _kick(self, table: LiveTable) -> None: ...

    @abstractmethod
    def _drop(self, table: LiveTable, closed: bool = False, reconnect: bool = False) -> None: ...

    @abstractmethod
    def _advance(self, table: LiveTable, seat: int, move: Move, left: int | None = None) -> None: ...

    @abstractmethod
    def _spawn(self, coro: Any, report: bool = True) -> asyncio.Task[Any]: ...

    @abstractmethod
    def _rematched(self, table: LiveTable, new_id: str) -> None: ...

    @abstractmethod
    async def _store_end(self, table: LiveTable, end: tuple[int | None, str] | None = None) -> bool: ...

    @abstractmethod
    async def _offer_heard(self, table: LiveTable, seats: set[int], left: float) -> None: ...

    @staticmethod
    @abstractmethod
    def _bot_to_move(table: LiveTable) -> Seat | None: ...

    async def _on_notice(self, notice: dict[str, Any]) -> None:
        """A change committed by another process: apply it to our copy and tell our players."""
        kind, tid = notice.get("k"), notice.get("t")
        if not isinstance(tid, str) or await self._on_held_notice(kind, notice, self.tables.get(tid)):
            return
        table = await self.get(tid)  # a table created elsewhere, or one we did not hold, is loaded whole
        if table is None:
            return
        async with table.lock:
            if kind == "move":
                ply = notice.get("p")
                if ply == table.ply:
                    self._absorb(table, notice.get("s"), notice.get("m"), notice.get("b"), notice.get("l"))
                elif isinstance(ply, int) and ply > table.ply:
                    await self._catch_up(table)  # a notice went missing: the database has them all
            elif kind in ("seat", "status"):
                await self._refresh_seats(table)
            elif kind == "timeout":
                await self._on_timeout(table, notice.get("s"), notice.get("p"), notice.get("r"))
        self._kick(table)

    async def _on_held_notice(self, kind: Any, notice: dict[str, Any], held: LiveTable | None) -> bool:
        """The notices that matter only to a table held here (none is loaded for them); False for the others."""
        if kind == "status" and notice.get("status") == "closed":
            if held is not None:
                async with held.lock:
                    self._drop(held, closed=True)
        elif kind == "rematch":
            new_id = notice.get("n")
            if held is not None and isinstance(new_id, str):
                self._rematched(held, new_id)
        elif kind == "offer":  # seats that asked for a rematch through another process
            seats, left = notice.get("s"), notice.get("l")
            if (held is not None and isinstance(seats, list) and all(type(x) is int for x in seats)
                    and isinstance(left, int | float)):
                await self._offer_heard(held, set(seats), float(left))
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
            await self._refresh_seats(table)
            return
        was = table.seats[seat].away
        await self._refresh_seats(table)
        if not was and table.seats[seat].away:  # told here too: this process's players see why
            table.timed_out(seat, ply, reason)

    def _absorb(self, table: LiveTable, seat: Any, text: Any, by: Any = None, left: Any = None) -> bool:
        """Apply a move another process stored (checked all the same: the database is shared, not trusted)."""
        try:
            move = Move.parse(text)
        except DilotiError:
            move = None
        if (move is None or table.game.is_over or seat != table.game.state.turn
                or not table.game.state.is_legal(move)):
            log.error("table %s: stored move %s %r does not follow; reloading it", table.id, table.ply, text)
            self._drop(table, reconnect=True)  # its players reconnect to a copy read afresh
            return False
        if isinstance(by, str):
            table.by[table.ply] = by
        self._advance(table, seat, move, left if type(left) is int else None)
        if table.game.is_over:
            # Normally the process that stored the last move stores the end too; in case it stopped in between,
            # every process that sees the end stores it as well (written once: its results go in only once).
            self._spawn(self._store_end(table))
        return True

    async def _catch_up(self, table: LiveTable) -> None:
        """Apply every stored move this copy lacks (the caller holds the table's lock)."""
        for ply, seat, text, by, left in await self.db(self.store.moves_since, table.id, table.ply):
            if ply != table.ply or not self._absorb(table, seat, text, by, left):
                break

    async def _refresh_seats(self, table: LiveTable) -> None:
        """Read who sits where, and the status, as stored (the caller holds the table's lock)."""
        got = await self.db(self.store.seats_of, table.id)
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
            self._drop(table, closed=True)
            return
        if (status == "over" and ending.end_reason is not None and ending.winner is not None
                and table.end_reason is None and not table.game.is_over):
            table.end(ending.winner, ending.end_reason)  # resigned through another process
            if self.cluster is not None:
                self._spawn(self.cluster.release(table.id))
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

    async def _refresh_activity(self, tables: list[LiveTable]) -> None:
        if not tables:
            return
        stored = await self.db(self.store.progress, [t.id for t in tables])
        now, wall = time.monotonic(), datetime.now(UTC)
        for table in tables:
            if table.id in stored:
                age = (wall - stored[table.id][2]).total_seconds()
                table.activity = max(table.activity, now - max(0.0, age))

    async def _resync(self) -> None:
        """Compare every table we hold with the database, and load the unfinished ones we lack.

        Run after the listener reconnects (notices sent meanwhile are lost) and every few seconds.
        """
        for tid in await self.db(self.store.active_ids):
            if tid not in self.tables:
                try:
                    await self.get(tid)
                except StoreError as exc:
                    log.error("cannot load %s", exc)
        held = [t for t in self.tables.values() if t.status in ACTIVE]
        stored = await self.db(self.store.progress, [t.id for t in held])
        for table in held:
            if table.id not in stored:
                continue
            count, status, _ = stored[table.id]
            if count > table.ply or status != table.status:
                async with table.lock:
                    if count > table.ply:
                        await self._catch_up(table)
                    if self.tables.get(table.id) is table:
                        await self._refresh_seats(table)
            self._kick(table)

    async def _watch_loop(self) -> None:
        tick = 0
        while True:
            await asyncio.sleep(1.0)
            tick += 1
            try:
                assert self.cluster is not None
                await self.cluster.check()
                await self._take_over()
                if tick % 5 == 0:
                    await self._resync()
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
        assert self.cluster is not None
        orphans = [t.id for t in self.tables.values() if t.id not in self.cluster.owned and t.status in ACTIVE]
        for tid in await self.cluster.claim(orphans) if orphans else ():
            table = self.tables.get(tid)
            if table is None or not await self._still_active(table):
                await self.cluster.release(tid)
                continue
            self.metrics.takeovers.inc()
            log.warning("takeover: running the computer seats of %s (the process that ran them is gone)", tid)
            self._kick(table)

    async def _still_active(self, table: LiveTable) -> bool:
        """Bring a copy up to date from the database; is its game still under way?"""
        stored = (await self.db(self.store.progress, [table.id])).get(table.id)
        if stored is None:
            return False
        async with table.lock:
            if stored[0] > table.ply:
                await self._catch_up(table)
            if stored[1] != table.status and self.tables.get(table.id) is table:
                await self._refresh_seats(table)
            return self.tables.get(table.id) is table and table.status in ACTIVE and not table.over
