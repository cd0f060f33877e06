"""One hand of Xeri or Kontsina driven by action ids: the parent games' counterpart of :mod:`diloti.envs.driver`.

A :class:`VariantDriver` holds the :class:`~diloti.core.hand_state.HandState` of
one hand and the :class:`~diloti.envs.variant_actions.VariantDecision` of the
seat to act, applies action ids and keeps each step's mask and observations.
Its surface is :class:`~diloti.envs.driver.Driver`'s, so the environment
wrappers drive either.

Rewards (:func:`side_returns`): each seat gets its side's points for the hand
minus the mean of the other sides' points: the points difference with two
sides, zero-sum with three or four (Kontsina without partnerships).

>>> from diloti.games.kontsina.rules import KontsinaOptions
>>> d = VariantDriver("kontsina", players=3, options=KontsinaOptions(), dealer=0, seed=5)
>>> d.to_act, int(d.mask().sum()) == len(d.actions())
(1, True)
>>> import random
>>> rng = random.Random(1)
>>> while not d.over:
...     _ = d.apply(rng.choice(d.actions()))
>>> abs(sum(d.returns())) < 1e-9
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from diloti.core.cards import NAMES
from diloti.core.hand_state import HandState, HandView
from diloti.envs.driver_base import DriverBase
from diloti.envs.variant_actions import NUM_VARIANT_ACTIONS, VariantDecision
from diloti.envs.variant_observation import observe_variant
from diloti.games import find_game


def side_returns(points: Sequence[int], players: int, sides: int) -> list[float]:
    """Each seat's reward: its side's points minus the mean of the other sides' points (zero-sum).

    >>> side_returns((12, 5), 4, 2), side_returns((3, 1, 1), 3, 3)
    ([7.0, -7.0, 7.0, -7.0], [2.0, -1.0, -1.0])
    """
    total = sum(points)
    per_side = [float(p - (total - p) / (sides - 1)) for p in points]
    return [per_side[seat % sides] for seat in range(players)]


class VariantDriver(DriverBase[HandState, VariantDecision, HandView]):
    """One hand of ``game`` played by action ids, with per-step caches of the mask and the observations."""

    __slots__ = ("game", "num_actions")

    EPISODE: ClassVar[str] = "hand"

    def __init__(self, game: str, players: int, options: Any, dealer: int, seed: int) -> None:
        self.game = game
        self.num_actions = NUM_VARIANT_ACTIONS[game]
        self._start(find_game(game).state.new(players, options, dealer, seed=seed))

    def same_side(self, a: int, b: int) -> bool:
        return self.state.side_of(a) == self.state.side_of(b)

    def _new_decision(self) -> VariantDecision:
        return VariantDecision(self.game, self.state.legal_moves())

    def _observe(self, view: HandView, head: int, chosen: int) -> npt.NDArray[np.float32]:
        return observe_variant(view, head, chosen)

    def returns(self) -> list[float]:
        """Each seat's reward for the hand (:func:`side_returns`; 0 before the end)."""
        s = self.state
        if not self.over:
            return [0.0] * s.players
        return side_returns(s.points(), s.players, s.sides)

    def _title(self) -> str:
        return self.state.GAME.capitalize()

    def _render_piles(self) -> list[str]:
        s = self.state
        counts = ", ".join(f"side {i} {m.bit_count()}" for i, m in enumerate(s.captured))
        return [f"  {'pile' if s.GAME == 'xeri' else 'table'}: {' '.join(NAMES[c] for c in s.table) or '-'}",
                f"  captured: {counts}" + (f"; xeri {'/'.join(map(str, s.xeri))}" if s.GAME == "xeri" else "")]

    def _render_result(self) -> str:
        return "  hand over: " + ", ".join(f"side {i} {p}" for i, p in enumerate(self.state.points()))


__all__ = ["VariantDriver", "side_returns"]
