"""Chance made explicit for the one-card games: every card dealt is an event a caller sees and chooses.

The one-card games' counterpart of Diloti's :mod:`diloti.games.diloti.chance`, on :mod:`diloti.core.chance`.
A hand made with ``HandState.new(..., explicit_chance=True)`` deals nothing by itself: while
cards are to be dealt its phase is :attr:`~diloti.core.phase.Phase.CHANCE` and
:attr:`~HandChance.chance` says what is dealt (one card at a time, to whom,
from which cards, each equally likely but on a table with a redeal rule, below)
and :meth:`~HandChance.deal` applies
the card chosen. The events are the first deal of hands (seat after the dealer
first, one hand at a time), the first table (Xeri's pile bottom card first, so
the last card dealt is its top) and each later deal of hands. A seeded hand (the
default) deals exactly as before, from its seed.

**A table with a redeal rule** (Xeri's pile, RULES-XERI.md section 3) is dealt
without a redeal, so that the chance tree is finite: "deal four, deal again
until they stand" may draw unstanding piles any number of times, but what it
ends with is uniform over the standing piles (every try is uniform over all
piles, the undealt cards the same each time). Explicit chance draws exactly
that: each pile card is dealt with probability proportional to the number of
standing piles it can still end in (the game's :meth:`~HandChance._table_completions`),
so a card that would leave none is no outcome (dealing it is refused) and each
standing pile is reached with probability 1 / (number of standing piles). Those
events are a :class:`~diloti.core.chance.TableChance`, whose outcomes are not equally
likely: read :attr:`~diloti.core.chance.TableChance.probabilities` or
:meth:`~HandChance.chance_outcomes`. The weighing is :mod:`diloti.core.chance`'s, shared
with Diloti's first table; a game gives its count of standing tables.

>>> from diloti.games.xeri.rules import XeriState
>>> s = XeriState.new(explicit_chance=True)
>>> s.chance.kind, s.chance.to, len(s.chance.outcomes), s.chance.left
('hands', 1, 52, 12)
>>> import random
>>> rng = random.Random(3)
>>> while s.chance is not None:
...     _ = s.deal_random(rng)
>>> s.phase.label, len(s.hands[0]), len(s.table), s.stock_size
('play', 6, 4, 36)

Xeri's first pile, whose top card may be no jack and no card of the rank under it: its last card's outcomes
are the 30 cards that let it stand, each as likely.

>>> s = XeriState.new(explicit_chance=True)
>>> for c in range(12):
...     s.deal(c)
>>> for c in "4C 9H KD".split():
...     s.deal(c)
>>> outcomes = s.chance_outcomes()
>>> len(outcomes), round(sum(p for _, p in outcomes), 12), {p for _, p in outcomes} == {1 / 30}
(30, 1.0, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from diloti.core.cards import CARDS, Card
from diloti.core.chance import HANDS, TABLE, ChanceEvents, TableChance
from diloti.core.errors import InvalidPositionError
from diloti.core.phase import Phase

S = TypeVar("S", bound="HandChance")


class HandChance(ChanceEvents):
    """The explicit-chance half of :class:`~diloti.games.onecard.state.HandState` (which inherits it)."""

    if not TYPE_CHECKING:
        __slots__ = ()
    else:  # the hand state's fields and dealing steps that these methods use
        turn: int
        hands: list[list[Card]]
        table: list[Card]
        first_table: tuple[Card, ...]
        explicit: bool

        def __init__(self, players: int = 2, options: Any = None, dealer: int = 0) -> None: ...
        def _deal_hands(self) -> None: ...
        def _lay_first_table(self) -> None: ...

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

    def _deal_next(self) -> None:
        """The next deal of hands, once every hand is empty and the stock is not."""
        if not self.explicit:
            self._deal_hands()
            return
        self.phase = Phase.CHANCE
        self.batch = (HANDS, self.stock_pos, self.stock_pos + self.HAND_SIZE * self.players, False)

    def _batch_dealt(self, kind: str, card: Card, end: int, table_next: bool) -> None:
        stock = self.stock
        if kind == HANDS:
            self._deal_hands()
            if table_next:
                self.batch = (TABLE, self.stock_pos, self.stock_pos + 4, False)
                return
        else:  # a table that stands: its cards were dealt only while one could (_table_outcomes)
            self._lay_first_table()
            self.first_table = tuple(self.table)
        # Undealt cards in card order: equal positions compare equal.
        stock[self.stock_pos:] = sorted(stock[self.stock_pos:])
        self.phase = Phase.PLAY
        self.turn = (self.dealer + 1) % self.players


__all__ = ["HandChance", "TableChance"]
