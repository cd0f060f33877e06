"""A player leaves a seat, or ends the game early: leave, resign, claim the game from an absent opponent.

:class:`Endings` stores each of these before it is told to the table; a game's end is stored with its players'
results and ratings (:meth:`~diloti.server.storage.TableStore.store_end`), and refused, the game unchanged, when
it cannot be stored or another process ended the game first.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from diloti.server.cluster import Ownership
from diloti.server.copies import Copies
from diloti.server.held import HeldTables
from diloti.server.live import LiveTable
from diloti.server.protocol import ProtocolError
from diloti.server.storage import TableStore

log = logging.getLogger("diloti.server")


class Endings:
    """Leave, resign, claim."""

    def __init__(self, storage: TableStore, held: HeldTables, copies: Copies, owners: Ownership,
                 run_computer: Callable[[LiveTable], Awaitable[None]]) -> None:
        self.storage = storage
        self.store = storage.store
        self.held = held
        self.copies = copies
        self.owners = owners
        self.run_computer = run_computer  # make sure a process plays the table's away seats

    async def leave(self, table: LiveTable, seat: int) -> None:
        """A player gives up the seat: its token no longer holds it and anyone with the invitation link may
        take it; in a game under way the computer (``away_level``) plays for it meanwhile."""
        async with table.lock:
            self.held.check_live(table)
            s = table.seats[seat]
            if s.token_hash is None:
                raise ProtocolError("bad_token", f"seat {seat} is not held any more")
            playing = table.status == "playing"
            try:
                ok = await self.storage.db(self.store.leave_seat, table.id, seat, s.token_hash, playing)
            except Exception as exc:
                log.exception("cannot store the leaving of seat %s of %s", seat, table.id)
                raise ProtocolError("server_error", f"could not store the seat ({exc.__class__.__name__}); "
                                    "nothing changed", 500) from None
            if not ok:
                raise ProtocolError("bad_token", f"seat {seat} is not held any more")
            s.token_hash, s.away = None, playing
            if not playing:
                s.name = None
                s.player = None
            empty = not playing and not any(x.kind == "human" and x.token_hash for x in table.seats)
            if empty:  # nobody waits at it any more: it leaves the lobby at once, not at the idle sweep
                await self.storage.db(self.store.set_status, table.id, "closed", None)
            for c in list(s.conns):  # every tab of that seat: told, then closed
                c.send({"type": "left", "table": table.id, "seat": seat})
                c.close()
            s.conns.clear()
            s.gone = time.monotonic()
            self.held.touch(table)
            if empty:
                self.held.drop(table, closed=True)
                return
            table.send_all({"type": "table", "table": table.summary()})
        if playing:
            await self.run_computer(table)

    async def resign(self, table: LiveTable, seat: int) -> None:
        """A player resigns: the game ends at once and the other side wins (with more than two sides, the one
        leading among the others)."""
        async with table.lock:
            self.held.check_live(table)
            if table.status == "waiting":
                raise ProtocolError("not_started", f"table {table.id} is waiting for players: {table.free()} free")
            winner = table.resign_winner(seat)
            reason = f"resigned:{seat}"
            await self._store_end_or_refuse(table, winner, reason, "the resignation")
            self.held.touch(table)
            table.end(winner, reason)
        await self.owners.release(table.id)

    async def claim(self, table: LiveTable, seat: int) -> None:
        """Claim the game from an absent opponent (lichess's rule for abandonment): once a human seat of another
        side is away (its player gone past the grace period, out of time, or left), its side loses
        (``abandoned:SEAT``, rated as the table is); a game that player had not made a move in yet is aborted
        instead (``aborted:SEAT``: no result, nobody's rating moves)."""
        async with table.lock:
            self.held.check_live(table)
            if table.status == "waiting":
                raise ProtocolError("not_started", f"table {table.id} is waiting for players: {table.free()} free")
            mine = table.side_of(seat)
            gone = [s for s in table.seats if s.kind == "human" and s.away and table.side_of(s.seat) != mine]
            if not gone:
                raise ProtocolError("nothing_to_claim", "no player of another side is away: the game can be "
                                    "claimed only from a player gone past the table's grace period, out of "
                                    "time, or who left")
            absent = gone[0]
            self.held.touch(table)
            if absent.seat not in table.played:
                winner, reason = None, f"aborted:{absent.seat}"
            else:
                winner, reason = table.resign_winner(absent.seat), f"abandoned:{absent.seat}"
            await self._store_end_or_refuse(table, winner, reason, "the claim")
            table.end(winner, reason)
        await self.owners.release(table.id)

    async def _store_end_or_refuse(self, table: LiveTable, winner: int | None, reason: str, what: str) -> None:
        """Store a player's ending of the game (``what``: "the resignation", "the claim"), or refuse it with
        the game unchanged: a 500 when the store fails, ``game_over`` when another process ended it just now."""
        try:
            ok = await self.storage.store_end(table, (winner, reason))
        except Exception as exc:
            log.exception("cannot store %s at %s", what, table.id)
            raise ProtocolError("server_error", f"could not store {what} ({exc.__class__.__name__}); "
                                "the game is unchanged", 500) from None
        if not ok:  # ended or closed through another process just now
            await self.copies.refresh_seats(table)
            raise ProtocolError("game_over", "the game is over")
