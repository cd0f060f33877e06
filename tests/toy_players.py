"""A game defined only in the tests (Kontsina's table under the name ``toy``) and its players part: what a game
outside the package provides to get every computer player (tests/test_ai_part.py registers it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from diloti.core.cards import Card
from diloti.games.kontsina.rules import KontsinaGame, KontsinaState
from diloti.games.onecard.players import HandPlayers, lead_chance
from diloti.games.onecard.state import HandState


class ToyState(KontsinaState):
    """Kontsina's table under another name: the players know it only by the registry."""

    GAME: ClassVar[str] = "toy"
    __slots__ = ()


class ToyGame(KontsinaGame):
    STATE: ClassVar[type[HandState]] = ToyState


class ToyPlayers(HandPlayers):
    """A plain card sense: every card taken is worth one, a card takes the cards of its rank."""

    def card_value(self, mask: int) -> float:
        return float(mask.bit_count())

    def best_take(self, table: Sequence[Card], rank: int) -> float:
        return float(sum(1 for c in table if c >> 2 == rank))

    def expected_points(self, st: HandState, i: int) -> float:
        return 2.0 * lead_chance([c.bit_count() for c in st.captured], 52, i)


PART = ToyPlayers()

if TYPE_CHECKING:
    from diloti.ai.part import PlayersPart

    _checked: PlayersPart = PART
