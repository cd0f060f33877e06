"""A whole game of a one-card game: hands until its rule names a winning side (Diloti's is
:class:`~diloti.games.diloti.game.Game`), and the record of each hand.

>>> from diloti.games.xeri.rules import XeriGame
>>> g = XeriGame(seed=1)
>>> g.game, g.round_no, g.scores
('xeri', 1, [0, 0])
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from diloti.core.cards import Card
from diloti.core.moves import Move
from diloti.core.rounds import MovesOn
from diloti.core.seeds import derive_seed
from diloti.games.onecard.state import HandState, strict_most
from diloti.games.onecard.view import HandView


@dataclass
class HandRecord:
    """One hand as played: enough to replay it exactly (Diloti's :class:`~diloti.games.diloti.game.RoundRecord`)."""

    number: int
    dealer: int
    seed: int
    deck: tuple[Card, ...]
    moves: list[tuple[int, Move]] = field(default_factory=list)
    score: tuple[Any, ...] | None = None
    swept: int = 0

    @property
    def points(self) -> tuple[int, ...]:
        if self.score is None:
            return ()
        return tuple(s.total for s in self.score)


class HandsGame(MovesOn[HandRecord], ABC):
    """Hands of one variant until its rule (:meth:`decide`) names a winning side."""

    STATE: ClassVar[type[HandState]]
    state: HandState

    def __init__(self, players: int = 2, options: Any = None, seed: int | None = None, first_dealer: int = 0) -> None:
        self.players = players
        self.options = self.STATE.OPTIONS() if options is None else options
        self.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        self.rounds: list[HandRecord] = []
        self.winner: int | None = None
        self.round_no = 0
        self.state: HandState = self.STATE(players, self.options)  # checks players and options at once
        self.sides = self.state.sides
        self.scores = [0] * self.sides
        self._start_round(first_dealer % players)

    @property
    def game(self) -> str:
        return self.STATE.GAME

    def _start_round(self, dealer: int) -> None:
        self.round_no += 1
        seed = derive_seed(f"{self.game}-hand", self.seed, self.round_no)
        self.state = self.STATE.new(self.players, self.options, dealer, seed=seed)
        self.rounds.append(HandRecord(self.round_no, dealer, seed, self.state.deck))

    def view(self, seat: int) -> HandView:
        return self.state.view(seat, self.scores)

    def _scored(self, rec: HandRecord) -> None:
        for side, p in enumerate(rec.points):
            self.scores[side] += p
        self.winner = self.decide(self.options, [r.points for r in self.rounds if r.score is not None])
        if self.winner is None:
            self._start_round((self.state.dealer + 1) % self.players)

    @staticmethod
    @abstractmethod
    def decide(options: Any, hands: Sequence[Sequence[int]]) -> int | None:
        """The winning side after the scored ``hands`` (points per side of each), or None: play on."""

    @classmethod
    def hands_header(cls, options: Any) -> bool:
        """Whether a record of a game under ``options`` carries a ``Hands`` header (:meth:`summary`): Xeri's
        games won by hands do."""
        return False

    @classmethod
    def summary(cls, options: Any, hands: Sequence[Sequence[int]]) -> str:
        """What the score sheet shows after ``hands``: points per side (Xeri also counts hands won)."""
        totals = [sum(h[i] for h in hands) for i in range(len(hands[0]))] if hands else []
        return "-".join(map(str, totals))


def points_winner(hands: Sequence[Sequence[int]], target: int) -> int | None:
    """The side alone at the top once some side has reached ``target`` points (None: play on).

    >>> points_winner([(22, 22, 19)], 21), points_winner([(22, 22, 19), (1, 2, 2)], 21)
    (None, 1)
    """
    if not hands:
        return None
    totals = [sum(h[i] for h in hands) for i in range(len(hands[0]))]
    if max(totals) < target:
        return None
    return strict_most(totals)


__all__ = ["HandRecord", "HandsGame", "points_winner"]
