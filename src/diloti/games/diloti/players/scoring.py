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
from functools import lru_cache

from diloti.core.cards import ALL_MASK, BIT, mask_of
from diloti.core.moves import CAPTURE, LAY, Declaration, Move
from diloti.games.diloti.players.knowledge import (
    POINTS,
    XERI,
    capture_gains,
    card_worth,
    holder_odds,
    mask_points,
    move_gain,
    sweep_values,
    table_after,
    unseen_by_key,
    xeri_possible,
)
from diloti.games.diloti.state import State
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
    """What the next player can expect to take from this table: :func:`~diloti.ai.heuristic.expected_best` of
    each key's :func:`~diloti.games.diloti.players.knowledge.capture_gains`, the same sum in the same order."""
    return _expected(best_replies(tuple(table), tuple(declarations), worth), list(probs))


@lru_cache(maxsize=32_768)
def best_replies(table: tuple[int, ...], declarations: tuple[Declaration, ...],
                 worth: float) -> tuple[tuple[int, float], ...]:
    """The keys a card of which gains something on this table, with that gain, in the order
    :func:`~diloti.ai.heuristic.expected_best` weighs them (the highest gain first, ties by key).

    Memoized, the order with the gains: the heuristic weighs the reply to every move this way, and a
    search's rollouts meet the same tables again and again.

    >>> from diloti.core.cards import parse_cards
    >>> [k for k, _ in best_replies(tuple(parse_cards("2S 3H")), (), 0.3)]
    [5, 2, 3]
    """
    gains = capture_gains(table, declarations, worth)
    order = sorted(range(len(gains)), key=gains.__getitem__, reverse=True)  # as expected_best sorts them
    out = []
    for k in order:
        if gains[k] <= 0:
            break
        out.append((k, gains[k]))
    return tuple(out)


def _expected(replies: tuple[tuple[int, float], ...], probs: list[float]) -> float:
    # expected_best's loop over the gains it would not skip: the same products, summed in the same order.
    total = 0.0
    none_better = 1.0
    for k, gain in replies:
        total += gain * probs[k] * none_better
        none_better *= 1.0 - probs[k]
    return total


def heuristic_scores(view: View) -> list[tuple[Move, float]]:
    """Each legal move with its estimated worth (points for the mover's side): card counting, a probabilistic
    look at the reply, declarations on purpose."""
    legal = view.legal
    nxt = (view.seat + 1) % view.players
    scores = move_scores(legal, tuple(view.table), tuple(view.declarations), view.seat, nxt,
                         mask_of(view.captured[0]), mask_of(view.captured[1]), xeri_possible(view),
                         view.unseen_mask, view.hand_sizes[nxt], sum(view.hand_sizes), view.stock_size)
    return list(zip(legal, scores, strict=True))


def counted_scores(st: State) -> list[float]:
    """The heuristic's score of each of ``st.legal_moves()``, in order, for the seat to move: the scores of
    :func:`heuristic_scores` of that seat's view, read from the state without building the view.

    It reads only what the view holds (the seat's own hand, the table, the declarations, the captured
    cards, the number of cards in each hand and in the stock, the options): the master's card-counting
    rollouts play by it, and what the mover could not see never changes their moves.

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=9)
    >>> counted_scores(s) == [score for _, score in heuristic_scores(s.view(s.turn))]
    True
    """
    seat = st.turn
    hands = st.hands
    captured = st.captured
    table = st.table
    declarations = st.declarations
    bit = BIT
    seen = captured[0] | captured[1]  # the view's seen_mask: hand, table, declarations, captures
    for c in hands[seat]:
        seen |= bit[c]
    for c in table:
        seen |= bit[c]
    for p in declarations:
        seen |= p.mask
    in_hands = 0
    for h in hands:
        in_hands += len(h)
    nxt = (seat + 1) % st.players
    return move_scores(st.candidate_moves()[0], tuple(table), tuple(declarations), seat, nxt, captured[0], captured[1],
                       st.plays > 0 or st.options.xeri_first_card, ALL_MASK & ~seen, len(hands[nxt]), in_hands,
                       len(st.stock) - st.stock_pos)


def move_scores(legal: Sequence[Move], table: tuple[int, ...], declarations: tuple[Declaration, ...], seat: int,
                nxt: int, captured0: int, captured1: int, xeri_ok: bool, unseen: int, next_hand: int,
                in_hands: int, stock_size: int) -> list[float]:
    """The heuristic's score of each of ``legal`` (the moves of ``seat``, with ``nxt`` to play next), from what
    that seat sees: the table and declarations, each side's captured cards (masks), whether a sweep counts as
    a xeri, the cards it has not seen (a mask), the next player's hand size, the cards in all hands, the
    stock's size. :func:`heuristic_scores` reads them from a view, :func:`counted_scores` from the state."""
    # Compiled, a local is a C variable; a module's global, a look-up at every use.
    bit, capture, lay = BIT, CAPTURE, LAY
    worth = card_worth((captured0, captured1))
    probs = holder_odds(unseen, next_hand, stock_size, declarations, nxt)
    last_card = not stock_size and in_hands == 1
    reply = not last_card and in_hands > 1
    whole = 0  # every card on the table: a capture of them all is a xeri
    for c in table:
        whole |= bit[c]
    for p in declarations:
        whole |= p.mask
    out = []
    for m in legal:
        card, kind, value, mask = m
        assert card is not None
        # move_gain, with the table's cards worked out once.
        score = 0.0
        if kind == capture:
            score = mask_points(mask | bit[card]) + worth * (mask.bit_count() + 1)
            if xeri_ok and mask == whole:
                score += XERI
        if kind == lay:
            # Point cards kept in hand can still be used; laid, they are offered.
            score -= 0.01 + 0.2 * POINTS[card]
        elif kind != capture:
            pile = mask | bit[card]
            take = mask_points(pile) + worth * (pile.bit_count() + 1)
            score += (1.0 - probs[value]) * take
        if reply:
            # The table and declarations the move leaves (table_after's, as tuples).
            if kind == lay:
                after = tuple(sorted([*table, card]))
                piles = declarations
            else:
                after = tuple([c for c in table if not bit[c] & mask])
                kept = [p for p in declarations if not p.mask & mask]
                if kind != capture:
                    kept.append(Declaration(mask | bit[card], value, kind, seat))
                piles = tuple(kept)
            score -= _expected(best_replies(after, piles, worth), probs)
        out.append(score)
    return out


__all__ = ["best_replies", "counted_scores", "greedy_scores", "heuristic_scores", "move_scores", "reply_value"]
