"""The search players: ``expert`` (determinized Monte Carlo) and ``oracle`` (all hands seen), for any game.

The expert samples *worlds*, full states consistent with its view (the
game's ``worlds``, :mod:`diloti.ai.part`), and in each world plays every
candidate move then a fast rollout (the game's ``rollouts``) to the end of
the deal, scoring the points difference for its side. All candidates share
each world and the rollout's random stream (common random numbers), so their
comparison is far less noisy than their values. Candidates are cut by
*sequential halving*: the worse half is dropped after each stage, so the
budget goes to the moves that matter.

The oracle runs the same search in the one true world: a ceiling for
measurement, built only from the full state (:meth:`OraclePlayer.choose_full`).

An *exact* position (2 players, the stock empty: the unseen cards are the other
hand) is not sampled: the expert and the master play a best move of the exact
solver (:mod:`diloti.ai.exact`, issue 54) and search only past its limits
(``exact=0``: always search).

Everything is played with ``push``/``pop`` on the sampled state: no copies in
the inner loop. What is a game's own (its worlds, its rollout policy, its
evaluation, its candidates) is resolved once a decision, never in the loop.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=2)
>>> bot = ExpertPlayer(seed=1, iterations=60)
>>> bot.choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

import copy
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from diloti.ai.errors import InvalidSettingError, NoMoveError, PlayerError
from diloti.ai.exact import DEFAULT_NODE_LIMIT, exact_choice, is_exact
from diloti.ai.part import EPSILON, PlayersPart, Rollouts, SearchSettings, players_part
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

    >>> from diloti.games.diloti.state import State
    >>> from diloti.ai.part import SearchSettings, players_part
    >>> s = State.new(seed=3)
    >>> r = players_part(s).rollouts(SearchSettings(ahead=2, seam=True))
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



class SearchPlayer(ABC):
    """A player that plays the best of its :meth:`estimates`. A decision the game takes by rule (its part's
    ``ruled_move``) and a lone legal move are not searched; with ``exact`` (the default) an exact position is
    solved instead (:meth:`choose_exact`)."""

    name: str
    seed: int | None
    seconds: float | None
    cpu: bool
    exact: bool = True

    @abstractmethod
    def estimates(self, view: Any, halving: bool = True, prune: bool = True) -> list[Estimate]:
        """The searched moves with their estimates, best first."""

    @abstractmethod
    def candidates(self, view: Any, part: PlayersPart | None = None) -> list[Move]:
        """The moves worth searching."""

    def _search_start(self, view: Any, prune: bool) -> tuple[PlayersPart, random.Random, list[Move]]:
        """What every search starts from: the view's players part, this decision's random numbers, and the
        moves to search (every legal move unless ``prune``)."""
        if not view.legal:
            raise NoMoveError(view)
        part = players_part(view)
        rng = part.move_rng(self.seed, view, self.name)
        return part, rng, (self.candidates(view, part) if prune else list(view.legal))

    def choose(self, view: Any) -> Move:
        if not view.legal:
            raise NoMoveError(view)
        ruled = players_part(view).ruled_move(view)
        if ruled is not None:
            return ruled
        legal: tuple[Move, ...] = view.legal
        if len(legal) == 1:
            return legal[0]
        if self.exact and is_exact(view):  # issue 54: solved, not sampled
            return self.choose_exact(view)
        return self.estimates(view)[0].move

    def choose_exact(self, view: Any) -> Move:
        """A best move of an exact view by the exact solver (:func:`~diloti.ai.exact.exact_choice`) within
        :data:`EXACT_SHARE` of the move's time (on the player's clock) and the solver's node limit; past them,
        the search's best with the time left (with ``iterations`` alone: the node limit, reproducible)."""
        clock = search_clock(self.cpu)
        start = clock()
        seconds = self.seconds
        move = exact_choice(view, DEFAULT_NODE_LIMIT, None if seconds is None else seconds * EXACT_SHARE, clock)
        if move is not None:
            return move
        if seconds is None:
            return self.estimates(view)[0].move
        rest = copy.copy(self)  # the same player with the time the solver left
        rest.seconds = max(seconds - (clock() - start), seconds * (1.0 - EXACT_SHARE) / 2)
        return rest.estimates(view)[0].move


def check_exact(exact: object) -> bool:
    """The ``exact`` setting of the search players: 1 (solve exact positions) or 0 (search them as any other)."""
    if exact not in (0, 1, True, False):
        raise InvalidSettingError("exact", exact, "0 or 1")
    return bool(exact)


