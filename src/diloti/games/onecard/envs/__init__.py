"""What a one-card game gives the environments: the frame of its envs part, from its encoding, layout and bounds.

A :class:`HandEnv` meets the envs-part contract (:class:`diloti.envs.part.EnvPart`)
for a game whose round is a :class:`~diloti.games.onecard.state.HandState`, from what
is the game's own: its action encoding (:class:`~diloti.games.onecard.envs.actions.HandEncoding`),
its observation layout (:class:`~diloti.games.onecard.envs.observation.HandLayout`), the
most a side can score in a hand, the most decision steps in a hand, and what
its player count implies of its options. Each such game's envs part holds one
as its ``ENV``.

>>> from diloti.games.xeri.envs import ENV
>>> ENV.num_actions, ENV.size, ENV.max_points, ENV.episodes, ENV.describe(51)
(52, 404, 285, ('round',), 'play KS')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from diloti.core.registry import GameInfo, find_game
from diloti.envs.part import check_options, check_players
from diloti.games.onecard.envs.actions import HandDecision, HandEncoding
from diloti.games.onecard.envs.driver import HandDriver
from diloti.games.onecard.envs.observation import HandLayout, describe_hand_view, observe_hand
from diloti.games.onecard.view import HandView


@dataclass(frozen=True)
class HandEnv:
    """A one-card game for the environments (see the module's description).

    ``max_steps``: the most decision steps in a hand (OpenSpiel's ``max_game_length``). ``adjust``: the
    options a player count implies (``(options, players) -> options``), e.g. partnerships with four.
    Hands are the only episodes: a whole game's scores have no place in the layouts. ``kernel``: the rules the
    batched C kernel plays for the game (:mod:`~diloti.games.onecard.envs.cbatch`: ``"xeri"``, ``"kontsina"``),
    None for none (the batch plays its Python drivers).
    """

    game: str
    encoding: HandEncoding
    layout: HandLayout
    max_points: int
    max_steps: int
    adjust: Callable[[Any, int], Any] | None = None
    episodes: tuple[str, ...] = ("round",)
    kernel: str | None = None

    @property
    def info(self) -> GameInfo:
        return find_game(self.game)

    @property
    def num_actions(self) -> int:
        return self.encoding.num_actions

    @property
    def size(self) -> int:
        return self.layout.size

    def check_players(self, players: object) -> int:
        return check_players(self.info, players)

    def check_options(self, options: object, players: int) -> Any:
        return check_options(self.info, options, players, self.adjust)

    def decision(self, view: HandView) -> HandDecision:
        return HandDecision(self.encoding, view.legal)

    def observe(self, view: HandView, head: int = -1, chosen: int = 0,
                out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        return observe_hand(self.layout, view, head, chosen, out)

    def describe_view(self, view: HandView, head: int = -1, chosen: int = 0) -> str:
        return describe_hand_view(self.layout, view, head, chosen, self.encoding.describe)

    def describe(self, action: int) -> str:
        return self.encoding.describe(action)

    def driver(self, players: int, options: Any, dealer: int, seed: int, episode: str = "round") -> HandDriver:
        return HandDriver(self.encoding, self.layout, players, options, dealer, seed)

    def batch_kernel(self, num_envs: int, players: int, options: Any, episode: str, buffers: Any,
                     illegal_reward: float, max_steps: int | None) -> Any:
        """The C kernel (:mod:`~diloti.games.onecard.envs.cbatch`) where it is built and plays these arguments,
        else None."""
        if self.kernel is None:
            return None
        from diloti.games.onecard.envs.cbatch import kernel_for

        return kernel_for(self, num_envs, players, options, episode, buffers, illegal_reward, max_steps)

    def openspiel(self) -> tuple[Any, Callable[..., Any]]:
        from diloti.games.onecard.envs.openspiel import hand_openspiel  # pyspiel: only when registered

        return hand_openspiel(self)


__all__ = ["HandEnv"]
