"""What a player can work out from its view: card values, card counting, tables.

Shared by the rule-based players (greedy, heuristic) and the search's rollout
policy. Everything here reads only a :class:`~diloti.core.view.View` or plain
cards, never a hidden hand.

>>> from diloti.core.cards import Card
>>> POINTS[Card("AS")], POINTS[Card("10D")], POINTS[Card("2C")], POINTS[Card("2D")]
(1, 2, 1, 0)
>>> sorted(sweep_values([Card("3C"), Card("5D")], ()))
[8]
>>> sorted(sweep_values([Card("2C"), Card("4D"), Card("6H")], ()))
[6]
>>> round(p_holds(4, 40, 6), 3)
0.493
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from math import comb
from typing import Final

from diloti.core.cards import BIT, VALUE, cards_of
from diloti.core.moves import CAPTURE, LAY, REDEAL, Declaration, Move
from diloti.games.diloti.view import View

# Round points a card carries for its side: aces, the 10 of diamonds, the 2 of clubs.
POINTS: Final[tuple[int, ...]] = tuple(1 if c < 4 else 2 if c == 37 else 1 if c == 4 else 0 for c in range(52))
POINT_MASK = sum(BIT[c] for c in range(52) if POINTS[c])
# What one more captured card is worth while the 4-point card majority is open:
# about the slope of P(majority) in the card difference, times the 4 points.
CARD_WORTH: Final = 0.3
XERI: Final = 10
MAJORITY: Final = 27  # cards that settle the majority (of 52)


def mask_points(mask: int) -> int:
    """The round points held in a set of cards."""
    total = (mask & 0xF).bit_count()  # the aces are cards 0..3
    if mask >> 37 & 1:
        total += 2
    if mask >> 4 & 1:
        total += 1
    return total


def card_worth(captured: Sequence[int]) -> float:
    """The worth of one more captured card, given each side's captured masks."""
    if captured[0].bit_count() >= MAJORITY or captured[1].bit_count() >= MAJORITY:
        return 0.0
    return CARD_WORTH


def p_holds(k: int, unseen: int, hand: int) -> float:
    """P(a hand of ``hand`` cards drawn from ``unseen`` cards holds one of ``k`` given cards)."""
    if k <= 0 or hand <= 0:
        return 0.0
    if unseen - k < hand:
        return 1.0
    return 1.0 - comb(unseen - k, hand) / comb(unseen, hand)


def rank_key(card: int) -> int:
    """Values 1..10 for numerals, 11..13 for J, Q, K (a face card takes only its rank)."""
    return VALUE[card] or (card >> 2) + 1


# Final: compiled, mypyc keeps these in C variables instead of looking them up in the module's namespace.
KEY: Final[tuple[int, ...]] = tuple(rank_key(c) for c in range(52))  # rank_key of each card
KEY_MASK: Final[tuple[int, ...]] = tuple(sum(BIT[c] for c in range(52) if KEY[c] == k) for k in range(14))

# p_holds(k, unseen, hand) for every k <= 4 (a key's cards), unseen <= 52 and hand <= 6, at (k * 53 + unseen) * 7
# + hand: the same floats, read instead of worked out (the master's rollouts ask 14 of them at every move).
_P_HOLDS: Final[tuple[float, ...]] = tuple(p_holds(k, u, h) for k in range(5) for u in range(53) for h in range(7))


def unseen_by_key(view: View) -> list[int]:
    """How many unseen cards there are of each value (1..10) and face rank (11..13)."""
    return keys_of(view.unseen_mask)


def keys_of(cards: int) -> list[int]:
    """How many cards of each key (index 0 unused, 1..10 values, 11..13 face ranks) a card mask holds.

    >>> keys_of(BIT[0] | BIT[1] | BIT[51])[1], keys_of(BIT[0] | BIT[1] | BIT[51])[13]
    (2, 1)
    """
    return [(cards & KEY_MASK[k]).bit_count() for k in range(14)]


