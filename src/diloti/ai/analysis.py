"""Hints and analysis: the expert's (or the master's) ranking of every legal move, in any game.

:func:`rank_moves` searches every legal move with the same sampled worlds
(no pruning, no halving, so the estimates are comparable) and returns them
best first. Each estimate is the **expected round points difference** (the
mover's side minus the best other side, in the game's points: in Diloti cards
majority, aces, 10 of diamonds, 2 of clubs, 10 per xeri) that the move leads
to, as the search sees it: exact where a rollout reaches the end of the
round, otherwise the points captured so far plus the expected majorities.
In an exact position (2 players, the stock empty: nothing is hidden) every
estimate is the exact solver's value instead (:mod:`diloti.ai.exact`, issue
54), when it finishes within its node limit.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=3)
>>> ranked = rank_moves(s.view(s.turn), seed=1, iterations=40, seconds=None)
>>> sorted(m for m, _ in ranked) == sorted(s.legal_moves())
True
>>> ranked[0][1] >= ranked[-1][1]
True
"""

from __future__ import annotations

from typing import Any

from diloti.ai.errors import PlayerError
from diloti.ai.exact import exact_ranking
from diloti.ai.part import SearchSettings, players_part
from diloti.ai.search import DEFAULT_DEALS, weighted_search
from diloti.core.moves import Move

DEFAULT_ANALYSIS_ITERATIONS = 800
DEFAULT_ANALYSIS_SECONDS = 2.0
LEVELS_ANALYSED = ("expert", "master")


class AnalysisError(PlayerError):
    """The position cannot be analysed (e.g. the seat is not to move); ``input`` is what was given."""


def rank_moves(view: Any, seed: int | None = None, iterations: int = DEFAULT_ANALYSIS_ITERATIONS,
               seconds: float | None = DEFAULT_ANALYSIS_SECONDS, level: str = "expert",
               exact: bool = True) -> list[tuple[Move, float]]:
    """Every legal move of ``view``'s seat (of any registered game) with its estimate, best first.

    ``iterations`` is the playout budget shared by all moves; ``seconds`` caps
    the time (None: no cap, fully reproducible for a seed). ``level`` is whose
    search: ``expert`` (its fast rollouts) or ``master`` (in Diloti its card-counting
    rollouts: about ten times the cost of a playout, so fewer of them in the same
    time). The ranking is the game's (its players part's ``rank_moves``, most often
    :func:`search_ranking`): in Diloti a face-card redeal decision is not searched:
    redeal comes first (a hand of 5 or 6 face cards captures little) and both
    estimates are 0.0. With ``exact`` (the default) an exact position is ranked by the
    exact solver's values (:func:`~diloti.ai.exact.exact_ranking`), whatever the level;
    past its node limit, by the search.

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
    solved = exact_ranking(view) if exact else None  # issue 54: nothing hidden, nothing to sample
    if solved is not None:
        return solved
    return players_part(view).rank_moves(view, seed, iterations, seconds, level)


def search_ranking(view: Any, seed: int | None, iterations: int, seconds: float | None,
                   settings: SearchSettings, salt: str = "analysis", digits: int | None = 3,
                   deals: int = DEFAULT_DEALS) -> list[tuple[Move, float]]:
    """Every legal move searched with the same worlds (no pruning, no halving: the estimates compare), best first.

    What a game's ``rank_moves`` does with its own ``settings`` (which rollouts), ``salt`` (the
    decision's generator, :meth:`~diloti.ai.part.PlayersPart.move_rng`) and ``digits`` (the estimates
    rounded; None: not); a single legal move is worth 0.0.
    """
    part = players_part(view)
    rng = part.move_rng(seed, view, salt)
    stats = weighted_search(part.worlds(view, settings).sample, list(view.legal), view.side, rng, iterations,
                            seconds, part.rollouts(settings), halving=False, deals=deals)
    if len(stats) == 1:
        return [(stats[0].move, 0.0)]
    ranked = sorted(stats, key=lambda e: -e.mean)
    return [(e.move, e.mean if digits is None else round(e.mean, digits)) for e in ranked]


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


__all__ = ["DEFAULT_ANALYSIS_ITERATIONS", "DEFAULT_ANALYSIS_SECONDS", "LEVELS_ANALYSED", "AnalysisError",
           "format_ranking", "rank_moves", "search_ranking"]
