"""Hints and analysis: the expert's (or the master's) ranking of every legal move, in any game, and the chance
to win the game after each.

:func:`rank_moves` asks the game's players part to search every legal move with the same sampled worlds
(no pruning, no halving, so the estimates are comparable: :func:`diloti.ai.search.search_ranking`) and
returns them best first; :func:`win_chances` asks it for the chance to win after each. Each estimate is
the **expected round points difference** (the mover's side minus the best other side, in the game's points:
in Diloti cards majority, aces, 10 of diamonds, 2 of clubs, 10 per xeri) that the move leads
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

from collections.abc import Sequence
from typing import Any

from diloti.ai.errors import PlayerError
from diloti.ai.exact import exact_ranking
from diloti.ai.games import players_part
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


def win_chances(view: Any, ranked: Sequence[tuple[Move, float]]) -> list[float] | None:
    """The chance to win the game after each ranked move ``(move, expected round points difference)`` of the
    seat of ``view``, by the game's model (its players part's ``win_chances``; Diloti's is
    :func:`diloti.ai.winchance.round_chances`), or None when the game has none."""
    return players_part(view).win_chances(view, ranked)


def view_chances(view: Any, ranked: Sequence[tuple[Move, float]]) -> list[float]:
    """:func:`win_chances` of a game that has a model of them (a :class:`~diloti.ai.errors.PlayerError` if not)."""
    chances = win_chances(view, ranked)
    if chances is None:
        raise PlayerError(f"no model of the chance to win a game of {view.game}", view)
    return chances


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
           "format_ranking", "rank_moves", "view_chances", "win_chances"]
