"""Xeri's own part of its observation: the card planes and numbers its layout adds to the one-card games' parts.

:func:`fill` is its layout's ``fill`` (:mod:`diloti.games.xeri.envs`), given a seat's view or, by the OpenSpiel
observers, the hand itself (:class:`~diloti.games.onecard.envs.planes.Board`). Compiled with the core (setup.py's
list): it imports only the standard library, the core and the one-card games' compiled planes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol, cast

from diloti.games.onecard.envs.planes import Board, Seen

#: The most points a side can score in a hand of Xeri: cards 3, honours 20, 10D and 2C 2, a xeri on
#: each of its 24 plays, and the jack-on-jack bonus twice (four jacks make at most two such xeris).
MAX_POINTS: Final = 25 + 10 * 24 + 10 * 2

_HONOURS: Final = 0xF | 0xFFFF << 36  # aces, tens, jacks, queens, kings
_TEN_OF_DIAMONDS: Final = 1 << 37
_TWO_OF_CLUBS: Final = 1 << 4


class _Jacks(Protocol):
    """Xeri's tally beside the sweeps, on its view and its state alike."""

    @property
    def jack_xeri(self) -> Sequence[int]: ...


def fill(view: Board, head: int, chosen: int, seen: Seen, tail: list[float], at: dict[str, int]) -> Sequence[int]:
    """Xeri's planes and numbers; the points follow :func:`diloti.games.xeri.rules.score_xeri`, worked out
    inline (they are most of the cost otherwise)."""
    caps, counts, order = seen.caps, seen.counts, seen.order
    opts = view.options
    tail[at["pile_size"]] = len(view.table) / 52.0
    k = at["pile_order"]
    for place, c in enumerate(view.table):  # bottom first: the order the string shows
        tail[k + c] = (place + 1) / 52.0
    jack = cast(_Jacks, view).jack_xeri or (0, 0)  # a hand of Xeri's: its view (XeriView) or its state
    for i, s in enumerate(order):
        m = caps[i]
        x, j = view.sweeps[s], jack[s]
        points = ((3 if counts[i] > counts[1 - i] else 0) + (m & _HONOURS).bit_count()
                  + (1 if m & _TEN_OF_DIAMONDS else 0) + (1 if m & _TWO_OF_CLUBS else 0)
                  + 10 * x + (10 * j if opts.xeri_jack_double else 0))
        tail[at["xeri"] + i] = min(x, 24) / 24.0
        tail[at["jack_xeri"] + i] = min(j, 24) / 24.0
        tail[at["points"] + i] = min(points, MAX_POINTS) / MAX_POINTS
    if view.players == 4:
        tail[at["four_players"]] = 1.0
    k = at["options"]
    tail[k] = float(opts.xeri_jack_double)
    tail[k + 1] = float(opts.no_xeri_last_card)
    tail[k + 2] = float(opts.pile_any_pair_redeal)
    return [seen.hand, seen.table, 1 << view.table[-1] if view.table else 0, caps[0], caps[1], seen.unseen]


__all__ = ["MAX_POINTS", "fill"]
