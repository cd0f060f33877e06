"""Kontsina's own part of its observation: the card planes and numbers its layout adds to the one-card games' parts.

:func:`fill` is its layout's ``fill`` (:mod:`diloti.games.kontsina.envs`), given a seat's view or, by the OpenSpiel
observers, the hand itself (:class:`~diloti.games.onecard.envs.planes.Board`). Compiled with the core (setup.py's
list): it imports only the standard library, the core and the one-card games' compiled planes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from diloti.games.onecard.envs.planes import Board, Seen

#: The most points a side can score in a hand of Kontsina: most cards 2, most clubs 1, 2C 1, 10D 1.
MAX_POINTS: Final = 5

_CLUBS: Final = sum(1 << (4 * r) for r in range(13))
_TEN_OF_DIAMONDS: Final = 1 << 37
_TWO_OF_CLUBS: Final = 1 << 4


def _strict_most(counts: list[int]) -> int:
    top = max(counts)
    return counts.index(top) if counts.count(top) == 1 else -1


def fill(view: Board, head: int, chosen: int, seen: Seen, tail: list[float], at: dict[str, int]) -> Sequence[int]:
    """Kontsina's planes and numbers; the points follow :func:`diloti.games.kontsina.rules.score_kontsina`,
    worked out inline (they are most of the cost otherwise)."""
    caps, counts = seen.caps, seen.counts
    opts = view.options
    clubs = [(m & _CLUBS).bit_count() for m in caps]
    most_cards, most_clubs = _strict_most(counts), _strict_most(clubs)
    for i, m in enumerate(caps):
        points = ((2 if most_cards == i else 0) + (1 if most_clubs == i else 0)
                  + (1 if m & _TWO_OF_CLUBS else 0) + (1 if m & _TEN_OF_DIAMONDS else 0))
        tail[at["clubs"] + i] = clubs[i] / 13.0
        tail[at["points"] + i] = points / MAX_POINTS
    tail[at["players"] + view.players - 2] = 1.0
    tail[at["partnerships"]] = float(opts.partnerships)
    tail[at["forced_capture"]] = float(opts.forced_capture)
    if head >= 0:
        tail[at["prefix_kind"] + (head & 1)] = 1.0
        tail[at["prefix_stage"]] = 1.0
    return [seen.hand, seen.table, *caps, *[0] * (4 - view.sides), seen.unseen,
            1 << (head >> 1) if head >= 0 else 0, chosen]


__all__ = ["MAX_POINTS", "fill"]
