"""Diloti's deals as explicit chance events: the bottom card the dealer may see, the hands, the first
table (laid again while it must be), and the redeal a player may ask for (:mod:`diloti.core.chance`
holds the events' machinery every game shares).

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=0, explicit_chance=True)
>>> s.chance.kind, s.chance.to, len(s.chance.outcomes), s.chance.left
('hands', 1, 52, 12)
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, ClassVar

from diloti.core.cards import CARDS, Card
from diloti.core.chance import BOTTOM, HAND_SIZE, HANDS, TABLE, ChanceEvents
from diloti.core.phase import Phase

if TYPE_CHECKING:
    from diloti.core.moves import Declaration
    from diloti.games.diloti.options import Options


class ExplicitChance(ChanceEvents):
    """The explicit-chance half of :class:`~diloti.games.diloti.state.State` (which inherits it): the deals as
    events, :attr:`chance`, :meth:`deal`, :meth:`deal_random` and :meth:`chance_outcomes`."""

    # Its fields besides the round's and the events' (slots of the state; a native class's own fields, compiled).
    FIELDS: ClassVar[tuple[str, ...]] = ("options", "turn", "table", "declarations", "deal_no", "bottom",
                                         "first_table")
    __slots__ = FIELDS
    options: Options
    turn: int
    table: list[Card]
    declarations: list[Declaration]
    deal_no: int
    bottom: Card | None
    first_table: tuple[Card, ...]

    # The dealing steps these methods take, the state's own (abstract: the state writes them).
    @abstractmethod
    def _deal_hands(self) -> None:
        """Deal each seat its hand from the stock."""

    @abstractmethod
    def _ask_redeal(self) -> None:
        """Put the face-card redeal question to the seat it concerns."""

    @abstractmethod
    def _table_must_be_redealt(self, table: list[Card]) -> bool:
        """Whether the first table laid must be dealt again (RULES.md's redeal rules)."""

    @abstractmethod
    def _lay_first_table(self, table: list[Card]) -> None:
        """Lay the round's first table cards."""

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


__all__ = ["ExplicitChance"]
