"""Computer players, by level name.

>>> from diloti.ai import LEVELS, make_player
>>> "random" in LEVELS
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from diloti.ai.base import Player, RandomPlayer
from diloti.errors import DilotiError

# level name -> factory(seed, **options); later levels register themselves here.
LEVELS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
}


class UnknownLevelError(DilotiError, ValueError):
    """No computer player has that name."""


def make_player(level: str, seed: int | None = None, **kwargs: Any) -> Player:
    """A computer player of the named level with its own seeded generator."""
    factory = LEVELS.get(level)
    if factory is None:
        raise UnknownLevelError(f"unknown level {level!r} (known: {', '.join(LEVELS)})")
    return factory(seed, **kwargs)


__all__ = ["LEVELS", "Player", "RandomPlayer", "UnknownLevelError", "make_player"]
