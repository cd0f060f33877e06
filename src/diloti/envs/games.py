"""The games the research environments play: every registered game with an envs part, through one contract.

A game joins the environments by its envs part, the module its registry entry names for this floor
(``parts["envs"]``), whose ``ENV`` meets :class:`~diloti.envs.part.EnvPart`: its action count, observation
length and bound of rewards, the episodes it offers, its checks of players and options, and the decision,
observation, driver and OpenSpiel game of one round. This module imports each part by that name on first use
(no part imports this module); :class:`EnvGame` joins the registry's entry and the part: what PettingZoo,
Gymnasium and OpenSpiel read, asking its capability flags (its seats, its episodes), never its name.

>>> from diloti.core.registry import default_game
>>> g = find_env_game(default_game().name)
>>> g.name == default_game().name, g.env_name == f"{g.name}_v0", g.check_episode("game")
(True, True, 'game')
>>> find_env_game("pishti")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
diloti.envs.driver.EnvArgumentError: invalid game='pishti': expected one of ...
>>> g.check_players(5)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
diloti.envs.driver.EnvArgumentError: invalid players=5...: expected 2 or 4
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from diloti.core.errors import UnknownGameError
from diloti.core.registry import GAMES, GameInfo
from diloti.envs.actions import StepDecision
from diloti.envs.driver import EPISODES, EnvArgumentError
from diloti.envs.part import EnvPart

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from diloti.envs.driver_base import DriverBase


class BatchKernel(Protocol):
    """A game's batched kernel (an optional capability of its envs part, ``batch_kernel``): many games of it stepped
    in one call, writing :class:`diloti.envs.batch.BatchStep`'s buffers as the batch's Python loop would.

    - ``name``: what :attr:`~diloti.envs.batch.SelfPlayBatch.backend` reports (Diloti's: ``"c"``);
    - ``start(i, dealer, seed)``: game ``i``'s episode dealt from ``seed`` and its row written; None, or the Python
      driver that plays it (the kernel handed it over);
    - ``step(actions)``: one action of each game the kernel plays (``int64``, one a game): the rows, rewards,
      dones and final observations written; returns the games whose episode ended (to be started again) and
      those it hands to Python in this step;
    - ``export(i)``: the Python driver that plays game ``i`` on from its position now;
    - ``sample(uniforms)``: an allowed action of each game's mask row, the k-th (ascending) for
      k = floor(u * count): :func:`diloti.envs.batch.sample_masks` from the same uniforms.
    """

    name: str

    def start(self, i: int, dealer: int, seed: int) -> DriverBase[Any, Any, Any] | None: ...
    def step(self, actions: npt.NDArray[np.int64]) -> tuple[list[int], list[int]]: ...
    def export(self, i: int) -> DriverBase[Any, Any, Any]: ...
    def sample(self, uniforms: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]: ...


@dataclass(frozen=True)
class EnvGame:
    """One game as the environments see it: its registry entry and its envs part (see the module's description)."""

    info: GameInfo
    part: EnvPart

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def players(self) -> tuple[int, ...]:
        return self.info.players

    @property
    def num_actions(self) -> int:
        return self.part.num_actions

    @property
    def size(self) -> int:
        """The observation's length."""
        return self.part.size

    @property
    def max_points(self) -> int:
        """The most a side can score in a round or hand: rewards lie within +-max_points."""
        return self.part.max_points

    @property
    def env_name(self) -> str:
        """The PettingZoo environment's name: ``<game>_v0``."""
        return f"{self.name}_v0"

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @property
    def not_dealt(self) -> str:
        """What ``render`` shows before ``reset``."""
        return f"{self.title}: call reset() to deal a {self.info.round_word}"

    def check_players(self, players: object) -> int:
        return self.part.check_players(players)

    def check_options(self, options: object, players: int) -> Any:
        """``None`` (the standard rules), the game's options object, a mapping of option names, or options text."""
        return self.part.check_options(options, players)

    def check_episode(self, episode: object) -> str:
        """``"round"`` (one round or hand) or ``"game"`` (rounds to the target), if the game offers it."""
        if episode not in EPISODES:
            raise EnvArgumentError(f"invalid episode={episode!r}: expected 'round' or 'game'")
        if episode not in self.part.episodes:
            offered = ", ".join(g.name for g in env_games().values() if episode in g.part.episodes)
            raise EnvArgumentError(f"invalid episode={episode!r} for game={self.name!r}: {self.name}'s episodes are "
                                   f"one {self.info.round_word} (whole-game episodes: {offered or 'none'})")
        return str(episode)

    def decision(self, view: Any) -> StepDecision:
        """The decision of the seat to move, from its own view (its legal moves and the table)."""
        return self.part.decision(view)

    def observe(self, view: Any, head: int = -1, chosen: int = 0) -> npt.NDArray[np.float32]:
        """The observation of ``view`` with the move being chosen (its head and items so far)."""
        return self.part.observe(view, head, chosen)

    def describe(self, action: int) -> str:
        return self.part.describe(action)

    def driver(self, players: int, options: Any, dealer: int, seed: int,
               episode: str = "round") -> DriverBase[Any, Any, Any]:
        """A new round or hand dealt from ``seed`` (with ``episode="game"``, a whole game, its first round
        dealt by ``dealer``)."""
        return self.part.driver(players, options, dealer, seed, episode)


    def batch_kernel(self, num_envs: int, players: int, options: Any, episode: str, buffers: Any,
                     illegal_reward: float, max_steps: int | None) -> BatchKernel | None:
        """The game's batched kernel over ``buffers`` for these arguments, if its envs part offers one (the optional
        ``batch_kernel`` of the part) and it plays them; else None (the batch plays the drivers)."""
        make = getattr(self.part, "batch_kernel", None)
        if make is None:
            return None
        kernel: BatchKernel | None = make(num_envs, players, options, episode, buffers, illegal_reward, max_steps)
        return kernel


_FOUND: dict[str, EnvGame] = {}


def _has_envs(info: GameInfo) -> bool:
    return info.has_part("envs")


def find_env_game(game: object) -> EnvGame:
    """The game called ``game``; an :class:`EnvArgumentError` naming the input and the known games if none."""
    if isinstance(game, str):
        found = _FOUND.get(game)
        info = GAMES.get(game)
        if found is not None and found.info is info:
            return found
        if info is not None and _has_envs(info):
            try:
                part: EnvPart = importlib.import_module(info.part_module("envs")).ENV
            except (UnknownGameError, ImportError, AttributeError) as exc:
                raise EnvArgumentError(f"invalid game={game!r}: its envs part cannot be loaded ({exc})") from None
            found = _FOUND[game] = EnvGame(info, part)
            return found
    known = ", ".join(name for name, info in GAMES.items() if _has_envs(info))
    raise EnvArgumentError(f"invalid game={game!r}: expected one of {known}")


def env_games() -> dict[str, EnvGame]:
    """Every registered game with an envs part, by name (each part imported)."""
    return {name: find_env_game(name) for name, info in GAMES.items() if _has_envs(info)}


__all__ = ["BatchKernel", "EnvGame", "env_games", "find_env_game"]
