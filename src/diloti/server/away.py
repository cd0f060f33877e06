"""Away play: the computer plays a human seat whose player is not there, until the player is back.

A seat is handed to the computer (``away_level``) when its turn clock runs out, when its player stays
disconnected at their turn past the table's grace period (a table without a clock, one process: only it knows
its connections), or when another player hands it over after that grace period; a rated game the absent
player has not made a move in yet is aborted instead. :class:`AwayPlay` watches the clocks and does these;
:func:`set_away` stores and shows the change (the player's return too).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from diloti.server.cluster import Ownership
from diloti.server.copies import Copies
from diloti.server.held import HeldTables
from diloti.server.live import LiveTable, Seat
from diloti.server.protocol import ProtocolError
from diloti.server.storage import TableStore
from diloti.server.tasks import Background

log = logging.getLogger("diloti.server")


async def set_away(storage: TableStore, table: LiveTable, seat: Seat, away: bool) -> None:
    """Store and show that the computer plays this human seat (or no longer does); the caller holds the lock."""
    try:
        await storage.db(storage.store.set_away, table.id, seat.seat, away)
    except Exception as exc:
        log.exception("cannot store seat %s of %s as away=%s", seat.seat, table.id, away)
        raise ProtocolError("server_error", f"could not store the seat ({exc.__class__.__name__}); "
                            "nothing changed", 500) from None
    seat.away = away
    table.send_all({"type": "table", "table": table.summary()})
    if table.arm():
        table.send_clock()


class AwayPlay:
    """Turn clocks, absent players, seats handed to the computer and taken back."""

    def __init__(self, storage: TableStore, held: HeldTables, copies: Copies, owners: Ownership,
                 background: Background, run_computer: Callable[[LiveTable], Awaitable[None]]) -> None:
        self.storage = storage
        self.store = storage.store
        self.held = held
        self.copies = copies
        self.owners = owners
        self.background = background
        self.run_computer = run_computer  # make sure a process plays the table's away seats
        self._clocker: asyncio.Task[None] | None = None

    def start(self) -> asyncio.Task[None]:
        """Watch the clocks (five times a second); returns the task, for the manager to stop."""
        self._clocker = asyncio.create_task(self._clock_loop())
        return self._clocker

    async def _clock_loop(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            try:
                self.check_clocks()
            except Exception:
                log.exception("checking the turn clocks failed")

    def check_clocks(self, now: float | None = None) -> None:
        """Hand to the computer every seat whose clock ran out, or (one process) whose player is to move and
        has been disconnected longer than the table's grace period."""
        now = time.monotonic() if now is None else now
        for table in list(self.held.tables.values()):
            if table.clock is None:
                self._check_absent(table, now)
                continue
            c = table.clock
            deadline = None if c is None or table.timing_out else c.deadline()
            if c is None or c.seat is None or deadline is None:
                continue
            s = table.seats[c.seat]
            # Only one process knows its own connections: in a cluster the clock alone decides.
            gone = not self.owners.shared and not s.conns and now - s.gone > table.grace
            if now >= deadline or gone:
                table.timing_out = True
                self.background.spawn(self._time_out(table, c.seat, c.ply,
                                                     "clock" if now >= deadline else "disconnected"))

    def _check_absent(self, table: LiveTable, now: float) -> None:
        """A table without a clock never waits for ever on a player gone at their turn: past the table's grace
        period (one process: only it knows its connections) the seat is dealt with by :meth:`_absent`."""
        if self.owners.shared or table.timing_out or table.status != "playing" or table.over:
            return
        s = table.seats[table.game.state.turn]
        if s.kind == "human" and s.token_hash is not None and not s.away and not s.conns and now - s.gone > table.grace:
            table.timing_out = True
            self.background.spawn(self._absent(table, s.seat, table.ply))

    async def _absent(self, table: LiveTable, seat: int, ply: int) -> None:
        """The player of ``seat`` (no clock) stayed away past the grace period at their turn: a rated game they have
        not played in yet is aborted, else the computer plays the seat (and the others may claim the win)."""
        try:
            async with table.lock:
                s = table.seats[seat]
                if (table.ply != ply or table.over or s.away or s.conns or s.token_hash is None
                        or not self.held.holds(table)):
                    return
                if await self._abort_if_unplayed(table, seat):
                    return
                await set_away(self.storage, table, s, True)
                table.send_all({"type": "timeout", "seat": seat, "ply": ply, "reason": "disconnected"})
        finally:
            table.timing_out = False
        await self.run_computer(table)

    async def _abort_if_unplayed(self, table: LiveTable, seat: int) -> bool:
        """Abort a game that would count for ratings when the absent player of ``seat`` has not made a move of
        their own yet (lichess's rule: nobody's rating moves for a game abandoned before both had played); the
        caller holds the lock. True if it was aborted."""
        if not table.counts or seat in table.played:
            return False
        reason = f"aborted:{seat}"
        if not await self.storage.store_end(table, (None, reason)):
            await self.copies.refresh_seats(table)
            return True
        table.end(None, reason)
        self.owners.let_go(table.id)
        return True

    async def _time_out(self, table: LiveTable, seat: int, ply: int, reason: str) -> None:
        """The player of ``seat`` ran out of time at ``ply`` (or stayed away): the computer plays the seat."""
        try:
            async with table.lock:
                c = table.clock
                if c is None or (c.seat, c.ply) != (seat, ply) or table.ply != ply or not self.held.holds(table):
                    return
                if await self._abort_if_unplayed(table, seat):
                    return
                if not await self.storage.db(self.store.time_out, table.id, seat, ply, reason):
                    # The player moved in time through another process, or the seat changed hands.
                    if self.owners.shared:
                        was = table.seats[seat].away
                        await self.copies.catch_up(table)
                        await self.copies.refresh_seats(table)
                        if not was and table.seats[seat].away and table.ply == ply:
                            # Another process ran this clock out a moment earlier: tell our players too
                            # (its notice, arriving after this, finds the seat away already and says nothing).
                            table.timed_out(seat, ply, reason)
                            return
                    if (c.seat, c.ply) == (seat, ply):
                        log.warning("table %s: the clock of seat %s at ply %s could not run out", table.id, seat, ply)
                        c.stop()
                    return
                table.seats[seat].away = True
                table.timed_out(seat, ply, reason)
        finally:
            table.timing_out = False
        await self.run_computer(table)

    async def back(self, table: LiveTable, seat: int) -> None:
        """A connected player whose seat the computer plays (their clock ran out) takes it back."""
        async with table.lock:
            self.held.check_live(table)
            s = table.seats[seat]
            if not s.away:
                raise ProtocolError("not_away", f"seat {seat} is played by its player already")
            self.held.touch(table)
            await set_away(self.storage, table, s, False)

    async def hand_over(self, table: LiveTable, seat: int, other: int) -> None:
        """Hand an absent player's seat to the computer (``away_level``), after the table's grace period."""
        async with table.lock:
            self.held.check_live(table)
            if table.status == "waiting":
                raise ProtocolError("not_started", f"table {table.id} is waiting for players: {table.free()} free")
            if not 0 <= other < table.players:
                raise ProtocolError("bad_seat", f"invalid seat {other}: expected 0..{table.players - 1}")
            if other == seat:
                raise ProtocolError("own_seat", "you cannot hand your own seat to the computer (send 'leave' to "
                                    "give it up)")
            s = table.seats[other]
            # The page numbers seats from 1 ("Seat 2"): a refusal a player reads names the seat so too.
            shown = f"Seat {other + 1}"
            if s.kind == "bot":
                raise ProtocolError("bot_seat", f"{shown} is a computer seat already")
            if s.away:
                raise ProtocolError("seat_away", f"the computer plays {shown} already")
            if s.token_hash is None:
                raise ProtocolError("bad_seat", f"{shown} is free: nobody holds it")
            if s.conns:
                raise ProtocolError("seat_connected", f"the player of {shown} is connected")
            left = s.hand_over_in(table.grace)
            if left:
                raise ProtocolError("grace_period", f"the player of {shown} keeps the seat for {left} more "
                                    f"second{'s' if left != 1 else ''} (the table's grace period: {table.grace} s)")
            self.held.touch(table)
            await set_away(self.storage, table, s, True)
        await self.run_computer(table)
