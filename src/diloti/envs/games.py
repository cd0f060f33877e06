"""The games the research environments play, by name: Diloti and its parent games, Xeri and Kontsina.

Each :class:`EnvGame` gives what an environment needs of its game: the player
counts it seats, its action count and observation length, the bound of its
rewards, and a driver for one round or hand. The checks here name the input
and the known choices: an unknown game, a player count the game does not
seat, an option it does not have.

>>> g = find_env_game("kontsina")
>>> g.players, g.num_actions, g.size, g.max_points, g.env_name
((2, 3, 4), 156, 517, 5, 'kontsina_v0')
>>> find_env_game("pishti")
Traceback (most recent call last):
...
diloti.envs.driver.EnvArgumentError: invalid game='pishti': expected one of diloti, xeri, kontsina
>>> g.check_players(5)
Traceback (most recent call last):
...
diloti.envs.driver.EnvArgumentError: invalid players=5 for game='kontsina': expected 2, 3 or 4
>>> find_env_game("xeri").check_options({"soy": True}, 2)
Traceback (most recent call last):
...
diloti.envs.driver.EnvArgumentError: invalid options={'soy': True}: unknown xeri option 'soy' (known: \
xeri_jack_double, game_by_points, target, hands, no_xeri_last_card, pile_any_pair_redeal, partnerships)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from diloti.core.errors import DilotiError
from diloti.envs import driver
from diloti.envs.actions import NUM_ACTIONS, Decision, StepDecision
from diloti.envs.driver import Driver, EnvArgumentError
from diloti.envs.observation import MAX_ROUND_POINTS, SIZE, observe
from diloti.envs.variant_actions import NUM_VARIANT_ACTIONS, VariantDecision
from diloti.envs.variant_driver import VariantDriver
from diloti.envs.variant_observation import MAX_VARIANT_POINTS, VARIANT_SIZE, observe_variant
from diloti.games import GAMES


@dataclass(frozen=True)
class EnvGame:
    """One game as the environments see it (see the module's description)."""

    name: str
    players: tuple[int, ...]
    num_actions: int
    size: int  # the observation's length
    max_points: int  # the most a side can score in a round or hand: rewards lie within +-max_points

    @property
    def env_name(self) -> str:
        """The PettingZoo environment's name: ``diloti_v0``, ``xeri_v0``, ``kontsina_v0``."""
        return f"{self.name}_v0"

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @property
    def not_dealt(self) -> str:
        """What ``render`` shows before ``reset``."""
        return f"{self.title}: call reset() to deal a {'round' if self.name == 'diloti' else 'hand'}"

    def check_players(self, players: object) -> int:
        if self.name == "diloti":
            return driver.check_players(players)  # Diloti's message, as before
        if isinstance(players, bool) or players not in self.players:
            known = ", ".join(map(str, self.players[:-1])) + f" or {self.players[-1]}"
            raise EnvArgumentError(f"invalid players={players!r} for game={self.name!r}: expected {known}")
        return self.players[self.players.index(players)]

    def check_options(self, options: object, players: int) -> Any:
        """``None`` (the standard rules), the game's options object, a mapping of option names, or options text.

        Four players of Xeri always play in partnerships (the option is set for them); Kontsina's
        ``partnerships`` needs four players.
        """
        if self.name == "diloti":
            return driver.check_options(options)
        cls = GAMES[self.name].options
        try:
            if options is None:
                opts = cls()
            elif isinstance(options, cls):
                opts = options
            elif isinstance(options, Mapping):
                opts = cls.from_dict(options)
            elif isinstance(options, str):
                opts = cls.from_text(options)
            else:
                raise EnvArgumentError(f"invalid options={options!r}: expected {cls.__name__}, a dict of "
                                       f"{self.name} options or options text")
            if self.name == "xeri" and players == 4:
                opts = opts.replace(partnerships=True)
            GAMES[self.name].state.check_players(players, opts)
        except EnvArgumentError:
            raise
        except DilotiError as exc:
            raise EnvArgumentError(f"invalid options={options!r}: {exc}") from None
        return opts

    def decision(self, view: Any) -> StepDecision:
        """The decision of the seat to move, from its own view (its legal moves and the table)."""
        if self.name == "diloti":
            return Decision(view.legal, view.table, view.declarations)
        return VariantDecision(self.name, view.legal)

    def observe(self, view: Any, head: int = -1, chosen: int = 0) -> npt.NDArray[np.float32]:
        """The observation of ``view`` with the move being chosen (its head and items so far)."""
        if self.name == "diloti":
            return observe(view, head, chosen)
        return observe_variant(view, head, chosen)

    def driver(self, players: int, options: Any, dealer: int, seed: int,
               episode: str = "round") -> Driver | VariantDriver:
        """A new round (Diloti) or hand (Xeri, Kontsina) dealt from ``seed``; with ``episode="game"``
        a whole game of Diloti, its first round dealt by ``dealer``."""
        if self.name == "diloti":
            return Driver(players, options, dealer, seed, episode)
        return VariantDriver(self.name, players, options, dealer, seed)


ENV_GAMES: dict[str, EnvGame] = {
    "diloti": EnvGame("diloti", (2, 4), NUM_ACTIONS, SIZE, MAX_ROUND_POINTS),
    "xeri": EnvGame("xeri", (2, 4), NUM_VARIANT_ACTIONS["xeri"], VARIANT_SIZE["xeri"], MAX_VARIANT_POINTS["xeri"]),
    "kontsina": EnvGame("kontsina", (2, 3, 4), NUM_VARIANT_ACTIONS["kontsina"], VARIANT_SIZE["kontsina"],
                        MAX_VARIANT_POINTS["kontsina"]),
}


def find_env_game(game: object) -> EnvGame:
    """The game called ``game``; an :class:`EnvArgumentError` naming the input and the known games if none."""
    if not isinstance(game, str) or game not in ENV_GAMES:
        raise EnvArgumentError(f"invalid game={game!r}: expected one of {', '.join(ENV_GAMES)}")
    return ENV_GAMES[game]


__all__ = ["ENV_GAMES", "EnvGame", "find_env_game"]
