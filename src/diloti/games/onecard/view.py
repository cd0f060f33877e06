"""What one seat may know of a hand of a one-card game: :class:`HandView`, the one door to hidden information.

A frozen dataclass on the core's :class:`~diloti.core.view.SeatView`: copies of public information and the
seat's own hand, never a reference to the state. A game that keeps per-side counts of its own (its state's
``TALLIES``) shows them in a view of its own, a subclass with a field of each name (its state's ``VIEW``).

>>> from diloti.games.kontsina.rules import KontsinaState
>>> v = KontsinaState.new(seed=2).view(0)
>>> len(v.hand), v.sweeps, v.to_move, v.tally("jack_xeri")
(4, (0, 0), False, (0, 0))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diloti.core.cards import NAMES, Card
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.core.view import SeatView


@dataclass(frozen=True)
class HandView(SeatView):
    """Everything ``seat`` may see of a hand of a one-card game.

    ``table`` is the pile (bottom first, the top card last) in a game whose table is one, else the loose
    cards in card order. ``captured`` and ``sweeps`` are per side. ``legal`` lists the seat's legal moves
    when it is to move.
    """

    game: str
    seat: int
    players: int
    sides: int
    options: Any
    dealer: int
    turn: int
    phase: Phase
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    plays: int
    deal_no: int
    captured: tuple[tuple[Card, ...], ...]
    sweeps: tuple[int, ...]
    last_capturer: int | None
    history: tuple[tuple[int, Move], ...]
    scores: tuple[int, ...] = ()
    legal: tuple[Move, ...] = ()

    @property
    def side(self) -> int:
        return self.seat % self.sides

    def tally(self, name: str) -> tuple[int, ...]:
        """The game's own per-side count ``name`` (a field of its view), or zeros for a count the game does not
        keep (the one-card games' messages carry each count of the family for every game)."""
        counts: tuple[int, ...] = getattr(self, name, ()) or (0,) * self.sides
        return counts

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict (cards as text; the sweeps as ``xeri``, the formats' word)."""
        return {
            "game": self.game, "seat": self.seat, "players": self.players, "options": self.options.to_dict(),
            "dealer": self.dealer, "turn": self.turn, "phase": Phase(self.phase).label,
            "hand": [NAMES[c] for c in self.hand], "table": [NAMES[c] for c in self.table],
            "hand_sizes": list(self.hand_sizes), "stock": self.stock_size, "plays": self.plays,
            "deal": self.deal_no, "xeri": list(self.sweeps),
            "captured": [[NAMES[c] for c in side] for side in self.captured],
            "last_capturer": self.last_capturer, "history": [[seat, str(m)] for seat, m in self.history],
            "scores": list(self.scores), "legal": [str(m) for m in self.legal],
        }


__all__ = ["HandView"]
