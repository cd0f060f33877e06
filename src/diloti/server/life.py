"""The life of a table beyond its moves: leaving, resigning, away seats, rematches.

:class:`TableLife` is a part of :class:`~diloti.server.tables.TableManager` (which builds on it,
as it builds on :class:`~diloti.server.replica.Replica`); it names below, as abstract
methods, what else it uses of the manager.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from abc import abstractmethod

from diloti.server.live import REMATCH_OFFER, LiveTable, Seat
from diloti.server.protocol import ProtocolError
from diloti.server.ratings import game_result, rate_seats
from diloti.server.replica import Replica
from diloti.server.tasks import report_failure
from diloti.store.db import SeatData, TableData
from diloti.store.players import PlayerStore

log = logging.getLogger("diloti.server")


class TableLife(Replica):
    """Leave, resign, hand a seat to the computer, play again."""

    players: PlayerStore

    @abstractmethod
    def _touch(self, table: LiveTable) -> None: ...

    async def _store_end(self, table: LiveTable, end: tuple[int | None, str] | None = None) -> bool:
        """Store that the game is over (``end``: ended early, ``(winner, reason)``; else played out) with, once,
        its players' results and ratings (one transaction). False: an early end came too late (the game was
        no longer under way).

        The store runs in a task of its own, awaited through a shield: the callers await it in a connection's
        handler or the computer's task, and that connection closing (or that task stopping) right after the
        last move cancelled the await, so the end and its results waited for the table's next load."""
        winner, reason = end if end is not None else (table.game.winner, None)
        stored = self._spawn(self.db(self.players.finish, game_result(table, winner, reason), rate_seats, end),
                             report=False)  # its failure reaches the caller, who logs it
        try:
            ok: bool = await asyncio.shield(stored)
        except asyncio.CancelledError:
            stored.add_done_callback(report_failure)  # nobody awaits the store now: log its failure here
            raise
        return ok

    async def _set_away(self, table: LiveTable, seat: Seat, away: bool) -> None:
        """Store and show that the computer plays this human seat (or no longer does); the caller holds the lock."""
        try:
            await self.db(self.store.set_away, table.id, seat.seat, away)
        except Exception as exc:
            log.exception("cannot store seat %s of %s as away=%s", seat.seat, table.id, away)
            raise ProtocolError("server_error", f"could not store the seat ({exc.__class__.__name__}); "
                                "nothing changed", 500) from None
        seat.away = away
        table.send_all({"type": "table", "table": table.summary()})
        if table.arm():
            table.send_clock()

    # ---------------------------------------------------------------- turn clocks
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
        for table in list(self.tables.values()):
            if table.clock is None:
                self._check_absent(table, now)
                continue
            c = table.clock
            deadline = None if c is None or table.timing_out else c.deadline()
            if c is None or c.seat is None or deadline is None:
                continue
            s = table.seats[c.seat]
            # Only one process knows its own connections: in a cluster the clock alone decides.
            gone = self.cluster is None and not s.conns and now - s.gone > table.grace
            if now >= deadline or gone:
                table.timing_out = True
                self._spawn(self._time_out(table, c.seat, c.ply, "clock" if now >= deadline else "disconnected"))

    def _check_absent(self, table: LiveTable, now: float) -> None:
        """A table without a clock never waits for ever on a player gone at their turn: past the table's grace
        period (one process: only it knows its connections) the seat is dealt with by :meth:`_absent`."""
        if self.cluster is not None or table.timing_out or table.status != "playing" or table.over:
            return
        s = table.seats[table.game.state.turn]
        if s.kind == "human" and s.token_hash is not None and not s.away and not s.conns and now - s.gone > table.grace:
            table.timing_out = True
            self._spawn(self._absent(table, s.seat, table.ply))

    async def _absent(self, table: LiveTable, seat: int, ply: int) -> None:
        """The player of ``seat`` (no clock) stayed away past the grace period at their turn: a rated game they have
        not played in yet is aborted, else the computer plays the seat (and the others may claim the win)."""
        try:
            async with table.lock:
                s = table.seats[seat]
                if (table.ply != ply or table.over or s.away or s.conns or s.token_hash is None
                        or self.tables.get(table.id) is not table):
                    return
                if await self._abort_if_unplayed(table, seat):
                    return
                await self._set_away(table, s, True)
                table.send_all({"type": "timeout", "seat": seat, "ply": ply, "reason": "disconnected"})
        finally:
            table.timing_out = False
        await self._run_computer(table)

    async def _abort_if_unplayed(self, table: LiveTable, seat: int) -> bool:
        """Abort a game that would count for ratings when the absent player of ``seat`` has not made a move of
        their own yet (lichess's rule: nobody's rating moves for a game abandoned before both had played); the
        caller holds the lock. True if it was aborted."""
        if not table.counts or seat in table.played:
            return False
        reason = f"aborted:{seat}"
        if not await self._store_end(table, (None, reason)):
            await self._refresh_seats(table)
            return True
        table.end(None, reason)
        if self.cluster is not None:
            self._spawn(self.cluster.release(table.id))
        return True

    async def _time_out(self, table: LiveTable, seat: int, ply: int, reason: str) -> None:
        """The player of ``seat`` ran out of time at ``ply`` (or stayed away): the computer plays the seat."""
        try:
            async with table.lock:
                c = table.clock
                if (c is None or (c.seat, c.ply) != (seat, ply) or table.ply != ply
                        or self.tables.get(table.id) is not table):
                    return
                if await self._abort_if_unplayed(table, seat):
                    return
                if not await self.db(self.store.time_out, table.id, seat, ply, reason):
                    # The player moved in time through another process, or the seat changed hands.
                    if self.cluster is not None:
                        was = table.seats[seat].away
                        await self._catch_up(table)
                        await self._refresh_seats(table)
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
        await self._run_computer(table)

    async def back(self, table: LiveTable, seat: int) -> None:
        """A connected player whose seat the computer plays (their clock ran out) takes it back."""
        async with table.lock:
            self._check_live(table)
            s = table.seats[seat]
            if not s.away:
                raise ProtocolError("not_away", f"seat {seat} is played by its player already")
            self._touch(table)
            await self._set_away(table, s, False)

    async def _run_computer(self, table: LiveTable) -> None:
        """Make sure a process runs the table's computer moves now that one of its seats is away."""
        if self.cluster is not None and table.id not in self.cluster.owned:
            await self.cluster.claim([table.id])  # else the process that holds the lock runs them
        self._kick(table)

    def _check_live(self, table: LiveTable) -> None:
        if table.status == "closed" or self.tables.get(table.id) is not table:
            raise ProtocolError("table_closed", f"table {table.id} was closed for idleness")
        if table.over:
            raise ProtocolError("game_over", "the game is over")

    async def leave(self, table: LiveTable, seat: int) -> None:
        """A player gives up the seat: its token no longer holds it and anyone with the invitation link may
        take it; in a game under way the computer (``away_level``) plays for it meanwhile."""
        async with table.lock:
            self._check_live(table)
            s = table.seats[seat]
            if s.token_hash is None:
                raise ProtocolError("bad_token", f"seat {seat} is not held any more")
            playing = table.status == "playing"
            try:
                ok = await self.db(self.store.leave_seat, table.id, seat, s.token_hash, playing)
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
                await self.db(self.store.set_status, table.id, "closed", None)
            for c in list(s.conns):  # every tab of that seat: told, then closed
                c.send({"type": "left", "table": table.id, "seat": seat})
                c.close()
            s.conns.clear()
            s.gone = time.monotonic()
            self._touch(table)
            if empty:
                self._drop(table, closed=True)
                return
            table.send_all({"type": "table", "table": table.summary()})
        if playing:
            await self._run_computer(table)

    async def resign(self, table: LiveTable, seat: int) -> None:
        """A player resigns: the game ends at once and the other side wins (with more than two sides, the one
        leading among the others)."""
        async with table.lock:
            self._check_live(table)
            if table.status == "waiting":
                raise ProtocolError("not_started", f"table {table.id} is waiting for players: {table.free()} free")
            winner = table.resign_winner(seat)
            reason = f"resigned:{seat}"
            await self._store_end_or_refuse(table, winner, reason, "the resignation")
            self._touch(table)
            table.end(winner, reason)
        if self.cluster is not None:
            await self.cluster.release(table.id)

    async def _store_end_or_refuse(self, table: LiveTable, winner: int | None, reason: str, what: str) -> None:
        """Store a player's ending of the game (``what``: "the resignation", "the claim"), or refuse it with
        the game unchanged: a 500 when the store fails, ``game_over`` when another process ended it just now."""
        try:
            ok = await self._store_end(table, (winner, reason))
        except Exception as exc:
            log.exception("cannot store %s at %s", what, table.id)
            raise ProtocolError("server_error", f"could not store {what} ({exc.__class__.__name__}); "
                                "the game is unchanged", 500) from None
        if not ok:  # ended or closed through another process just now
            await self._refresh_seats(table)
            raise ProtocolError("game_over", "the game is over")

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
            if table.status == "closed" or self.tables.get(table.id) is not table:
                raise ProtocolError("table_closed", f"table {table.id} was closed for idleness")
            if not table.over:
                raise ProtocolError("game_not_over", "a rematch can be asked for only once the game is over")
            if table.next_table is not None:
                self._touch(table)
                table.send_all({"type": "rematch", "table": table.next_table})
                return table.next_table
            self._offer(table, {seat}, REMATCH_OFFER)
            self._touch(table)
            if self.cluster is not None:  # the other seats' players may be connected through other processes
                event = {"k": "offer", "t": table.id, "s": sorted(table.offer),
                         "l": round(table.offer_until - time.monotonic(), 1)}
                self._spawn(self.db(self._announce, [event]))
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
            self._spawn(self._offer_lapses(table, table.offer_until))
        table.offer |= seats

    async def _offer_heard(self, table: LiveTable, seats: set[int], left: float) -> None:
        """Seats that asked for the rematch through another process."""
        async with table.lock:
            if not table.over or table.next_table is not None or left <= 0 or self.tables.get(table.id) is not table:
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
        if self.cluster is not None:
            await self.cluster.claim([data.id])  # owned before it is stored, as a new table is
        try:
            made = await self.db(self.store.create_rematch, table.id, data)
        except Exception as exc:
            if self.cluster is not None:
                await self.cluster.release(data.id)
            log.exception("cannot store the rematch of %s", table.id)
            raise ProtocolError("server_error", f"could not store the rematch ({exc.__class__.__name__}); "
                                "nothing changed", 500) from None
        if made == data.id:
            new = LiveTable(data)
            new.client = table.client
            self.tables[new.id] = new
            self._kick(new)
        elif self.cluster is not None:
            await self.cluster.release(data.id)  # another process's rematch was stored first: it owns that one
        self._rematched(table, made)
        return table.next_table or ""

    async def _offer_lapses(self, table: LiveTable, until: float) -> None:
        """Tell the table when a rematch offer lapses unaccepted (the page stops showing it)."""
        await asyncio.sleep(max(0.0, until - time.monotonic()) + 0.05)
        if table.offer_until == until and table.next_table is None and self.tables.get(table.id) is table:
            table.offer = set()
            table.send_all({"type": "table", "table": table.summary()})

    async def claim(self, table: LiveTable, seat: int) -> None:
        """Claim the game from an absent opponent (lichess's rule for abandonment): once a human seat of another
        side is away (its player gone past the grace period, out of time, or left), its side loses
        (``abandoned:SEAT``, rated as the table is); a game that player had not made a move in yet is aborted
        instead (``aborted:SEAT``: no result, nobody's rating moves)."""
        async with table.lock:
            self._check_live(table)
            if table.status == "waiting":
                raise ProtocolError("not_started", f"table {table.id} is waiting for players: {table.free()} free")
            mine = table.side_of(seat)
            gone = [s for s in table.seats if s.kind == "human" and s.away and table.side_of(s.seat) != mine]
            if not gone:
                raise ProtocolError("nothing_to_claim", "no player of another side is away: the game can be "
                                    "claimed only from a player gone past the table's grace period, out of "
                                    "time, or who left")
            absent = gone[0]
            self._touch(table)
            if absent.seat not in table.played:
                winner, reason = None, f"aborted:{absent.seat}"
            else:
                winner, reason = table.resign_winner(absent.seat), f"abandoned:{absent.seat}"
            await self._store_end_or_refuse(table, winner, reason, "the claim")
            table.end(winner, reason)
        if self.cluster is not None:
            await self.cluster.release(table.id)

    def _rematched(self, table: LiveTable, new_id: str) -> None:
        """The rematch of ``table`` is ``new_id`` (made here or by another process): tell everyone at the table."""
        if table.next_table == new_id:
            return
        table.next_table = new_id
        table.series = table.series or table.id
        table.send_all({"type": "table", "table": table.summary()})
        table.send_all({"type": "rematch", "table": new_id})

    async def hand_over(self, table: LiveTable, seat: int, other: int) -> None:
        """Hand an absent player's seat to the computer (``away_level``), after the table's grace period."""
        async with table.lock:
            self._check_live(table)
            if table.status == "waiting":
                raise ProtocolError("not_started", f"table {table.id} is waiting for players: {table.free()} free")
            if not 0 <= other < table.players:
                raise ProtocolError("bad_seat", f"invalid seat {other}: expected 0..{table.players - 1}")
            if other == seat:
                raise ProtocolError("own_seat", "you cannot hand your own seat to the computer (send 'leave' to "
                                    "give it up)")
            s = table.seats[other]
            if s.kind == "bot":
                raise ProtocolError("bot_seat", f"seat {other} is a computer seat already")
            if s.away:
                raise ProtocolError("seat_away", f"the computer plays seat {other} already")
            if s.token_hash is None:
                raise ProtocolError("bad_seat", f"seat {other} is free: nobody holds it")
            if s.conns:
                raise ProtocolError("seat_connected", f"the player of seat {other} is connected")
            left = table.grace - (time.monotonic() - s.gone)
            if left > 0:
                raise ProtocolError("grace_period", f"the player of seat {other} keeps the seat for "
                                    f"{max(1, round(left))} more seconds")
            self._touch(table)
            await self._set_away(table, s, True)
        await self._run_computer(table)
