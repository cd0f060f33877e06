"""Rematches: once a game is over, its players may play again with the same seats, options and settings.

As on lichess the rematch is an offer the others accept (:class:`Rematches`). In a cluster the seats that asked
through other processes are told by notice (``offer``), and the rematch is made once: the database keeps the
first one stored, and every process tells its players that one (``rematch``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable

from diloti.server.cluster import Ownership
from diloti.server.held import HeldTables
from diloti.server.live import REMATCH_OFFER, LiveTable
from diloti.server.protocol import ProtocolError
from diloti.server.storage import TableStore
from diloti.server.tasks import Background
from diloti.store.db import SeatData, TableData

log = logging.getLogger("diloti.server")


class Rematches:
    """Rematch offers, accepted and made."""

    def __init__(self, storage: TableStore, held: HeldTables, owners: Ownership, background: Background,
                 kick: Callable[[LiveTable], None]) -> None:
        self.storage = storage
        self.store = storage.store
        self.held = held
        self.owners = owners
        self.background = background
        self.kick = kick  # play a new table's computer seats

    async def rematch(self, table: LiveTable, seat: int) -> str:
        """Offer (or accept) to play again with the same seats once the game is over: the same players (each
        human seat keeps its token), options and settings, a new deal, the next dealer first.

        As on lichess the rematch is an offer the others accept: it is made once every human seat still held
        asked for it within :data:`REMATCH_OFFER` seconds (everyone sees the offer in the table's
        ``rematch_offer``), and it is rated only if every human seat of this game accepted (a seat left during
        the game is free in the rematch, which is then casual). Made once however often, by however many
        players or processes, it is asked for; every connection of the old table is told its id. Returns the
        rematch's id, or "" while the offer waits for the others."""
        async with table.lock:
            self.held.check_open(table)
            if not table.over:
                raise ProtocolError("game_not_over", "a rematch can be asked for only once the game is over")
            if table.event is not None:  # the event deals the next game (the arena's pairing; tomorrow's deal)
                raise ProtocolError("no_rematch", "a game of the daily deal or of an arena has no rematch", 409)
            if table.next_table is not None:
                self.held.touch(table)
                table.send_all({"type": "rematch", "table": table.next_table})
                return table.next_table
            self._offer(table, {seat}, REMATCH_OFFER)
            self.held.touch(table)
            if self.owners.shared:  # the other seats' players may be connected through other processes
                event = {"k": "offer", "t": table.id, "s": sorted(table.offer),
                         "l": round(table.offer_until - time.monotonic(), 1)}
                self.background.spawn(self.storage.db(self._announce, [event]))
            return await self._rematch_if_all(table)

    def _announce(self, events: list[dict[str, object]]) -> None:
        """Tell the other processes (on the database worker thread)."""
        with self.store.engine.begin() as conn:
            self.store._notify(conn, events)

    def _offer(self, table: LiveTable, seats: set[int], left: float) -> None:
        """Add seats to the table's rematch offer (a new offer lapsing in ``left`` seconds if none stands)."""
        if table.offer_dict() is None:  # none, or lapsed: this is a new offer
            table.offer = set()
            table.offer_until = time.monotonic() + left
            self.background.spawn(self._offer_lapses(table, table.offer_until))
        table.offer |= seats

    async def offer_heard(self, table: LiveTable, seats: set[int], left: float) -> None:
        """Seats that asked for the rematch through another process."""
        async with table.lock:
            if not table.over or table.next_table is not None or left <= 0 or not self.held.holds(table):
                return
            self._offer(table, {s for s in seats if 0 <= s < table.players}, min(left, REMATCH_OFFER))
            await self._rematch_if_all(table)

    async def _rematch_if_all(self, table: LiveTable) -> str:
        """Make the rematch once every human seat still held asked for it (the caller holds the lock); else show
        the offer. Returns the rematch's id, or ""."""
        held = {s.seat for s in table.seats if s.kind == "human" and s.token_hash}
        if not held <= table.offer:
            table.send_all({"type": "table", "table": table.summary()})
            return ""
        humans = {s.seat for s in table.seats if s.kind == "human"}
        seats = [SeatData(s.seat, s.kind, s.level, s.name if s.token_hash else None, s.token_hash,
                          player_id=s.player if s.token_hash else None)
                 if s.kind == "human" else SeatData(s.seat, "bot", s.level) for s in table.seats]
        status = "playing" if all(s.kind == "bot" or s.token_hash for s in seats) else "waiting"
        data = TableData(secrets.token_urlsafe(8), table.players, table.options.to_dict(),
                         secrets.randbelow(2**63), (table.first_dealer + 1) % table.players,
                         table.private, status, seats=seats, away_level=table.away_level,
                         grace=table.grace, series=table.series or table.id,
                         clock=None if table.clock is None else (table.clock.move, table.clock.reserve),
                         series_before=table.series_score(), rated=table.rated and humans <= table.offer,
                         game=table.kind)
        await self.owners.claim([data.id])  # owned before it is stored, as a new table is
        try:
            made = await self.storage.db(self.store.create_rematch, table.id, data)
        except Exception as exc:
            await self.owners.release(data.id)
            log.exception("cannot store the rematch of %s", table.id)
            raise ProtocolError("server_error", f"could not store the rematch ({exc.__class__.__name__}); "
                                "nothing changed", 500) from None
        if made == data.id:
            new = LiveTable(data)
            new.client = table.client
            self.held.add(new)
            self.kick(new)
        else:
            await self.owners.release(data.id)  # another process's rematch was stored first: it owns that one
        self.rematched(table, made)
        return table.next_table or ""

    async def _offer_lapses(self, table: LiveTable, until: float) -> None:
        """Tell the table when a rematch offer lapses unaccepted (the page stops showing it)."""
        await asyncio.sleep(max(0.0, until - time.monotonic()) + 0.05)
        if table.offer_until == until and table.next_table is None and self.held.holds(table):
            table.offer = set()
            table.send_all({"type": "table", "table": table.summary()})

    def rematched(self, table: LiveTable, new_id: str) -> None:
        """The rematch of ``table`` is ``new_id`` (made here or by another process): tell everyone at the table."""
        if table.next_table == new_id:
            return
        table.next_table = new_id
        table.series = table.series or table.id
        table.send_all({"type": "table", "table": table.summary()})
        table.send_all({"type": "rematch", "table": new_id})
