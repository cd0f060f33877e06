"""What one seat may know of a round of any game: the part every game's per-seat view shares.

Each game's view (Diloti's :class:`~diloti.games.diloti.view.View`, the one-card games'
:class:`~diloti.games.onecard.view.HandView`) is a frozen dataclass built on :class:`SeatView`:
it holds only copies of public information plus the seat's own hand, and keeps no reference
to the state, so nothing reached from a view can reveal another hand or the stock order.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=3)
>>> v = s.view(0)
>>> len(v.hand), v.hand_sizes, v.stock_size
(6, (6, 6), 36)
>>> v.unseen_count == 6 + 36
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import ClassVar, TypeVar

from diloti.core.cards import ALL_MASK, BIT, Card, cards_of, mask_of
from diloti.core.choice import Choices, choices_in
from diloti.core.moves import Move
from diloti.core.phase import Phase

ViewT = TypeVar("ViewT")


class SeatView:
    """What a seat's view of any game works out from its fields: whether it is to move, the cards it
    has seen and those it has not. Each game's view builds on it (Diloti's
    :class:`~diloti.games.diloti.view.View`, the one-card games' :class:`~diloti.games.onecard.view.HandView`);
    each declares its own fields (their
    order is its constructor's) and overrides what its game does differently.
    """

    __slots__ = ()

    # The phases in which the seat to move has a decision (Diloti adds its declaration decision).
    _MOVING: ClassVar[tuple[Phase, ...]] = (Phase.PLAY,)

    # The fields these methods read (each view declares them as its dataclass fields).
    seat: int
    turn: int
    phase: Phase
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    captured: tuple[tuple[Card, ...], ...]
    legal: tuple[Move, ...]

    @property
    def to_move(self) -> bool:
        return self.turn == self.seat and self.phase in self._MOVING

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def seen_mask(self) -> int:
        """Cards whose place this seat knows: its hand, the table, the captures."""
        m = mask_of(self.hand) | mask_of(self.table)
        for side in self.captured:
            m |= mask_of(side)
        return m

    @property
    def unseen_mask(self) -> int:
        """Cards in the other hands or the stock (where exactly is hidden)."""
        return ALL_MASK & ~self.seen_mask

    @property
    def unseen(self) -> tuple[Card, ...]:
        return cards_of(self.unseen_mask)

    @property
    def unseen_count(self) -> int:
        return self.unseen_mask.bit_count()

    def lists_all(self) -> bool:
        """Whether :attr:`legal` holds every legal move (a game whose moves can be too many to list says when
        it holds a bounded sample instead: Diloti's ``View.complete``)."""
        return True

    def items(self) -> list[int]:
        """The table's items as card masks (each loose card; a game with piles adds each pile, whole)."""
        return [1 << c for c in self.table]

    def choices(self, card: Card, chosen: int) -> Choices:
        """What ``card`` can do with the table cards ``chosen`` (:class:`~diloti.core.choice.Choices`), from
        this view's legal moves (a game whose list can be a sample answers otherwise)."""
        return choices_in(self.legal, card, chosen, self.items())

    def knows(self, card: Card) -> bool:
        return bool(self.seen_mask & BIT[card])


def view_maker(cls: type[ViewT]) -> Callable[..., ViewT]:
    """A function building ``cls(*args)`` (every field, in order) without a frozen dataclass's ``__init__``,
    which sets the fields one ``object.__setattr__`` call at a time: the same object, in a third of the
    time (views are built at every decision of a computer player)."""
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    new = object.__new__

    def make(*args: object) -> ViewT:
        v = new(cls)
        v.__dict__.update(zip(names, args, strict=True))
        return v

    return make


_CARDS_OF: dict[int, tuple[Card, ...]] = {}


def cards_of_set(mask: int) -> tuple[Card, ...]:
    """``cards_of(mask)``, remembered: the views of a round ask for the same captured sets again and again."""
    cards = _CARDS_OF.get(mask)
    if cards is None:
        if len(_CARDS_OF) >= 4096:
            _CARDS_OF.clear()
        cards = _CARDS_OF[mask] = cards_of(mask)
    return cards


__all__ = ["SeatView", "cards_of_set", "view_maker"]
