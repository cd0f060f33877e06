"""The ``master`` level: the expert's determinized search with card-counting rollouts and a time budget.

What it adds to the ``expert`` (:mod:`diloti.ai.expert`):

- **Rollouts that count cards instead of reading hands.** In each sampled
  world the expert's rollouts play a fast policy that reads the next
  player's hand in that world, so every rollout dodges every sweep as if it
  saw the cards (clairvoyant rollouts, the known optimism of determinized
  search). The master's rollouts are played by the ``heuristic``'s card
  counting from each mover's own view (Diloti's ``counted_move``;
  ``counted``, default all of the rollout): about ten times the cost of a
  playout, and the strongest change measured (docs/STRENGTH.md).
- **Inference from play** (``infer``). Under the game's own model of play it
  is off by default (it predicts hidden hands better, but no match showed it
  helping play); under the learned policy it is on (``infer`` 1), which an
  SPRT [0, 30] accepted over the master without it (issue 53: docs/RESEARCH.md,
  *The master learns from it*). Each sampled world is
  weighted by how likely the other seats' moves of this deal were, had they
  held that world's hands
  (Diloti's ``Evidence``): a player who laid a card while
  holding a capture, or left a sweepable table, probably had nothing better.
  Estimates are weighted means (importance sampling), so worlds that explain
  the play count more; ``infer`` (0..1) tempers the weights (0: the expert's
  uniform worlds). The model of play is the game's own (``model=play``), the
  learned policy (``model=learned``, :mod:`diloti.ai.learned`, issue 53; where
  its weights claim the game and player count, else the game's own), or, by
  default, ``model=auto``: the learned one where numpy is installed (the
  ``learned`` extra), else the game's own with today's master's settings: each
  observed move weighed by the policy's softmax from the view its seat had
  then. A network pass per observed move and distinct hand costs some of the
  budget's worlds; ``pool`` caps the worlds weighed per decision (0: none).
- **Anytime within a budget.** ``seconds`` (default 0.25) is the budget of a
  move, used whole: a first stage measures the playout rate, and the
  sequential halving that follows is planned for the time left. With
  ``iterations`` (playouts) as well, whichever ends first; with
  ``seconds=none`` and ``iterations`` the move is exactly reproducible from
  the seed.
- **Candidates**: the heuristic's best ``width`` (default 5, as the expert).
- **Exact once nothing is hidden** (issue 54). In a 2-player round whose
  stock is empty the unseen cards are the other hand: the rest of the round
  is a game of perfect information, which the exact solver
  (:mod:`diloti.ai.exact`) plays best, to the round's points, within half
  the move's budget (``exact=0``: search it as before). Past the solver's
  limits (a long last deal, some 6 cards a hand) the search decides, with
  the time left (:meth:`~diloti.ai.expert.SearchPlayer.choose_exact`).
- **Bounded on any table.** Its moves are the view's ``legal``: on a table grown
  by lays, whose legal moves can number in the millions, a bounded sample (every
  kind and value each card can make; ``View.complete`` False), and its
  rollouts' moves likewise (``State.candidate_moves``), so a move stays within
  its budget whatever the table holds (docs/PERFORMANCE.md, *Large tables*).

Any game: the worlds, rollouts and candidates are the game's (its players part,
:mod:`diloti.ai.part`), which takes the refinements it offers and leaves the
rest. In the one-card games the master plays the expert's search of those games
with its own budget: ``iterations``, or 3,000 playouts capped by ``seconds``
(their rollouts' ``timed_iterations``); the card-counting rollouts, the inference,
the fitted evaluation and the tree search are Diloti's only.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=2)
>>> bot = MasterPlayer(seed=1, iterations=80, seconds=None)
>>> bot.choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from diloti.ai.errors import InvalidSettingError
from diloti.ai.expert import SearchPlayer, candidates, check_exact
from diloti.ai.games import players_part
from diloti.ai.ismcts import DEFAULT_EXPLORE, tree_search
from diloti.ai.part import EPSILON, MoveModel, PlayersPart, Sampler, SearchSettings
from diloti.ai.search import Estimate, search_clock, weighted_search
from diloti.core.moves import Move

# A quarter of a second since 28 Nov 2026: the compiled core searches in it what the master of the day issue 25 was
# filed searched in its second, and an SPRT on duplicate deals accepted it as strong (docs/STRENGTH.md, *The default
# budget*). It was 1.0: ``master:seconds=1`` is that master.
DEFAULT_SECONDS = 0.25
DEFAULT_WIDTH = 5
DEFAULT_INFER = 0.0  # the weight of the evidence of play under the game's own model (``infer`` not given)
LEARNED_INFER = 1.0  # ... and under the learned model, which the SPRT of issue 53 accepted at this weight
DEFAULT_TEMPERATURE = 1.0  # the model of play's softmax temperature (the inference)
DEFAULT_MIX = 0.1  # its share of the uniform choice
DEFAULT_AHEAD = 0
DEFAULT_SEAM = 0
DEFAULT_FAIR = 0
DEFAULT_TREE = 0
DEFAULT_FITTED = 0
DEFAULT_COUNTED = 99  # every move of a rollout (a deal is at most 24 moves)
# The inference's model of play: the game's own, the learned policy (issue 53), or ``auto``: the learned one where
# it can run (numpy) and claims the game and player count, else the game's own.
MODELS = ("auto", "play", "learned")
DEFAULT_MODEL = "auto"
DEFAULT_POOL = 0  # the worlds the inference weighs per decision (0: every world drawn)


def learned_available() -> bool:
    """Whether the learned policy can run here (numpy importable)."""
    from diloti.ai.learned import available

    return available()


def learned_model(game: str, players: int) -> MoveModel | None:
    """The learned policy as a model of play for ``game`` with ``players`` (None where its weights do not claim
    them: the inference then uses the game's own model).

    >>> learned_model("diloti", 4) is None, learned_model("diloti", 2) is not None
    (True, True)
    """
    from diloti.ai.learned import claims

    if not claims(game, players):
        return None
    from diloti.ai.learned.features import move_features, position_features
    from diloti.ai.learned.network import load_weights

    net = load_weights()

    def scores(view: Any) -> list[float]:
        out: list[float] = net.scores(position_features(view), move_features(view)).tolist()
        return out

    return scores


class MasterPlayer(SearchPlayer):
    """Determinized search with card-counting rollouts, anytime within a budget (see the module's text).

    ``seconds``: the budget of a move (default 0.25; none: only ``iterations``,
    exactly reproducible); ``iterations``: a playout budget (default none: the
    time decides); ``width``: the heuristic's best moves searched (0: all);
    ``eps``: the rollouts' share of random moves; ``deals``: how many deal ends
    a rollout plays to; ``infer``: the weight of the evidence of play (default 1 with the learned model, 0 with
    the game's own: none);
    ``temperature``, ``mix``: the model of play (Diloti's inference);
    ``fitted``: score the rollouts' ends with the fitted evaluation
    (Diloti's) instead of the captured cards alone;
    ``counted``: how many moves of each rollout the heuristic's card counting
    plays (Diloti's ``counted_move``) before the fast policy (default 99: all; 0: the
    expert's rollouts); ``cpu``: 1 counts ``seconds`` in the search's CPU time instead of
    the wall clock's (for measurements on a busy machine: the master gets its budget of an idle core);
    ``exact``: 1 (default) plays the exact solver's best move in an exact position (2 players, the stock
    empty), 0 searches it as any other; ``model``: the inference's model of play, ``play`` (the game's),
    ``learned`` (the learned policy, where it claims the game; ``infer=0`` turns it off) or ``auto`` (default: the
    learned one where numpy is installed, else the game's); ``pool``: at
    most this many worlds weighed per decision, drawn again past it (default 0: no cap).
    """

    name = "master"
    # The settings whose values are words, not numbers (diloti.ai.parse_spec).
    words: ClassVar[dict[str, tuple[str, ...]]] = {"model": MODELS}

    def __init__(self, seed: int | None = None, iterations: int | None = None,
                 seconds: float | None = DEFAULT_SECONDS, width: int = DEFAULT_WIDTH, eps: float = EPSILON,
                 deals: int = 1, infer: float | None = None, temperature: float = DEFAULT_TEMPERATURE,
                 mix: float = DEFAULT_MIX, ahead: int = DEFAULT_AHEAD, seam: int = DEFAULT_SEAM,
                 fair: int = DEFAULT_FAIR, tree: int = DEFAULT_TREE, explore: float = DEFAULT_EXPLORE,
                 fitted: int = DEFAULT_FITTED, counted: int = DEFAULT_COUNTED, cpu: int = 0,
                 exact: int = 1, model: str = DEFAULT_MODEL, pool: int = DEFAULT_POOL) -> None:
        self.seed = seed
        if model not in MODELS:
            raise InvalidSettingError("model", model, f"one of {', '.join(MODELS)}")
        if model == "learned" and not learned_available():
            raise InvalidSettingError("model", model, "play here: the learned model needs numpy (the learned extra)")
        self.model = model if model != "auto" else "learned" if learned_available() else "play"
        if self.model == "learned":
            from diloti.ai.learned.network import load_weights

            load_weights()  # numpy and the weights read now, not in the first move's budget
        try:
            self.pool = int(pool)
        except (TypeError, ValueError):
            raise InvalidSettingError("pool", pool, "a whole number, 0 or more") from None
        if self.pool < 0 or self.pool != float(pool):
            raise InvalidSettingError("pool", pool, "a whole number, 0 or more")
        if cpu not in (0, 1, True, False):
            raise InvalidSettingError("cpu", cpu, "0 or 1")
        self.cpu = bool(cpu)
        self.exact = check_exact(exact)
        self.iterations = None if iterations is None else int(iterations)
        self.seconds = None if seconds is None else float(seconds)
        self.width = int(width)
        self.eps = float(eps)
        self.deals = int(deals)
        # None: the weight that goes with the model the view gets (settings()); a number: that weight everywhere.
        self.infer = None if infer is None else float(infer)
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
        if self.infer is not None and not 0.0 <= self.infer <= 1.0:
            raise InvalidSettingError("infer", infer, "between 0 and 1")
        if self.temperature <= 0:
            raise InvalidSettingError("temperature", temperature, "positive")
        if not 0.0 <= self.mix <= 1.0:
            raise InvalidSettingError("mix", mix, "between 0 and 1")

    def candidates(self, view: Any, part: PlayersPart | None = None) -> list[Move]:
        """The moves worth searching: the heuristic's best ``width`` (0: all)."""
        return candidates(view, self.width, part)

    def settings(self, view: Any = None) -> SearchSettings:
        """What this player asks of a game's worlds and rollouts (for ``view``: with its model of play, where the
        model claims the view's game and player count; elsewhere the game's own)."""
        model = self.move_model(view)
        return SearchSettings(eps=self.eps, ahead=self.ahead, seam=self.seam, fair=self.fair, counted=self.counted,
                              fitted=self.fitted, infer=self.infer_for(model), temperature=self.temperature,
                              mix=self.mix, model=model, pool=self.pool)

    def infer_for(self, model: MoveModel | None) -> float:
        """The weight of the evidence of play with ``model`` (None: the game's own): the one given, else the
        default that goes with the model."""
        if self.infer is not None:
            return self.infer
        return DEFAULT_INFER if model is None else LEARNED_INFER

    def move_model(self, view: Any) -> MoveModel | None:
        """The model of play the inference weighs the other seats' moves by in ``view`` (None: the game's own)."""
        if self.model != "learned" or view is None or (self.infer is not None and self.infer <= 0):
            return None
        return learned_model(view.game, view.players)

    def worlds(self, view: Any) -> Sampler:
        """The view's worlds, weighted by the evidence of play as this player's settings say."""
        return players_part(view).worlds(view, self.settings(view))

    def estimates(self, view: Any, halving: bool = True, prune: bool = True) -> list[Estimate]:
        """The search's estimate of each candidate (every legal move unless ``prune``), best first."""
        part, rng, moves = self._search_start(view, prune)
        settings = self.settings(view)
        rollouts = part.rollouts(settings)
        worlds = part.worlds(view, settings)
        iterations = self.iterations if self.iterations is not None else rollouts.timed_iterations
        if self.tree and halving and rollouts.expand is not None:
            # The tree's rollouts are the fast policy's, scored by the captured cards alone.
            fast = part.rollouts(replace(settings, counted=0, fitted=False))
            return tree_search(worlds, moves, view.side, rng, iterations, self.seconds, fast, self.deals,
                               self.explore, search_clock(self.cpu))
        return weighted_search(worlds.sample, moves, view.side, rng, iterations, self.seconds, rollouts, halving,
                               self.deals, self.cpu)


__all__ = ["DEFAULT_COUNTED", "MasterPlayer"]
