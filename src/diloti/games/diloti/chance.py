"""Diloti's deals as explicit chance events: the bottom card the dealer may see, the hands, the first
table, and the redeal a player may ask for (:mod:`diloti.core.chance` holds the events' machinery every
game shares).

The first table is dealt again while it holds three or four face cards of one rank (three stay with
``three_faces_stay``; with ``any_rank_redeal``, also three or more cards of any other rank: RULES.md
"Deal"). A seeded round does exactly that, from its seed. Explicit chance draws the table the redeals
end with, uniform over the standing tables, with no redeal, so that the chance tree is finite: each
table card with probability proportional to the standing tables it can still end in
(:func:`standing_tables`; :mod:`diloti.core.chance` weighs the cards). With ``dealer_sees_bottom`` the
card the dealer saw stays the stock's last through every redeal, so it is never a table card either
way: the table is drawn from the other undealt cards.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=0, explicit_chance=True)
>>> s.chance.kind, s.chance.to, len(s.chance.outcomes), s.chance.left
('hands', 1, 52, 12)
>>> for c in "AC 2C 3C 4C 5C 6C AD 2D 3D 4D 5D 6D KC KD".split():
...     s.deal(c)
>>> s.chance.kind, s.chance.left, len(s.chance.outcomes)  # not the third king: the table would be dealt again
('table', 2, 36)
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from diloti.core.cards import CARDS, Card
from diloti.core.chance import BOTTOM, HAND_SIZE, HANDS, TABLE, ChanceEvents
from diloti.core.phase import Phase

if TYPE_CHECKING:
    from diloti.core.moves import Declaration
    from diloti.games.diloti.options import Options

FACE_RANK = 10  # the jack's rank index (card >> 2): it and the ranks above are the face cards


def standing_tables(dealt: Sequence[int], counts: Sequence[int], three_faces_stay: bool = False,
                    any_rank_redeal: bool = False) -> int:
    """In how many ways the first table can be finished, card by card, into one that stands (no redeal).

    ``dealt`` holds the table's cards dealt so far (at most four); ``counts`` the undealt cards of each
    rank (13, ``card >> 2``), those of ``dealt`` not among them. Each way is an ordered choice of
    distinct undealt cards for the places left, so with nothing dealt it is the number of standing
    tables, in the order dealt. A table stands when it holds at most two cards of each face rank (three
    with ``three_faces_stay``) and, with ``any_rank_redeal``, at most two of each other rank too (RULES.md
    "Deal"). Explicit chance deals the next table card in proportion to this count after it, which draws
    the table uniformly from the standing tables: the distribution of "redeal until it stands".

    Counted, not enumerated: the rule reads only how many cards of each rank the table holds, so the
    ways are ``j!`` (``j`` the places left) times the number of sets of ``j`` undealt cards that keep
    every rank within its limit, the coefficient of ``x**j`` in the product over the ranks of
    ``sum(C(counts[r], a) * x**a)`` for ``a`` up to the room that rank has left (all of its cards, for
    a rank that cannot reach its limit).

    >>> counts = [4] * 13
    >>> redealt = 24 * 3 * (4 * 48 + 1)  # three or four of one face rank, in any order
    >>> standing_tables([], counts) == 52 * 51 * 50 * 49 - redealt
    True
    >>> standing_tables([44, 45], [4] * 11 + [2, 4])  # two queens: no third, any two of the other 48
    2256
    >>> standing_tables([44, 45], [4] * 11 + [2, 4], three_faces_stay=True)  # a third may come, not a fourth
    2448
    """
    j = 4 - len(dealt)
    if j < 0:
        return 0
    have = [0] * 13
    for c in dealt:
        have[c >> 2] += 1
    # sets[d]: the sets of d undealt cards of the ranks multiplied in so far that keep each within its limit.
    # A rank whose limit cannot be reached with the places left joins the free pool instead, multiplied in
    # last: sets of the pool's cards are any sets of them (the standard rules leave only the face ranks).
    sets = [0] * (j + 1)
    sets[0] = 1
    pool = 0
    face_limit = 3 if three_faces_stay else 2  # the most cards of a rank a standing table holds
    other_limit = 2 if any_rank_redeal else 4
    for r in range(13):
        room = (face_limit if r >= FACE_RANK else other_limit) - have[r]
        if room < 0:
            return 0  # that rank is past its limit already
        k = counts[r]
        if room >= j or room >= k:
            pool += k
            continue
        for d in range(j, 0, -1):  # in place, the highest first: sets[d - a] is still the product before r
            binom = 1
            add = 0
            for a in range(1, (room if room < d else d) + 1):
                binom = binom * (k - a + 1) // a
                add += binom * sets[d - a]
            sets[d] += add
    ways = 0
    binom = 1
    for a in range(j + 1):  # a cards of the pool, the others of the ranks with a limit
        ways += binom * sets[j - a]
        binom = binom * (pool - a) // (a + 1)
    for i in range(2, j + 1):
        ways *= i  # in any order
    return ways


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

    def _table_completions(self, dealt: Sequence[Card], counts: Sequence[int]) -> int | None:
        opts = self.options
        return standing_tables(dealt, counts, opts.three_faces_stay, opts.any_rank_redeal)

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
        else:  # a table that stands: its cards were dealt only while one could (ChanceEvents._table_outcomes)
            self._lay_first_table(self.stock[self.stock_pos:self.stock_pos + 4])
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


__all__ = ["FACE_RANK", "ExplicitChance", "standing_tables"]
