"""Chance made explicit for Xeri and Kontsina: every card dealt is an event a caller sees and chooses.

The parent games' counterpart of :mod:`diloti.core.chance`. A hand made with
``HandState.new(..., explicit_chance=True)`` deals nothing by itself: while
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
events are a :class:`TableChance`, whose outcomes are not equally likely: read
:attr:`TableChance.probabilities` or :meth:`~HandChance.chance_outcomes`.

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
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from diloti.core.cards import CARDS, NAMES, Card, parse_card
from diloti.core.chance import HANDS, TABLE, Chance, ChanceEvents
from diloti.core.errors import InvalidPositionError, NoSuchOutcomeError
from diloti.core.phase import Phase

S = TypeVar("S", bound="HandChance")


class TableChance(Chance):
    """A first-table card under a redeal rule: the outcomes with their ``weights`` (the standing tables each
    can still end in) and ``probabilities`` (the weights over their sum, in the outcomes' order).

    Equal to the :class:`~diloti.core.chance.Chance` of the same four fields (the weights follow from the
    hand). :attr:`probability`, one probability for every outcome, does not apply.
    """

    weights: tuple[int, ...]
    probabilities: tuple[float, ...]

    def __new__(cls, kind: str, to: int | str, outcomes: tuple[Card, ...], left: int,
                weights: tuple[int, ...]) -> TableChance:
        self = super().__new__(cls, kind, to, outcomes, left)
        total = sum(weights)
        self.weights = weights
        self.probabilities = tuple(w / total for w in weights)
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:  # copy and pickle: the weights too
        return (*self, self.weights)

    @property
    def probability(self) -> float:
        """Not one for all: the outcomes are not equally likely (:attr:`probabilities`)."""
        raise NoSuchOutcomeError("the outcomes of a table card under a redeal rule are not equally likely: "
                                 "read probabilities")


class HandChance(ChanceEvents):
    """The explicit-chance half of :class:`~diloti.core.hand_state.HandState` (which inherits it)."""

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

    def _table_completions(self, dealt: Sequence[Card], counts: Sequence[int]) -> int | None:
        """In how many ways the first table can be finished from ``dealt`` (its cards dealt so far) into one
        that needs no redeal, the undealt cards being ``counts`` of each rank; None when the game has no
        redeal rule (every table stands). The rule may read only ranks (Xeri's does)."""
        return None

    def _table_dealing(self) -> tuple[list[Card], list[Card], list[int]] | None:
        """While a first table is dealt: its cards dealt so far, the undealt cards (in card order) and their
        count of each rank; None at any other point."""
        batch = self.batch
        if batch is None or batch[0] != TABLE or self.phase != Phase.CHANCE:
            return None
        nxt = batch[1]
        undealt = sorted(self.stock[nxt:])
        counts = [0] * 13
        for c in undealt:
            counts[c >> 2] += 1
        return self.stock[self.stock_pos:nxt], undealt, counts

    def _table_outcomes(self) -> list[tuple[Card, int]] | None:
        """The next table card's outcomes and their weights (each positive) while a table under a redeal
        rule is dealt; None at any other point or without such a rule."""
        dealing = self._table_dealing()
        if dealing is None:
            return None
        dealt, undealt, counts = dealing
        by_rank: dict[int, int] = {}  # the rule reads ranks: one count a rank
        out: list[tuple[Card, int]] = []
        for c in undealt:
            rank = c >> 2
            w = by_rank.get(rank)
            if w is None:
                counts[rank] -= 1
                ways = self._table_completions([*dealt, c], counts)
                counts[rank] += 1
                if ways is None:
                    return None
                w = by_rank[rank] = ways
            if w:
                out.append((c, w))
        return out

    @property
    def chance(self) -> Chance | None:
        """The next chance event (a card to deal), or None when a player is to act; a :class:`TableChance`
        while a table under a redeal rule is dealt."""
        weighted = self._table_outcomes()
        if weighted is None:
            return super().chance
        assert self.batch is not None
        return TableChance(TABLE, "table", tuple(c for c, _ in weighted), self.batch[2] - self.batch[1],
                           tuple(w for _, w in weighted))

    def chance_outcomes(self) -> list[tuple[Card, float]]:
        """The possible next cards with their probabilities (empty when not a chance point).

        >>> from diloti.games.xeri.rules import XeriState
        >>> s = XeriState.new(explicit_chance=True)
        >>> for c in range(12):
        ...     s.deal(c)
        >>> for c in "4C 9H KD".split():  # the top card may be no jack and no king
        ...     s.deal(c)
        >>> outcomes = s.chance_outcomes()
        >>> len(outcomes), round(sum(p for _, p in outcomes), 12), {p for _, p in outcomes} == {1 / 30}
        (30, 1.0, True)
        """
        event = self.chance
        if isinstance(event, TableChance):
            return list(zip(event.outcomes, event.probabilities, strict=True))
        return super().chance_outcomes()

    def chance_outcome_ids(self) -> list[tuple[int, float]]:
        """:meth:`chance_outcomes` with each card as its plain index (OpenSpiel's chance outcomes)."""
        weighted = self._table_outcomes()
        if weighted is None:
            return super().chance_outcome_ids()
        total = sum(w for _, w in weighted)
        return [(int(c), w / total) for c, w in weighted]

    def deal_random(self, rng: random.Random) -> Card:
        """Deal the next card at random from ``rng`` with its probability; return it."""
        weighted = self._table_outcomes()
        if weighted is None:
            return super().deal_random(rng)
        x = rng.random() * sum(w for _, w in weighted)
        card = weighted[-1][0]
        for c, w in weighted:
            if x < w:
                card = c
                break
            x -= w
        self.deal(card)
        return card

    def deal(self, card: Card | int | str) -> None:
        """Deal ``card`` as the outcome of the current chance event (see :attr:`chance`); a table card that
        would leave no standing table is refused."""
        dealing = self._table_dealing()
        if dealing is not None:
            dealt, undealt, counts = dealing
            c = parse_card(card) if isinstance(card, str) else card
            # A card not undealt, or no card, is the base's to refuse.
            if isinstance(c, int) and not isinstance(c, bool) and c in undealt:
                counts[c >> 2] -= 1
                if self._table_completions([*dealt, CARDS[c]], counts) == 0:
                    weighted = self._table_outcomes() or []
                    raise NoSuchOutcomeError(
                        f"cannot deal {NAMES[c]}: every table with it there would be dealt again (the game's "
                        f"redeal rule); the cards that can be dealt: {' '.join(NAMES[o] for o, _ in weighted)}")
        super().deal(card)

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
