"""Diloti's scores of the legal moves for the ``greedy`` and ``heuristic`` levels.

``greedy``: the best immediate gain, avoiding the obvious xeri. Each legal move
is scored by what it takes now (points, cards, a xeri); a move that leaves a
table one unseen card could sweep loses a xeri's worth.

``heuristic``: an expert's rules, with card counting. For each legal move it weighs

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
>>> len(heuristic_scores(s.view(s.turn))) == len(greedy_scores(s.view(s.turn))) == len(s.legal_moves())
True
"""

from __future__ import annotations

from collections.abc import Sequence

from diloti.ai.heuristic import expected_best
from diloti.core.cards import BIT, mask_of
from diloti.core.moves import CAPTURE, LAY, Declaration, Move
from diloti.games.diloti.players.knowledge import (
    POINTS,
    XERI,
    capture_gains,
    card_worth,
    holder_probabilities,
    mask_points,
    move_gain,
    sweep_values,
    table_after,
    unseen_by_key,
    xeri_possible,
)
from diloti.games.diloti.view import View


def greedy_scores(view: View) -> list[tuple[Move, float]]:
    """Each legal move with its greedy score: best immediate gain; never leave a table an unseen card could
    sweep, if it can be helped."""
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


def reply_value(table: Sequence[int], declarations: Sequence[Declaration], probs: Sequence[float],
                worth: float) -> float:
    """What the next player can expect to take from this table."""
    return expected_best(capture_gains(tuple(table), tuple(declarations), worth), probs)


def heuristic_scores(view: View) -> list[tuple[Move, float]]:
    """Each legal move with its estimated worth (points for the mover's side): card counting, a probabilistic
    look at the reply, declarations on purpose."""
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


__all__ = ["greedy_scores", "heuristic_scores", "reply_value"]
