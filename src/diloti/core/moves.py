"""Moves and declaration piles as small immutable values.

A move is identified by what it does (RULES.md): the card played, the kind,
the value of what it builds, and the set of table cards it involves (loose
cards and whole piles). That set is kept as a 52-bit mask, so two ways of
playing that leave the same table are the same :class:`Move`.

>>> m = Move.parse("9D x 4H 5C")
>>> m.kind is MoveKind.CAPTURE, m.card, m.cards
(True, Card('9D'), (Card('4H'), Card('5C')))
>>> str(m), eval(repr(m)) == m
('9D x 4H 5C', True)
>>> import copy, pickle
>>> pickle.loads(pickle.dumps(m)) == m == copy.deepcopy(m)
True
>>> str(Move.parse("4c + 4d = 4g")), str(Move.parse("4C+4D=8"))
('4C + 4D = 4G', '4C + 4D = 8')
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import NamedTuple

from diloti.core.cards import CARDS, NAMES, VALUE, Card, cards_of, mask_of, parse_card
from diloti.core.errors import InvalidCardError, InvalidMoveError


class MoveKind(IntEnum):
    """What a move does."""

    LAY = 0
    CAPTURE = 1
    PLAIN = 2  # a new plain declaration, or a raise of one
    GROUP = 3
    KEEP = 4  # decline a face-card redeal
    REDEAL = 5  # demand a face-card redeal


LAY, CAPTURE, PLAIN, GROUP, KEEP, REDEAL = (
    MoveKind.LAY, MoveKind.CAPTURE, MoveKind.PLAIN, MoveKind.GROUP, MoveKind.KEEP, MoveKind.REDEAL,
)

_MOVE_RE = re.compile(
    r"^\s*(?P<card>\S+?)\s*(?:(?P<op>[x:+*])\s*(?P<rest>.*?))?\s*$", re.IGNORECASE
)
_VALUE_RE = re.compile(r"^(?P<cards>.*?)\s*=\s*(?P<value>10|[1-9]|a|t)\s*(?P<group>g|group|s|\*)?\s*$",
                       re.IGNORECASE)


class Move(tuple[Card | None, MoveKind, int, int]):
    """One move: ``(card, kind, value, mask)``.

    ``value`` is the declared value for PLAIN/GROUP, the card's value for
    CAPTURE and LAY (0 for a face card), 0 for the redeal decisions. ``mask``
    is the 52-bit set of table cards the move takes or builds on.
    """

    __slots__ = ()

    def __new__(cls, card: Card | None, kind: MoveKind, value: int = 0, mask: int = 0) -> Move:
        return tuple.__new__(cls, (card, kind, value, mask))

    def __getnewargs__(self) -> tuple[Card | None, MoveKind, int, int]:
        # pickle and copy call cls.__new__(cls, *these): the four fields, not the tuple as one argument.
        return (self[0], self[1], self[2], self[3])

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Move:
        return self

    @property
    def card(self) -> Card | None:
        return self[0]

    @property
    def kind(self) -> MoveKind:
        return self[1]

    @property
    def value(self) -> int:
        return self[2]

    @property
    def mask(self) -> int:
        return self[3]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The table cards involved, ascending."""
        return cards_of(self[3])

    @property
    def is_capture(self) -> bool:
        return self[1] == CAPTURE

    @property
    def is_declaration(self) -> bool:
        return self[1] == PLAIN or self[1] == GROUP

    @classmethod
    def lay(cls, card: Card) -> Move:
        return cls(card, LAY, VALUE[card], 0)

    @classmethod
    def capture(cls, card: Card, cards: list[Card] | tuple[Card, ...]) -> Move:
        return cls(card, CAPTURE, VALUE[card], mask_of(cards))

    @classmethod
    def plain(cls, card: Card, cards: list[Card] | tuple[Card, ...], value: int) -> Move:
        return cls(card, PLAIN, value, mask_of(cards))

    @classmethod
    def group(cls, card: Card, cards: list[Card] | tuple[Card, ...], value: int) -> Move:
        return cls(card, GROUP, value, mask_of(cards))

    @classmethod
    def keep(cls) -> Move:
        return cls(None, KEEP, 0, 0)

    @classmethod
    def redeal(cls) -> Move:
        return cls(None, REDEAL, 0, 0)

    def __str__(self) -> str:
        card, kind, value, mask = self
        if kind == KEEP:
            return "keep"
        if kind == REDEAL:
            return "redeal"
        assert card is not None
        name = NAMES[card]
        if kind == LAY:
            return name
        table = " ".join(NAMES[c] for c in cards_of(mask))
        if kind == CAPTURE:
            return f"{name} x {table}"
        return f"{name} + {table} = {value}{'G' if kind == GROUP else ''}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in notation, without a position.

        Grammar: ``CARD`` (lay), ``CARD x CARDS`` (capture),
        ``CARD + CARDS = V`` (plain declaration or raise), ``CARD + CARDS = VG``
        (group of V), ``keep``, ``redeal``. Table cards may come in any order.
        Every card of a pile must be named; :func:`diloti.games.diloti.formats.notation.parse_move`
        is the forgiving reader that completes piles from the position.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"invalid move {text!r}: expected text")
        s = text.strip()
        low = s.lower()
        if low == "keep":
            return cls.keep()
        if low == "redeal":
            return cls.redeal()
        m = _MOVE_RE.match(s)
        if not m or not s:
            raise InvalidMoveError(f"invalid move {text!r}: empty")
        try:
            card = parse_card(m.group("card"))
        except InvalidCardError as exc:
            raise InvalidMoveError(f"invalid move {text!r}: {exc}") from None
        op = m.group("op")
        if op is None:
            return cls.lay(card)
        rest = m.group("rest") or ""
        if op in "xX:":
            cards = _cards(text, rest)
            if not cards:
                raise InvalidMoveError(f"invalid move {text!r}: a capture must name what it takes")
            return cls.capture(card, cards)
        vm = _VALUE_RE.match(rest)
        if not vm:
            raise InvalidMoveError(
                f"invalid move {text!r}: a declaration ends with '= VALUE' (plain) or '= VALUEG' (group)"
            )
        cards = _cards(text, vm.group("cards"))
        if not cards:
            raise InvalidMoveError(f"invalid move {text!r}: a declaration must name table cards")
        raw = vm.group("value").upper()
        value = 1 if raw == "A" else 10 if raw == "T" else int(raw)
        kind = GROUP if (vm.group("group") or op == "*") else PLAIN
        return cls(card, kind, value, mask_of(cards))


