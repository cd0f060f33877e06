"""The ``greedy`` level: the best immediate gain, by the game's own scores.

Each legal move is scored by the game's ``greedy_scores`` (its players part,
:mod:`diloti.ai.part`): in every game what it takes now, and a lay that
leaves a table an unseen card could take costs what could be taken. Ties go
to the seeded generator.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=4)
>>> GreedyPlayer(seed=1).choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

from typing import Any

from diloti.ai.base import ScoringPlayer
from diloti.ai.games import players_part
from diloti.core.moves import Move


class GreedyPlayer(ScoringPlayer):
    """Best immediate gain; never leaves a table an unseen card could sweep, if it can help it."""

    name = "greedy"

    def scores(self, view: Any) -> list[tuple[Move, float]]:
        """Each legal move with its greedy score."""
        return players_part(view).greedy_scores(view)
