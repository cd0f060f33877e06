"""Hints and analysis: the expert's (or the master's) ranking of every legal move.

:func:`rank_moves` searches every legal move with the same sampled worlds
(no pruning, no halving, so the estimates are comparable) and returns them
best first. Each estimate is the **expected round points difference** (the
mover's side minus the other side, in game points: cards majority, aces, 10
of diamonds, 2 of clubs, 10 per xeri) that the move leads to, as the search
sees it: exact where a rollout reaches the end of the round, otherwise the
points captured so far plus the expected card-majority points.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=3)
>>> ranked = rank_moves(s.view(s.turn), seed=1, iterations=40, seconds=None)
>>> sorted(m for m, _ in ranked) == sorted(s.legal_moves())
True
>>> ranked[0][1] >= ranked[-1][1]
True
"""

from __future__ import annotations

from diloti.ai.errors import PlayerError
from diloti.ai.knowledge import move_rng
from diloti.ai.master import DEFAULT_COUNTED, WeightedWorlds
from diloti.ai.sampler import Worlds
from diloti.ai.search import DEFAULT_DEALS, EPSILON, search, weighted_search
from diloti.core.moves import REDEAL, Move
from diloti.core.phase import Phase
from diloti.games.diloti.view import View

DEFAULT_ANALYSIS_ITERATIONS = 800
DEFAULT_ANALYSIS_SECONDS = 2.0
LEVELS_ANALYSED = ("expert", "master")


class AnalysisError(PlayerError):
    """The position cannot be analysed (e.g. the seat is not to move); ``input`` is what was given."""


def rank_moves(view: View, seed: int | None = None, iterations: int = DEFAULT_ANALYSIS_ITERATIONS,
               seconds: float | None = DEFAULT_ANALYSIS_SECONDS, level: str = "expert") -> list[tuple[Move, float]]:
    """Every legal move of ``view``'s seat with its estimate, best first.

    ``iterations`` is the playout budget shared by all moves; ``seconds`` caps
    the time (None: no cap, fully reproducible for a seed). ``level`` is whose
    search: ``expert`` (its fast rollouts) or ``master`` (its card-counting
    rollouts, :func:`diloti.ai.search.counted_move`: about ten times the cost
    of a playout, so fewer of them in the same time). A face-card redeal
    decision is not searched: redeal comes first (a hand of 5 or 6 face cards
    captures little) and both estimates are 0.0.

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=3)
    >>> len(rank_moves(s.view(s.turn), seed=1, iterations=40, seconds=None, level="master")) == len(s.legal_moves())
    True
    """
    if level not in LEVELS_ANALYSED:
        raise AnalysisError(f"invalid level {level!r}: expected one of {', '.join(LEVELS_ANALYSED)}", level)
    if not view.legal:
        raise AnalysisError(f"seat {view.seat} has no move to make in this position", view)
    if iterations < 1:
        raise AnalysisError(f"invalid iterations {iterations!r}: expected at least 1", iterations)
    if view.phase == Phase.DECIDE:
        return sorted(((m, 0.0) for m in view.legal), key=lambda ms: ms[0].kind != REDEAL)
    rng = move_rng(seed, view, "analysis")
    if level == "master":
        weighted = weighted_search(WeightedWorlds(view).sample, view.legal, view.side, rng, iterations, seconds,
                                   halving=False, counted=DEFAULT_COUNTED)
        if len(weighted) == 1:
            return [(weighted[0].move, 0.0)]
        return [(e.move, round(e.mean, 3)) for e in sorted(weighted, key=lambda e: -e.mean)]
    stats = search(Worlds(view).sample, view.legal, view.side, rng, iterations, seconds,
                   halving=False, eps=EPSILON, deals=DEFAULT_DEALS)
    if len(stats) == 1:
        return [(stats[0].move, 0.0)]
    ranked = sorted(stats, key=lambda e: -e.mean)
    return [(e.move, round(e.mean, 3)) for e in ranked]


def format_ranking(ranked: list[tuple[Move, float]], limit: int | None = None,
                   wins: list[float] | None = None) -> list[str]:
    """One line per move with its estimate (and, given ``wins``, the chance to win the game after it), best first.

    >>> format_ranking([(Move.parse("9D x 4H 5C"), 3.2), (Move.parse("7H"), -1.0)])
    ['1. 9D x 4H 5C  +3.20', '2. 7H          -1.00']
    >>> format_ranking([(Move.parse("7H"), -1.0)], wins=[0.4567])
    ['1. 7H  -1.00  45.7% to win']
    """
    rows = ranked if limit is None else ranked[:limit]
    width = max((len(str(m)) for m, _ in rows), default=0)
    return [f"{i}. {m!s:<{width}}  {v:+.2f}" + ("" if wins is None else f"  {100 * wins[i - 1]:.1f}% to win")
            for i, (m, v) in enumerate(rows, 1)]
