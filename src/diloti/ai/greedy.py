"""The ``greedy`` level: the best immediate gain, avoiding the obvious xeri.

Each legal move is scored by what it takes now (points, cards, a xeri); a
move that leaves a table one unseen card could sweep loses a xeri's worth.
Ties go to the seeded generator.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=4)
>>> GreedyPlayer(seed=1).choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

from diloti.ai.base import ScoringPlayer
from diloti.ai.knowledge import (
    POINTS,
    XERI,
    card_worth,
    move_gain,
    sweep_values,
    table_after,
    unseen_by_key,
    xeri_possible,
)
from diloti.core.cards import mask_of
from diloti.core.moves import LAY, Move
from diloti.games.diloti.view import View


class GreedyPlayer(ScoringPlayer):
    """Best immediate gain; never leaves a table an unseen card could sweep, if it can help it."""

    name = "greedy"

    def scores(self, view: View) -> list[tuple[Move, float]]:
        """Each legal move with its greedy score."""
        worth = card_worth((mask_of(view.captured[0]), mask_of(view.captured[1])))
        xeri_ok = xeri_possible(view)
        counts = unseen_by_key(view)
        out = []
        for m in view.legal:
            score = move_gain(m, view.table, view.declarations, worth, xeri_ok)
            if m.kind == LAY:
                assert m.card is not None
                score -= 0.01 + 0.1 * POINTS[m.card]
            elif not m.is_capture:
                score -= 0.05  # a declaration binds the declarer: only on purpose
            table, declarations = table_after(view.table, view.declarations, m, view.seat)
            if any(counts[k] for k in sweep_values(table, declarations)):
                score -= XERI
            out.append((m, score))
        return out
