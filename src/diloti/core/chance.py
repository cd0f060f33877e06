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

from typing import NamedTuple

from diloti.core.cards import Card

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


__all__ = ["BOTTOM", "HANDS", "TABLE", "Chance"]
