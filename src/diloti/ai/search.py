"""The search players: ``expert`` (determinized Monte Carlo) and ``oracle`` (all hands seen).

The expert samples *worlds*, full states consistent with its view
(:mod:`diloti.ai.sampler`), and in each world plays every candidate move then
a fast rollout to the end of the round, scoring the round's points difference
for its side. All candidates share each world and the rollout's random
stream (common random numbers), so their comparison is far less noisy than
their values. Candidates are cut by *sequential halving*: the worse half is
dropped after each stage, so the budget goes to the moves that matter.

The oracle runs the same search in the one true world: a ceiling for
measurement, built only from the full state (:meth:`OraclePlayer.choose_full`).

The rollout policy takes the most valuable capture (a xeri first), else
declares or lays cheaply, with a little randomness. Everything is played with
``push``/``pop`` on the sampled state: no copies in the inner loop.

The players themselves, :class:`~diloti.ai.expert.ExpertPlayer` and
:class:`~diloti.ai.expert.OraclePlayer`, are in :mod:`diloti.ai.expert`: this module's search and
rollouts are compiled with mypyc (setup.py), the player classes stay plain Python.
"""

from __future__ import annotations

import random
import time
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import erf, sqrt

from diloti.ai.errors import InvalidSettingError
from diloti.ai.heuristic import HeuristicPlayer
from diloti.ai.knowledge import (
    POINTS,
    XERI,
    mask_points,
    p_holds,
    partitions,
    rank_key,
)
from diloti.core.cards import BIT
from diloti.core.chance import HAND_SIZE
from diloti.core.moves import CAPTURE, KEEP, LAY, Move
from diloti.core.state import State

DEFAULT_ITERATIONS = 300
DEFAULT_SECONDS = 1.0
DEFAULT_WIDTH = 5  # candidates searched, the heuristic's best
EPSILON = 0.1
DEFAULT_DEALS = 1  # rollouts stop at the end of the current deal
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


KEY = tuple(rank_key(c) for c in range(52))
KEY_MASK = tuple(sum(BIT[c] for c in range(52) if KEY[c] == k) for k in range(14))
ALL_CARDS = (1 << 52) - 1
_p_holds = lru_cache(maxsize=None)(p_holds)  # few distinct arguments, asked in every rollout move


