"""A game's round points as the exact solver counts them: :class:`Scoring`, which each game's players part
declares (``exact_scoring``), and the masks of the cards the built-in games score.

A game whose part declares no scoring (None) has no exact positions: the solver (:mod:`diloti.ai.exact`)
never searches it. Tests check each declared scoring against the game's own ``points()``.

>>> s = Scoring(((ACES, 1),), ((ALL_MASK, 4),), 10, (), rank_classes())
>>> s.points([ACES, 0], [1, 0], [])  # four aces and a sweep against nothing: 4 + 10 + the majority's 4
(18, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from diloti.core.cards import ALL_MASK, BIT

ACES: Final = 0xF
TEN_OF_DIAMONDS: Final = BIT[37]
TWO_OF_CLUBS: Final = BIT[4]
CLUBS: Final = sum(BIT[4 * r] for r in range(13))
HONOURS: Final = 0xF | 0xFFFF << 36  # aces, tens, jacks, queens, kings


@dataclass(frozen=True)
class Scoring:
    """What a game's round end makes of the captured cards: the solver's model of its score.

    ``card_points`` holds (mask, points) pairs: each captured card of ``mask`` scores ``points`` (a card in two
    masks scores both); ``majorities`` (mask, bonus) pairs: the side with strictly more cards of ``mask`` scores
    ``bonus``; each sweep (the state's ``sweeps``) scores ``sweep``; ``tallies`` (name, points) pairs: each count
    of the state's per-side tally ``name`` (Xeri's ``jack_xeri``) scores ``points`` more. ``classes`` gives each
    of the 52 cards a class: cards of one class are interchangeable in the game's rules and scoring (in the
    built-in games the suit matters only to a few scoring cards), so the solver's table keeps one entry for
    positions that differ only by such cards.
    """

    card_points: tuple[tuple[int, int], ...]
    majorities: tuple[tuple[int, int], ...]
    sweep: int
    tallies: tuple[tuple[str, int], ...]
    classes: tuple[int, ...]

    def points(self, captured: Sequence[int], sweeps: Sequence[int],
               tallies: Sequence[Sequence[int]]) -> tuple[int, int]:
        """Both sides' round points from their captured cards (masks), sweeps and tallies (one per-side count
        for each of :attr:`tallies`, in order), as the game scores them.

        >>> d = Scoring(((ACES | TEN_OF_DIAMONDS | TWO_OF_CLUBS, 1), (TEN_OF_DIAMONDS, 1)), ((ALL_MASK, 4),), 10,
        ...             (), rank_classes())
        >>> d.points([0xF | BIT[37], BIT[4]], [1, 0], [])  # 4 aces, 10D and a sweep; the 2C
        (20, 1)
        """
        a = self.additive(captured[0], sweeps[0], [t[0] for t in tallies])
        b = self.additive(captured[1], sweeps[1], [t[1] for t in tallies])
        for mask, bonus in self.majorities:
            na, nb = (captured[0] & mask).bit_count(), (captured[1] & mask).bit_count()
            if na > nb:
                a += bonus
            elif nb > na:
                b += bonus
        return a, b

    def additive(self, captured: int, sweeps: int, tallies: Sequence[int]) -> int:
        """A side's points that add up card by card (all but the majorities)."""
        total = self.sweep * sweeps
        for (_, points), count in zip(self.tallies, tallies, strict=True):
            total += points * count
        for mask, points in self.card_points:
            total += points * (captured & mask).bit_count()
        return total


def rank_classes(club_apart: bool = False) -> tuple[int, ...]:
    """Each card's class by rank; the 10D and the 2C (which score alone in every built-in game) each a class of
    their own, and with ``club_apart`` (a game counting clubs) the clubs apart from the other suits of their rank.

    >>> c = rank_classes()
    >>> c[0] == c[1], c[4] == c[5], c[37] == c[36]
    (True, False, False)
    """
    out = []
    for c in range(52):
        if c == 37:
            out.append(28)
        elif c == 4:
            out.append(29)
        elif club_apart:
            out.append(2 * (c >> 2) + (1 if c & 3 == 0 else 0))
        else:
            out.append(c >> 2)
    return tuple(out)


__all__ = ["ACES", "ALL_MASK", "CLUBS", "HONOURS", "TEN_OF_DIAMONDS", "TWO_OF_CLUBS", "Scoring", "rank_classes"]
