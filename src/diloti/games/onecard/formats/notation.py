"""The one-card games' moves in words: as a record writes one, and as a player reads one.

A move is the core's :class:`~diloti.core.moves.Move` (``7S``, ``7S x 3C 4H``); a record of a game whose rules
say what a card does (its state's ``RECORD_CARD_ONLY``: Xeri's) writes the card alone.

>>> from diloti.core.moves import Move
>>> move_text(Move.parse("7S x 7D")), move_text(Move.parse("7S x 7D"), card_only=True)
('7S x 7D', '7S')
"""

from __future__ import annotations

from diloti.core.cards import NAMES
from diloti.core.moves import CAPTURE, Move
from diloti.games.onecard.state import HandState


def move_text(move: Move, card_only: bool = False) -> str:
    """A move as a record writes it: the notation, or with ``card_only`` (Xeri: its outcome follows) the card alone."""
    if card_only and move[0] is not None:
        return NAMES[move[0]]
    return str(move)


def describe_move(state: HandState, move: Move) -> str:
    """A short readable form of ``move`` in ``state`` (before it is played).

    >>> from diloti.games.kontsina.rules import KontsinaState
    >>> s = KontsinaState.new(seed=2)
    >>> [describe_move(s, m) for m in s.legal_moves()[1:3]]
    ['8H laid', '8H takes 3C+5D']
    """
    card = move.card
    assert card is not None
    if move.kind != CAPTURE:
        return f"{NAMES[card]} laid"
    taken = move.cards or tuple(state.table)  # a capture that names no cards takes the whole pile (Xeri)
    return f"{NAMES[card]} takes {'+'.join(NAMES[c] for c in taken)}"


__all__ = ["describe_move", "move_text"]
