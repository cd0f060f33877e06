"""Diloti's envs part: its action encoding, observation, driver and OpenSpiel game, for the environments.

:data:`ENV` meets :class:`diloti.envs.part.EnvPart`: 559 action ids
(:mod:`~diloti.games.diloti.envs.actions`), a 744-float observation
(:mod:`~diloti.games.diloti.envs.observation`, the game's scores in it for whole
games), rewards within +-251 a round, and whole-game episodes
(:mod:`~diloti.games.diloti.envs.driver`). The OpenSpiel game
(:mod:`~diloti.games.diloti.envs.openspiel`) is imported only when it is registered.

>>> ENV.num_actions, ENV.size, ENV.max_points, ENV.episodes
(559, 744, 251, ('round', 'game'))
>>> ENV.describe(0)
'AC lay'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from diloti.games.diloti.envs.actions import NUM_ACTIONS, Decision, describe
from diloti.games.diloti.envs.driver import Driver, check_options, check_players
from diloti.games.diloti.envs.large import LargeDecision
from diloti.games.diloti.envs.observation import MAX_ROUND_POINTS, SIZE, observe

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from diloti.envs.part import EnvPart
    from diloti.games.diloti.options import Options
    from diloti.games.diloti.view import View


class DilotiEnvPart:
    """Diloti for the environments (see the module's description)."""

    num_actions = NUM_ACTIONS
    size = SIZE
    max_points = MAX_ROUND_POINTS
    episodes = ("round", "game")

    def check_players(self, players: object) -> int:
        return check_players(players)

    def check_options(self, options: object, players: int) -> Options:
        return check_options(options)

    def decision(self, view: View) -> Decision:
        if not view.complete:  # a large table: its moves are asked step by step, never listed
            return LargeDecision.of_position(view.seat, view.hand, view.table, view.declarations, view.options)
        return Decision(view.legal, view.table, view.declarations)

    def observe(self, view: View, head: int = -1, chosen: int = 0) -> npt.NDArray[np.float32]:
        return observe(view, head, chosen)

    def describe(self, action: int) -> str:
        return describe(action)

    def driver(self, players: int, options: Options, dealer: int, seed: int,
               episode: str = "round") -> Driver:
        return Driver(players, options, dealer, seed, episode)

    def batch_kernel(self, num_envs: int, players: int, options: Options, episode: str, buffers: Any,
                     illegal_reward: float, max_steps: int | None) -> Any:
        """The C kernel (:mod:`~diloti.games.diloti.envs.cbatch`) where it is built and plays these arguments (the
        standard rules, one-round episodes), else None."""
        from diloti.games.diloti.envs.cbatch import kernel_for

        return kernel_for(num_envs, players, options, episode, buffers, illegal_reward, max_steps)

    def openspiel(self) -> tuple[Any, Callable[..., Any]]:
        from diloti.games.diloti.envs.openspiel import openspiel

        return openspiel()

    def small_openspiel(self) -> str:
        """Mini Diloti (:mod:`~diloti.games.diloti.envs.mini`) registered with OpenSpiel; its short name."""
        from diloti.games.diloti.envs.mini import register

        return register()


ENV = DilotiEnvPart()
_CONTRACT: EnvPart = ENV  # mypy checks the part against the contract

__all__ = ["ENV", "DilotiEnvPart"]
