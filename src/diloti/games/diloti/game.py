"""A whole game: rounds to the target score, dealer rotation, the tie playoff.

>>> g = Game(players=2, seed=42)
>>> g.round_no, g.state.dealer, g.scores
(1, 0, [0, 0])
>>> while not g.is_over:
...     g.push(g.state.legal_moves()[0])
>>> g.winner in (0, 1), max(g.scores) >= 61
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from diloti.core.cards import Card
from diloti.core.moves import Move
from diloti.core.rounds import MovesOn
from diloti.core.seeds import derive_seed
from diloti.games.diloti.options import Options
from diloti.games.diloti.scoring import Side
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View


@dataclass
class RoundRecord:
    """One round as played: enough to replay it exactly."""

    number: int
    dealer: int
    seed: int
    deck: tuple[Card, ...]  # the shuffled deck before the deal, top card first
    moves: list[tuple[int, Move]] = field(default_factory=list)
    score: tuple[Side, Side] | None = None
    swept: int = 0  # mask of the cards the end-of-round sweep took

    @property
    def points(self) -> tuple[int, int]:
        if self.score is None:
            return (0, 0)
        return (self.score[0].total, self.score[1].total)


class Game(MovesOn[RoundRecord]):
    """Rounds of :class:`State` until a side reaches the target."""

    state: State

    game = "diloti"  # the game's name in the registry (diloti.games)
    sides = 2  # seats 0+2 against 1+3 (the parent games may have more)

    def __init__(self, players: int = 2, options: Options | None = None, seed: int | None = None,
                 first_dealer: int = 0) -> None:
        self.players = players
        self.options = options or Options()
        self.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        self.scores = [0, 0]
        self.rounds: list[RoundRecord] = []
        self.winner: int | None = None
        self.round_no = 0
        self._start_round(first_dealer % players)

    def _start_round(self, dealer: int) -> None:
        self.round_no += 1
        seed = derive_seed("diloti-round", self.seed, self.round_no)
        self.state = State.new(self.players, self.options, dealer, seed=seed)
        self.rounds.append(RoundRecord(self.round_no, dealer, seed, self.state.deck))

    def view(self, seat: int) -> View:
        return self.state.view(seat, (self.scores[0], self.scores[1]))

    def _scored(self, rec: RoundRecord) -> None:
        st = self.state
        pts = rec.points
        self.scores[0] += pts[0]
        self.scores[1] += pts[1]
        target = self.options.target
        if max(self.scores) >= target and self.scores[0] != self.scores[1]:
            self.winner = 0 if self.scores[0] > self.scores[1] else 1
            return
        nxt = (st.dealer + 1) % self.players
        self._start_round(nxt)
