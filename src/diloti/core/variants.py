"""Diloti's two parent games by name: the hand state of Xeri and of Kontsina.

:func:`diloti.core.state.State.new` reads it for ``game="xeri"`` and
``game="kontsina"``; :mod:`diloti.core.games` is the registry of all three games.

>>> find_variant("xeri").__name__
'XeriState'
>>> find_variant("chess")
Traceback (most recent call last):
...
diloti.core.errors.UnknownGameError: unknown game 'chess' (known: diloti, xeri, kontsina)
"""

from __future__ import annotations

from diloti.core.errors import UnknownGameError
from diloti.core.kontsina import KontsinaState
from diloti.core.variant import HandState
from diloti.core.xeri import XeriState

GAME_NAMES = ("diloti", "xeri", "kontsina")

VARIANTS: dict[str, type[HandState]] = {"xeri": XeriState, "kontsina": KontsinaState}


def check_game(name: object) -> str:
    """``name`` if it names one of the three games, else an :class:`UnknownGameError` listing them."""
    if not isinstance(name, str) or name not in GAME_NAMES:
        raise UnknownGameError(f"unknown game {name!r} (known: {', '.join(GAME_NAMES)})")
    return name


def find_variant(name: str) -> type[HandState]:
    """The hand state class of Xeri or Kontsina by name."""
    check_game(name)
    if name not in VARIANTS:
        raise UnknownGameError(f"{name!r} is played by diloti.core.state.State, not a variant hand state")
    return VARIANTS[name]


__all__ = ["GAME_NAMES", "VARIANTS", "check_game", "find_variant"]
