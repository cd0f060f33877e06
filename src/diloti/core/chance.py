"""Chance made explicit: the deals as events a caller can see, enumerate and choose.

A state made with ``State.new(..., explicit_chance=True)`` deals nothing by
itself. Whenever cards are to be dealt (the first deal, each later deal of
hands, a redeal) its phase is :attr:`~diloti.core.phase.Phase.CHANCE` and
:attr:`State.chance` says what is being dealt: one card at a time, to whom,
and from which cards, each equally likely (a well-shuffled deck) but on a first
table with a redeal rule (below). :meth:`State.deal` applies a chosen card. A
seeded state (the default) draws the same events from its seed instead, so a
seeded game replays exactly as it always has.

**A first table with a redeal rule** (a game's own: Diloti's three or four cards of a rank,
RULES.md "Deal") is dealt without a redeal,
so that the chance tree is finite: "deal four, deal again until they stand" may
draw tables that do not stand any number of times, but what it ends with is
uniform over the standing tables (every try is uniform over all tables, the
undealt cards the same each time). Explicit chance draws exactly that: each
table card is dealt with probability proportional to the number of standing
tables it can still end in (the game's :meth:`~ChanceEvents._table_completions`),
so a card that would leave none is no outcome (dealing it is refused) and each
standing table, as the cards are dealt in order, is reached with probability
1 / (number of standing tables). Those events are a :class:`TableChance`, whose
outcomes are not equally likely: read :attr:`TableChance.probabilities` or
:meth:`~ChanceEvents.chance_outcomes`.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=0, explicit_chance=True)
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
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple

from diloti.core._mypyc import mypyc_attr
from diloti.core.cards import CARDS, NAMES, Card, parse_card
from diloti.core.errors import NoSuchOutcomeError
from diloti.core.phase import Phase
from diloti.core.round_state import RoundState

HAND_SIZE = 6

# What a batch of dealt cards is for; the state deals the batch when its last card is chosen.
BOTTOM = "bottom"  # the last card of the stock, which the dealer sees (dealer_sees_bottom)
HANDS = "hands"  # a deal of hands, seat after the dealer first, one hand at a time
TABLE = "table"  # the four cards of the first table


class Chance(NamedTuple):
    """The next chance event: one card dealt to ``to`` from ``outcomes``, each equally likely (but in a
    :class:`TableChance`).

    ``kind`` is ``"bottom"``, ``"hands"`` or ``"table"``; ``to`` a seat, ``"table"`` or
    ``"bottom"``; ``left`` the cards still to deal in this batch, this one included.
    """

    kind: str
    to: int | str
    outcomes: tuple[Card, ...]
    left: int

    @property
    def probability(self) -> float:
        """The probability of each outcome (they are equally likely)."""
        return 1.0 / len(self.outcomes)


@mypyc_attr(native_class=False)  # a NamedTuple's subclass: a Python class, also when compiled
class TableChance(Chance):
    """A first-table card under a redeal rule: the outcomes with their ``weights`` (the standing tables each
    can still end in) and ``probabilities`` (the weights over their sum, in the outcomes' order).

    Equal to the :class:`Chance` of the same four fields (the weights follow from the state).
    :attr:`probability`, one probability for every outcome, does not apply.
    """

    weights: tuple[int, ...]
    probabilities: tuple[float, ...]

    def __new__(cls, kind: str, to: int | str, outcomes: tuple[Card, ...], left: int,
                weights: tuple[int, ...]) -> TableChance:
        self = Chance.__new__(cls, kind, to, outcomes, left)  # not super(): mypyc's Python classes lack it
        total = sum(weights)
        self.weights = weights
        self.probabilities = tuple([w / total for w in weights])
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:  # copy and pickle: the weights too
        return (*self, self.weights)

    @property
    def probability(self) -> float:
        """Not one for all: the outcomes are not equally likely (:attr:`probabilities`)."""
        raise NoSuchOutcomeError("the outcomes of a table card under a redeal rule are not equally likely: "
                                 "read probabilities")


# (card index, 1/n) for each card and each number n of outcomes, made when first asked: the pairs of
# chance_outcome_ids are shared (immutable), not built for every outcome of every event. Typed Any, since
# mypyc would unbox a tuple[int, float] read from the table and box a new one (and its float) for the list.
_PAIRS: list[tuple[Any, ...] | None] = [None] * 53


def _pairs(n: int) -> tuple[Any, ...]:
    pairs = _PAIRS[n]
    if pairs is None:
        p = 1.0 / n
        pairs = _PAIRS[n] = tuple([(c, p) for c in range(52)])
    return pairs


@mypyc_attr(allow_interpreted_subclasses=True)
class ChanceEvents(RoundState):
    """What explicit chance is in every game, and what each game's explicit chance inherits (Diloti's
    :class:`~diloti.games.diloti.chance.ExplicitChance`, the one-card games'
    :class:`~diloti.games.onecard.chance.HandChance`): the event
    (:attr:`chance`), its outcomes, and dealing a card into the batch being dealt.

    A batch is ``(kind, next place, end, table next)``: the stock places ``next..end-1`` are dealt
    one chosen card at a time. Each game says what a whole batch dealt leads to (``_batch_dealt``),
    where its undealt cards end (``_undealt_end``) and, if its first table has a redeal rule, how many
    standing tables the cards dealt so far can end in (``_table_completions``: see the module).
    """

    # Its fields besides the round's (slots of the game's state; a native class's own fields, compiled).
    FIELDS: ClassVar[tuple[str, ...]] = ("players", "dealer", "batch")
    __slots__ = FIELDS
    HAND_SIZE: ClassVar[int] = HAND_SIZE  # each game's own
    players: int
    dealer: int
    batch: tuple[str, int, int, bool] | None

    @abstractmethod
    def _batch_dealt(self, kind: str, card: Card, end: int, table_next: bool) -> None:
        """What a whole batch dealt leads to (each game's own)."""

    def _undealt_end(self, nxt: int) -> int:
        """Where the cards that place ``nxt`` may take end in the stock (all of it unless a game keeps one)."""
        return len(self.stock)

    def _table_completions(self, dealt: Sequence[Card], counts: Sequence[int]) -> int | None:
        """In how many ways the first table can be finished from ``dealt`` (its cards dealt so far, in
        order) into one that needs no redeal: the number of ordered choices of distinct undealt cards for
        its places left, the undealt cards being ``counts`` of each rank (13, ``card >> 2``); None when the
        game has no redeal rule (every table stands). The rule may read only ranks (Diloti's does)."""
        return None

    def _table_dealing(self) -> tuple[list[Card], list[Card], list[int]] | None:
        """While a first table is dealt: its cards dealt so far, the undealt cards it may take (in card
        order) and their count of each rank; None at any other point."""
        batch = self.batch
        if batch is None or batch[0] != TABLE or self.phase != Phase.CHANCE:
            return None
        nxt = batch[1]
        undealt = sorted(self.stock[nxt:self._undealt_end(nxt)])
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
        dealt.append(CARDS[0])  # the place of the card weighed
        last = len(dealt) - 1
        by_rank = [-1] * 13  # the rule reads ranks: one count a rank
        out: list[tuple[Card, int]] = []
        for c in undealt:
            rank = c >> 2
            w = by_rank[rank]
            if w < 0:
                counts[rank] -= 1
                dealt[last] = c
                ways = self._table_completions(dealt, counts)
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
        while a first table under a redeal rule is dealt."""
        if self.phase != Phase.CHANCE or self.batch is None:
            return None
        kind, nxt, end, _ = self.batch
        if kind == TABLE:
            weighted = self._table_outcomes()
            if weighted is not None:
                return TableChance(TABLE, "table", tuple([c for c, _ in weighted]), end - nxt,
                                   tuple([w for _, w in weighted]))
        if kind == BOTTOM:  # only Diloti deals one: any card of the deck, for the stock's last place
            return Chance(BOTTOM, BOTTOM, tuple(sorted(self.stock)), 1)
        outcomes = tuple(sorted(self.stock[nxt:self._undealt_end(nxt)]))
        if kind == TABLE:
            return Chance(TABLE, "table", outcomes, end - nxt)
        seat = (self.dealer + 1 + (nxt - self.stock_pos) // self.HAND_SIZE) % self.players
        return Chance(HANDS, seat, outcomes, end - nxt)

    def chance_outcomes(self) -> list[tuple[Card, float]]:
        """The possible next cards with their probabilities (empty when not a chance point).

        >>> from diloti.games.diloti.state import State
        >>> s = State.new(seed=0, explicit_chance=True)
        >>> len(s.chance_outcomes()), s.chance_outcomes()[0]
        (52, (Card('AC'), 0.019230769230769232))

        Under a first table's redeal rule the outcomes are weighed (a :class:`TableChance`: see
        :mod:`diloti.games.onecard.chance` for a pile's).
        """
        event = self.chance
        if event is None:
            return []
        if isinstance(event, TableChance):
            return list(zip(event.outcomes, event.probabilities, strict=True))
        p = event.probability
        return [(c, p) for c in event.outcomes]

    def chance_outcome_ids(self) -> list[tuple[int, float]]:
        """:meth:`chance_outcomes` with each card as its plain index (OpenSpiel's chance outcomes).

        >>> from diloti.games.diloti.state import State
        >>> s = State.new(seed=0, explicit_chance=True)
        >>> s.chance_outcome_ids()[:2] == [(0, 1 / 52), (1, 1 / 52)], type(s.chance_outcome_ids()[0][0])
        (True, <class 'int'>)
        """
        batch = self.batch
        if self.phase != Phase.CHANCE or batch is None:
            return []
        kind, nxt, _, _ = batch
        if kind == TABLE:
            weighted = self._table_outcomes()
            if weighted is not None:
                total = 0
                for _, w in weighted:
                    total += w
                return [(int(c), w / total) for c, w in weighted]
        stock = self.stock
        lo, hi = (0, len(stock)) if kind == BOTTOM else (nxt, self._undealt_end(nxt))
        # In card order through a 52-bit set rather than sorted (Cards sort slower than plain ints).
        undealt = 0
        for i in range(lo, hi):
            c: int = stock[i]
            undealt |= 1 << c
        pairs = _pairs(hi - lo)
        out: list[Any] = []  # a list is a list: no element is unboxed on return
        for c in range(52):
            if undealt >> c & 1:
                out.append(pairs[c])
        return out

    def deal_random(self, rng: random.Random) -> Card:
        """Deal the next card at random from ``rng`` with its probability (uniform, as a shuffled deck, but
        on a first table under a redeal rule); return it."""
        weighted = self._table_outcomes()
        if weighted is not None:
            total = 0
            for _, w in weighted:
                total += w
            x = rng.random() * total
            card = weighted[-1][0]
            for c, w in weighted:
                if x < w:
                    card = c
                    break
                x -= w
            self.deal(card)
            return card
        event = self.chance
        if event is None:
            raise NoSuchOutcomeError(f"no card to deal: {self.describe()} is not a chance point")
        card = event.outcomes[int(rng.random() * len(event.outcomes))]
        self.deal(card)
        return card

    def deal(self, card: Card | int | str) -> None:
        """Deal ``card`` as the outcome of the current chance event (see :attr:`chance`); a first-table card
        that would leave no standing table is refused."""
        if isinstance(card, str):
            c = parse_card(card)
        elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
            c = CARDS[card]
        else:
            c = Card(card)  # raises InvalidCardError, naming it
        batch = self.batch
        if self.phase != Phase.CHANCE or batch is None:
            raise NoSuchOutcomeError(f"cannot deal {c!r}: {self.describe()} is not a chance point")
        kind, nxt, end, table_next = batch
        # The outcomes of :attr:`chance`, searched where they lie instead of sorted into a tuple first: the
        # bottom card may be any card of the deck; every other card is one not yet dealt.
        stock = self.stock
        lo, hi = (0, len(stock)) if kind == BOTTOM else (nxt, self._undealt_end(nxt))
        try:
            i = stock.index(c, lo, hi)
        except ValueError:
            raise NoSuchOutcomeError(
                f"cannot deal {NAMES[c]}: not among the undealt cards "
                f"{' '.join(NAMES[o] for o in sorted(stock[lo:hi]))}") from None
        if kind == TABLE:
            self._refuse_unstanding(c)
        self._legal = None
        stock = self.stock = stock.copy()  # a move's frame keeps the stock it saw (pop)
        stock[i], stock[nxt] = stock[nxt], stock[i]
        if nxt + 1 < end:
            self.batch = (kind, nxt + 1, end, table_next)
            return
        self.batch = None
        self._batch_dealt(kind, c, end, table_next)

    def _refuse_unstanding(self, card: Card) -> None:
        """Refuse ``card`` (undealt) as the next first-table card if no standing table could have it there."""
        dealing = self._table_dealing()
        if dealing is None:
            return
        dealt, _, counts = dealing
        counts[card >> 2] -= 1
        dealt.append(card)
        if self._table_completions(dealt, counts) == 0:
            weighted = self._table_outcomes() or []
            raise NoSuchOutcomeError(
                f"cannot deal {NAMES[card]}: every table with it there would be dealt again (the game's redeal "
                f"rule); the cards that can be dealt: {' '.join(NAMES[o] for o, _ in weighted)}")


__all__ = ["BOTTOM", "HANDS", "HAND_SIZE", "TABLE", "Chance", "ChanceEvents", "TableChance"]
