"""One round (or whole game) of Diloti driven by action ids, and the checks of Diloti's arguments.

A :class:`Driver` holds the :class:`~diloti.games.diloti.state.State` of one round and
the :class:`~diloti.games.diloti.envs.actions.Decision` of the seat to act, applies action
ids, and keeps each step's action mask and observations, so that asking twice
costs nothing (:class:`~diloti.envs.driver_base.DriverBase`).

>>> d = Driver(players=2, options=Options(), dealer=0, seed=5)
>>> d.to_act, int(d.mask().sum()) == len(d.actions())
(1, True)
>>> import random
>>> rng = random.Random(1)
>>> while not d.over:
...     _ = d.apply(rng.choice(d.actions()))
>>> sum(d.returns())
0.0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from diloti.core.cards import NAMES
from diloti.core.errors import DilotiError
from diloti.core.moves import Move
from diloti.envs.driver import EnvArgumentError
from diloti.envs.driver_base import DriverBase
from diloti.games.diloti.envs.actions import Decision, steps_of
from diloti.games.diloti.envs.large import decision_of
from diloti.games.diloti.envs.observation import observe
from diloti.games.diloti.envs.planes import encode_state, prefix
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View


def check_players(players: object) -> int:
    if isinstance(players, bool) or players not in (2, 4):
        raise EnvArgumentError(f"invalid players={players!r}: expected 2 or 4")
    return int(players)


def check_options(options: object) -> Options:
    """``None`` (the standard rules), an :class:`Options`, a mapping of option names, or options text."""
    if options is None:
        return Options()
    if isinstance(options, Options):
        return options
    try:
        if isinstance(options, Mapping):
            return Options.from_dict(options)
        if isinstance(options, str):
            return Options.from_text(options)
    except DilotiError as exc:
        raise EnvArgumentError(f"invalid options={options!r}: {exc}") from None
    raise EnvArgumentError(f"invalid options={options!r}: expected Options, a dict of options or options text")


class Driver(DriverBase[State, Decision, View]):
    """One round played by action ids, with per-step caches of the mask and the observations."""

    __slots__ = ()

    EPISODE: ClassVar[str] = "round"

    def __init__(self, players: int, options: Options, dealer: int, seed: int, episode: str = "round") -> None:
        if episode == "game":
            game = Game(players, options, seed=seed, first_dealer=dealer)
            self._start(game.state, game)
        else:
            self._start(State.new(players, options, dealer, seed=seed))

    def same_side(self, a: int, b: int) -> bool:
        """Whether seats ``a`` and ``b`` are partners (or the same seat)."""
        return (a - b) % 2 == 0

    def _new_decision(self) -> Decision:
        return decision_of(self.state)  # bounded on any table

    def _steps_of(self, move: Move) -> int:
        # Decision.encode's sequence, from the table alone: the decision (every legal move grouped) is not built.
        s = self.state
        return steps_of(move, s.table, s.declarations)

    def _observe(self, view: View, head: int, chosen: int) -> npt.NDArray[np.float32]:
        return observe(view, head, chosen)

    def _encode(self, seat: int) -> bytearray:
        # From the state: the view, a dozen tuples, is not built for the observation alone.
        m = self.match
        return encode_state(self.state, seat, (0, 0) if m is None else (m.scores[0], m.scores[1]))

    def _observe_step(self, seat: int, head: int, chosen: int) -> npt.NDArray[np.float32]:
        # The seat's bytes before the move's head are kept (immutable) for the move's later steps, which write the
        # move being chosen into a copy of them (planes.prefix); the first step's array is over the kernel's own
        # buffer, which the driver keeps no reference to: no copy of an array, one numpy call a step.
        base: bytes | None = self._base.get(seat)
        if base is None:
            data = self._encode(seat)
            base = self._base[seat] = bytes(data)
            if head < 0:
                return np.frombuffer(data, dtype=np.float32)
        return np.frombuffer(prefix(base, head, chosen), dtype=np.float32)

    def observation_data(self, seat: int) -> bytes | bytearray | memoryview:
        # _observe_step's bytes without the array: the kernel's, or the kept bytes before the move's head.
        d = self._decision
        head, chosen = (-1, 0) if d is None else (d.head, d.chosen)
        base: bytes | None = self._base.get(seat)
        if base is None:
            data = self._encode(seat)
            base = self._base[seat] = bytes(data)
            if head < 0:
                return data
        return base if head < 0 else prefix(base, head, chosen)

    def returns(self) -> list[float]:
        """Each seat's reward: for a round, its side's points minus the other side's; for a whole game, 1 for
        the winning side and -1 for the other (0 before the end)."""
        if not self.over:
            return [0.0] * self.state.players
        if self.match is not None:
            won = self.match.winner
            return [1.0 if s % 2 == won else -1.0 for s in range(self.state.players)]
        a, b = self.state.points()
        return [float(a - b) if s % 2 == 0 else float(b - a) for s in range(self.state.players)]

    def _title(self) -> str:
        return "Diloti"

    def _render_piles(self) -> list[str]:
        s = self.state
        table = [NAMES[c] for c in s.table] + [str(d) for d in s.declarations]
        return [f"  table: {' '.join(table) or '-'}",
                f"  captured: side 0 {s.captured[0].bit_count()}, side 1 {s.captured[1].bit_count()}; "
                f"xeri {s.sweeps[0]}/{s.sweeps[1]}"]

    def _render_result(self) -> str:
        a, b = self.state.points()
        return f"  round over: side 0 {a}, side 1 {b}"


__all__ = ["Driver", "check_options", "check_players"]
