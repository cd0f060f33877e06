"""One hand of a one-card game (any HandState game) driven by action ids.

A :class:`HandDriver` holds the :class:`~diloti.games.onecard.state.HandState` of
one hand and the :class:`~diloti.games.onecard.envs.actions.HandDecision` of the
seat to act, applies action ids and keeps each step's mask and observations
(:class:`~diloti.envs.driver_base.DriverBase`, whose surface every game's driver
has, so the environment wrappers drive any).

Rewards (:func:`side_returns`): each seat gets its side's points for the hand
minus the mean of the other sides' points: the points difference with two
sides, zero-sum with three or four (Kontsina without partnerships).

>>> from diloti.games.kontsina.envs import ENCODING, LAYOUT
>>> from diloti.games.kontsina.rules import KontsinaOptions
>>> d = HandDriver(ENCODING, LAYOUT, players=3, options=KontsinaOptions(), dealer=0, seed=5)
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
from diloti.core.registry import find_game
from diloti.envs.driver_base import DriverBase
from diloti.games.onecard.envs.actions import HandDecision, HandEncoding
from diloti.games.onecard.envs.observation import HandLayout, observe_hand
from diloti.games.onecard.state import HandState
from diloti.games.onecard.view import HandView


def side_returns(points: Sequence[int], players: int, sides: int) -> list[float]:
    """Each seat's reward: its side's points minus the mean of the other sides' points (zero-sum).

    >>> side_returns((12, 5), 4, 2), side_returns((3, 1, 1), 3, 3)
    ([7.0, -7.0, 7.0, -7.0], [2.0, -1.0, -1.0])
    """
    total = sum(points)
    per_side = [float(p - (total - p) / (sides - 1)) for p in points]
    return [per_side[seat % sides] for seat in range(players)]


class HandDriver(DriverBase[HandState, HandDecision, HandView]):
    """One hand of ``encoding``'s game played by action ids, observed in ``layout``, with per-step caches of the
    mask and the observations."""

    __slots__ = ("encoding", "game", "layout", "num_actions")

    EPISODE: ClassVar[str] = "hand"

    def __init__(self, encoding: HandEncoding, layout: HandLayout, players: int, options: Any, dealer: int,
                 seed: int) -> None:
        self.encoding = encoding
        self.layout = layout
        self.game = encoding.game
        self.num_actions = encoding.num_actions
        self._start(find_game(encoding.game).state.new(players, options, dealer, seed=seed))

    def same_side(self, a: int, b: int) -> bool:
        return self.state.side_of(a) == self.state.side_of(b)

    def _new_decision(self) -> HandDecision:
        return HandDecision(self.encoding, self.state.legal_moves())

    def _observe(self, view: HandView, head: int, chosen: int) -> npt.NDArray[np.float32]:
        return observe_hand(self.layout, view, head, chosen)

    def returns(self) -> list[float]:
        """Each seat's reward for the hand (:func:`side_returns`; 0 before the end)."""
        s = self.state
        if not self.over:
            return [0.0] * s.players
        return side_returns(s.points(), s.players, s.sides)

    def _title(self) -> str:
        return self.state.game.capitalize()

    def _render_piles(self) -> list[str]:
        s = self.state
        layout = self.layout
        counts = ", ".join(f"side {i} {m.bit_count()}" for i, m in enumerate(s.captured))
        tallies = "".join(f"; {name} {'/'.join(map(str, getattr(s, attr)))}" for name, attr in layout.tallies)
        return [f"  {layout.table_word}: {' '.join(NAMES[c] for c in s.table) or '-'}",
                f"  captured: {counts}{tallies}"]

    def _render_result(self) -> str:
        return "  hand over: " + ", ".join(f"side {i} {p}" for i, p in enumerate(self.state.points()))


__all__ = ["HandDriver", "side_returns"]
