"""The ``heuristic`` level: an expert's rules, with card counting.

For each legal move it weighs

- what the move takes now (aces, the 10 of diamonds, the 2 of clubs, card
  majority, a xeri);
- the best reply of the next player, averaged over what that player can hold:
  for each value the chance they hold one (from the cards seen, their hand
  size, and the certainty that a declarer holds its declaration's value) times
  the most that value could take from the table the move leaves, a xeri
  included, taking the best value they hold;
- for a declaration or raise, the pile it will capture next turn if the
  opponents cannot take it first (the declarer holds the value; the chance
  the next player holds it too is counted);
- a raise of an opponent's declaration takes that pile away from them and
  frees them of their obligation; when an opponent is bound, they certainly
  hold its value, which the reply model uses.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=9)
>>> HeuristicPlayer(seed=1).choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Sequence

from diloti.ai.base import ScoringPlayer
from diloti.ai.knowledge import (
    POINTS,
    capture_gains,
    card_worth,
    holder_probabilities,
    mask_points,
    move_gain,
    table_after,
    xeri_possible,
)
from diloti.ai.variants import heuristic_scores
from diloti.core.cards import BIT, mask_of
from diloti.core.hand_state import HandView
from diloti.core.moves import CAPTURE, LAY, Declaration, Move
from diloti.games.diloti.view import View


def expected_best(gains: Sequence[float], probs: Sequence[float]) -> float:
    """E[max gain] when key k is held with probability probs[k] (independently).

    >>> expected_best([0, 5, 1], [0, 0.5, 1.0])
    3.0
    """
    order = sorted(range(len(gains)), key=lambda k: -gains[k])
    total = 0.0
    none_better = 1.0
    for k in order:
        if gains[k] <= 0:
            break
        total += gains[k] * probs[k] * none_better
        none_better *= 1.0 - probs[k]
    return total


def reply_value(table: Sequence[int], declarations: Sequence[Declaration], probs: Sequence[float],
                worth: float) -> float:
    """What the next player can expect to take from this table."""
    return expected_best(capture_gains(tuple(table), tuple(declarations), worth), probs)


class HeuristicPlayer(ScoringPlayer):
    """Card counting, a probabilistic look at the reply, declarations on purpose."""

    name = "heuristic"

    def variant_scores(self, view: HandView) -> list[tuple[Move, float]]:
        return heuristic_scores(view)

    def scores(self, view: View) -> list[tuple[Move, float]]:
        """Each legal move with its estimated worth (points for our side)."""
        worth = card_worth((mask_of(view.captured[0]), mask_of(view.captured[1])))
        xeri_ok = xeri_possible(view)
        nxt = (view.seat + 1) % view.players
        probs = holder_probabilities(view, nxt)
        last_card = not view.stock_size and sum(view.hand_sizes) == 1
        out = []
        for m in view.legal:
            card, kind, value, mask = m
            assert card is not None
            score = move_gain(m, view.table, view.declarations, worth, xeri_ok)
            table, declarations = table_after(view.table, view.declarations, m, view.seat)
            if kind == LAY:
                # Point cards kept in hand can still be used; laid, they are offered.
                score -= 0.01 + 0.2 * POINTS[card]
            elif kind != CAPTURE:
                pile = mask | BIT[card]
                take = mask_points(pile) + worth * (pile.bit_count() + 1)
                score += (1.0 - probs[value]) * take
            if not last_card and sum(view.hand_sizes) > 1:
                score -= reply_value(table, declarations, probs, worth)
            out.append((m, score))
        return out
