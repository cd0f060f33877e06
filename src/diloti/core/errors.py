"""The exception hierarchy.

Every error the package raises on purpose derives from :class:`DilotiError`.
Errors about bad input also derive from :class:`ValueError`, so callers that
only know the standard library can still catch them.

>>> from diloti import Card
>>> try:
...     Card("11X")
... except ValueError as exc:
...     print(exc)
invalid card '11X': expected a rank (A 2..10 T J Q K) and a suit (C D H S or ♣ ♦ ♥ ♠)
"""

from __future__ import annotations


class DilotiError(Exception):
    """Base class of every error raised by diloti."""


class InvalidCardError(DilotiError, ValueError):
    """A card could not be read."""


class InvalidMoveError(DilotiError, ValueError):
    """A move string could not be read at all (syntax)."""


class IllegalMoveError(DilotiError, ValueError):
    """A move was read but is not legal in the position."""


class AmbiguousMoveError(DilotiError, ValueError):
    """A move string fits more than one legal move."""


class InvalidPositionError(DilotiError, ValueError):
    """A position (compact notation or JSON) is malformed or impossible."""


class RecordError(DilotiError, ValueError):
    """A game record could not be read."""


class OptionsError(DilotiError, ValueError):
    """A house-rule option has a bad name or value."""


class NoSuchOutcomeError(DilotiError, ValueError):
    """A chance outcome (a card to deal) is not possible at this point."""


class UnknownGameError(DilotiError, ValueError):
    """A game name is not one of the registered games (:mod:`diloti.core.registry`)."""
