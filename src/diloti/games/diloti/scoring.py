"""Scoring a round: cards, aces, the 10 of diamonds, the 2 of clubs, xeri.

>>> a, b = score_sides((0b1111 | 1 << 37, 1 << 4), (1, 0))
>>> a.total, b.total
(20, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Side:
    """One side's round score with its breakdown (RULES.md); ``total`` includes 10 a xeri."""

    cards: int
    cards_points: int
    aces: int
    ten_of_diamonds: int
    two_of_clubs: int
    xeri: int

    @property
    def total(self) -> int:
        return self.cards_points + self.aces + self.ten_of_diamonds + self.two_of_clubs + 10 * self.xeri


def score_sides(captured: Sequence[int], xeri: Sequence[int]) -> tuple[Side, Side]:
    """Each side's score from its captured cards (52-bit masks) and xeri count."""
    counts = [captured[0].bit_count(), captured[1].bit_count()]
    out = []
    for side in (0, 1):
        m = captured[side]
        out.append(Side(
            cards=counts[side],
            cards_points=4 if counts[side] > counts[1 - side] else 0,
            aces=(m & 0xF).bit_count(),
            ten_of_diamonds=2 if m >> 37 & 1 else 0,
            two_of_clubs=1 if m >> 4 & 1 else 0,
            xeri=xeri[side],
        ))
    return out[0], out[1]
