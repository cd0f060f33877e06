"""The search over sampled worlds that every search player, hint and analysis runs, given a game's worlds and
rollouts (determinized Monte Carlo).

:func:`weighted_search` draws *worlds*, full states consistent with a view (a game's ``worlds``,
:mod:`diloti.ai.part`), and in each world plays every candidate move then a fast rollout (the game's
``rollouts``, :func:`playout`) to the end of the deal, scoring the points difference for the mover's side.
All candidates share each world and the rollout's random stream (common random numbers), so their comparison
is far less noisy than their values. Candidates are cut by *sequential halving*: the worse half is dropped
after each stage, so the budget goes to the moves that matter. :func:`search_ranking` searches every move
alike, for hints and analysis.

Everything is played with ``push``/``pop`` on the sampled state: no copies in the inner loop. This module
knows no game and finds none: the caller gives what it searches with (the players of
:mod:`diloti.ai.expert` find the game's part by the view; a game's part ranks its own moves with it).

>>> from diloti.ai.part import SearchSettings
>>> from diloti.games.diloti import players as part
>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=2)
>>> view, settings = s.view(s.turn), SearchSettings()
>>> est = weighted_search(part.worlds(view, settings).sample, list(view.legal), view.side, random.Random(1), 60,
...                       None, part.rollouts(settings))
>>> sorted(e.move for e in est) == sorted(s.legal_moves())
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from diloti.ai.errors import InvalidSettingError
from diloti.ai.part import Rollouts, Sampler
from diloti.core.moves import Move

DEFAULT_ITERATIONS = 300
DEFAULT_SECONDS = 1.0
DEFAULT_WIDTH = 5  # candidates searched, the heuristic's best
DEFAULT_DEALS = 1  # rollouts stop at the end of the current deal
# Of a timed move's budget, the exact solver's at most (issue 54): past it the search has the rest. Half: the solver
# finds a best move within it in all but the longest of positions (docs/STRENGTH.md, *The exact end of a round*).
EXACT_SHARE = 0.5


def playout(st: Any, side: int, rng: random.Random, rollouts: Rollouts, deals: int = DEFAULT_DEALS,
            until: int | None = None) -> float:
    """Play on with the game's rollout policies until ``deals`` deal ends (or the round's end); undone after.

    ``until`` (a deal number) says where to stop instead, for a caller that
    has already played into the horizon (the tree search, a search whose
    horizon counts from its root). ``rollouts.ahead`` more moves are played
    into the next deal before the evaluation; the first ``rollouts.counted_moves``
    moves are ``rollouts.counted``'s. Returns ``rollouts.value`` for ``side`` where it stopped.

    >>> from diloti.ai.part import SearchSettings
    >>> from diloti.games.diloti import players as part
    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=3)
    >>> r = part.rollouts(SearchSettings(ahead=2, seam=True))
    >>> v = playout(s, 0, random.Random(1), r)
    >>> len(s.history), isinstance(v, float)
    (0, True)
    """
    depth = 0
    push = st.push
    policy = rollouts.policy
    counted, n_counted = rollouts.counted, rollouts.counted_moves if rollouts.counted is not None else 0
    stop = until if until is not None else st.deal_no + deals if deals > 0 else 1 << 30  # 0: the round's end
    if n_counted:
        assert counted is not None
        while not st.is_over and st.deal_no < stop:
            push(counted(st, rng) if depth < n_counted else policy(st, rng))
            depth += 1
    else:
        while not st.is_over and st.deal_no < stop:
            push(policy(st, rng))
            depth += 1
    ahead = rollouts.ahead
    if ahead and not st.is_over:
        for _ in range(ahead):
            push(policy(st, rng))
            depth += 1
            if st.is_over:
                break
    result = rollouts.value(st, side)
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


def search_clock(cpu: bool) -> Callable[[], float]:
    """The clock a search's ``seconds`` are counted on: the wall clock, or with ``cpu`` the CPU time of the
    searching thread, so that a budget buys the same search however busy the machine is (strength
    measurements on shared cores: a player's second is then what it gets on an idle core).

    >>> search_clock(False) is time.perf_counter, search_clock(True) is time.thread_time
    (True, True)
    """
    return time.thread_time if cpu else time.perf_counter


def weighted_search(sample: Callable[[random.Random], tuple[Any, float]], moves: Sequence[Move], side: int,
                    rng: random.Random, iterations: int | None, seconds: float | None, rollouts: Rollouts,
                    halving: bool = True, deals: int = DEFAULT_DEALS, cpu: bool = False) -> list[Estimate]:
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
    ``rollouts`` and ``deals`` are :func:`playout`'s. With ``cpu`` the seconds are this thread's CPU time
    (:func:`search_clock`) instead of the wall clock's.
    """
    stats = [Estimate(m) for m in moves]
    if len(stats) <= 1:
        return stats
    if iterations is None and seconds is None:
        raise InvalidSettingError("seconds", None, "a number when iterations is none")
    clock = search_clock(cpu)
    start = clock()
    deadline = start + seconds if seconds is not None else None
    cap = MAX_ITERATIONS if iterations is None else iterations
    alive = stats
    stages = max(1, (len(stats) - 1).bit_length()) if halving else 1
    spent = 0
    budget = cap
    root_horizon = rollouts.root_horizon

    def one_world() -> None:
        nonlocal spent
        w, weight = sample(rng)
        seed = rng.getrandbits(64)
        until = (w.deal_no + deals if deals > 0 else 1 << 30) if root_horizon else None
        for est in alive:
            est.visits += 1
            if weight > 0.0:
                w.push(est.move)
                est.total += weight * playout(w, side, random.Random(seed), rollouts, deals, until)
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
            used = clock() - start
            budget = min(cap, spent + int(spent / max(used, 1e-6) * max(seconds - used, 0.0) * 0.95))
        per_move = max(0 if timed else 1, (budget - spent) // (len(alive) * left_stages))
        last = stage == stages - 1
        n = 0
        # Timed, the last stage runs to the deadline: the whole budget is used (anytime).
        while n < per_move or (timed and last and spent < cap):
            one_world()
            n += 1
            if deadline is not None and clock() > deadline:
                break
        for est in alive:
            est.stage = stage + 1
        if deadline is not None and clock() > deadline:
            break
        if halving and len(alive) > 1 and stage < stages - 1:
            alive = sorted(alive, key=lambda e: -e.mean)[: (len(alive) + 1) // 2]
    return sorted(stats, key=lambda e: (-e.stage, -e.mean))


def search_ranking(view: Any, rng: random.Random, worlds: Sampler, rollouts: Rollouts, iterations: int,
                   seconds: float | None, digits: int | None = 3,
                   deals: int = DEFAULT_DEALS) -> list[tuple[Move, float]]:
    """Every legal move of ``view`` searched with the same worlds (no pruning, no halving: the estimates
    compare), best first: what a game's ``rank_moves`` does with its own generator for the decision (``rng``),
    its ``worlds`` and its ``rollouts``; ``digits``: the estimates rounded (None: not). A single legal move is
    worth 0.0.

    >>> from diloti.ai.part import SearchSettings
    >>> from diloti.games.diloti import players as part
    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=3)
    >>> view, settings = s.view(s.turn), SearchSettings()
    >>> ranked = search_ranking(view, random.Random(1), part.worlds(view, settings), part.rollouts(settings), 40,
    ...                         None)
    >>> sorted(m for m, _ in ranked) == sorted(s.legal_moves()), ranked[0][1] >= ranked[-1][1]
    (True, True)
    """
    stats = weighted_search(worlds.sample, list(view.legal), view.side, rng, iterations, seconds, rollouts,
                            halving=False, deals=deals)
    if len(stats) == 1:
        return [(stats[0].move, 0.0)]
    ranked = sorted(stats, key=lambda e: -e.mean)
    return [(e.move, e.mean if digits is None else round(e.mean, digits)) for e in ranked]


__all__ = [
    "DEFAULT_DEALS",
    "DEFAULT_ITERATIONS",
    "DEFAULT_SECONDS",
    "DEFAULT_WIDTH",
    "EXACT_SHARE",
    "MAX_ITERATIONS",
    "Estimate",
    "playout",
    "search_clock",
    "search_ranking",
    "weighted_search",
]