def holder_probabilities(view: View, seat: int) -> list[float]:
    """P(``seat`` holds a card of each key 1..13), by counting the cards seen.

    A seat that owns a declaration certainly holds its value (the declarer's
    obligation). A seat with an empty hand while stock remains will be dealt 6.
    """
    return holder_odds(view.unseen_mask, view.hand_sizes[seat], view.stock_size, view.declarations, seat)


def holder_odds(unseen_mask: int, hand: int, stock_size: int, declarations: Sequence[Declaration],
                seat: int) -> list[float]:
    """:func:`holder_probabilities` from its parts: the cards the asking seat has not seen (a mask), the
    hand size of ``seat``, the stock's size and the declarations (what a view shows; the master's rollouts
    read them from the state without building one)."""
    counts = keys_of(unseen_mask)
    unseen = unseen_mask.bit_count()
    if hand == 0 and stock_size:
        hand = 6
    if hand <= 6:  # a key has 4 cards, so counts[k] <= 4
        base = unseen * 7 + hand
        out = [_P_HOLDS[counts[k] * 371 + base] for k in range(14)]
    else:  # more than a deal's cards in hand: a position built by hand
        out = [p_holds(counts[k], unseen, hand) for k in range(14)]
    for p in declarations:
        if p.owner == seat and counts[p.value]:
            out[p.value] = 1.0
    return out


@lru_cache(maxsize=65536)
def partitions(values: tuple[int, ...], v: int) -> tuple[int, ...]:
    """Every subset (bit mask over ``values``) that splits into parts each summing to ``v``."""
    n = len(values)
    # Subsets summing exactly to v, keyed by their lowest bit, to build partitions.
    parts: list[list[int]] = [[] for _ in range(n)]
    for m in range(1, 1 << n):
        if sum(values[i] for i in range(n) if m >> i & 1) == v:
            low = (m & -m).bit_length() - 1
            parts[low].append(m)
    ok = {0}
    for m in range(1, 1 << n):
        low = (m & -m).bit_length() - 1
        for p in parts[low]:
            if p & m == p and (m ^ p) in ok:
                ok.add(m)
                break
    ok.discard(0)
    return tuple(sorted(ok))


def best_capture(table: Sequence[int], declarations: Sequence[Declaration], key: int, worth: float,
                 xeri_ok: bool = True) -> float:
    """The most a card of ``key`` can gain on this table (points, cards, xeri), 0 if nothing.

    The played card itself counts as a captured card. A face card takes one
    loose face card of its rank. Approximate under the liberal options.

    >>> from diloti.core.cards import parse_cards
    >>> best_capture(parse_cards("2S 3H AD"), (), 5, 0.3)
    0.8999999999999999
    """
    return _best_capture(tuple(table), tuple(declarations), key, worth, xeri_ok)


def capture_gains(table: tuple[int, ...], declarations: tuple[Declaration, ...], worth: float) -> tuple[float, ...]:
    """:func:`best_capture` for every key (index 0 unused, 1..10 values, 11..13 face ranks).

    The heuristic weighs the reply to every move this way, through the memo of
    :func:`~diloti.games.diloti.players.scoring.best_replies` (a search's
    rollouts meet the same tables again and again).
    """
    return (0.0, *(_best_capture(table, declarations, k, worth, True) for k in range(1, 14)))


def _best_capture(table: tuple[int, ...], declarations: tuple[Declaration, ...], key: int, worth: float,
                  xeri_ok: bool) -> float:
    nums = [c for c in table if c < 40]
    faces = [c for c in table if c >= 40]
    if key > 10:
        same = [c for c in faces if rank_key(c) == key]
        if not same:
            return 0.0
        best = max(POINTS[c] for c in same) + 2 * worth
        if xeri_ok and len(table) == 1 and not declarations:
            best += XERI
        return best
    pile_mask = 0
    other_piles = 0
    for p in declarations:
        if p.value == key:
            pile_mask |= p.mask
        else:
            other_piles += 1
    best_gain = -1.0
    best_all = False
    values = tuple(VALUE[c] for c in nums)
    if len(values) <= 12:
        subsets: Iterable[int] = partitions(values, key)
    else:  # pragma: no cover - huge tables are rare; take single matches only
        subsets = [BIT[i] for i, x in enumerate(values) if x == key]
    for m in subsets:
        taken = [nums[i] for i in range(len(nums)) if m >> i & 1]
        gain = sum(POINTS[c] for c in taken) + worth * len(taken)
        if gain > best_gain:
            best_gain = gain
            best_all = len(taken) == len(nums)
    if best_gain < 0 and not pile_mask:
        return 0.0
    gain = max(best_gain, 0.0) + mask_points(pile_mask) + worth * (pile_mask.bit_count() + 1)
    if best_gain < 0:
        best_all = not nums
    if xeri_ok and best_all and not faces and not other_piles:
        gain += XERI
    return gain