class ExpertPlayer(SearchPlayer):
    """Determinized Monte Carlo search over worlds sampled from the view.

    ``iterations``: playouts per move (default 300); ``seconds``: a time cap
    per move (default 1.0; None for none, which makes play fully reproducible);
    ``width``: how many of the heuristic's best moves to search (0: all);
    ``eps``: the rollouts' share of random moves; ``deals``: how many deal ends a
    rollout plays to before it is evaluated (default 1; 0: to the end of the round,
    in Xeri and Kontsina the hand); ``cpu``: 1 counts ``seconds`` in the search's
    CPU time instead of the wall clock's (for measurements on a busy machine);
    ``exact``: 1 (default) plays the exact solver's best move in an exact position
    (2 players, the stock empty; :meth:`SearchPlayer.choose_exact`), 0 searches it.

    Any game: its worlds, rollouts and candidates come from the game's players part
    (:mod:`diloti.ai.part`).
    """

    name = "expert"

    def __init__(self, seed: int | None = None, iterations: int = DEFAULT_ITERATIONS,
                 seconds: float | None = DEFAULT_SECONDS, eps: float = EPSILON, width: int = DEFAULT_WIDTH,
                 deals: int = DEFAULT_DEALS, cpu: int = 0, exact: int = 1) -> None:
        self.seed = seed
        self.width = int(width)
        self.deals = int(deals)
        if cpu not in (0, 1, True, False):
            raise InvalidSettingError("cpu", cpu, "0 or 1")
        self.cpu = bool(cpu)
        self.exact = check_exact(exact)
        self.iterations = int(iterations)
        self.seconds = None if seconds is None else float(seconds)
        self.eps = float(eps)
        if self.iterations < 1:
            raise InvalidSettingError("iterations", iterations, "at least 1")
        if self.deals < 0:
            raise InvalidSettingError("deals", deals, "0 (to the round's end) or more")

    def candidates(self, view: Any, part: PlayersPart | None = None) -> list[Move]:
        """The moves worth searching: the heuristic's best ``width`` (0: all)."""
        return candidates(view, self.width, part)

    def estimates(self, view: Any, halving: bool = True, prune: bool = True) -> list[Estimate]:
        """The search's estimate of each candidate move (every legal move unless ``prune``), best first."""
        part, rng, moves = self._search_start(view, prune)
        settings = SearchSettings(eps=self.eps)
        return weighted_search(part.worlds(view, settings).sample, moves, view.side, rng, self.iterations,
                               self.seconds, part.rollouts(settings), halving, self.deals, self.cpu)


class OraclePlayer(ExpertPlayer):
    """The expert's search in the true world: sees every hand and the stock order.

    For measurement only (the gap between ``expert`` and ``oracle`` is the
    cost of hidden information). It needs the full state: tournaments call
    :meth:`choose_full`; :meth:`choose` refuses a view.
    """

    name = "oracle"

    def choose(self, view: Any) -> Move:
        raise PlayerError("the oracle needs the full state: call choose_full(state)", view)

    def choose_full(self, state: Any) -> Move:
        view = state.view(state.turn)
        if not view.legal:
            raise NoMoveError(view)
        part = players_part(state)
        ruled = part.ruled_move(view)
        if ruled is not None:
            return ruled
        legal: tuple[Move, ...] = view.legal
        if len(legal) == 1:
            return legal[0]
        rng = part.move_rng(self.seed, view, self.name)
        truth = state.copy()
        rollouts = part.rollouts(SearchSettings(eps=self.eps))
        return weighted_search(lambda r: (truth, 1.0), self.candidates(view, part), view.side, rng,
                               self.iterations, self.seconds, rollouts, True, self.deals, self.cpu)[0].move


def candidates(view: Any, width: int, part: PlayersPart | None = None) -> list[Move]:
    """The moves worth searching: the best ``width`` (0: all) by the game's heuristic scores."""
    moves = list(view.legal)
    if width <= 0 or len(moves) <= width:
        return moves
    scored = (part or players_part(view)).heuristic_scores(view)
    scored.sort(key=lambda ms: -ms[1])
    return [m for m, _ in scored[:width]]


__all__ = [
    "DEFAULT_DEALS",
    "DEFAULT_ITERATIONS",
    "DEFAULT_SECONDS",
    "DEFAULT_WIDTH",
    "EPSILON",
    "EXACT_SHARE",
    "MAX_ITERATIONS",
    "Estimate",
    "ExpertPlayer",
    "OraclePlayer",
    "SearchPlayer",
    "candidates",
    "check_exact",
    "playout",
    "search_clock",
    "weighted_search",
]
