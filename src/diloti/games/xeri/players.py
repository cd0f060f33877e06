"""Xeri's card sense for the computer players: its part for the players' floor (:mod:`diloti.ai.part`).

Built on the one-card games' shared sense (:class:`~diloti.games.onecard.players.HandPlayers`);
what is Xeri's own: a capture takes the whole pile (by the top card's rank, or any
pile with a jack), a lone card taken is a xeri (10 points, 20 for a jack with
``xeri_jack_double``; none with the last card under ``no_xeri_last_card``), the
honours (aces, kings, queens, jacks, the 10♦, the 2♣) count a point each and the
card majority 3, and a jack is best kept for a pile worth it.

>>> from diloti.games.xeri.rules import XeriState
>>> s = XeriState.new(seed=2)
>>> card_value(BIT[37]), len(PART.heuristic_scores(s.view(s.turn))) == len(s.legal_moves())
(2.12, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from diloti.ai.round_points import ALL_MASK, TEN_OF_DIAMONDS, TWO_OF_CLUBS, Scoring, rank_classes
from diloti.core.cards import BIT, Card, mask_of
from diloti.core.rule_options import MAX_TARGET
from diloti.games.onecard.players import HandPlayers, is_last_card, lead_chance
from diloti.games.onecard.state import HandState
from diloti.games.onecard.view import HandView
from diloti.games.xeri.rules import XeriState

XERI_POINTS = 10
JACK = 10  # card >> 2 of the jacks
HONOURS = 0xF | 0xFFFF << 36


def card_value(mask: int) -> float:
    """What a set of cards is worth to the side that takes it: its honours, the 10♦ and 2♣, a share of the
    majority."""
    n = mask.bit_count()
    return (mask & HONOURS).bit_count() + (1 if mask & BIT[37] else 0) + (1 if mask & BIT[4] else 0) + 0.12 * n


class XeriPlayers(HandPlayers):
    """Xeri's hooks of the one-card games' card sense."""

    def card_value(self, mask: int) -> float:
        return card_value(mask)

    def best_take(self, table: Sequence[Card], rank: int) -> float:
        if not table:
            return 0.0
        if rank == table[-1] >> 2:
            return card_value(mask_of(table)) + (XERI_POINTS if len(table) == 1 else 0)
        return card_value(mask_of(table)) if rank == JACK else 0.0

    def after_capture(self, table: Sequence[Card], mask: int) -> tuple[Card, ...]:
        return ()  # the whole pile

    def capture_bonus(self, view: HandView, card: Card) -> float:
        table = view.table
        if len(table) == 1 and table[0] >> 2 == card >> 2 and not (
                is_last_card(view) and view.options.no_xeri_last_card):
            return float(XERI_POINTS * (2 if card >> 2 == JACK and view.options.xeri_jack_double else 1))
        return 0.0

    def rollout_bonus(self, table: Sequence[Card], card: Card) -> float:
        return XERI_POINTS if len(table) == 1 and table[0] >> 2 == card >> 2 else 0.0

    def keep_penalty(self, view: HandView, card: Card) -> float:
        return 1.2 if card >> 2 == JACK and len(view.table) > 1 else 0.0  # a jack kept takes a later pile

    def expected_points(self, st: HandState, i: int) -> float:
        assert isinstance(st, XeriState)
        m = st.captured[i]
        counts = [c.bit_count() for c in st.captured]
        fixed = (1 if m & BIT[37] else 0) + (1 if m & BIT[4] else 0)
        jack = st.jack_xeri[i] if st.options.xeri_jack_double else 0
        fixed += (m & HONOURS).bit_count() + XERI_POINTS * (st.sweeps[i] + jack)
        return fixed + 3.0 * lead_chance(counts, 52, i)

    def endless(self, options: Any) -> Any:
        return options.replace(target=MAX_TARGET, hands=1000)  # a game of Xeri also ends after its hands

    def exact_scoring(self, options: Any) -> Scoring:
        return EXACT_JACKS if options.xeri_jack_double else EXACT_SCORING


# RULES-XERI.md section 8: 3 for the card majority, 1 an honour (A 10 J Q K), 1 more the 10D, 1 the 2C, 10 a xeri
# (10 more a jack's on a jack with xeri_jack_double).
EXACT_SCORING: Final = Scoring(((HONOURS | TWO_OF_CLUBS, 1), (TEN_OF_DIAMONDS, 1)), ((ALL_MASK, 3),), 10, (),
                               rank_classes())
EXACT_JACKS: Final = Scoring(EXACT_SCORING.card_points, EXACT_SCORING.majorities, 10, (("jack_xeri", 10),),
                             EXACT_SCORING.classes)


PART = XeriPlayers()

if TYPE_CHECKING:
    from diloti.ai.part import PlayersPart

    _checked: PlayersPart = PART

__all__ = ["PART", "XeriPlayers", "card_value"]
