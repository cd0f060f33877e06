"""Diloti's rollouts: the fast policy the searches play on with, the card-counting one, and the evaluation.

The rollout policy takes the most valuable capture (a xeri first), else
declares or lays cheaply, with a little randomness; :func:`counted_move` is the
``heuristic``'s card counting from the mover's own view (the master's rollouts).
:func:`evaluate` scores a position for a side: the round's points difference,
exact once the round is over, else expected. :func:`rollouts` binds them to a
search's settings for the generic search (:mod:`diloti.ai.search`).

>>> import random
>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=2)
>>> rollout_move(s, random.Random(1)) in s.legal_moves()
True
"""

from __future__ import annotations

import random
from functools import lru_cache
from math import erf, sqrt
from typing import Final

from diloti.ai.part import EPSILON
from diloti.core.cards import BIT
from diloti.core.chance import HAND_SIZE
from diloti.core.moves import CAPTURE, KEEP, LAY, Move
from diloti.games.diloti.players.knowledge import KEY, KEY_MASK, POINTS, XERI, mask_points, p_holds, partitions
from diloti.games.diloti.players.scoring import counted_scores
from diloti.games.diloti.state import State

SQRT2 = sqrt(2.0)


@lru_cache(maxsize=200_000)
def sweepers(keys: tuple[int, ...], pile_values: tuple[int, ...]) -> int:
    """Bit k set when one card of key k (1..10 values, 11..13 face ranks) takes the whole table.

    ``keys`` are the loose cards' keys, sorted; ``pile_values`` the piles' values.

    >>> bin(sweepers((3, 5), ()))
    '0b100000000'
    """
    if not keys:
        return 1 << pile_values[0] if pile_values and len(set(pile_values)) == 1 else 0
    if keys[-1] > 10:
        return 1 << keys[0] if len(keys) == 1 and not pile_values else 0
    if len(set(pile_values)) > 1:
        return 0
    total = sum(keys)
    full = (1 << len(keys)) - 1
    out = 0
    for v in (pile_values[:1] or range(keys[-1], 11)):
        if total % v == 0 and full in partitions(keys, v):
            out |= 1 << v
    return out


ALL_CARDS: Final = (1 << 52) - 1
# The rollouts' loop reads these as C variables when compiled (an imported name is looked up by name).
_BIT: Final[tuple[int, ...]] = BIT
_POINTS: Final[tuple[int, ...]] = POINTS
_XERI: Final[int] = XERI
_HAND_SIZE: Final[int] = HAND_SIZE
_CAPTURE: Final[int] = int(CAPTURE)
_LAY: Final[int] = int(LAY)
_KEEP: Final = KEEP
# A table's loose cards and piles as counts, 3 bits a key (1..13) and a pile value (1..10): the key of
# _sweepers_of, which stands for sweepers' sorted tuples (a multiset is its counts).
_KEY_UNIT: Final[tuple[int, ...]] = tuple(1 << 3 * KEY[c] for c in range(52))
_PILE_UNIT: Final[tuple[int, ...]] = tuple(1 << 3 * (v - 1) if v else 0 for v in range(11))
_SWEEPS: dict[int, int] = {}
_SWEEPS_LIMIT: Final = 200_000


def _sweepers_of(keys: int, piles: int) -> int:
    """:func:`sweepers` of the table whose loose cards' keys and piles' values have these counts."""
    code = keys | piles << 42
    out = _SWEEPS.get(code)
    if out is None:
        if len(_SWEEPS) >= _SWEEPS_LIMIT:
            _SWEEPS.clear()
        ks = tuple([k for k in range(1, 14) for _ in range(keys >> 3 * k & 7)])
        ps = tuple([v for v in range(1, 11) for _ in range(piles >> 3 * (v - 1) & 7)])
        out = _SWEEPS[code] = sweepers(ks, ps)
    return out


_p_holds = lru_cache(maxsize=None)(p_holds)  # few distinct arguments, asked in every rollout move


def rollout_move(st: State, rng: random.Random, eps: float = EPSILON, seam: bool = False,
                 fair: bool = False) -> Move:
    """The rollout policy's move (:func:`fast_policy`, the arguments in the order a bound policy takes them).

    The most valuable capture (a xeri first); otherwise the cheapest lay or
    declaration, where leaving a table the next player's actual hand (this is
    one sampled world) can sweep costs a xeri. With ``seam``, the deal's last
    card looks at the hand the next deal gives the next player (the world's
    stock holds it), which the expert's policy does not: its next player's hand
    is empty then, so it lays the last card as if nothing could follow.
    With ``fair``, a lay's or declaration's risk is not read from the next
    player's hand in the world (which the mover could not see) but counted:
    the chance that a hand of that size, drawn from the cards the mover has
    not seen, holds a card that sweeps the table left, times a xeri.
    """
    return fast_policy(eps, seam, fair, st, rng)


