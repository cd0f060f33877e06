"""Moving a game of rounds on: ``push`` and ``play`` shared by Diloti's :class:`~diloti.core.game.Game` and
the parent games' :class:`~diloti.core.variant_game.HandsGame` (its own module: both import it, and the
state modules import neither).

>>> from diloti.core.game import Game
>>> g = Game(players=2, seed=1)
>>> g.play(g.state.legal_moves()[0]) in g.current.moves[0], g.is_over
(True, False)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from diloti.core.errors import DilotiError
from diloti.core.moves import Move


class MovesOn(ABC):
    """``push`` and ``play`` for a game of rounds (Diloti's, or a parent game's hands): the move goes to the
    round's state, then ``_after`` records it and moves on when the round ends."""

    winner: int | None
    state: Any

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @abstractmethod
    def _after(self, seat: int, move: Move) -> None:
        """Record the move; score a finished round and deal the next (each game's own rules)."""

    def push(self, move: Move) -> None:
        """Play a move (unchecked) and move on to the next round when one ends."""
        if self.is_over:
            raise DilotiError("the game is over")
        seat = self.state.turn
        self.state.push(move)
        self._after(seat, move)

    def play(self, move: Move | str) -> Move:
        """Play a move after checking it (a :class:`Move` or notation)."""
        if self.is_over:
            raise DilotiError("the game is over")
        seat = self.state.turn
        played: Move = self.state.play(move)
        self._after(seat, played)
        return played
