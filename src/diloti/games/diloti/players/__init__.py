"""Diloti's card sense for the computer players: its part for the players' floor (:mod:`diloti.ai.part`).

The generic players and searches (:mod:`diloti.ai`) ask this module, through the
registry (:func:`diloti.ai.games.game_players`), for what is Diloti's own:

- :mod:`~diloti.games.diloti.players.knowledge`: card values, card counting, tables
  after a move, what a card sweeps; the face-card redeal decision;
- :mod:`~diloti.games.diloti.players.scoring`: the ``greedy`` and ``heuristic`` scores;
- :mod:`~diloti.games.diloti.players.sampler`: worlds consistent with a view (declarers
  hold their value, the dealer's bottom card, a pending redeal's face cards);
- :mod:`~diloti.games.diloti.players.inference`: worlds weighted by the evidence of play;
- :mod:`~diloti.games.diloti.players.opponent`: the same under a model of play handed down (the learned policy);
- :mod:`~diloti.games.diloti.players.rollout`: the rollout policies and the evaluation;
- :mod:`~diloti.games.diloti.players.evaluation`: the fitted evaluation of a deal's start.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=3)
>>> ranked = rank_moves(s.view(s.turn), 1, 40, None, "expert")
>>> sorted(m for m, _ in ranked) == sorted(s.legal_moves())
True
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from diloti.ai.part import Rollouts, SearchSettings
from diloti.ai.round_points import ACES, ALL_MASK, TEN_OF_DIAMONDS, TWO_OF_CLUBS, Scoring, rank_classes
from diloti.ai.search import search_ranking
from diloti.ai.winchance import round_chances
from diloti.core.moves import REDEAL, Move
from diloti.core.phase import Phase
from diloti.core.rule_options import MAX_TARGET
from diloti.games.diloti.players import knowledge
from diloti.games.diloti.players.evaluation import fitted_evaluate
from diloti.games.diloti.players.inference import WeightedWorlds
from diloti.games.diloti.players.opponent import ModelEvidence, PooledWorlds
from diloti.games.diloti.players.rollout import counted_policy, evaluate, fast_policy
from diloti.games.diloti.players.scoring import greedy_scores, heuristic_scores
from diloti.games.diloti.view import View

COUNTED_ANALYSIS = 99  # the master's analysis: every rollout move by card counting (as the master plays)
ROUND_CARDS = 48  # the cards a round's players play (52 less the 4 first laid on the table)


def ruled_move(view: View) -> Move | None:
    """The face-card redeal decision, taken by rule (a hand of 5 or 6 face cards captures little: redeal)."""
    if view.phase == Phase.DECIDE:
        return knowledge.decide_redeal(view)
    return None


def move_rng(seed: int | None, view: View, salt: str = "") -> random.Random:
    """A generator for one decision, from the player's seed and the public position only."""
    return knowledge.move_rng(seed, view, salt)


def worlds(view: View, settings: SearchSettings) -> WeightedWorlds | PooledWorlds:
    """Worlds consistent with ``view``, weighted by the evidence of play when ``settings.infer`` > 0: under the
    model of play ``settings.model`` if one is handed down (:mod:`~diloti.games.diloti.players.opponent`), else
    under this game's own (:mod:`~diloti.games.diloti.players.inference`)."""
    if settings.model is not None and settings.infer > 0:
        evidence = ModelEvidence(view, settings.model, settings.temperature, settings.mix)
        return PooledWorlds(view, evidence, settings.infer, settings.pool)
    return WeightedWorlds(view, settings.infer, settings.temperature, settings.mix)


def rollouts(settings: SearchSettings) -> Rollouts:
    """Diloti's rollouts for a search with ``settings`` (``eps``, ``seam``, ``fair``, ``counted``, ``ahead``,
    ``fitted``): the policies of :mod:`~diloti.games.diloti.players.rollout` bound to them (no extra call in the
    rollouts' loop), the evaluation, and the tree search's first choice (the policy without random moves)."""
    eps, seam, fair = settings.eps, settings.seam, settings.fair
    return Rollouts(
        policy=partial(fast_policy, eps, seam, fair),
        value=fitted_evaluate if settings.fitted else evaluate,
        counted=partial(counted_policy, eps),
        counted_moves=settings.counted,
        ahead=settings.ahead,
        expand=partial(fast_policy, 0.0, seam, fair),
    )


def rank_moves(view: View, seed: int | None, iterations: int, seconds: float | None,
               level: str) -> list[tuple[Move, float]]:
    """Every legal move ranked by the ``level``'s search (the master's: its card-counting rollouts), the
    estimates rounded to 3 places; a face-card redeal decision is not searched (redeal first, both 0.0)."""
    if view.phase == Phase.DECIDE:
        return sorted(((m, 0.0) for m in view.legal), key=lambda ms: ms[0].kind != REDEAL)
    settings = SearchSettings(counted=COUNTED_ANALYSIS) if level == "master" else SearchSettings()
    return search_ranking(view, move_rng(seed, view, "analysis"), worlds(view, settings), rollouts(settings),
                          iterations, seconds, digits=3)


def win_chances(view: View, ranked: Sequence[tuple[Move, float]]) -> list[float]:
    """The chance to win the game after each ranked move (:mod:`diloti.ai.winchance`'s model, measured on
    Diloti's rounds)."""
    return round_chances(view, ranked, ROUND_CARDS, __name__)


def endless(options: Any) -> Any:
    """Options under which a game never ends by itself: the largest target."""
    return options.replace(target=MAX_TARGET)


# RULES.md, *End of round and scoring*: 4 for the card majority, 1 an ace, 2 the 10D, 1 the 2C, 10 a xeri.
EXACT_SCORING: Final = Scoring(((ACES | TEN_OF_DIAMONDS | TWO_OF_CLUBS, 1), (TEN_OF_DIAMONDS, 1)),
                               ((ALL_MASK, 4),), 10, (), rank_classes())


def exact_scoring(options: Any) -> Scoring:
    """Diloti's round points for the exact solver (:mod:`diloti.ai.exact`): the same under every option."""
    return EXACT_SCORING


#: The part: this module, whose functions meet the contract (what :mod:`diloti.ai.games` reads of every game's
#: players part).
PART = sys.modules[__name__]

if TYPE_CHECKING:
    from diloti.ai.part import PlayersPart
    from diloti.games.diloti import players as _this

    _checked: PlayersPart = _this


__all__ = ["EXACT_SCORING", "PART", "endless", "exact_scoring", "greedy_scores", "heuristic_scores", "move_rng",
           "rank_moves", "rollouts", "ruled_move", "win_chances", "worlds"]
