"""The ``master`` level: the expert's determinized search with card-counting rollouts and a time budget.

What it adds to the ``expert`` (:mod:`diloti.ai.search`):

- **Rollouts that count cards instead of reading hands.** In each sampled
  world the expert's rollouts play a fast policy that reads the next
  player's hand in that world, so every rollout dodges every sweep as if it
  saw the cards (clairvoyant rollouts, the known optimism of determinized
  search). The master's rollouts are played by the ``heuristic``'s card
  counting from each mover's own view (:func:`diloti.ai.search.counted_move`;
  ``counted``, default all of the rollout): about ten times the cost of a
  playout, and the strongest change measured (docs/STRENGTH.md).
- **Inference from play** (``infer``; off by default: it predicts hidden
  hands better, but no match showed it helping play). Each sampled world is
  weighted by how likely the other seats' moves of this deal were, had they
  held that world's hands
  (:class:`diloti.ai.inference.Evidence`): a player who laid a card while
  holding a capture, or left a sweepable table, probably had nothing better.
  Estimates are weighted means (importance sampling), so worlds that explain
  the play count more; ``infer`` (0..1) tempers the weights (0: the expert's
  uniform worlds).
- **Anytime within a budget.** ``seconds`` (default 1.0) is the budget of a
  move, used whole: a first stage measures the playout rate, and the
  sequential halving that follows is planned for the time left. With
  ``iterations`` (playouts) as well, whichever ends first; with
  ``seconds=none`` and ``iterations`` the move is exactly reproducible from
  the seed.
- **Candidates**: the heuristic's best ``width`` (default 5, as the expert).

In Xeri and Kontsina the master plays the expert's search of those games
(:mod:`diloti.ai.variants`) with its own budget: ``iterations``, or 3,000
playouts capped by ``seconds``; the inference is Diloti's only.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=2)
>>> bot = MasterPlayer(seed=1, iterations=80, seconds=None)
>>> bot.choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

import random
from math import exp, isfinite

from diloti.ai.errors import InvalidSettingError, NoMoveError
from diloti.ai.evaluation import fitted_evaluate
from diloti.ai.heuristic import HeuristicPlayer
from diloti.ai.inference import DEFAULT_MIX, DEFAULT_TEMPERATURE, Evidence
from diloti.ai.ismcts import DEFAULT_EXPLORE, tree_search
from diloti.ai.knowledge import decide_redeal, move_rng
from diloti.ai.sampler import Worlds
from diloti.ai.search import EPSILON, Estimate, weighted_search
from diloti.ai.variants import expert_choose
from diloti.core.hand_state import HandView
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View

DEFAULT_SECONDS = 1.0
DEFAULT_WIDTH = 5
DEFAULT_INFER = 0.0
DEFAULT_AHEAD = 0
DEFAULT_SEAM = 0
DEFAULT_FAIR = 0
DEFAULT_TREE = 0
DEFAULT_FITTED = 0
DEFAULT_COUNTED = 99  # every move of a rollout (a deal is at most 24 moves)
VARIANT_ITERATIONS = 3000  # Xeri and Kontsina: playouts a move when only time is given (capped by it)


WeightedEstimate = Estimate  # the name the master's estimates had; one class for every search

class WeightedWorlds:
    """Worlds of one view, each with its weight from the evidence of play (1.0 without inference)."""

    def __init__(self, view: View, infer: float = DEFAULT_INFER, temperature: float = DEFAULT_TEMPERATURE,
                 mix: float = DEFAULT_MIX) -> None:
        self.worlds = Worlds(view)
        self.infer = float(infer)
        self.evidence = Evidence(view, temperature, mix) if self.infer > 0 else None
        if self.evidence is not None and not self.evidence.observed:
            self.evidence = None

    def sample(self, rng: random.Random) -> tuple[State, float]:
        world = self.worlds.sample(rng)
        if self.evidence is None:
            return world, 1.0
        lw = self.evidence.log_weight(world)
        return world, exp(self.infer * lw) if isfinite(lw) else 0.0

class MasterPlayer:
    """Determinized search with card-counting rollouts, anytime within a budget (see the module's text).

    ``seconds``: the budget of a move (default 1.0; none: only ``iterations``,
    exactly reproducible); ``iterations``: a playout budget (default none: the
    time decides); ``width``: the heuristic's best moves searched (0: all);
    ``eps``: the rollouts' share of random moves; ``deals``: how many deal ends
    a rollout plays to; ``infer``: the weight of the evidence of play (default 0: none);
    ``temperature``, ``mix``: the model of play (:mod:`diloti.ai.inference`);
    ``fitted``: score the rollouts' ends with the fitted evaluation
    (:mod:`diloti.ai.evaluation`) instead of the captured cards alone;
    ``counted``: how many moves of each rollout the heuristic's card counting
    plays (:func:`diloti.ai.search.counted_move`) before the fast policy (default 99: all; 0: the
    expert's rollouts).
    """

    name = "master"

    def __init__(self, seed: int | None = None, iterations: int | None = None,
                 seconds: float | None = DEFAULT_SECONDS, width: int = DEFAULT_WIDTH, eps: float = EPSILON,
                 deals: int = 1, infer: float = DEFAULT_INFER, temperature: float = DEFAULT_TEMPERATURE,
                 mix: float = DEFAULT_MIX, ahead: int = DEFAULT_AHEAD, seam: int = DEFAULT_SEAM,
                 fair: int = DEFAULT_FAIR, tree: int = DEFAULT_TREE, explore: float = DEFAULT_EXPLORE,
                 fitted: int = DEFAULT_FITTED, counted: int = DEFAULT_COUNTED) -> None:
        self.seed = seed
        self.iterations = None if iterations is None else int(iterations)
        self.seconds = None if seconds is None else float(seconds)
        self.width = int(width)
        self.eps = float(eps)
        self.deals = int(deals)
        self.infer = float(infer)
        self.temperature = float(temperature)
        self.mix = float(mix)
        self.ahead = int(ahead)
        self.seam = bool(seam)
        self.fair = bool(fair)
        self.tree = bool(tree)
        self.explore = float(explore)
        self.fitted = bool(fitted)
        self.counted = int(counted)
        if self.counted < 0:
            raise InvalidSettingError("counted", counted, "0 or more")
        if fitted not in (0, 1, True, False):
            raise InvalidSettingError("fitted", fitted, "0 or 1")
        if tree not in (0, 1, True, False):
            raise InvalidSettingError("tree", tree, "0 or 1")
        if self.explore < 0:
            raise InvalidSettingError("explore", explore, "0 or more")
        if fair not in (0, 1, True, False):
            raise InvalidSettingError("fair", fair, "0 or 1")
        if self.ahead < 0:
            raise InvalidSettingError("ahead", ahead, "0 or more")
        if seam not in (0, 1, True, False):
            raise InvalidSettingError("seam", seam, "0 or 1")
        if self.iterations is not None and self.iterations < 1:
            raise InvalidSettingError("iterations", iterations, "at least 1")
        if self.seconds is not None and self.seconds <= 0:
            raise InvalidSettingError("seconds", seconds, "a positive number or none")
        if self.iterations is None and self.seconds is None:
            raise InvalidSettingError("seconds", seconds, "a number when iterations is none")
        if self.deals < 1:
            raise InvalidSettingError("deals", deals, "at least 1")
        if not 0.0 <= self.infer <= 1.0:
            raise InvalidSettingError("infer", infer, "between 0 and 1")
        if self.temperature <= 0:
            raise InvalidSettingError("temperature", temperature, "positive")
        if not 0.0 <= self.mix <= 1.0:
            raise InvalidSettingError("mix", mix, "between 0 and 1")

    def candidates(self, view: View) -> list[Move]:
        """The moves worth searching: the heuristic's best ``width`` (0: all)."""
        moves = list(view.legal)
        if self.width <= 0 or len(moves) <= self.width:
            return moves
        scored = HeuristicPlayer(self.seed).scores(view)
        scored.sort(key=lambda ms: -ms[1])
        return [m for m, _ in scored[: self.width]]

    def worlds(self, view: View) -> WeightedWorlds:
        """The view's worlds, weighted by the evidence of play as this player's settings say."""
        return WeightedWorlds(view, self.infer, self.temperature, self.mix)

    def estimates(self, view: View, halving: bool = True,
                  prune: bool = True) -> list[Estimate]:
        """The search's estimate of each candidate (every legal move unless ``prune``), best first."""
        if not view.legal:
            raise NoMoveError(view)
        rng = move_rng(self.seed, view, self.name)
        moves = self.candidates(view) if prune else list(view.legal)
        if self.tree and halving:
            return tree_search(self.worlds(view), moves, view.side, rng, self.iterations, self.seconds, self.eps,
                               self.deals, self.ahead, self.seam, self.fair, self.explore)
        return weighted_search(self.worlds(view).sample, moves, view.side, rng, self.iterations, self.seconds,
                               halving, self.eps, self.deals, self.ahead, self.seam, self.fair,
                               fitted_evaluate if self.fitted else None, self.counted)

    def choose(self, view: View | HandView) -> Move:
        if not view.legal:
            raise NoMoveError(view)
        if isinstance(view, HandView):
            # Xeri and Kontsina: the expert's search of those games, with the master's budget.
            iterations = self.iterations if self.iterations is not None else VARIANT_ITERATIONS
            return expert_choose(view, self.seed, iterations, self.seconds, self.width, self.eps, self.name,
                                 deals=self.deals)
        if view.phase == Phase.DECIDE:
            return decide_redeal(view)
        if len(view.legal) == 1:
            return view.legal[0]
        return self.estimates(view)[0].move
