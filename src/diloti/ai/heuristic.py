"""The ``heuristic`` level: an expert's rules, with card counting, by the game's own scores.

Each legal move is scored by the game's ``heuristic_scores`` (its players
part, :mod:`diloti.ai.part`): what it takes now, less the next player's
expected best reply to the table it leaves, the chance they hold each card
counted from the cards seen and their hand size. Its best moves are also the
searches' candidates.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=9)
>>> HeuristicPlayer(seed=1).choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from diloti.ai.base import ScoringPlayer
from diloti.ai.games import players_part
from diloti.core._mypyc import mypyc_attr
from diloti.core.moves import Move


def expected_best(gains: Sequence[float], probs: Sequence[float]) -> float:
    """E[max gain] when key k is held with probability probs[k] (independently).

    >>> expected_best([0, 5, 1], [0, 0.5, 1.0])
    3.0
    """
    # Highest gain first, ties in key order (a reversed sort stays stable), without a Python-level key.
    order = sorted(range(len(gains)), key=gains.__getitem__, reverse=True)
    total = 0.0
    none_better = 1.0
    for k in order:
        if gains[k] <= 0:
            break
        total += gains[k] * probs[k] * none_better
        none_better *= 1.0 - probs[k]
    return total


# A plain Python class when compiled (its base is one): expected_best is what runs compiled here.
@mypyc_attr(native_class=False)
class HeuristicPlayer(ScoringPlayer):
    """Card counting, a probabilistic look at the reply, declarations on purpose."""

    name = "heuristic"

    def scores(self, view: Any) -> list[tuple[Move, float]]:
        """Each legal move with its estimated worth (points for our side)."""
        return players_part(view).heuristic_scores(view)