def fast_policy(eps: float, seam: bool, fair: bool, st: State, rng: random.Random) -> Move:
    # The settings first: ``partial(fast_policy, eps, seam, fair)`` is the policy a search calls, with no
    # extra Python frame in the rollouts' loop.
    moves = st.candidate_moves()[0]  # bounded on a large table (a sample: State.candidate_moves)
    if len(moves) == 1:
        return moves[0]
    if moves[0][0] is None:
        # A face-card redeal decision. Keep: a redeal in a world built by
        # State.from_parts would reshuffle a stock it does not hold.
        return moves[0] if moves[0][1] == _KEEP else moves[-1]
    if rng.random() < eps:
        return moves[int(rng.random() * len(moves))]
    table = st.table
    declarations = st.declarations
    whole = 0
    for c in table:
        whole |= _BIT[c]
    for p in declarations:
        whole |= p.mask
    xeri_ok = st.plays > 0 or st.options.xeri_first_card
    nxt = st.hands[(st.turn + 1) % st.players]
    if seam and not nxt and st.stock_pos < len(st.stock):
        # The dealer's last card: the next player leads the next deal, and is dealt first.
        nxt = st.stock[st.stock_pos:st.stock_pos + _HAND_SIZE]
    danger = 0
    for c in nxt:
        danger |= 1 << KEY[c]
    if fair:
        mine = 0
        for c in st.hands[st.turn]:
            mine |= _BIT[c]
        unseen = ALL_CARDS & ~(st.captured[0] | st.captured[1] | whole | mine)
        n_unseen = unseen.bit_count()
        size = len(nxt) or (_HAND_SIZE if st.stock_pos < len(st.stock) else 0)
        danger = 0
    # What is left on the table after a move, as the counts of its keys and pile values (see _sweepers_of).
    tkeys = 0
    for c in table:
        tkeys += _KEY_UNIT[c]
    pkeys = 0
    for p in declarations:
        pkeys += _PILE_UNIT[p.value]
    best = moves[0]
    top = -1e9
    for m in moves:
        card, kind, value, mask = m
        assert card is not None
        ci: int = card  # unboxed once: compiled, the tables below are then read by a C index
        k_: int = kind
        if k_ == _CAPTURE:
            s = mask_points(mask | _BIT[ci]) + 0.3 * (mask.bit_count() + 1)
            if mask == whole and xeri_ok:
                s += _XERI
        else:
            if k_ == _LAY:
                s = -_POINTS[ci] - 0.05 * KEY[ci]
            else:
                s = 0.3 * mask_points(mask | _BIT[ci]) + 0.1 * mask.bit_count()
            # (With ``fair``, danger is 0: only one of the two risks below is counted.)
            if danger or (fair and size):
                if k_ == _LAY:
                    tk = tkeys + _KEY_UNIT[ci]
                    pk = pkeys
                else:
                    tk = tkeys
                    for c in table:
                        if _BIT[c] & mask:
                            tk -= _KEY_UNIT[c]
                    pk = pkeys + _PILE_UNIT[value]
                    for p in declarations:
                        if p.mask & mask:
                            pk -= _PILE_UNIT[p.value]
                sweep = _sweepers_of(tk, pk)
            else:
                sweep = 0
            if danger:
                if sweep & danger:
                    s -= _XERI
            elif fair and size and sweep:
                held = 0
                for k in range(1, 14):
                    if sweep >> k & 1:
                        held += (unseen & KEY_MASK[k]).bit_count()
                s -= _XERI * _p_holds(held, n_unseen, size)
        s += rng.random() * 0.05
        if s > top:
            top = s
            best = m
    return best


def counted_move(st: State, rng: random.Random, eps: float = EPSILON) -> Move:
    """A rollout move by the ``heuristic``'s card counting from the mover's own view of the world.

    Unlike :func:`rollout_move` it does not read the next player's hand in the
    sampled world (which the mover could not see): the risk of a reply is
    counted from the unseen cards. About 40 times as costly a move.
    """
    return counted_policy(eps, st, rng)


def counted_policy(eps: float, st: State, rng: random.Random) -> Move:
    moves = st.candidate_moves()[0]  # bounded on a large table (a sample: State.candidate_moves)
    if len(moves) == 1:
        return moves[0]
    if moves[0][0] is None:
        return moves[0] if moves[0][1] == KEEP else moves[-1]  # as rollout_move: keep the deal
    if rng.random() < eps:
        return moves[int(rng.random() * len(moves))]
    best = moves[0]
    top = -1e9
    # heuristic_scores(st.view(st.turn))'s scores, without building the view (a pure-Python object).
    for m, score in zip(moves, counted_scores(st), strict=True):
        score += rng.random() * 0.05
        if score > top:
            top = score
            best = m
    return best


def evaluate(st: State, side: int) -> float:
    """The round points difference for ``side``: exact once the round is over, else expected.

    Mid-round it counts the points and xeris captured so far and the 4 points
    of the card majority as a normal approximation from the cards captured
    and the cards still to come.
    """
    if st.is_over:
        a, b = st.points()
        return float(a - b if side == 0 else b - a)
    c0, c1 = st.captured
    n0, n1 = c0.bit_count(), c1.bit_count()
    v = float(mask_points(c0) - mask_points(c1) + XERI * (st.sweeps[0] - st.sweeps[1]))
    rest = 52 - n0 - n1
    sd = 0.65 * sqrt(rest) + 1e-9
    p0 = 0.5 * (1.0 + erf((n0 + rest / 2 - 26.5) / (sd * SQRT2)))
    p1 = 0.5 * (1.0 + erf((n1 + rest / 2 - 26.5) / (sd * SQRT2)))
    v += 4.0 * (p0 - p1)
    return v if side == 0 else -v


__all__ = ["counted_move", "evaluate", "rollout_move", "sweepers"]
