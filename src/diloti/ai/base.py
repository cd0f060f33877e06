"""The one interface every computer player implements, and what the simple levels share.

A player is built with its own seeded random generator and, on each turn,
receives only the per-seat view (of any registered game); it returns a legal move.
The same seed and the same views give the same moves. :class:`ScoringPlayer`
is the choice of the ``greedy`` and ``heuristic`` levels: score every legal
move, play the best. What a game's views mean to a player is the game's own
(its players part, :mod:`diloti.ai.part`).

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
from typing import Any, Protocol, runtime_checkable

from diloti.ai.errors import NoMoveError
from diloti.ai.part import players_part
from diloti.core.moves import Move


@runtime_checkable
class Player(Protocol):
    """A computer player. It chooses among ``view.legal``: every legal move, or on a Diloti table grown so large
    by lays that they are too many to list, a bounded sample with every kind and value each card can make
    (``view.complete`` False): so every player's move is bounded whatever the table holds."""

    name: str

    def choose(self, view: Any) -> Move:
        """A legal move for the seat of ``view`` (which must be to move; a view of any registered game)."""
        ...


class RandomPlayer:
    """Uniform over the legal moves (over the view's bounded sample on a table too large to list them)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any) -> Move:
        legal: tuple[Move, ...] = view.legal
        if not legal:
            raise NoMoveError(view)
        return self.rng.choice(legal)


class ScoringPlayer(ABC):
    """Plays the legal move its :meth:`scores` rate highest; ties go to a generator drawn from the seed and the view.

    A decision the game takes by rule (its part's ``ruled_move``: Diloti's face-card
    redeal) is not scored.

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
    def scores(self, view: Any) -> list[tuple[Move, float]]:
        """Each legal move with its score (higher is better)."""

    def choose(self, view: Any) -> Move:
        if not view.legal:
            raise NoMoveError(view)
        part = players_part(view)
        ruled = part.ruled_move(view)
        if ruled is not None:
            return ruled
        scored = self.scores(view)
        top = max(s for _, s in scored)
        best = [m for m, s in scored if s >= top - 1e-9]
        return best[0] if len(best) == 1 else part.move_rng(self.seed, view, self.name).choice(best)