def sweep_values(table: Sequence[int], declarations: Sequence[Declaration]) -> set[int]:
    """The keys (1..10, 11..13 for faces) of a single card that would take the whole table."""
    if not table and not declarations:
        return set()
    faces = [c for c in table if c >= 40]
    if faces:
        if len(faces) == 1 and len(table) == 1 and not declarations:
            return {rank_key(faces[0])}
        return set()
    values = tuple(VALUE[c] for c in table)
    full = (1 << len(values)) - 1
    total = sum(values)
    pile_values = {p.value for p in declarations}
    if len(pile_values) > 1:
        return set()
    candidates = pile_values or set(range(1, 11))
    return {v for v in candidates if not values or (total % v == 0 and full in partitions(values, v))}


def table_after(table: Sequence[int], declarations: Sequence[Declaration], move: Move,
                seat: int) -> tuple[list[int], list[Declaration]]:
    """The loose cards and piles after ``move`` by ``seat`` (what every seat sees)."""
    card, kind, value, mask = move
    if kind == LAY:
        assert card is not None
        return sorted([*table, card]), list(declarations)
    new_loose = [c for c in table if not BIT[c] & mask]
    new_piles = [p for p in declarations if not p.mask & mask]
    if kind != CAPTURE:
        assert card is not None
        new_piles.append(Declaration(mask | BIT[card], value, kind, seat))
    return new_loose, new_piles


def move_gain(move: Move, table: Sequence[int], declarations: Sequence[Declaration], worth: float,
              xeri_ok: bool) -> float:
    """The immediate gain of a move: points and cards taken, and a xeri."""
    card, kind, _value, mask = move
    if kind != CAPTURE:
        return 0.0
    assert card is not None
    gain = mask_points(mask | BIT[card]) + worth * (mask.bit_count() + 1)
    if xeri_ok:
        whole = 0
        for c in table:
            whole |= BIT[c]
        for p in declarations:
            whole |= p.mask
        if mask == whole:
            gain += XERI
    return gain


def xeri_possible(view: View) -> bool:
    """Whether a capture that empties the table would count as a xeri now."""
    return view.plays > 0 or view.options.xeri_first_card


__all__ = [
    "CARD_WORTH", "KEY", "KEY_MASK", "POINTS", "POINT_MASK", "XERI", "best_capture", "capture_gains", "card_worth",
    "cards_of", "decide_redeal", "holder_odds", "holder_probabilities", "keys_of", "mask_points", "move_gain",
    "move_rng", "p_holds", "rank_key", "sweep_values", "table_after", "unseen_by_key", "xeri_possible",
]


def move_rng(seed: int | None, view: View, salt: str = "") -> random.Random:
    """A generator for one decision, from the player's seed and the public position.

    Deriving it from the view (and never from hidden cards) makes a decision a
    function of ``(seed, view)``: the same position gets the same answer
    whatever came before, and hidden cards cannot leak into it.
    """
    key = (seed, salt, view.seat, view.plays, view.deal_no, view.hand, view.table,
           tuple(tuple(p) for p in view.declarations), view.hand_sizes, view.stock_size, view.captured)
    return random.Random(repr(key))


def decide_redeal(view: View) -> Move:
    """The face-card redeal decision: a hand of 5 or 6 face cards captures little, so redeal."""
    for m in view.legal:
        if m.kind == REDEAL:
            return m
    return view.legal[0]
