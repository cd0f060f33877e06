"""Chance made explicit for Xeri and Kontsina: every card dealt is an event a caller sees and chooses.

The parent games' counterpart of :mod:`diloti.core.chance`. A hand made with
``HandState.new(..., explicit_chance=True)`` deals nothing by itself: while
cards are to be dealt its phase is :attr:`~diloti.core.phase.Phase.CHANCE` and
:attr:`~VariantChance.chance` says what is dealt (one card at a time, to whom,
from which cards, each equally likely) and :meth:`~VariantChance.deal` applies
the card chosen. The events are the first deal of hands (seat after the dealer
first, one hand at a time), the first table (Xeri's pile bottom card first, so
the last card dealt is its top; dealt again from the undealt cards while
RULES-XERI.md section 3 calls for a redeal) and each later deal of hands. A
seeded hand (the default) deals exactly as before, from its seed.

>>> from diloti.core.xeri import XeriState
>>> s = XeriState.new(explicit_chance=True)
>>> s.chance.kind, s.chance.to, len(s.chance.outcomes), s.chance.left
('hands', 1, 52, 12)
>>> import random
>>> rng = random.Random(3)
>>> while s.chance is not None:
...     _ = s.deal_random(rng)
>>> s.phase.label, len(s.hands[0]), len(s.table), s.stock_size
('play', 6, 4, 36)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from diloti.core.cards import CARDS, NAMES, Card, parse_card
from diloti.core.chance import HANDS, TABLE, Chance
from diloti.core.errors import InvalidPositionError, NoSuchOutcomeError
from diloti.core.phase import Phase

S = TypeVar("S", bound="VariantChance")


class VariantChance:
    """The explicit-chance half of :class:`~diloti.core.variant.HandState` (which inherits it)."""

    if not TYPE_CHECKING:
        __slots__ = ()
    else:  # the hand state's fields and dealing steps that these methods use
        HAND_SIZE: ClassVar[int]
        players: int
        dealer: int
        turn: int
        phase: Phase
        hands: list[list[Card]]
        table: list[Card]
        stock: list[Card]
        stock_pos: int
        first_table: tuple[Card, ...]
        explicit: bool
        batch: tuple[str, int, int, bool] | None
        _legal: object

        def __init__(self, players: int = 2, options: Any = None, dealer: int = 0) -> None: ...
        def _deal_hands(self) -> None: ...
        def _lay_first_table(self) -> None: ...
        describe: Callable[[], str]

    @classmethod
    def _new_explicit(cls: type[S], players: int, options: Any, dealer: int, deck: Sequence[int] | None) -> S:
        if deck is not None:
            raise InvalidPositionError("invalid deck: a hand with explicit chance is dealt by deal(), not from a deck")
        s = cls(players, options, dealer)
        s.explicit = True
        # The undealt cards lie in the stock in card order; deal() moves each chosen card to the next
        # place to be dealt, so the seeded hand's own dealing code then reads the stock.
        s.stock = list(CARDS)
        s.phase = Phase.CHANCE
        s.batch = (HANDS, 0, s.HAND_SIZE * players, True)
        return s

    def _table_must_be_redealt(self, table: Sequence[Card]) -> bool:
        """Whether a first table just dealt goes back among the undealt cards (Xeri's pile rule)."""
        return False

    def _deal_next(self) -> None:
        """The next deal of hands, once every hand is empty and the stock is not."""
        if not self.explicit:
            self._deal_hands()
            return
        self.phase = Phase.CHANCE
        self.batch = (HANDS, self.stock_pos, self.stock_pos + self.HAND_SIZE * self.players, False)

    @property
    def chance(self) -> Chance | None:
        """The next chance event (a card to deal), or None when a player is to act."""
        if self.phase != Phase.CHANCE or self.batch is None:
            return None
        kind, nxt, end, _ = self.batch
        outcomes = tuple(sorted(self.stock[nxt:]))
        if kind == TABLE:
            return Chance(TABLE, "table", outcomes, end - nxt)
        seat = (self.dealer + 1 + (nxt - self.stock_pos) // self.HAND_SIZE) % self.players
        return Chance(HANDS, seat, outcomes, end - nxt)

    def chance_outcomes(self) -> list[tuple[Card, float]]:
        """The possible next cards with their probabilities (empty when not a chance point).

        >>> from diloti.core.kontsina import KontsinaState
        >>> s = KontsinaState.new(3, explicit_chance=True)
        >>> len(s.chance_outcomes()), s.chance_outcomes()[0]
        (52, (Card('AC'), 0.019230769230769232))
        """
        event = self.chance
        if event is None:
            return []
        p = event.probability
        return [(c, p) for c in event.outcomes]

    def deal_random(self, rng: random.Random) -> Card:
        """Deal the next card at random from ``rng`` (uniform, as a shuffled deck); return it."""
        event = self.chance
        if event is None:
            raise NoSuchOutcomeError(f"no card to deal: {self.describe()} is not a chance point")
        card = event.outcomes[int(rng.random() * len(event.outcomes))]
        self.deal(card)
        return card

    def deal(self, card: Card | int | str) -> None:
        """Deal ``card`` as the outcome of the current chance event (see :attr:`chance`)."""
        event = self.chance
        card = parse_card(card) if isinstance(card, str) else Card(card)
        if event is None:
            raise NoSuchOutcomeError(f"cannot deal {card!r}: {self.describe()} is not a chance point")
        if card not in event.outcomes:
            raise NoSuchOutcomeError(f"cannot deal {NAMES[card]}: "
                                     f"not among the undealt cards {' '.join(NAMES[c] for c in event.outcomes)}")
        assert self.batch is not None
        kind, nxt, end, table_next = self.batch
        self._legal = None
        stock = self.stock = self.stock.copy()  # a move's frame keeps the stock it saw (pop)
        i = stock.index(card, nxt)
        stock[i], stock[nxt] = stock[nxt], stock[i]
        if nxt + 1 < end:
            self.batch = (kind, nxt + 1, end, table_next)
            return
        self.batch = None
        if kind == HANDS:
            self._deal_hands()
            if table_next:
                self.batch = (TABLE, self.stock_pos, self.stock_pos + 4, False)
                return
        elif self._table_must_be_redealt(stock[self.stock_pos:end]):
            # The four go back among the undealt cards and four more are dealt (the hands stay).
            self.batch = (TABLE, self.stock_pos, end, False)
            return
        else:
            self._lay_first_table()
            self.first_table = tuple(self.table)
        # Undealt cards in card order: equal positions compare equal.
        stock[self.stock_pos:] = sorted(stock[self.stock_pos:])
        self.phase = Phase.PLAY
        self.turn = (self.dealer + 1) % self.players


__all__ = ["VariantChance"]
