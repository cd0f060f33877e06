"""The games the research environments play: every registered game with an envs part, through one contract.

A game joins the environments by its envs part, the module
``diloti.games.<game>.envs`` (a module or a subpackage) named in its registry
entry (:meth:`diloti.games.GameInfo.part`), whose ``ENV`` meets
:class:`EnvPart`: its action count, observation length and bound of rewards, the
episodes it offers, its checks of players and options, and the decision,
observation, driver and OpenSpiel game of one round. :class:`EnvGame` joins the
registry's entry and the part: what PettingZoo, Gymnasium and OpenSpiel read.
The one-card games (any :class:`~diloti.core.hand_state.HandState` game) meet
the contract with :class:`diloti.envs.hand_games.HandEnv`, given their encoding
and their layout.

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
>>> find_env_game("diloti").check_episode("game")
'game'
>>> g.check_episode("game")
Traceback (most recent call last):
...
diloti.envs.driver.EnvArgumentError: invalid episode='game' for game='kontsina': kontsina's episodes are one hand \
(whole-game episodes: diloti)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from diloti.core.errors import DilotiError, UnknownGameError
from diloti.envs.actions import StepDecision
from diloti.envs.driver import EPISODES, EnvArgumentError
from diloti.games import GAMES, GameInfo

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from diloti.envs.driver_base import DriverBase

#: A layout's parts in order: (name, length, what it holds).
Parts = tuple[tuple[str, int, str], ...]


def layout_of(parts: Parts) -> dict[str, slice]:
    """Each part's slice of the observation, from the parts in order.

    >>> layout_of((("hand", 52, "own hand"), ("stock", 1, "undealt cards / 52")))
    {'hand': slice(0, 52, None), 'stock': slice(52, 53, None)}
    """
    out: dict[str, slice] = {}
    at = 0
    for name, size, _ in parts:
        out[name] = slice(at, at + size)
        at += size
    return out


class EnvPart(Protocol):
    """What a game's envs part (``diloti.games.<game>.envs``, its ``ENV``) gives the environments.

    This is the contract a game meets to be played by PettingZoo, Gymnasium and OpenSpiel:

    - ``num_actions``: the size of its fixed ``Discrete`` action space (ids mean the same in every position);
    - ``size``: the length of its ``float32`` observation (every entry in ``[0, 1]``);
    - ``max_points``: the most a side can win by in one round: rewards lie within ``+-max_points``;
    - ``episodes``: the episodes it offers, ``("round",)`` or ``("round", "game")`` (whole games);
    - ``check_players`` / ``check_options``: the player count and the options object (from ``None``, an
      options object, a mapping or options text), :class:`~diloti.envs.driver.EnvArgumentError` naming
      the input otherwise;
    - ``decision(view)``: the move of the seat to act as a :class:`~diloti.envs.actions.StepDecision`;
    - ``observe(view, head, chosen)``: the observation of the view's seat, the move being chosen given
      by its head action (-1 before it) and the 52-bit set of item cards chosen since;
    - ``describe(action)``: what an action id means, in words;
    - ``driver(players, options, dealer, seed, episode)``: one episode played by action ids;
    - ``openspiel()``: its OpenSpiel game ``python_<game>``, as ``(pyspiel.GameType, creator)`` for
      ``pyspiel.register_game`` (it imports pyspiel: called only to register, :mod:`diloti.envs.openspiel_game`).
    """

    @property
    def num_actions(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def max_points(self) -> int: ...
    @property
    def episodes(self) -> tuple[str, ...]: ...
    def check_players(self, players: object) -> int: ...
    def check_options(self, options: object, players: int) -> Any: ...
    def decision(self, view: Any) -> StepDecision: ...
    def observe(self, view: Any, head: int = -1, chosen: int = 0) -> npt.NDArray[np.float32]: ...
    def describe(self, action: int) -> str: ...
    def driver(self, players: int, options: Any, dealer: int, seed: int,
               episode: str = "round") -> DriverBase[Any, Any, Any]: ...
    def openspiel(self) -> tuple[Any, Callable[..., Any]]: ...


def check_players(info: GameInfo, players: object) -> int:
    """``players`` if ``info``'s game seats that many, else an error naming the game and its counts."""
    if isinstance(players, bool) or players not in info.players:
        counts = list(map(str, info.players))
        known = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + f" or {counts[-1]}"
        raise EnvArgumentError(f"invalid players={players!r} for game={info.name!r}: expected {known}")
    return info.players[info.players.index(players)]


def check_options(info: GameInfo, options: object, players: int,
                  adjust: Callable[[Any, int], Any] | None = None) -> Any:
    """``None`` (the standard rules), the game's options object, a mapping of option names, or options text,
    as the game's options object checked for ``players`` (``adjust`` sets what the player count implies)."""
    cls: Any = info.options
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
                                   f"{info.name} options or options text")
        if adjust is not None:
            opts = adjust(opts, players)
        info.state.check_players(players, opts)
    except EnvArgumentError:
        raise
    except DilotiError as exc:
        raise EnvArgumentError(f"invalid options={options!r}: {exc}") from None
    return opts


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
        """The PettingZoo environment's name: ``diloti_v0``, ``xeri_v0``, ``kontsina_v0``."""
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


_FOUND: dict[str, EnvGame] = {}


def _has_envs(info: GameInfo) -> bool:
    return "envs" in info.parts


def find_env_game(game: object) -> EnvGame:
    """The game called ``game``; an :class:`EnvArgumentError` naming the input and the known games if none."""
    if isinstance(game, str):
        found = _FOUND.get(game)
        info = GAMES.get(game)
        if found is not None and found.info is info:
            return found
        if info is not None and _has_envs(info):
            try:
                part: EnvPart = info.part("envs").ENV
            except (UnknownGameError, ImportError, AttributeError) as exc:
                raise EnvArgumentError(f"invalid game={game!r}: its envs part cannot be loaded ({exc})") from None
            found = _FOUND[game] = EnvGame(info, part)
            return found
    known = ", ".join(name for name, info in GAMES.items() if _has_envs(info))
    raise EnvArgumentError(f"invalid game={game!r}: expected one of {known}")


def env_games() -> dict[str, EnvGame]:
    """Every registered game with an envs part, by name (each part imported)."""
    return {name: find_env_game(name) for name, info in GAMES.items() if _has_envs(info)}


__all__ = ["EnvGame", "EnvPart", "Parts", "check_options", "check_players", "env_games", "find_env_game",
           "layout_of"]
