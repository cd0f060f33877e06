"""Move notation: the forgiving, position-aware reader and readable forms.

The canonical, position-free form is ``str(move)`` / :meth:`Move.parse`
(``9D x 4H 5C``, ``5S + 3C = 8``, ``4D + 4C = 4G``, ``7H``, ``keep``,
``redeal``; every table card named). :func:`parse_move` reads what people
type, given the position:

- cards in any order and case, ``T`` or ``10``, suit letters or symbols;
- naming one card of a declaration means the whole declaration;
- ``9D x`` (or ``9D takes``) with no cards fits any capture with the 9D;
- a bare ``9D`` is the lay if legal, else the only legal move with the 9D;
- ``9D 4H 5C`` (no operator) fits any move of the 9D with those cards;
- ``= 8`` gives the value; ``G``/``group`` or ``plain`` fix the kind.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=45)
>>> " ".join(map(str, s.hands[s.turn])), " ".join(map(str, s.table))
('4C 4H 8D 9C 10H KH', '4S 5S 6D JC')
>>> str(parse_move(s, "9c x")), str(parse_move(s, "9♣ takes 5s 4S")), str(parse_move(s, "tH x"))
('9C x 4S 5S', '9C x 4S 5S', '10H x 4S 6D')
>>> str(parse_move(s, "kh")), str(parse_move(s, "4h + 4s = 8")), str(parse_move(s, "4h 4s = 4"))
('KH', '4H + 4S = 8', '4H + 4S = 4G')
>>> parse_move(s, "4h + 4s")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
diloti.core.errors.AmbiguousMoveError: ambiguous move '4h + 4s': fits plain 8 (4H + 4S = 8) or group of 4s ...
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from diloti.core.cards import NAMES, VALUE, Card, cards_of
from diloti.core.errors import InvalidMoveError
from diloti.core.moves import CAPTURE, GROUP, KEEP, LAY, PLAIN, REDEAL, Declaration, Move
from diloti.games.diloti.choices import Query
from diloti.games.diloti.formats.position import format_view
from diloti.games.diloti.reading import read_move
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View

Position = State | View

# ----------------------------------------------------------- the position
def _parts(pos: Position) -> tuple[list[Move], tuple[Card, ...], tuple[Declaration, ...], tuple[Card, ...], str]:
    """(legal moves, table cards, declarations, hand of the mover, description); the legal moves bounded: a
    sample on a large table (:meth:`State.candidate_moves`)."""
    if isinstance(pos, State):
        return (pos.candidate_moves()[0], tuple(pos.table), tuple(pos.declarations), tuple(pos.hands[pos.turn]),
                pos.describe())
    hand = pos.hand if pos.turn == pos.seat else ()
    return list(pos.legal), pos.table, pos.declarations, hand, f"[{format_view(pos)}]"


def parse_move(pos: Position, text: str) -> Move:
    """The one legal move that ``text`` describes in ``pos`` (a state or a view).

    Raises :class:`InvalidMoveError` when the text cannot be read,
    :class:`IllegalMoveError` when no legal move fits (listing a few legal
    moves with that card) and :class:`AmbiguousMoveError` when several do
    (listing them). Every message names the input and the position.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"invalid move {text!r}: expected text")
    legal, table, declarations, hand, where = _parts(pos)
    complete = pos.candidate_moves()[1] if isinstance(pos, State) else pos.complete
    if not complete:  # a large table: the list is a sample, so a move in full notation is checked on its own
        turn = pos.turn
        exact = Query(turn, list(hand), list(table), list(declarations), pos.options).read(text)
        if exact is not None:
            return exact
    return read_move(text, legal, table, declarations, hand, where)


def format_move(move: Move) -> str:
    """The canonical, position-free form (``str(move)``).

    >>> format_move(Move.parse("9d x 5c 4h"))
    '9D x 4H 5C'
    """
    return str(move)


def _pieces(pos: Position, move: Move) -> tuple[list[Card], list[Declaration]]:
    _, _, declarations, _, _ = _parts(pos)
    used = [p for p in declarations if p.mask & move.mask]
    pile_mask = 0
    for p in used:
        pile_mask |= p.mask
    return list(cards_of(move.mask & ~pile_mask)), used


def _pile_text(p: Declaration) -> str:
    cards = " ".join(NAMES[c] for c in p.cards)
    return f"[{cards}]={p.value}{'G' if p.kind == GROUP else ''}"


def _split(cards: Sequence[Card], target: int) -> list[list[Card]] | None:
    """Cards split into sets each summing to ``target``, if they can be."""
    if not cards:
        return []
    first, others = cards[0], list(cards[1:])
    need = target - VALUE[first]
    for r in range(len(others) + 1):
        for combo in combinations(others, r):
            if sum(VALUE[c] for c in combo) == need:
                rest = _split([c for c in others if c not in combo], target)
                if rest is not None:
                    return [[first, *combo], *rest]
    return None


