"""The one-card games' observation read from the hand in play, without its view: card planes and numbers.

:func:`state_parts` works out what :func:`~diloti.games.onecard.envs.observation.observe_hand` writes for a
seat's view (its card planes as 52-bit sets and the numbers after them) from the
:class:`~diloti.games.onecard.state.HandState` itself, reading of what the seat cannot see only its own hand, as
the view does; the OpenSpiel observers keep it from step to step (:mod:`diloti.envs.kept`). Compiled with the
core (setup.py's list): it imports only the standard library and the core. The game's own part is its layout's
``fill``, given the state where :func:`observe_hand` gives it the view (:class:`Board`: what both hold alike).

>>> from diloti.games import find_game
>>> from diloti.games.kontsina.envs import LAYOUT
>>> from diloti.games.onecard.envs.observation import observe_hand
>>> s = find_game("kontsina").new_state(3, seed=3)
>>> planes, tail = state_parts(LAYOUT, s, 1)
>>> import struct
>>> whole = sum(m << (52 * i) for i, m in enumerate(planes))
>>> bits = [float(whole >> i & 1) for i in range(52 * len(planes))]
>>> bits + [struct.unpack("<f", struct.pack("<f", x))[0] for x in tail] == observe_hand(LAYOUT, s.view(1)).tolist()
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

from diloti.core.phase import Phase

FULL: Final = (1 << 52) - 1
_PLAY: Final = int(Phase.PLAY)


class Board(Protocol):
    """What a game's ``fill`` may read of the hand besides :class:`Seen`: public fields that a seat's view and
    the hand's state hold alike (a view's tuples are the state's lists; a game's tallies, e.g. Xeri's
    ``jack_xeri``, too)."""

    @property
    def players(self) -> int: ...
    @property
    def sides(self) -> int: ...
    @property
    def options(self) -> Any: ...
    @property
    def table(self) -> Sequence[int]: ...
    @property
    def sweeps(self) -> Sequence[int]: ...


class Seen:
    """What the generic part worked out of a view, for the game's ``fill``: each relative side's captured
    cards (``caps``, own side first, as 52-bit sets) and their counts, the sides in that order
    (``order``), the hand, the table and the cards the seat has not seen (52-bit sets)."""

    __slots__ = ("caps", "counts", "hand", "order", "table", "unseen")

    def __init__(self, order: list[int], caps: list[int], counts: list[int], hand: int, table: int,
                 unseen: int) -> None:
        self.order, self.caps, self.counts = order, caps, counts
        self.hand, self.table, self.unseen = hand, table, unseen


#: A game's own part of an observation: (board, head, chosen, seen, tail, at) -> its 52-card planes; it sets its
#: numbers in ``tail`` (``at[name]`` is a part's offset in it).
Fill = Callable[[Board, int, int, Seen, list[float], dict[str, int]], Sequence[int]]


class Layout(Protocol):
    """What :func:`state_parts` reads of a game's :class:`~diloti.games.onecard.envs.observation.HandLayout`."""

    @property
    def tail(self) -> int: ...
    @property
    def at(self) -> dict[str, int]: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def deals(self) -> int: ...
    @property
    def fill(self) -> Fill: ...


def state_parts(layout: Layout, state: Any, seat: int, head: int = -1, chosen: int = 0,
                private: bool = True) -> tuple[list[int], list[float]]:
    """The observation of ``state.view(seat)`` in ``layout`` as its card planes (52-bit sets) and the numbers
    after them, read from ``state`` (a :class:`~diloti.games.onecard.state.HandState`); with ``private`` False,
    of the public view (without the seat's hand). ``head`` and ``chosen`` are the move being chosen."""
    n: int = state.players
    sides: int = state.sides
    me = seat % sides
    captured: list[int] = state.captured
    order = [(me + i) % sides for i in range(sides)]  # relative side -> side
    caps = [captured[s] for s in order]
    counts = [m.bit_count() for m in caps]
    hands: list[list[int]] = state.hands
    hand = 0
    if private:
        for c in hands[seat]:
            hand |= 1 << c
    table = 0
    for c in state.table:
        ci: int = c
        table |= 1 << ci
    seen = hand | table
    for m in caps:
        seen |= m
    at = layout.at
    tail = [0.0] * layout.tail
    phase: int = state.phase
    if phase == _PLAY:
        turn: int = state.turn
        tail[at["turn"] + (turn - seat) % n] = 1.0
    dealer: int = state.dealer
    tail[at["dealer"] + (dealer - seat) % n] = 1.0
    lc: int | None = state.last_capturer
    tail[at["last_capturer"] + (4 if lc is None else (lc - seat) % n)] = 1.0
    tail[at["phase"] + phase] = 1.0
    size = float(layout.hand_size)
    k = at["hand_sizes"]
    for s in range(n):
        tail[k + (s - seat) % n] = len(hands[s]) / size
    stock: list[int] = state.stock
    stock_pos: int = state.stock_pos
    tail[at["stock"]] = (len(stock) - stock_pos) / 52.0
    plays: int = state.plays
    tail[at["plays"]] = min(plays, 48) / 48.0
    k = at["captured_counts"]
    for i in range(sides):
        tail[k + i] = counts[i] / 52.0
    deal_no: int = state.deal_no
    tail[at["deal"] + min(max(deal_no, 1), layout.deals) - 1] = 1.0
    planes = layout.fill(state, head, chosen, Seen(order, caps, counts, hand, table, FULL & ~seen), tail, at)
    return list(planes), tail


__all__ = ["FULL", "Board", "Fill", "Layout", "Seen", "state_parts"]
