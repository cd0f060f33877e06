"""Chance made explicit: the deals as events a caller can see, enumerate and choose.

A state made with ``State.new(..., explicit_chance=True)`` deals nothing by
itself. Whenever cards are to be dealt (the first deal, each later deal of
hands, a table that must be laid again, a redeal) its phase is
:attr:`~diloti.core.phase.Phase.CHANCE` and :attr:`State.chance` says what is
being dealt: one card at a time, to whom, and from which cards, each equally
likely (a well-shuffled deck). :meth:`State.deal` applies a chosen card. A
seeded state (the default) draws the same events from its seed instead, so a
seeded game replays exactly as it always has.

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
from typing import ClassVar, NamedTuple

from diloti.core._mypyc import mypyc_attr
from diloti.core.cards import NAMES, Card, parse_card
from diloti.core.errors import NoSuchOutcomeError
from diloti.core.phase import Phase
from diloti.core.round_state import RoundState

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


@mypyc_attr(allow_interpreted_subclasses=True)
class ChanceEvents(RoundState):
    """What explicit chance is in every game, and what :class:`ExplicitChance` (Diloti) and
    :class:`~diloti.core.hand_chance.HandChance` (Xeri, Kontsina) inherit: the event
    (:attr:`chance`), its outcomes, and dealing a card into the batch being dealt.

    A batch is ``(kind, next place, end, table next)``: the stock places ``next..end-1`` are dealt
    one chosen card at a time. Each game says what a whole batch dealt leads to (``_batch_dealt``)
    and where its undealt cards end (``_undealt_end``).
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

        >>> from diloti.games.diloti.state import State
        >>> s = State.new(seed=0, explicit_chance=True)
        >>> len(s.chance_outcomes()), s.chance_outcomes()[0]
        (52, (Card('AC'), 0.019230769230769232))
        >>> from diloti.games.kontsina.rules import KontsinaState
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


__all__ = ["BOTTOM", "HANDS", "HAND_SIZE", "TABLE", "Chance", "ChanceEvents"]
