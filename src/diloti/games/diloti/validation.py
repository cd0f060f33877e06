"""The one check that a position can exist: each card once, declarations that can be made.

Used by :meth:`diloti.games.diloti.state.State.validate`, by ``State.from_parts`` and
by the JSON and compact position readers; each error names the field at
fault as the JSON position spells it.

>>> from diloti.core.cards import parse_cards
>>> hand = parse_cards("AC 2C")
>>> check_position(2, 0, 1, [hand, []], parse_cards("2C"), [], [], [0, 0])
Traceback (most recent call last):
...
diloti.core.errors.InvalidPositionError: invalid position: field 'table': card 2C appears twice (also in hands[0])
"""

from __future__ import annotations

from collections.abc import Sequence

from diloti.core.cards import NAMES, VALUE, cards_of
from diloti.core.errors import InvalidPositionError
from diloti.core.moves import GROUP, PLAIN, Declaration


def bad_field(field: str, reason: str) -> InvalidPositionError:
    """The error for one field of a position."""
    return InvalidPositionError(f"invalid position: field {field!r}: {reason}")


def check_position(players: int, dealer: int, turn: int, hands: Sequence[Sequence[int]], table: Sequence[int],
                   declarations: Sequence[Declaration], stock: Sequence[int], captured: Sequence[int]) -> None:
    """Raise :class:`InvalidPositionError` naming the field if the position cannot exist.

    ``captured`` holds each side's captured cards as a 52-bit mask; ``stock`` the undealt cards.
    """
    n = players
    if not 0 <= dealer < n:
        raise bad_field("dealer", f"expected a seat 0..{n - 1}, got {dealer!r}")
    if not 0 <= turn < n:
        raise bad_field("turn", f"expected a seat 0..{n - 1}, got {turn!r}")
    where: dict[int, str] = {}

    def place(field: str, cards: Sequence[int]) -> None:
        for c in cards:
            if c in where:
                raise bad_field(field, f"card {NAMES[c]} appears twice (also in {where[c]})")
            where[c] = field

    for i, h in enumerate(hands):
        place(f"hands[{i}]", h)
    place("table", table)
    owners: dict[int, int] = {}
    for i, p in enumerate(declarations):
        field = f"declarations[{i}]"
        cards = cards_of(p.mask)
        place(field, cards)
        if len(cards) < 2:
            raise bad_field(field, f"a declaration holds at least 2 cards, got {len(cards)}")
        if any(c >= 40 for c in cards):
            raise bad_field(field, "a declaration cannot hold a face card")
        if not 1 <= p.value <= 10:
            raise bad_field(field, f"a declaration's value is 1..10, not {p.value}")
        total = sum(VALUE[c] for c in cards)
        if p.kind == PLAIN and total != p.value:
            raise bad_field(field, f"a plain declaration's value is the sum of its cards ({total}), not {p.value}")
        if p.kind == GROUP and (total % p.value or total // p.value < 2):
            raise bad_field(field, f"cards summing to {total} cannot form a group of {p.value}s")
        if not 0 <= p.owner < n:
            raise bad_field(field, f"owner must be a seat 0..{n - 1}, not {p.owner}")
        if p.owner in owners:
            raise bad_field(field, f"seat {p.owner} already owns declarations[{owners[p.owner]}]; one at a time")
        owners[p.owner] = i
    place("stock", stock)
    for i, m in enumerate(captured):
        place(f"captured[{i}]", cards_of(m))
    if len(where) != 52:
        missing = " ".join(NAMES[c] for c in range(52) if c not in where)
        raise InvalidPositionError(f"invalid position: cards missing (each of the 52 must appear once): {missing}")
