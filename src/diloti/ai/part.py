"""What a game provides its computer players: the contract of a game's players part.

The players (``random``, ``greedy``, ``heuristic``, ``expert``, ``master``, the
measurement ``oracle``), the searches (:mod:`diloti.ai.search`,
:mod:`diloti.ai.ismcts`), the analysis and the hints know no game: for a view of any
registered game they ask that game's *players part*, the module its registry entry
names for this floor (``parts["players"]``), found by :mod:`diloti.ai.games`, for its
card sense. A game that provides a module meeting :class:`PlayersPart` gets every level.
A part imports this module and the searches (:mod:`diloti.ai.search`), never
:mod:`diloti.ai.games`. mypy checks each game's module against it (each part assigns
itself to a ``PlayersPart`` under ``TYPE_CHECKING``).

What the part provides:

- ``greedy_scores(view)`` / ``heuristic_scores(view)``: each legal move with its score
  (higher is better) for the ``greedy`` and ``heuristic`` levels; the heuristic's best
  moves are also the searches' candidates;
- ``ruled_move(view)``: a decision the players take by rule rather than by score or
  search (Diloti's face-card redeal), or None;
- ``move_rng(seed, view, salt)``: a generator for one decision, from the player's seed and
  the public position only (ties, the search's worlds);
- ``worlds(view, settings)``: a :class:`Sampler` of full states consistent with the view
  (the hidden cards dealt at random), each with its weight (1.0 unless the game weighs
  worlds by the evidence of play);
- ``rollouts(settings)``: the game's :class:`Rollouts`: how a search plays on from a
  position and what the position it stops at is worth to a side;
- ``rank_moves(view, seed, iterations, seconds, level)``: every legal move ranked for hints
  and analysis (:func:`diloti.ai.analysis.search_ranking` does it by the search);
- ``win_chances(view, ranked)``: the chance to win the game after each ranked move, or
  None if the game has no model of it;
- ``endless(options)``: the game's options for a game that never ends by itself (a match
  of a fixed number of rounds stops it);
- ``exact_scoring(options)``: the game's round points as the exact solver counts them
  (:class:`~diloti.ai.round_points.Scoring`), or None: then no position of the game is
  exact (:mod:`diloti.ai.exact`).

>>> SearchSettings().eps == EPSILON
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from diloti.ai.round_points import Scoring
from diloti.core.moves import Move

EPSILON = 0.1  # the rollouts' share of random moves


@dataclass(frozen=True)
class SearchSettings:
    """What a search asks of a game's worlds and rollouts (the players' settings of the same names).

    A game takes what it can use and leaves the rest: ``ahead``, ``seam``, ``fair``, ``counted``,
    ``fitted`` and the inference (``infer``, ``temperature``, ``mix``, ``model``, ``pool``) are the master's
    refinements, which a game's part may not offer. ``model`` (None: the game's own model of play) is a
    :class:`MoveModel` the inference weighs the other seats' moves by; ``pool`` (0: no cap) caps the
    distinct worlds it weighs per decision (past it the search draws among them again).
    """

    eps: float = EPSILON
    ahead: int = 0
    seam: bool = False
    fair: bool = False
    counted: int = 0
    fitted: bool = False
    infer: float = 0.0
    temperature: float = 1.0
    mix: float = 0.1
    model: MoveModel | None = None
    pool: int = 0


class MoveModel(Protocol):
    """A model of play handed down to a game's inference: one score a move of ``view.legal`` (a seat's view of any
    game), whose softmax is the model's policy (log-probabilities up to a constant)."""

    def __call__(self, view: Any) -> Sequence[float]: ...


@dataclass(frozen=True)
class Rollouts:
    """A game's rollouts: its policies as ``policy(state, rng) -> move`` and its value ``value(state, side)``.

    ``counted`` plays the first ``counted_moves`` moves of a rollout (a slower, card-counting
    policy), ``policy`` the rest and the ``ahead`` moves past the horizon. ``expand`` is the
    tree search's first choice at a new node (the policy without random moves); None: the game
    offers no tree search. With ``root_horizon`` the rollouts' horizon (``deals`` deal ends)
    counts from the position searched, else from the position after the candidate move.
    ``timed_iterations``: the playouts of a search bounded only by time (None: planned from the
    playout rate measured, to the deadline).
    """

    policy: Callable[[Any, random.Random], Move]
    value: Callable[[Any, int], float]
    counted: Callable[[Any, random.Random], Move] | None = None
    counted_moves: int = 0
    ahead: int = 0
    expand: Callable[[Any, random.Random], Move] | None = None
    root_horizon: bool = False
    timed_iterations: int | None = None


class Sampler(Protocol):
    """Draws a world of a view's information set (a full state) with its weight."""

    def sample(self, rng: random.Random) -> tuple[Any, float]: ...


class PlayersPart(Protocol):
    """The functions of a game's players part (see the module's text)."""

    def greedy_scores(self, view: Any) -> list[tuple[Move, float]]: ...

    def heuristic_scores(self, view: Any) -> list[tuple[Move, float]]: ...

    def ruled_move(self, view: Any) -> Move | None: ...

    def move_rng(self, seed: int | None, view: Any, salt: str = "") -> random.Random: ...

    def worlds(self, view: Any, settings: SearchSettings) -> Sampler: ...

    def rollouts(self, settings: SearchSettings) -> Rollouts: ...

    def rank_moves(self, view: Any, seed: int | None, iterations: int, seconds: float | None,
                   level: str) -> list[tuple[Move, float]]: ...

    def win_chances(self, view: Any, ranked: Sequence[tuple[Move, float]]) -> list[float] | None: ...

    def endless(self, options: Any) -> Any: ...

    def exact_scoring(self, options: Any) -> Scoring | None: ...


__all__ = ["EPSILON", "MoveModel", "PlayersPart", "Rollouts", "Sampler", "SearchSettings"]