def _cards(text: str, part: str) -> list[Card]:
    out = []
    for tok in part.replace(",", " ").replace("+", " ").replace("[", " ").replace("]", " ").split():
        try:
            out.append(parse_card(tok))
        except InvalidCardError as exc:
            raise InvalidMoveError(f"invalid move {text!r}: {exc}") from None
    return out


class Declaration(NamedTuple):
    """A declaration on the table: its cards (a mask), value, kind and owner seat."""

    mask: int
    value: int
    kind: MoveKind  # PLAIN or GROUP
    owner: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return cards_of(self.mask)

    @property
    def is_group(self) -> bool:
        return self.kind == GROUP

    @property
    def is_soy(self) -> bool:
        """A group of exactly two equal numerals."""
        return self.kind == GROUP and self.mask.bit_count() == 2

    def to_dict(self) -> dict[str, object]:
        """The declaration in JSON (positions, views, messages, replays); read back by
        :func:`diloti.games.diloti.formats.position.position_from_dict`.

        >>> Declaration(0b11 << 8, 6, PLAIN, 1).to_dict()
        {'cards': ['3C', '3D'], 'value': 6, 'kind': 'plain', 'owner': 1}
        """
        return {"cards": [NAMES[c] for c in cards_of(self.mask)], "value": self.value,
                "kind": "group" if self.kind == GROUP else "plain", "owner": self.owner}

    def __str__(self) -> str:
        cards = " ".join(NAMES[c] for c in cards_of(self.mask))
        return f"[{cards}]={self.value}{'G' if self.kind == GROUP else ''}@{self.owner}"


# The name before 0.2; kept so that code importing it goes on working.
Pile = Declaration

__all__ = ["CAPTURE", "CARDS", "GROUP", "KEEP", "LAY", "PLAIN", "REDEAL", "Declaration", "Move", "MoveKind", "Pile"]
