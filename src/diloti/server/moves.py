"""The moves of a table: checked by the engine, stored before they are announced; and the help asked about them.

:class:`Moves` takes a player's move (as notation) or a computer's, checks it in turn and legal, stores it (the
store's group commit; another process may have stored that ply first) and only then announces it. The hints
(a ranking of the legal moves) and the choices (what a hand card can do with some table cards) are worked out
in the worker processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from diloti.core.cards import NAMES, Card, cards_of, mask_of
from diloti.core.choice import candidates_after, choices_of
from diloti.core.errors import DilotiError
from diloti.core.moves import Move
from diloti.match.workers import rank_hint
from diloti.server.away import set_away
from diloti.server.computers import Workers
from diloti.server.copies import Copies
from diloti.server.health import is_outage
from diloti.server.held import HeldTables
from diloti.server.live import LiveTable
from diloti.server.protocol import ProtocolError, move_dict
from diloti.server.storage import TableStore
from diloti.store.db import DuplicateMove

log = logging.getLogger("diloti.server")


class Moves:
    """Play a move at a table, and answer what a player may ask about the next one."""

    def __init__(self, storage: TableStore, held: HeldTables, copies: Copies, workers: Workers) -> None:
        self.storage = storage
        self.held = held
        self.copies = copies
        self.workers = workers

    def check_turn(self, table: LiveTable, seat: int, ply: int | None) -> None:
        """Refuse a move (or a question about one) of ``seat`` at ``ply`` that is not its to make now."""
        self.held.check_open(table)
        if table.status == "waiting":
            raise ProtocolError("not_started", f"table {table.id} is waiting for players: {table.free()} free")
        if table.over:
            raise ProtocolError("game_over", "the game is over")
        if table.game.state.turn != seat:
            raise ProtocolError("not_your_turn", f"it is seat {table.game.state.turn}'s turn, not seat {seat}'s")
        if ply is not None and ply != table.ply:
            raise ProtocolError("stale", f"move sent for ply {ply} but the game is at ply {table.ply}")

    async def play_text(self, table: LiveTable, seat: int, text: str, ply: int | None) -> None:
        """A human's move, as notation: checked, stored, announced."""
        self.held.touch(table)
        try:
            move = Move.parse(text)
        except DilotiError as exc:
            async with table.lock:
                self.check_turn(table, seat, ply)  # out-of-turn is the better error, when it applies
            raise ProtocolError("invalid_move", str(exc)) from None
        if not table.over and not table.game.state.is_legal(move):
            # The game's formats may read it otherwise: in Xeri a card alone names its one move, as in the records.
            with contextlib.suppress(DilotiError):
                move = table.formats.read_played(table.game.state, text)
        await self.apply(table, seat, move, ply)

    async def apply(self, table: LiveTable, seat: int, move: Move, ply: int | None, by: str | None = None) -> None:
        """Store and announce a checked move; ``by``: the computer's level, playing for an away human.

        The computer seats that move next are the caller's to start (:meth:`Computers.kick`)."""
        async with table.lock:
            self.check_turn(table, seat, ply)
            s = table.seats[seat]
            if s.kind == "human" and by is not None and table.runs_for(s) != by:
                raise ProtocolError("stale", f"seat {seat} is played by its player again")
            if not table.game.state.is_legal(move):
                raise ProtocolError("illegal_move", f"illegal move {str(move)!r}: not a legal move in this position")
            if s.kind == "human" and by is None and s.away:
                # The player is back (reached us through another process).
                await set_away(self.storage, table, s, False)
            at = table.ply
            left = table.clock.left_after(seat) if table.clock is not None and by is None and s.kind == "human" \
                else None
            try:
                # Stored before it is announced: a restart replays exactly what players saw.
                await self.storage.store_move(table.id, at, seat, str(move), by if s.kind == "human" else None, left)
            except DuplicateMove:
                # Another process stored a move for this ply first: take its moves, refuse this one.
                await self.copies.catch_up(table)
                raise ProtocolError("stale", f"a move for ply {at} was already played; the game is now at "
                                    f"ply {table.ply}") from None
            except Exception as exc:
                self.storage.trouble("move")
                if is_outage(exc):  # counted in the outage's log lines, not a line (and a traceback) each
                    self.storage.outage.refuse("moves", exc, f"cannot store move {at} of {table.id}")
                    raise ProtocolError("server_error", "the database is out of reach: the move was not stored "
                                        "and the game is unchanged; send it again shortly", 500) from None
                log.exception("cannot store move %s of %s", table.ply, table.id)
                raise ProtocolError("server_error", f"could not store the move ({exc.__class__.__name__}); "
                                    "the game is unchanged", 500) from None
            if by is not None and s.kind == "human":
                table.by[at] = by
            await self._candidates_after(table, move)
            self.copies.advance(table, seat, move, left)
            if table.game.is_over:
                try:
                    await self.storage.store_end(table)
                except Exception as exc:  # the replay on load marks it over anyway, and stores its end then
                    if not is_outage(exc):
                        log.exception("cannot store the end of %s", table.id)

    async def _candidates_after(self, table: LiveTable, move: Move) -> None:
        """On a table that may grow too large to list its moves, the next position's candidates (the ``legal`` of
        the next ``state``) worked out in a worker process, and kept by the state for when it gets there: the
        event loop does not work them out. A failure leaves them to the state (bounded either way)."""
        state = table.game.state
        if not state.may_sample():
            return
        with self.workers.queued():
            try:
                kept = await self.workers.compute(table.info, candidates_after, state.copy(), move)
                state.keep_candidates(*kept)
            except Exception:
                log.exception("could not work out the candidates after %s at %s; the state will", move, table.id)

    async def hint(self, table: LiveTable, seat: int) -> dict[str, Any]:
        """The ranking of this seat's legal moves (tables where every opponent is a computer): the master's
        search when a master sits at the table (Diloti), else the expert's."""
        if not table.hints:
            raise ProtocolError("hints_unavailable", "hints are offered only when every opponent is a computer")
        self.check_turn(table, seat, None)
        self.held.touch(table)
        ply = table.ply
        # One search per position, shared by every request for it: hint floods cost nothing more.
        if table.hint is None or table.hint[0] != ply:
            view = table.game.view(seat)
            table.hint = (ply, self.workers.submit(table.info, rank_hint, view, table.seed, ply, table.hint_level))
        ranked = await asyncio.shield(table.hint[1])
        return {"type": "hint", "ply": ply, "level": table.hint_level,
                "moves": [{**move_dict(move), "score": round(score, 3), "win": None if win is None else round(win, 3)}
                          for move, score, win in ranked[:5]]}

    async def choices(self, table: LiveTable, seat: int, card_text: str, chosen: list[str]) -> dict[str, Any]:
        """What a hand card can do with some table cards (the ``choices`` message), worked out in a worker
        process: bounded on any table (:meth:`SeatView.choices`)."""
        self.check_turn(table, seat, None)
        self.held.touch(table)
        try:
            card = Card(card_text)
            picked = mask_of([Card(c) for c in chosen])
        except DilotiError as exc:
            raise ProtocolError("invalid_card", f"choices: {exc}") from None
        view = table.game.view(seat)
        if card not in view.hand:
            raise ProtocolError("invalid_card", f"choices: {card_text!r} is not in your hand")
        if picked & ~sum(view.items()):
            raise ProtocolError("invalid_card", f"choices: {', '.join(chosen)} not all on the table")
        ply = table.ply
        ch = await self.workers.run(table.info, choices_of, view, card, picked)
        return {"type": "choices", "ply": ply, "card": NAMES[card], "chosen": [NAMES[c] for c in cards_of(ch.chosen)],
                "moves": [move_dict(m) for m in ch.moves], "open": [NAMES[c] for c in cards_of(ch.open)]}