def rollout_move(st: State, rng: random.Random, eps: float = EPSILON, seam: bool = False,
                 fair: bool = False) -> Move:
    """The rollout policy's move.

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
    moves = st.legal_moves()
    if len(moves) == 1:
        return moves[0]
    if moves[0][0] is None:
        # A face-card redeal decision. Keep: a redeal in a world built by
        # State.from_parts would reshuffle a stock it does not hold.
        return moves[0] if moves[0][1] == KEEP else moves[-1]
    if rng.random() < eps:
        return moves[int(rng.random() * len(moves))]
    table = st.table
    declarations = st.declarations
    whole = 0
    for c in table:
        whole |= BIT[c]
    for p in declarations:
        whole |= p.mask
    xeri_ok = st.plays > 0 or st.options.xeri_first_card
    nxt = st.hands[(st.turn + 1) % st.players]
    if seam and not nxt and st.stock_pos < len(st.stock):
        # The dealer's last card: the next player leads the next deal, and is dealt first.
        nxt = st.stock[st.stock_pos:st.stock_pos + HAND_SIZE]
    danger = 0
    for c in nxt:
        danger |= 1 << KEY[c]
    if fair:
        mine = 0
        for c in st.hands[st.turn]:
            mine |= BIT[c]
        unseen = ALL_CARDS & ~(st.captured[0] | st.captured[1] | whole | mine)
        n_unseen = unseen.bit_count()
        size = len(nxt) or (HAND_SIZE if st.stock_pos < len(st.stock) else 0)
        danger = 0
    keys = [KEY[c] for c in table]
    pvals = tuple(sorted(p.value for p in declarations))
    best = moves[0]
    top = -1e9
    for m in moves:
        card, kind, value, mask = m
        assert card is not None
        if kind == CAPTURE:
            s = mask_points(mask | BIT[card]) + 0.3 * (mask.bit_count() + 1)
            if mask == whole and xeri_ok:
                s += XERI
        else:
            # The loose cards are sorted by card, so their keys are sorted already.
            if kind == LAY:
                s = -POINTS[card] - 0.05 * KEY[card]
                k = KEY[card]
                i = bisect_right(keys, k)
                after = (*keys[:i], k, *keys[i:])
                after_p = pvals
            else:
                s = 0.3 * mask_points(mask | BIT[card]) + 0.1 * mask.bit_count()
                after = tuple([KEY[c] for c in table if not BIT[c] & mask])
                after_p = tuple(sorted([*(p.value for p in declarations if not p.mask & mask), value]))
            if danger and sweepers(after, after_p) & danger:
                s -= XERI
            elif fair and size:
                sweep = sweepers(after, after_p)
                if sweep:
                    held = 0
                    for k in range(1, 14):
                        if sweep >> k & 1:
                            held += (unseen & KEY_MASK[k]).bit_count()
                    s -= XERI * _p_holds(held, n_unseen, size)
        s += rng.random() * 0.05
        if s > top:
            top = s
            best = m
    return best


_COUNTER = HeuristicPlayer(None)


def counted_move(st: State, rng: random.Random, eps: float = EPSILON) -> Move:
    """A rollout move by the ``heuristic``'s card counting from the mover's own view of the world.

    Unlike :func:`rollout_move` it does not read the next player's hand in the
    sampled world (which the mover could not see): the risk of a reply is
    counted from the unseen cards. About 40 times as costly a move.
    """
    moves = st.legal_moves()
    if len(moves) == 1:
        return moves[0]
    if moves[0][0] is None:
        return moves[0] if moves[0][1] == KEEP else moves[-1]  # as rollout_move: keep the deal
    if rng.random() < eps:
        return moves[int(rng.random() * len(moves))]
    best = moves[0]
    top = -1e9
    for m, score in _COUNTER.scores(st.view(st.turn)):
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
    v = float(mask_points(c0) - mask_points(c1) + XERI * (st.xeri[0] - st.xeri[1]))
    rest = 52 - n0 - n1
    sd = 0.65 * sqrt(rest) + 1e-9
    p0 = 0.5 * (1.0 + erf((n0 + rest / 2 - 26.5) / (sd * SQRT2)))
    p1 = 0.5 * (1.0 + erf((n1 + rest / 2 - 26.5) / (sd * SQRT2)))
    v += 4.0 * (p0 - p1)
    return v if side == 0 else -v


def playout(st: State, side: int, rng: random.Random, eps: float = EPSILON, deals: int = 1, ahead: int = 0,
            seam: bool = False, fair: bool = False, until: int | None = None,
            value: Callable[[State, int], float] | None = None, counted: int = 0) -> float:
    """Play on with the rollout policy until ``deals`` deal ends (or the round's end); undone after.

    ``until`` (a deal number) says where to stop instead, for a caller that
    has already played into the horizon (the tree search).

    ``ahead`` more moves are played into the next deal before the evaluation
    (what the table left at a deal's end is worth to the next deal's first
    movers: a xeri for the leader, most often); ``seam``, ``fair``: see :func:`rollout_move`;
    the first ``counted`` moves are :func:`counted_move`'s.
    Returns :func:`evaluate` (or ``value``) for ``side`` where it stopped.

    >>> s = State.new(seed=3)
    >>> v = playout(s, 0, random.Random(1), ahead=2, seam=True)
    >>> len(s.history), isinstance(v, float)
    (0, True)
    """
    depth = 0
    push = st.push
    stop = until if until is not None else st.deal_no + deals if deals > 0 else 1 << 30  # 0: the round's end
    while not st.is_over and st.deal_no < stop:
        push(counted_move(st, rng, eps) if depth < counted else rollout_move(st, rng, eps, seam, fair))
        depth += 1
    if ahead and not st.is_over:
        for _ in range(ahead):
            push(rollout_move(st, rng, eps, seam, fair))
            depth += 1
            if st.is_over:
                break
    result = (value or evaluate)(st, side)
    for _ in range(depth):
        st.pop()
    return result


PILOT_WORLDS = 8  # worlds of a timed search's first stage, which also measures the playout rate
MAX_ITERATIONS = 1_000_000  # a safety cap when only time bounds the search


@dataclass
class Estimate:
    """A move's search statistics: the (weighted) mean round points difference for the mover's side.

    ``weight`` sums the weights of the worlds it was played in (their number, for uniform worlds).
    """

    move: Move
    total: float = 0.0
    weight: float = 0.0
    visits: int = 0
    stage: int = 0  # how many halving stages it survived

    @property
    def mean(self) -> float:
        return self.total / self.weight if self.weight > 0 else 0.0


def weighted_search(sample: Callable[[random.Random], tuple[State, float]], moves: Sequence[Move], side: int,
                    rng: random.Random, iterations: int | None, seconds: float | None, halving: bool = True,
                    eps: float = EPSILON, deals: int = DEFAULT_DEALS, ahead: int = 0, seam: bool = False,
                    fair: bool = False, value: Callable[[State, int], float] | None = None,
                    counted: int = 0) -> list[Estimate]:
    """Estimate ``moves`` over worlds drawn with their weights by ``sample``, best first.

    Every surviving candidate is played in each world with the same rollout
    stream (common random numbers); a move's estimate is the weighted mean
    (importance sampling: the master weighs worlds by the evidence of play).
    ``iterations`` caps the playouts, ``seconds`` the time; at least one must
    be given. With ``iterations`` the stages share it out (the time only cuts
    a search short); with time alone the search is anytime: a pilot of
    :data:`PILOT_WORLDS` worlds measures the playout rate, each stage is
    planned for the time left, and the last runs to the deadline. With
    ``halving`` the worse half of the candidates is dropped after each stage;
    without it every move gets the same worlds (comparable, for analysis).
    The other settings are :func:`playout`'s.
    """
    stats = [Estimate(m) for m in moves]
    if len(stats) <= 1:
        return stats
    if iterations is None and seconds is None:
        raise InvalidSettingError("seconds", None, "a number when iterations is none")
    start = time.perf_counter()
    deadline = start + seconds if seconds is not None else None
    cap = MAX_ITERATIONS if iterations is None else iterations
    alive = stats
    stages = max(1, (len(stats) - 1).bit_length()) if halving else 1
    spent = 0
    budget = cap

    def one_world() -> None:
        nonlocal spent
        w, weight = sample(rng)
        seed = rng.getrandbits(64)
        for est in alive:
            est.visits += 1
            if weight > 0.0:
                w.push(est.move)
                est.total += weight * playout(w, side, random.Random(seed), eps, deals, ahead, seam, fair,
                                                     value=value, counted=counted)
                est.weight += weight
                w.pop()
        spent += len(alive)

    timed = iterations is None
    for stage in range(stages):
        left_stages = stages - stage
        if timed:
            assert seconds is not None
            if stage == 0:
                for _ in range(PILOT_WORLDS):  # the pilot: every candidate, timed, to plan the budget
                    one_world()
            # Plan (again) for the time left at the rate seen so far: a cold start is not held against the rest.
            used = time.perf_counter() - start
            budget = min(cap, spent + int(spent / max(used, 1e-6) * max(seconds - used, 0.0) * 0.95))
        per_move = max(0 if timed else 1, (budget - spent) // (len(alive) * left_stages))
        last = stage == stages - 1
        n = 0
        # Timed, the last stage runs to the deadline: the whole budget is used (anytime).
        while n < per_move or (timed and last and spent < cap):
            one_world()
            n += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        for est in alive:
            est.stage = stage + 1
        if deadline is not None and time.perf_counter() > deadline:
            break
        if halving and len(alive) > 1 and stage < stages - 1:
            alive = sorted(alive, key=lambda e: -e.mean)[: (len(alive) + 1) // 2]
    return sorted(stats, key=lambda e: (-e.stage, -e.mean))



def search(world: Callable[[random.Random], State], moves: Sequence[Move], side: int, rng: random.Random,
           iterations: int = DEFAULT_ITERATIONS, seconds: float | None = DEFAULT_SECONDS,
           halving: bool = True, eps: float = EPSILON, deals: int = DEFAULT_DEALS) -> list[Estimate]:
    """Estimate ``moves`` over uniformly sampled worlds, best first (:func:`weighted_search`, every weight 1).

    ``iterations`` is the playout budget (one playout = one move in one
    world), ``seconds`` a time cap (None: none).
    """
    return weighted_search(lambda r: (world(r), 1.0), moves, side, rng, iterations, seconds, halving, eps, deals)
