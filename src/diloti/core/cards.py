"""Cards, ranks, suits and values.

A card is an ``int`` in ``0..51`` (``(rank - 1) * 4 + suit``), so sorting by
card sorts by rank, and tables indexed by card are plain tuple lookups. The 52
:class:`Card` objects are created once; the engine never builds new ones.

>>> Card("10D"), Card("td"), Card("10♦")
(Card('10D'), Card('10D'), Card('10D'))
>>> Card("KH").value, Card("AS").value, Card("9C").value
(0, 1, 9)
>>> str(Card("QS")), Card("QS").is_face
('QS', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from diloti.core._mypyc import mypyc_attr
from diloti.core.errors import InvalidCardError

SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

_SUIT_ALIASES = {
    "C": 0, "D": 1, "H": 2, "S": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3,
    "♧": 0, "♢": 1, "♡": 2, "♤": 3,
}
_RANK_ALIASES = {name: i + 1 for i, name in enumerate(RANK_NAMES)}
_RANK_ALIASES.update({"T": 10, "1": 1, "11": 11, "12": 12, "13": 13})


# mypyc compiles a subclass of int only as a plain Python class; the module's functions run compiled.
@mypyc_attr(native_class=False)
class Card(int):
    """One of the 52 cards.

    ``Card("10D")`` parses (forgivingly: ``T`` for 10, suit letters or symbols,
    any case); ``Card(37)`` takes the index. Both return the shared instance.
    """

    __slots__ = ()

    def __new__(cls, spec: int | str) -> Card:
        if isinstance(spec, str):
            return parse_card(spec)
        if isinstance(spec, int) and not isinstance(spec, bool) and 0 <= spec < 52:
            try:
                return CARDS[spec]
            except NameError:  # while CARDS itself is being built
                return int.__new__(cls, spec)
        raise InvalidCardError(f"invalid card index {spec!r}: expected 0..51")

    @property
    def rank(self) -> int:
        """1 (ace) .. 10, 11 (jack), 12 (queen), 13 (king)."""
        return (self >> 2) + 1

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self & 3

    @property
    def value(self) -> int:
        """Capture value: 1..10 for numerals, 0 for face cards."""
        return VALUE[self]

    @property
    def is_face(self) -> bool:
        return self >= 40

    def symbol(self) -> str:
        """The card with its suit symbol, e.g. ``10♦``."""
        return RANK_NAMES[self >> 2] + SUIT_SYMBOLS[self & 3]

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"Card({NAMES[self]!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


NAMES: tuple[str, ...] = tuple(RANK_NAMES[i >> 2] + SUITS[i & 3] for i in range(52))
VALUE: tuple[int, ...] = tuple((i >> 2) + 1 if i < 40 else 0 for i in range(52))
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
BIT: tuple[int, ...] = tuple(1 << i for i in range(52))
ALL_MASK = (1 << 52) - 1

TEN_OF_DIAMONDS = CARDS[37]
TWO_OF_CLUBS = CARDS[4]


def parse_card(text: str) -> Card:
    """Read one card, e.g. ``"10D"``, ``"T♦"``, ``"as"``."""
    s = text.strip().upper()
    if len(s) >= 2:
        suit = _SUIT_ALIASES.get(s[-1])
        rank = _RANK_ALIASES.get(s[:-1])
        if suit is None:  # suit first, e.g. "♦10" or "D10"
            suit = _SUIT_ALIASES.get(s[0])
            rank = _RANK_ALIASES.get(s[1:])
        if suit is not None and rank is not None:
            return CARDS[(rank - 1) * 4 + suit]
    raise InvalidCardError(
        f"invalid card {text!r}: expected a rank (A 2..10 T J Q K) "
        "and a suit (C D H S or ♣ ♦ ♥ ♠)"
    )


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read several cards separated by spaces or commas."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(p) for p in parts]


def mask_of(cards: Iterable[int]) -> int:
    """The 52-bit set of some cards."""
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a 52-bit set, in ascending order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def iter_bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def full_deck() -> list[Card]:
    """The 52 cards in index order."""
    return list(CARDS)


def format_cards(cards: Iterable[int]) -> str:
    """Cards as text separated by spaces."""
    return " ".join(NAMES[c] for c in cards)
