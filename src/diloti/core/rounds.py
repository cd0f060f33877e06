"""Moving a game of rounds on: ``push`` and ``play`` shared by every game's whole game (Diloti's
:class:`~diloti.games.diloti.game.Game`, the one-card games' :class:`~diloti.games.onecard.game.HandsGame`; its
own module: both import it, and the state modules import neither).

>>> from diloti.games.diloti.game import Game
>>> g = Game(players=2, seed=1)
>>> g.play(g.state.legal_moves()[0]) in g.current.moves[0], g.is_over
(True, False)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, Protocol, TypeVar

from diloti.core.errors import DilotiError
from diloti.core.moves import Move


class PlayedRound(Protocol):
    """What :class:`MovesOn` writes in a game's record of a round as it is played."""

    moves: list[tuple[int, Move]]
    score: Any
    swept: int


Rec = TypeVar("Rec", bound=PlayedRound)


class MovesOn(ABC, Generic[Rec]):
    """``push`` and ``play`` for a game of rounds (Diloti's rounds, a one-card game's hands): the move goes to the
    round's state and into the record of the round; when the round ends it is scored, and
    :meth:`_scored` (each game's own rules) adds up the points and names a winner or deals the next."""

    winner: int | None
    state: Any
    rounds: list[Rec]

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def current(self) -> Rec:
        """The record of the round in play (or of the last one, once the game is over)."""
        return self.rounds[-1]

    def _after(self, seat: int, move: Move) -> None:
        rec = self.current
        rec.moves.append((seat, move))
        st = self.state
        if st.is_over:
            rec.score = st.score()
            rec.swept = st.swept
            self._scored(rec)

    @classmethod
    def target_of(cls, options: Any) -> int | None:
        """The points that win a game under ``options`` (None: a game decided otherwise, by hands won)."""
        return int(options.target)

    @classmethod
    def hands_of(cls, options: Any) -> int | None:
        """The hands a game under ``options`` is played over, in a game whose rules count them (else None)."""
        return None

    @abstractmethod
    def _scored(self, rec: Rec) -> None:
        """Count the scored round ``rec``: name the winner, or deal the next round."""

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
