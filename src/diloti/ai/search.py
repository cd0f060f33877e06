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

>>> from diloti.state import State
>>> s = State.new(seed=2)
>>> bot = ExpertPlayer(seed=1, iterations=60)
>>> bot.choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from diloti.ai.greedy import no_move
from diloti.ai.knowledge import POINTS, XERI, decide_redeal, mask_points, move_rng
from diloti.ai.sampler import sample_state
from diloti.cards import BIT
from diloti.moves import CAPTURE, LAY, Move
from diloti.state import State
from diloti.view import View

DEFAULT_ITERATIONS = 400
DEFAULT_SECONDS = 1.0
EPSILON = 0.1


def rollout_move(st: State, rng: random.Random, eps: float = EPSILON) -> Move:
    """The rollout policy's move: the best capture, else a cheap declaration or lay."""
    moves = st.legal_moves()
    if len(moves) == 1:
        return moves[0]
    if rng.random() < eps:
        return moves[int(rng.random() * len(moves))]
    table = 0
    for c in st.loose:
        table |= BIT[c]
    for p in st.piles:
        table |= p.mask
    xeri_ok = st.plays > 0 or st.options.xeri_first_card
    best = moves[0]
    top = -1e9
    for m in moves:
        card, kind, _value, mask = m
        assert card is not None
        if kind == CAPTURE:
            s = mask_points(mask | BIT[card]) + 0.3 * (mask.bit_count() + 1)
            if mask == table and xeri_ok:
                s += XERI
        elif kind == LAY:
            s = -POINTS[card] - (2.0 if not table else 0.0)
        else:
            s = 0.3 * mask_points(mask | BIT[card]) + 0.1 * mask.bit_count() - (2.0 if not table & ~mask else 0.0)
        s += rng.random() * 0.05
        if s > top:
            top = s
            best = m
    return best


def playout(st: State, side: int, rng: random.Random, eps: float = EPSILON) -> float:
    """Play the round out with the rollout policy; the points difference for ``side``; undone after."""
    depth = 0
    push = st.push
    while not st.is_over:
        push(rollout_move(st, rng, eps))
        depth += 1
    a, b = st.points()
    value = float(a - b if side == 0 else b - a)
    for _ in range(depth):
        st.pop()
    return value


@dataclass
class Estimate:
    """A move's search statistics: the mean round points difference for the mover's side."""

    move: Move
    total: float = 0.0
    visits: int = 0
    stage: int = 0  # how many halving stages it survived

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def search(world: Callable[[random.Random], State], moves: Sequence[Move], side: int, rng: random.Random,
           iterations: int = DEFAULT_ITERATIONS, seconds: float | None = DEFAULT_SECONDS,
           halving: bool = True, eps: float = EPSILON) -> list[Estimate]:
    """Estimate ``moves`` over sampled worlds; best first.

    ``iterations`` is the playout budget (one playout = one move in one
    world), ``seconds`` a time cap (None: none). With ``halving`` the worse
    half of the candidates is dropped after each stage; without it every move
    gets the same worlds (comparable estimates, for analysis).
    """
    stats = [Estimate(m) for m in moves]
    if len(stats) <= 1:
        return stats
    deadline = time.perf_counter() + seconds if seconds is not None else None
    alive = stats
    stages = max(1, (len(stats) - 1).bit_length()) if halving else 1
    spent = 0
    for stage in range(stages):
        left_stages = stages - stage
        per_move = max(1, (iterations - spent) // (len(alive) * left_stages))
        for _ in range(per_move):
            w = world(rng)
            seed = rng.getrandbits(64)
            for est in alive:
                w.push(est.move)
                est.total += playout(w, side, random.Random(seed), eps)
                est.visits += 1
                w.pop()
            spent += len(alive)
            if deadline is not None and time.perf_counter() > deadline:
                break
        for est in alive:
            est.stage = stage + 1
        if deadline is not None and time.perf_counter() > deadline:
            break
        if halving and len(alive) > 1 and stage < stages - 1:
            alive = sorted(alive, key=lambda e: -e.mean)[: (len(alive) + 1) // 2]
    return sorted(stats, key=lambda e: (-e.stage, -e.mean))


class ExpertPlayer:
    """Determinized Monte Carlo search over worlds sampled from the view.

    ``iterations``: playouts per move (default 400); ``seconds``: a time cap
    per move (default 1.0; None for none, which makes play fully reproducible).
    """

    name = "expert"

    def __init__(self, seed: int | None = None, iterations: int = DEFAULT_ITERATIONS,
                 seconds: float | None = DEFAULT_SECONDS, eps: float = EPSILON) -> None:
        self.seed = seed
        self.iterations = int(iterations)
        self.seconds = None if seconds is None else float(seconds)
        self.eps = float(eps)
        if self.iterations < 1:
            raise ValueError(f"invalid iterations {iterations!r}: expected at least 1")

    def estimates(self, view: View, halving: bool = True) -> list[Estimate]:
        """The search's estimate of each legal move, best first."""
        if not view.legal:
            raise no_move(view)
        rng = move_rng(self.seed, view, self.name)
        return search(lambda r: sample_state(view, r), view.legal, view.side, rng,
                      self.iterations, self.seconds, halving, self.eps)

    def choose(self, view: View) -> Move:
        if not view.legal:
            raise no_move(view)
        if view.phase == 1:
            return decide_redeal(view)
        if len(view.legal) == 1:
            return view.legal[0]
        return self.estimates(view)[0].move


class OraclePlayer(ExpertPlayer):
    """The expert's search in the true world: sees every hand and the stock order.

    For measurement only (the gap between ``expert`` and ``oracle`` is the
    cost of hidden information). It needs the full state: tournaments call
    :meth:`choose_full`; :meth:`choose` refuses a view.
    """

    name = "oracle"

    def choose(self, view: View) -> Move:
        raise ValueError("the oracle needs the full state: call choose_full(state)")

    def choose_full(self, state: State) -> Move:
        view = state.view(state.turn)
        if not view.legal:
            raise no_move(view)
        if view.phase == 1:
            return decide_redeal(view)
        if len(view.legal) == 1:
            return view.legal[0]
        rng = move_rng(self.seed, view, self.name)
        truth = state.copy()
        return search(lambda r: truth, view.legal, view.side, rng, self.iterations, self.seconds,
                      True, self.eps)[0].move
