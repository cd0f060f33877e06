"""One hand card's choices, as a page asks them: the moves that take exactly the chosen table cards, and what
can still be added. Bounded whatever the position: a game whose moves can number in the millions answers
from its own reasoning (Diloti's :class:`~diloti.games.diloti.choices.Query`); any other game from its list.

>>> from diloti.core.cards import mask_of, parse_cards
>>> from diloti.core.moves import Move
>>> legal = [Move.parse(t) for t in ("9D x 4H 5C", "9D x 9S", "9D x 4H 5C 9S", "9D", "KC")]
>>> units = [mask_of(parse_cards(c)) for c in ("4H", "5C", "9S")]
>>> c = choices_in(legal, Card("9D"), mask_of(parse_cards("4H")), units)
>>> [str(m) for m in c.moves], cards_of(c.open)
([], (Card('5C'), Card('9S')))
>>> c.to_dict()["open"]
['5C', '9S']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from diloti.core.cards import NAMES, Card, cards_of
from diloti.core.moves import LAY, Move


@dataclass(frozen=True)
class Choices:
    """What ``card`` can do with the table cards ``chosen`` (a mask, whole items): :attr:`moves`, the legal moves
    taking exactly those cards (a handful at most: one per kind and value, in :func:`order`), and :attr:`open`, the
    table cards (a mask; a pile by all its cards) that can still be added on the way to a legal move."""

    card: Card
    chosen: int
    moves: tuple[Move, ...]
    open: int

    def to_dict(self) -> dict[str, object]:
        """The choices in JSON (the server's ``choices`` message, whose moves are written by the server)."""
        return {"card": NAMES[self.card], "chosen": [NAMES[c] for c in cards_of(self.chosen)],
                "moves": [str(m) for m in self.moves], "open": [NAMES[c] for c in cards_of(self.open)]}


def whole_items(chosen: int, units: Iterable[int]) -> int:
    """``chosen`` widened to whole items: every unit (a card mask) that it touches."""
    out = 0
    for u in units:
        if u & chosen:
            out |= u
    return out


def choices_in(legal: Sequence[Move], card: Card, chosen: int, units: Iterable[int]) -> Choices:
    """The :class:`Choices` of ``card`` read from a complete list of legal moves; ``units`` are the table's
    items as card masks (a loose card, or a whole declaration)."""
    units = list(units)
    picked = whole_items(chosen, units)
    moves: list[Move] = []
    open_mask = 0
    for m in legal:
        if m[0] != card:
            continue
        taken = m[3]
        if taken & picked != picked:
            continue
        if taken == picked and (m[1] != LAY or not picked):
            moves.append(m)
        open_mask |= taken & ~picked
    if chosen & ~(sum(units) if units else 0):
        return Choices(card, picked, (), 0)  # a card that is not on the table
    return Choices(card, picked, tuple(sorted(moves, key=order)), open_mask)


def order(move: Move) -> tuple[int, int]:
    """The order of a card's choices: by kind (lay, capture, plain, group; a list's own order), then value."""
    return int(move[1]), move[2]


def candidates_after(state: Any, move: Move) -> tuple[tuple[Any, ...], list[Move], bool]:
    """The candidates of the position after ``move`` with its key (``RoundRules.keep_candidates``'s arguments): a
    function a worker process is handed with a copy of a state, so that a large table's are not worked out on a
    server's event loop."""
    state.push(move)
    moves, complete = state.candidate_moves()
    return state.candidates_key(), moves, complete


def choices_of(view: Any, card: Card, chosen: int) -> Choices:
    """``view.choices(card, chosen)``: a function a worker process is handed (by name) with a seat's view."""
    result: Choices = view.choices(card, chosen)
    return result


__all__ = ["Choices", "candidates_after", "choices_in", "choices_of", "order", "whole_items"]
