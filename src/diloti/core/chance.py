"""Chance made explicit: the deals as events a caller can see, enumerate and choose.

A state made with ``State.new(..., explicit_chance=True)`` deals nothing by
itself. Whenever cards are to be dealt (the first deal, each later deal of
hands, a table that must be laid again, a redeal) its phase is
:attr:`~diloti.core.phase.Phase.CHANCE` and :attr:`State.chance` says what is
being dealt: one card at a time, to whom, and from which cards, each equally
likely (a well-shuffled deck). :meth:`State.deal` applies a chosen card. A
seeded state (the default) draws the same events from its seed instead, so a
seeded game replays exactly as it always has.

>>> from diloti.core.state import State
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
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from diloti.core.cards import CARDS, NAMES, Card, parse_card
from diloti.core.errors import NoSuchOutcomeError
from diloti.core.phase import Phase

if TYPE_CHECKING:
    from diloti.core.moves import Declaration
    from diloti.core.options import Options

HAND_SIZE = 6

# What a batch of dealt cards is for; the state deals the batch when its last card is chosen.
BOTTOM = "bottom"  # the last card of the stock, which the dealer sees (dealer_sees_bottom)
HANDS = "hands"  # a deal of hands, seat after the dealer first, one hand at a time
TABLE = "table"  # the four cards of the first table


class Chance(NamedTuple):
    """The next chance event: one card dealt to ``to`` from ``outcomes``, each equally likely.

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


