"""Kontsina's card sense for the computer players: its part for the players' floor (:mod:`diloti.ai.part`).

Built on the one-card games' shared sense (:class:`~diloti.games.onecard.players.HandPlayers`);
what is Kontsina's own: a card takes one table card of its rank or, a numeral, a
set of table numerals adding up to its value (the rest of the table stays); the
10♦ and the 2♣ count a point each, the card majority 2 and the clubs majority 1;
no xeri.

>>> from diloti.games.kontsina.rules import KontsinaState
>>> s = KontsinaState.new(seed=2)
>>> card_value(BIT[4]), len(PART.greedy_scores(s.view(s.turn))) == len(s.legal_moves())
(1.28, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from diloti.ai.round_points import ALL_MASK, TEN_OF_DIAMONDS, TWO_OF_CLUBS, Scoring, rank_classes
from diloti.core.cards import BIT, Card
from diloti.games.kontsina.rules import summing_sets
from diloti.games.onecard.players import HandPlayers, lead_chance
from diloti.games.onecard.state import HandState

CLUBS = sum(1 << (4 * r) for r in range(13))


def card_value(mask: int) -> float:
    """What a set of cards is worth to the side that takes it: the 10♦ and 2♣, a share of the majorities."""
    n = mask.bit_count()
    clubs = (mask & CLUBS).bit_count()
    return (1 if mask & BIT[4] else 0) + (1 if mask & BIT[37] else 0) + 0.18 * n + 0.1 * clubs


class KontsinaPlayers(HandPlayers):
    """Kontsina's hooks of the one-card games' card sense."""

    def card_value(self, mask: int) -> float:
        return card_value(mask)

    def best_take(self, table: Sequence[Card], rank: int) -> float:
        if not table:
            return 0.0
        best = max((card_value(BIT[t]) for t in table if t >> 2 == rank), default=0.0)
        if rank < 10:
            numerals = tuple(c for c in table if c < 40)
            for m in summing_sets(numerals, rank + 1):
                best = max(best, card_value(m))
        return best

    def expected_points(self, st: HandState, i: int) -> float:
        m = st.captured[i]
        counts = [c.bit_count() for c in st.captured]
        fixed = (1 if m & BIT[37] else 0) + (1 if m & BIT[4] else 0)
        clubs = [(c & CLUBS).bit_count() for c in st.captured]
        return fixed + 2.0 * lead_chance(counts, 52, i) + lead_chance(clubs, 13, i)

    def exact_scoring(self, options: Any) -> Scoring:
        return EXACT_SCORING


# RULES-KONTSINA.md section 7: 2 for the card majority, 1 for the clubs majority, 1 the 2C, 1 the 10D.
EXACT_SCORING: Final = Scoring(((TWO_OF_CLUBS | TEN_OF_DIAMONDS, 1),), ((ALL_MASK, 2), (CLUBS, 1)), 0, (),
                               rank_classes(club_apart=True))


PART = KontsinaPlayers()

if TYPE_CHECKING:
    from diloti.ai.part import PlayersPart

    _checked: PlayersPart = PART

__all__ = ["PART", "KontsinaPlayers", "card_value"]
