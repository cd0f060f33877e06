"""One hand of Xeri or Kontsina driven by action ids: the parent games' counterpart of :mod:`diloti.envs.driver`.

A :class:`VariantDriver` holds the :class:`~diloti.core.variant.HandState` of
one hand and the :class:`~diloti.envs.variant_actions.VariantDecision` of the
seat to act, applies action ids and keeps each step's mask and observations.
Its surface is :class:`~diloti.envs.driver.Driver`'s, so the environment
wrappers drive either.

Rewards (:func:`side_returns`): each seat gets its side's points for the hand
minus the mean of the other sides' points: the points difference with two
sides, zero-sum with three or four (Kontsina without partnerships).

>>> from diloti.core.kontsina import KontsinaOptions
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
from typing import Any

import numpy as np
import numpy.typing as npt

from diloti.core.cards import NAMES, cards_of
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.core.variant import HandState, VariantView
from diloti.core.variants import find_variant
from diloti.envs.actions import InvalidActionError
from diloti.envs.variant_actions import NUM_VARIANT_ACTIONS, VariantDecision, describe
from diloti.envs.variant_observation import observe_variant


def side_returns(points: Sequence[int], players: int, sides: int) -> list[float]:
    """Each seat's reward: its side's points minus the mean of the other sides' points (zero-sum).

    >>> side_returns((12, 5), 4, 2), side_returns((3, 1, 1), 3, 3)
    ([7.0, -7.0, 7.0, -7.0], [2.0, -1.0, -1.0])
    """
    total = sum(points)
    per_side = [float(p - (total - p) / (sides - 1)) for p in points]
    return [per_side[seat % sides] for seat in range(players)]


class VariantDriver:
    """One hand of ``game`` played by action ids, with per-step caches of the mask and the observations."""

    __slots__ = ("_decision", "_mask", "_obs", "_views", "game", "num_actions", "state", "steps")

    def __init__(self, game: str, players: int, options: Any, dealer: int, seed: int) -> None:
        self.game = game
        self.state: HandState = find_variant(game).new(players, options, dealer, seed=seed)
        self.num_actions = NUM_VARIANT_ACTIONS[game]
        self.steps = 0
        self._decision: VariantDecision | None = None
        self._mask: npt.NDArray[np.int8] | None = None
        self._obs: dict[int, npt.NDArray[np.float32]] = {}
        self._views: dict[int, VariantView] = {}

    @property
    def over(self) -> bool:
        return self.state.phase == Phase.OVER

    @property
    def to_act(self) -> int:
        """The seat whose action is awaited (the seat after the dealer once the hand is over)."""
        return self.state.turn

    def same_side(self, a: int, b: int) -> bool:
        return self.state.side_of(a) == self.state.side_of(b)

    @property
    def decision(self) -> VariantDecision:
        d = self._decision
        if d is None:
            d = self._decision = VariantDecision(self.game, self.state.legal_moves())
        return d

    def actions(self) -> list[int]:
        """The actions allowed now, ascending (empty once the hand is over)."""
        return self.decision.legal_actions()

    def mask(self) -> npt.NDArray[np.int8]:
        """The action mask of the seat to act (all zeros once the hand is over). Do not change it."""
        m = self._mask
        if m is None:
            m = np.zeros(self.num_actions, dtype=np.int8)
            m[self.decision.actions] = 1
            self._mask = m
        return m

    def view(self, seat: int) -> VariantView:
        v = self._views.get(seat)
        if v is None:
            v = self._views[seat] = self.state.view(seat)
        return v

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` now (a new array each step). Do not change it."""
        o = self._obs.get(seat)
        if o is None:
            d = self._decision
            head, chosen = (d.head, d.chosen) if d is not None else (-1, 0)
            o = self._obs[seat] = observe_variant(self.view(seat), head, chosen)
        return o

    def apply(self, action: int) -> Move | None:
        """Take ``action`` for the seat to act; the move, once it is chosen and played, else None."""
        if self.over:
            raise InvalidActionError(f"illegal action {action}: the hand is over")
        move = self.decision.apply(action)
        self.steps += 1
        self._mask = None
        self._obs = {}
        if move is not None:
            self.state.push(move)
            self._decision = None
            self._views = {}
        return move

    def play(self, move: Move) -> None:
        """Play a whole move for the seat to act, as its action sequence would (raises if it is not legal)."""
        if self.over:
            raise InvalidActionError(f"illegal move {move}: the hand is over")
        d = self.decision
        if d.head >= 0:
            raise InvalidActionError(f"illegal move {move}: a move is being chosen ({describe(self.game, d.head)})")
        self.steps += len(d.encode(move))
        self._mask = None
        self._obs = {}
        self.state.push(move)
        self._decision = None
        self._views = {}

    def returns(self) -> list[float]:
        """Each seat's reward for the hand (:func:`side_returns`; 0 before the end)."""
        s = self.state
        if not self.over:
            return [0.0] * s.players
        return side_returns(s.points(), s.players, s.sides)

    def render(self) -> str:
        """The whole hand as text (every hand shown), for ``render_mode="ansi"``."""
        s = self.state
        lines = [f"{s.GAME.capitalize()}, {s.players} players, dealer {s.dealer}, deal {s.deal_no}, "
                 f"{Phase(s.phase).label}, stock {s.stock_size}"]
        for seat, hand in enumerate(s.hands):
            mark = ">" if seat == s.turn and not self.over else " "
            lines.append(f"{mark} player_{seat}: {' '.join(NAMES[c] for c in hand) or '-'}")
        lines.append(f"  {'pile' if s.GAME == 'xeri' else 'table'}: {' '.join(NAMES[c] for c in s.table) or '-'}")
        counts = ", ".join(f"side {i} {m.bit_count()}" for i, m in enumerate(s.captured))
        lines.append(f"  captured: {counts}" + (f"; xeri {'/'.join(map(str, s.xeri))}" if s.GAME == "xeri" else ""))
        d = self._decision
        if d is not None and d.head >= 0:
            items = " ".join(NAMES[c] for c in cards_of(d.chosen))
            lines.append(f"  choosing: {describe(self.game, d.head)}{' ' + items if items else ''}")
        if s.history:
            seat, move = s.history[-1]
            lines.append(f"  last: player_{seat} {move}")
        if self.over:
            lines.append("  hand over: " + ", ".join(f"side {i} {p}" for i, p in enumerate(s.points())))
        return "\n".join(lines)


__all__ = ["VariantDriver", "side_returns"]