class ChanceEvents:
    """What explicit chance is in every game, and what :class:`ExplicitChance` (Diloti) and
    :class:`~diloti.core.variant_chance.VariantChance` (Xeri, Kontsina) inherit: the event
    (:attr:`chance`), its outcomes, and dealing a card into the batch being dealt.

    A batch is ``(kind, next place, end, table next)``: the stock places ``next..end-1`` are dealt
    one chosen card at a time. Each game says what a whole batch dealt leads to (``_batch_dealt``)
    and where its undealt cards end (``_undealt_end``).
    """

    if not TYPE_CHECKING:
        __slots__ = ()
    else:  # the state's fields and steps that these methods use
        HAND_SIZE: ClassVar[int]
        players: int
        dealer: int
        phase: Phase
        stock: list[Card]
        stock_pos: int
        batch: tuple[str, int, int, bool] | None
        _legal: object

        def _batch_dealt(self, kind: str, card: Card, end: int, table_next: bool) -> None: ...
        describe: Callable[[], str]

    def _undealt_end(self, nxt: int) -> int:
        """Where the cards that place ``nxt`` may take end in the stock (all of it unless a game keeps one)."""
        return len(self.stock)

    @property
    def chance(self) -> Chance | None:
        """The next chance event (a card to deal), or None when a player is to act."""
        if self.phase != Phase.CHANCE or self.batch is None:
            return None
        kind, nxt, end, _ = self.batch
        if kind == BOTTOM:  # only Diloti deals one: any card of the deck, for the stock's last place
            return Chance(BOTTOM, BOTTOM, tuple(sorted(self.stock)), 1)
        outcomes = tuple(sorted(self.stock[nxt:self._undealt_end(nxt)]))
        if kind == TABLE:
            return Chance(TABLE, "table", outcomes, end - nxt)
        seat = (self.dealer + 1 + (nxt - self.stock_pos) // self.HAND_SIZE) % self.players
        return Chance(HANDS, seat, outcomes, end - nxt)

    def chance_outcomes(self) -> list[tuple[Card, float]]:
        """The possible next cards with their probabilities (empty when not a chance point).

        >>> from diloti.core.state import State
        >>> s = State.new(seed=0, explicit_chance=True)
        >>> len(s.chance_outcomes()), s.chance_outcomes()[0]
        (52, (Card('AC'), 0.019230769230769232))
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
        # The bottom card may be any card of the deck; every other card is one not yet dealt.
        i = stock.index(card, 0 if kind == BOTTOM else nxt)
        stock[i], stock[nxt] = stock[nxt], stock[i]
        if nxt + 1 < end:
            self.batch = (kind, nxt + 1, end, table_next)
            return
        self.batch = None
        self._batch_dealt(kind, card, end, table_next)


class ExplicitChance(ChanceEvents):
    """The explicit-chance half of :class:`~diloti.core.state.State` (which inherits it): the deals as
    events, :attr:`chance`, :meth:`deal`, :meth:`deal_random` and :meth:`chance_outcomes`."""

    if not TYPE_CHECKING:
        __slots__ = ()
    else:  # the state's fields and dealing steps that these methods use
        options: Options
        turn: int
        hands: list[list[Card]]
        table: list[Card]
        declarations: list[Declaration]
        deal_no: int
        bottom: Card | None
        first_table: tuple[Card, ...]

        def _deal_hands(self) -> None: ...
        def _ask_redeal(self) -> None: ...
        _table_must_be_redealt: Callable[[list[Card]], bool]
        def _lay_first_table(self, table: list[Card]) -> None: ...

    HAND_SIZE: ClassVar[int] = HAND_SIZE

    def _begin_explicit_round(self) -> None:
        # The undealt cards lie in the stock in card order; State.deal moves each chosen card to the
        # next place to be dealt, so the same dealing code as a seeded round then reads the stock.
        self.stock = list(CARDS)
        self.stock_pos = 0
        self.hands = [[] for _ in range(self.players)]
        self.table = []
        self.declarations = []
        self.bottom = None
        self.first_table = ()
        self.phase = Phase.CHANCE
        self.turn = (self.dealer + 1) % self.players
        if self.options.dealer_sees_bottom:
            self.batch = (BOTTOM, 51, 52, True)
        else:
            self.batch = (HANDS, 0, HAND_SIZE * self.players, True)

    def _undealt_end(self, nxt: int) -> int:
        # The bottom card, once seen, is dealt last: only the last place of the stock can take it.
        return len(self.stock) - 1 if self.bottom is not None and nxt < len(self.stock) - 1 else len(self.stock)

    def _batch_dealt(self, kind: str, card: Card, end: int, table_next: bool) -> None:
        if kind == BOTTOM:
            self.bottom = Card(card)
            self.batch = (HANDS, 0, HAND_SIZE * self.players, True)
        elif kind == HANDS:
            self._deal_hands()
            if table_next:
                self.batch = (TABLE, self.stock_pos, self.stock_pos + 4, False)
            else:
                self._tidy_stock()
                self.phase = Phase.PLAY
                self._ask_redeal()
        else:
            table = self.stock[self.stock_pos:self.stock_pos + 4]
            if self._table_must_be_redealt(table):
                # The four go back among the undealt cards and a new table is dealt.
                self.batch = (TABLE, self.stock_pos, self.stock_pos + 4, False)
            else:
                self._lay_first_table(table)
                self._tidy_stock()

    def _tidy_stock(self) -> None:
        # Undealt cards in card order (the bottom card, if seen, stays last): equal positions compare equal.
        hi = len(self.stock) - 1 if self.bottom is not None else len(self.stock)
        self.stock[self.stock_pos:hi] = sorted(self.stock[self.stock_pos:hi])

    def _redeal_explicit(self) -> None:
        n = self.players
        self.turn = (self.dealer + 1) % n
        if self.deal_no == 1:
            self._begin_explicit_round()  # the whole deck again, bottom card and first table too
            return
        # The hands were dealt from the places just before stock_pos and no card has been played:
        # those places become undealt again.
        self.stock = self.stock.copy()
        self.stock_pos -= sum(len(h) for h in self.hands)
        self.hands = [[] for _ in range(n)]
        self.phase = Phase.CHANCE
        self.batch = (HANDS, self.stock_pos, self.stock_pos + HAND_SIZE * n, False)



__all__ = ["BOTTOM", "HANDS", "HAND_SIZE", "TABLE", "Chance", "ChanceEvents", "ExplicitChance"]
