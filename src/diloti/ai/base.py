"""The one interface every computer player implements, and what the simple levels share.

A player is built with its own seeded random generator and, on each turn,
receives only the per-seat :class:`~diloti.core.view.View`; it returns a legal move.
The same seed and the same views give the same moves. :class:`ScoringPlayer`
is the choice of the ``greedy`` and ``heuristic`` levels: score every legal
move, play the best.

>>> from diloti import State
>>> from diloti.ai import make_player
>>> s = State.new(seed=5)
>>> bot = make_player("random", seed=1)
>>> bot.choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Protocol, runtime_checkable

from diloti.ai.errors import NoMoveError
from diloti.ai.knowledge import decide_redeal, move_rng
from diloti.ai.variants import choose_scored, greedy_scores
from diloti.ai.variants import move_rng as variant_rng
from diloti.core.hand_state import HandView
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.games.diloti.view import View


@runtime_checkable
class Player(Protocol):
    """A computer player."""

    name: str

    def choose(self, view: View | HandView) -> Move:
        """A legal move for the seat of ``view`` (which must be to move; a view of any of the three games)."""
        ...


class RandomPlayer:
    """Uniform over the legal moves."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View | HandView) -> Move:
        if not view.legal:
            raise NoMoveError(view)
        return self.rng.choice(view.legal)


class ScoringPlayer(ABC):
    """Plays the legal move its :meth:`scores` rate highest; ties go to a generator drawn from the seed and the view.

    A face-card redeal decision is taken by the common rule
    (:func:`~diloti.ai.knowledge.decide_redeal`), not scored.

    >>> class Lowest(ScoringPlayer):
    ...     name = "lowest"
    ...     def scores(self, view):
    ...         return [(m, -m.card) for m in view.legal]
    >>> from diloti import State
    >>> s = State.new(seed=5)
    >>> Lowest(seed=1).choose(s.view(s.turn)).card == min(m.card for m in s.legal_moves())
    True
    """

    name = "scoring"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    @abstractmethod
    def scores(self, view: View) -> list[tuple[Move, float]]:
        """Each legal move with its score (higher is better)."""

    def variant_scores(self, view: HandView) -> list[tuple[Move, float]]:
        """Each legal move of a hand of Xeri or Kontsina with its score (:mod:`diloti.ai.variants`)."""
        return greedy_scores(view)

    def choose(self, view: View | HandView) -> Move:
        if not view.legal:
            raise NoMoveError(view)
        if isinstance(view, HandView):
            return choose_scored(self.variant_scores(view), variant_rng(self.seed, view, self.name))
        if view.phase == Phase.DECIDE:
            return decide_redeal(view)
        scored = self.scores(view)
        top = max(s for _, s in scored)
        best = [m for m, s in scored if s >= top - 1e-9]
        return best[0] if len(best) == 1 else move_rng(self.seed, view, self.name).choice(best)