def _parts_text(parts: list[list[Card]], declarations: Sequence[Declaration]) -> str:
    return ", ".join(["+".join(NAMES[c] for c in part) for part in parts] + [_pile_text(p) for p in declarations])


def _group_text(card: Card, table: list[Card], declarations: list[Declaration], g: int) -> str | None:
    """The components of a new group (one possible split; the split has no effect)."""
    v = VALUE[card]
    played: list[tuple[str, list[Card], list[Declaration]]] = []
    if v == g:
        played.append((NAMES[card], table, declarations))
    for r in range(1, len(table) + 1):
        for combo in combinations(table, r):
            if v + sum(VALUE[c] for c in combo) == g:
                text = "+".join(NAMES[c] for c in (card, *combo))
                played.append((text, [c for c in table if c not in combo], declarations))
    for p in declarations:
        if p.kind == PLAIN and p.value + v == g:
            played.append((f"{NAMES[card]}+{_pile_text(p)}", table, [q for q in declarations if q is not p]))
    for text, rest, others in played:
        split = _split(rest, g)
        if split is not None and all(q.value == g for q in others):
            return ", ".join([text, _parts_text(split, others)]) if split or others else text
    return None


def describe_move(pos: Position, move: Move) -> str:
    """A short declaration-aware form of ``move`` in ``pos`` (before it is played).

    Captures and groups are shown in parts (one possible split, when the
    parts are not single cards), declarations on the table in brackets.

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=45)
    >>> describe_move(s, parse_move(s, "9c x"))
    '9C takes 4S+5S'
    >>> describe_move(s, parse_move(s, "4h + 4s = 4g"))
    '4H makes a group of 4s: 4H, 4S'
    >>> describe_move(s, parse_move(s, "4h + 4s = 8"))
    '4H builds 4S into plain 8'
    """
    card, kind = move.card, move.kind
    if kind == KEEP:
        return "keeps the hand"
    if kind == REDEAL:
        return "demands a redeal"
    assert card is not None
    name = NAMES[card]
    if kind == LAY:
        return f"{name} laid"
    table, declarations = _pieces(pos, move)
    flat = " and ".join((["+".join(NAMES[c] for c in table)] if table else []) + [_pile_text(p) for p in declarations])
    if kind == CAPTURE:
        split = _split(table, VALUE[card]) if VALUE[card] else None
        return f"{name} takes {_parts_text(split, declarations) if split is not None else flat}"
    if kind == GROUP:
        text = _group_text(card, table, declarations, move.value)
        return f"{name} makes a group of {move.value}s: {text}" if text else \
            f"{name} builds {flat} into group of {move.value}s"
    if declarations and not table:
        return f"{name} raises {flat} to {move.value}"
    return f"{name} builds {flat} into plain {move.value}"


_SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
_RANK_WORDS = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")


def card_words(card: Card) -> str:
    """``'the 10 of diamonds'``.

    >>> card_words(Card("QS"))
    'the queen of spades'
    """
    return f"the {_RANK_WORDS[card.rank - 1]} of {_SUIT_WORDS[card.suit]}"


def move_sentence(pos: Position, move: Move, seat: int | None = None) -> str:
    """A full English sentence for user interfaces.

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=45)
    >>> move_sentence(s, parse_move(s, "9c x"), seat=1)
    'Seat 1 plays the 9 of clubs and captures the 4 of spades and the 5 of spades.'
    """
    who = "The player" if seat is None else f"Seat {seat}"
    if move.kind == KEEP:
        return f"{who} keeps the hand dealt."
    if move.kind == REDEAL:
        return f"{who} demands a redeal."
    card = move.card
    assert card is not None
    played = card_words(card)
    if move.kind == LAY:
        return f"{who} lays {played} on the table."
    table, declarations = _pieces(pos, move)
    items = [card_words(c) for c in table]
    items += [f"the {'group' if p.kind == GROUP else 'plain declaration'} of {p.value} "
              f"({' '.join(NAMES[c] for c in p.cards)}) owned by seat {p.owner}" for p in declarations]
    what = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    if move.kind == CAPTURE:
        return f"{who} plays {played} and captures {what}."
    if move.kind == PLAIN and declarations and not table:
        return f"{who} raises {what} with {played} to {move.value}."
    built = f"a group of {move.value}s" if move.kind == GROUP else f"a plain declaration of {move.value}"
    return f"{who} plays {played} with {what} to declare {built}."


__all__ = ["card_words", "describe_move", "format_move", "move_sentence", "parse_move"]
