"""What one seat may know: the per-seat view of a round.

A :class:`View` is built from a :class:`~diloti.games.diloti.state.State` and holds only
copies of public information plus the seat's own hand. It keeps no reference
to the state, so nothing reached from a view can reveal another hand or the
stock order.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=3)
>>> v = s.view(0)
>>> len(v.hand), v.hand_sizes, v.stock_size
(6, (6, 6), 36)
>>> v.unseen_count == 6 + 36
True

A :class:`PublicView` is what a spectator may see: a seat's view with the hand and
the dealer's bottom card dropped (no seat, no legal moves, the hands' sizes only).

>>> p = PublicView.of(s)
>>> p.seat, p.hand, p.hand_sizes, p.stock_size, p.bottom, p.legal, p.to_move
(None, (), (6, 6), 36, None, (), False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import ClassVar, Protocol

from diloti.core.cards import Card
from diloti.core.choice import Choices
from diloti.core.moves import Declaration, Move
from diloti.core.phase import Phase
from diloti.core.view import SeatView, view_maker
from diloti.games.diloti.choices import Query
from diloti.games.diloti.options import Options


class _Viewable(Protocol):
    """What :meth:`PublicView.of` needs of a state (a protocol: the view module never imports the state)."""

    players: int
    turn: int

    def view(self, seat: int, scores: tuple[int, int] = (0, 0)) -> View: ...



@dataclass(frozen=True)
class View(SeatView):
    """Everything ``seat`` may see.

    ``captured`` is public: every captured card was face up on the table or
    played in the open. ``bottom`` is the stock's last card when this seat is
    the dealer and the dealer-peek option is on. ``legal`` lists the seat's
    legal moves when it is to move (empty otherwise): all of them, or on a table
    so large that they number in the hundreds or more, a bounded sample with at least
    one move of every kind and value each card can make (``complete`` False;
    :func:`diloti.games.diloti.choices.sample_moves`). A player that needs a
    particular move there asks for it (:class:`diloti.games.diloti.choices.Query`).
    """

    seat: int
    players: int
    options: Options
    dealer: int
    turn: int
    phase: Phase
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    declarations: tuple[Declaration, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    plays: int
    deal_no: int
    sweeps: tuple[int, int]
    captured: tuple[tuple[Card, ...], tuple[Card, ...]]
    last_capturer: int | None
    history: tuple[tuple[int, Move], ...]
    first_table: tuple[Card, ...]
    bottom: Card | None = None
    scores: tuple[int, int] = (0, 0)
    pending: tuple[int, ...] = ()
    legal: tuple[Move, ...] = field(default=())
    complete: bool = True

    _MOVING: ClassVar[tuple[Phase, ...]] = (Phase.PLAY, Phase.DECIDE)
    game: ClassVar[str] = "diloti"  # the game's name in the registry, as every game's view names it

    @property
    def side(self) -> int:
        return self.seat & 1

    def declaration_of(self, seat: int | None = None) -> Declaration | None:
        """The declaration ``seat`` (by default this view's seat) owns, if any."""
        if seat is None:
            seat = self.seat
        for p in self.declarations:
            if p.owner == seat:
                return p
        return None

    def lists_all(self) -> bool:
        return self.complete

    def items(self) -> list[int]:
        """The table's items as card masks: each loose card, then each declaration (all its cards)."""
        return [*super().items(), *(p.mask for p in self.declarations)]

    def choices(self, card: Card, chosen: int) -> Choices:
        """What ``card`` can do with the table cards ``chosen``: from :attr:`legal` when it is complete, else
        asked of the position (:meth:`diloti.games.diloti.choices.Query.choices`: bounded on any table)."""
        if self.complete:
            return super().choices(card, chosen)
        return Query(self.seat, self.hand, self.table, self.declarations, self.options).choices(card, chosen)

    @property
    def seen_mask(self) -> int:
        """Cards whose place this seat knows: its hand, the table, the declared builds, the captures."""
        m = super().seen_mask
        for p in self.declarations:
            m |= p.mask
        return m

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict (cards as text), e.g. for a websocket message."""
        return {
            "seat": self.seat,
            "players": self.players,
            "options": self.options.to_dict(),
            "dealer": self.dealer,
            "turn": self.turn,
            "phase": Phase(self.phase).label,
            "hand": [str(c) for c in self.hand],
            "table": [str(c) for c in self.table],
            "declarations": [p.to_dict() for p in self.declarations],
            "hand_sizes": list(self.hand_sizes),
            "stock": self.stock_size,
            "plays": self.plays,
            "deal": self.deal_no,
            "xeri": list(self.sweeps),
            "captured": [[str(c) for c in side] for side in self.captured],
            "last_capturer": self.last_capturer,
            "history": [[seat, str(m)] for seat, m in self.history],
            "bottom": str(self.bottom) if self.bottom is not None else None,
            "scores": list(self.scores),
            "legal": [str(m) for m in self.legal],
        }


new_view: Callable[..., View] = view_maker(View)
"""``View(*args)`` (every field, in order), built fast (see :func:`view_maker`)."""


@dataclass(frozen=True)
class PublicView:
    """What anyone watching the table may see: no hand, no stock, no bottom card.

    Built from a seat's :class:`View` by copying only the fields declared here, so nothing
    private can leak through it; ``seat`` is ``None``, ``hand`` and ``legal`` are empty.
    """

    # View's public fields again, not inherited: a dataclass puts a base's fields first, and the
    # constructors' orders (View's starts with seat) are public.
    players: int
    options: Options
    dealer: int
    turn: int
    phase: Phase
    table: tuple[Card, ...]
    declarations: tuple[Declaration, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    plays: int
    deal_no: int
    sweeps: tuple[int, int]
    captured: tuple[tuple[Card, ...], tuple[Card, ...]]
    last_capturer: int | None
    history: tuple[tuple[int, Move], ...]
    first_table: tuple[Card, ...]
    scores: tuple[int, int] = (0, 0)
    pending: tuple[int, ...] = ()
    seat: None = None
    hand: tuple[Card, ...] = ()
    bottom: None = None
    legal: tuple[Move, ...] = ()

    @property
    def to_move(self) -> bool:
        return False

    @classmethod
    def of(cls, state: _Viewable, scores: tuple[int, int] = (0, 0)) -> PublicView:
        """The public part of ``state`` (through the view of a seat not to move: no legal moves computed)."""
        v = state.view((state.turn + 1) % state.players, scores)
        return cls(**{name: getattr(v, name) for name in _SHOWN})


# What PublicView.of copies from a seat's view: its fields but those it always leaves empty.
_SHOWN = tuple(f.name for f in fields(PublicView) if f.name not in ("seat", "hand", "bottom", "legal"))
