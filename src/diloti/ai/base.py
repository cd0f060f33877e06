"""The one interface every computer player implements.

A player is built with its own seeded random generator and, on each turn,
receives only the per-seat :class:`~diloti.core.view.View`; it returns a legal move.
The same seed and the same views give the same moves.

>>> from diloti import State
>>> from diloti.ai import make_player
>>> s = State.new(seed=5)
>>> bot = make_player("random", seed=1)
>>> bot.choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from diloti.core.moves import Move
from diloti.core.view import View


@runtime_checkable
class Player(Protocol):
    """A computer player."""

    name: str

    def choose(self, view: View) -> Move:
        """A legal move for the seat of ``view`` (which must be to move)."""
        ...


class RandomPlayer:
    """Uniform over the legal moves."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no move to make")
        return self.rng.choice(view.legal)
