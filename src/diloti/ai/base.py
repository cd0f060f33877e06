"""The one interface every computer player implements, and what the simple levels share.

A player (:class:`Player`) is built with its own seeded random generator and, on each turn,
receives only the per-seat view (of any registered game); it returns a legal move.
The same seed and the same views give the same moves. A measurement player that needs every
hidden card (the ``oracle``) says so by being a :class:`FullStatePlayer`: matches give it the
round's state instead (:func:`player_move`). :class:`ScoringPlayer`
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
from diloti.ai.games import players_part
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


class FullStatePlayer(ABC):
    """A player for measurement that is given the round's whole state, every hidden card included, instead of a
    seat's view (the ``oracle``); never an opponent in play. Its :meth:`choose` refuses a view."""

    name: str

    @abstractmethod
    def choose(self, view: Any) -> Move:
        """Refused: a full-state player is given the state (:meth:`choose_full`)."""

    @abstractmethod
    def choose_full(self, state: Any) -> Move:
        """A legal move for the seat to move in ``state`` (a round of any registered game), seeing every card."""


def player_move(player: Player | FullStatePlayer, state: Any, view: Any = None) -> Move:
    """``player``'s move for the seat to move in the round ``state``: a :class:`FullStatePlayer` is given the
    state, any other player ``view`` (the seat's view, by default the round's own: a whole game's adds its
    scores).

    >>> from diloti import State
    >>> from diloti.ai import make_player
    >>> s = State.new(seed=5)
    >>> [player_move(make_player(spec, seed=1, measurement=True), s) in s.legal_moves()
    ...  for spec in ("random", "oracle:iterations=20")]
    [True, True]
    """
    if isinstance(player, FullStatePlayer):
        return player.choose_full(state)
    return player.choose(state.view(state.turn) if view is None else view)


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
