"""The search players: ``expert`` (determinized Monte Carlo) and ``oracle`` (all hands seen), for any game.

The expert samples *worlds*, full states consistent with its view (the game's ``worlds``,
:mod:`diloti.ai.part`), and in each world plays every candidate move then a fast rollout (the game's
``rollouts``) to the end of the deal: the search of :mod:`diloti.ai.search`. What is a game's own (its
worlds, its rollout policy, its evaluation, its candidates) is found once a decision, by the view's game
(:mod:`diloti.ai.games`), never in the loop.

An *exact* position (2 players, the stock empty: the unseen cards are the other
hand) is not sampled: the expert and the master play a best move of the exact
solver (:mod:`diloti.ai.exact`, issue 54) and search only past its limits
(``exact=0``: always search).

The oracle runs the same search in the one true world: a ceiling for measurement, a
:class:`~diloti.ai.base.FullStatePlayer` (given the full state, :meth:`OraclePlayer.choose_full`).

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=2)
>>> bot = ExpertPlayer(seed=1, iterations=60)
>>> bot.choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from typing import Any

from diloti.ai.base import FullStatePlayer
from diloti.ai.errors import InvalidSettingError, NoMoveError, PlayerError
from diloti.ai.exact import DEFAULT_NODE_LIMIT, exact_choice, is_exact
from diloti.ai.games import players_part
from diloti.ai.part import EPSILON, PlayersPart, SearchSettings
from diloti.ai.search import (
    DEFAULT_DEALS,
    DEFAULT_ITERATIONS,
    DEFAULT_SECONDS,
    DEFAULT_WIDTH,
    EXACT_SHARE,
    Estimate,
    search_clock,
    weighted_search,
)
from diloti.core.moves import Move


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
        :data:`~diloti.ai.search.EXACT_SHARE` of the move's time (on the player's clock) and the solver's node
        limit; past them, the search's best with the time left (with ``iterations`` alone: the node limit,
        reproducible)."""
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


class ExpertPlayer(SearchPlayer):
    """Determinized Monte Carlo search over worlds sampled from the view.

    ``iterations``: playouts per move (default 300); ``seconds``: a time cap
    per move (default 1.0; None for none, which makes play fully reproducible);
    ``width``: how many of the heuristic's best moves to search (0: all);
    ``eps``: the rollouts' share of random moves; ``deals``: how many deal ends a
    rollout plays to before it is evaluated (default 1; 0: to the end of the round,
    in a one-card game the hand); ``cpu``: 1 counts ``seconds`` in the search's
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


class OraclePlayer(ExpertPlayer, FullStatePlayer):
    """The expert's search in the true world: sees every hand and the stock order.

    For measurement only (the gap between ``expert`` and ``oracle`` is the
    cost of hidden information). It needs the full state: a full-state player, to whom matches give
    :meth:`choose_full` the state; :meth:`choose` refuses a view.
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


def check_exact(exact: object) -> bool:
    """The ``exact`` setting of the search players: 1 (solve exact positions) or 0 (search them as any other)."""
    if exact not in (0, 1, True, False):
        raise InvalidSettingError("exact", exact, "0 or 1")
    return bool(exact)


def candidates(view: Any, width: int, part: PlayersPart | None = None) -> list[Move]:
    """The moves worth searching: the best ``width`` (0: all) by the game's heuristic scores."""
    moves = list(view.legal)
    if width <= 0 or len(moves) <= width:
        return moves
    scored = (part or players_part(view)).heuristic_scores(view)
    scored.sort(key=lambda ms: -ms[1])
    return [m for m, _ in scored[:width]]


__all__ = ["ExpertPlayer", "OraclePlayer", "SearchPlayer", "candidates", "check_exact"]
