"""The search players: ``expert`` (determinized Monte Carlo) and ``oracle`` (all hands seen).

Their search, rollouts and card counting are :mod:`diloti.ai.search` (compiled with mypyc where the
compiled core is built, setup.py); the classes stay plain Python, so that :func:`diloti.ai.make_player`
reads their settings from their signatures and outside code may subclass them.

>>> from diloti.core.state import State
>>> s = State.new(seed=2)
>>> bot = ExpertPlayer(seed=1, iterations=60)
>>> bot.choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from diloti.ai.errors import InvalidSettingError, NoMoveError, PlayerError
from diloti.ai.heuristic import HeuristicPlayer
from diloti.ai.knowledge import decide_redeal, move_rng
from diloti.ai.sampler import Worlds
from diloti.ai.search import (
    DEFAULT_DEALS,
    DEFAULT_ITERATIONS,
    DEFAULT_SECONDS,
    DEFAULT_WIDTH,
    EPSILON,
    Estimate,
    search,
)
from diloti.ai.variants import expert_choose
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.core.state import State
from diloti.core.variant import HandState, VariantView
from diloti.core.view import View


class ExpertPlayer:
    """Determinized Monte Carlo search over worlds sampled from the view.

    ``iterations``: playouts per move (default 300); ``seconds``: a time cap
    per move (default 1.0; None for none, which makes play fully reproducible);
    ``width``: how many of the heuristic's best moves to search (0: all);
    ``eps``: the rollouts' share of random moves; ``deals``: how many deal ends a
    rollout plays to before it is evaluated (default 1; 0: to the end of the round,
    in Xeri and Kontsina the hand).
    """

    name = "expert"

    def __init__(self, seed: int | None = None, iterations: int = DEFAULT_ITERATIONS,
                 seconds: float | None = DEFAULT_SECONDS, eps: float = EPSILON, width: int = DEFAULT_WIDTH,
                 deals: int = DEFAULT_DEALS) -> None:
        self.seed = seed
        self.width = int(width)
        self.deals = int(deals)
        self.iterations = int(iterations)
        self.seconds = None if seconds is None else float(seconds)
        self.eps = float(eps)
        if self.iterations < 1:
            raise InvalidSettingError("iterations", iterations, "at least 1")
        if self.deals < 0:
            raise InvalidSettingError("deals", deals, "0 (to the round's end) or more")

    def candidates(self, view: View) -> list[Move]:
        """The moves worth searching: the heuristic's best ``width`` (0: all)."""
        moves = list(view.legal)
        if self.width <= 0 or len(moves) <= self.width:
            return moves
        scored = HeuristicPlayer(self.seed).scores(view)
        scored.sort(key=lambda ms: -ms[1])
        return [m for m, _ in scored[: self.width]]

    def estimates(self, view: View, halving: bool = True, prune: bool = True) -> list[Estimate]:
        """The search's estimate of each candidate move (every legal move unless ``prune``), best first."""
        if not view.legal:
            raise NoMoveError(view)
        rng = move_rng(self.seed, view, self.name)
        moves = self.candidates(view) if prune else list(view.legal)
        return search(Worlds(view).sample, moves, view.side, rng,
                      self.iterations, self.seconds, halving, self.eps, self.deals)

    def choose(self, view: View | VariantView) -> Move:
        if not view.legal:
            raise NoMoveError(view)
        if isinstance(view, VariantView):
            return expert_choose(view, self.seed, self.iterations, self.seconds, self.width, self.eps, self.name,
                                 deals=self.deals)
        if view.phase == Phase.DECIDE:
            return decide_redeal(view)
        if len(view.legal) == 1:
            return view.legal[0]
        return self.estimates(view)[0].move


_W = TypeVar("_W")


def _always(world: _W) -> Callable[[random.Random], _W]:
    """The oracle's world sampler: the true world every time."""
    return lambda _rng: world


class OraclePlayer(ExpertPlayer):
    """The expert's search in the true world: sees every hand and the stock order.

    For measurement only (the gap between ``expert`` and ``oracle`` is the
    cost of hidden information). It needs the full state: tournaments call
    :meth:`choose_full`; :meth:`choose` refuses a view.
    """

    name = "oracle"

    def choose(self, view: View | VariantView) -> Move:
        raise PlayerError("the oracle needs the full state: call choose_full(state)", view)

    def choose_full(self, state: State | HandState) -> Move:
        if isinstance(state, HandState):
            hand = state.copy()
            seen = hand.view(hand.turn)
            if not seen.legal:
                raise NoMoveError(seen)
            return expert_choose(seen, self.seed, self.iterations, self.seconds, self.width, self.eps, self.name,
                                 world=_always(hand), deals=self.deals)
        view = state.view(state.turn)
        if not view.legal:
            raise NoMoveError(view)
        if view.phase == Phase.DECIDE:
            return decide_redeal(view)
        if len(view.legal) == 1:
            return view.legal[0]
        rng = move_rng(self.seed, view, self.name)
        truth = state.copy()
        return search(_always(truth), self.candidates(view), view.side, rng, self.iterations, self.seconds,
                      True, self.eps, self.deals)[0].move
