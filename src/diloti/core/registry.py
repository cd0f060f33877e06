"""The games, by name: the one registry every floor asks, on the bottom floor (standard library only).

As OpenSpiel's ``pyspiel.register_game`` and ``load_game``: each game's package registers its own entry
(:class:`GameInfo`) when it is imported (``diloti/games/<game>/__init__.py`` calls :func:`register_game`), and
every floor above finds a game by the name a position, a record, a command or a request gives, asking the entry
what it needs: its classes (typed by :mod:`diloti.core.interface`), its seats, and its capability flags (whether
its games may be rated, which levels give its hints, whether it is the default game). Nothing here knows a game.

The built-in games are registered by :mod:`diloti.games`, which ``import diloti`` (any module of the package)
runs first. A game defined elsewhere (a test's, a plug-in's) joins with :func:`register_game` or, for a ``with``
block, :func:`registered`.

A game's parts for the floors above its rules (its formats, its card sense for the computer players, its
environments) are named in ``parts``, by module: each floor imports the part of its own floor by that name
(:mod:`diloti.formats.games`, :mod:`diloti.ai.games`, :mod:`diloti.envs.games`), so the rules never import
upward and no floor imports a higher one.

>>> info = default_game()
>>> find_game(info.name) is info, info.named, 2 in info.players
(True, False, True)
>>> find_game("pishti")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
diloti.core.errors.UnknownGameError: unknown game 'pishti' (known: ...)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from diloti.core.errors import UnknownGameError
from diloti.core.interface import GameOptions, RoundRules, WholeGame

#: The floors above the rules that a game may bring a part for (``GameInfo.parts``' keys).
FLOORS = ("formats", "players", "envs")


@dataclass(frozen=True)
class GameInfo:
    """One game: its name, classes, seats and rules page, its capability flags, and the modules of its parts.

    ``parts`` maps a floor above the rules (``"formats"``: its notation, positions, records and look in the
    terminal; ``"players"``: its card sense for the computer players; ``"envs"``: its action and observation
    layouts) to the module that holds that part of the game; that floor imports it by name.
    """

    name: str
    state: Any  # the round state's class: new(players, options, dealer, seed=...), from_parts(...), check_players
    game: Any  # the whole game's class: (players, options, seed=, first_dealer=) -> WholeGame
    options: type[GameOptions]
    players: tuple[int, ...]
    rules: str
    round_word: str = "round"  # what a round of this game is called in messages ("hand" in the one-card games)
    parts: dict[str, str] = field(default_factory=dict)
    relation: str = ""  # what the game is to the default game, in the command line's help ("parent game")
    players_note: str = ""  # the --players help's note on its seats beside the default game's ("also 3, ...")
    # The game of a position, record, command or request that names none: its outputs do not name it (the
    # formats came before the other games). One registered game says so.
    default: bool = False
    # What the server asks of a game beyond its rules: whether its games may move players' ratings, the prefix of
    # its rating modes (None: the name's first letter), and which levels' searches may give its hints.
    rated: bool = False
    rating_prefix: str | None = None
    hint_levels: tuple[str, ...] = ("expert",)
    side: type[Any] | None = None  # one side's score of a round (a dataclass with ``total``), as replies describe it
    # The research environments' episode kinds for the game: one round, and "game" (rounds to the target) for a
    # game whose observation holds the game's scores (its envs part offers the same: diloti.envs.ids lists
    # them without importing the part).
    episodes: tuple[str, ...] = ("round",)
    # Whether the game's envs part offers a small deal of it for OpenSpiel's exact algorithms (the part's
    # ``small_openspiel()``): diloti.envs.ids lists its id, ``Mini<Title>-2p-round-v0``, without importing the part.
    small: bool = False

    @property
    def title(self) -> str:
        """The game's name as a sentence writes it.

        >>> GameInfo("pairs", None, None, GameOptions, (2,), "").title
        'Pairs'
        """
        return self.name.capitalize()

    @property
    def named(self) -> bool:
        """Whether outputs name this game: every game but the default one, whose outputs read as they did before
        there were others."""
        return not self.default

    def has_part(self, floor: str) -> bool:
        """Whether the game brings a part for ``floor`` (one of :data:`FLOORS`)."""
        return floor in self.parts

    def part_module(self, floor: str) -> str:
        """The name of the module holding the game's part for ``floor``; an :class:`UnknownGameError` if none.

        >>> GameInfo("pairs", None, None, GameOptions, (2,), "", parts={"players": "pairs.players"}).part_module(
        ...     "players")
        'pairs.players'
        """
        try:
            return self.parts[floor]
        except KeyError:
            raise UnknownGameError(f"game {self.name!r} has no {floor} part") from None

    def rating_mode(self, players: int) -> str:
        """The rating mode of a table of ``players``: its games' ratings and histories are kept apart by it.

        >>> GameInfo("pairs", None, None, GameOptions, (2,), "").rating_mode(2)
        'p2p'
        """
        prefix = self.name[0] if self.rating_prefix is None else self.rating_prefix
        return f"{prefix}{players}p"

    def target(self, options: Any) -> int | None:
        """The points that win under ``options`` (None: a game decided by hands won)."""
        target: int | None = self.game.target_of(options)
        return target

    def hands(self, options: Any) -> int | None:
        """The hands a game lasts under ``options``, in a game whose rules count them (else None)."""
        hands: int | None = self.game.hands_of(options)
        return hands

    def read_options(self, text: str) -> GameOptions:
        """The game's options from their text form (a record's ``Options`` header)."""
        return self.options.from_text(text)

    def new_state(self, players: int = 2, options: Any = None, dealer: int = 0, seed: int | None = None) -> RoundRules:
        """A round of this game dealt from ``seed``."""
        state: RoundRules = self.state.new(players, options, dealer, seed=seed)
        return state

    def new_game(self, players: int = 2, options: Any = None, seed: int | None = None,
                 first_dealer: int = 0) -> WholeGame:
        """A whole game of this game."""
        game: WholeGame = self.game(players, options, seed=seed, first_dealer=first_dealer)
        return game

    def sides(self, players: int, options: Any = None) -> int:
        """How many sides score apart with ``players`` under ``options`` (an options object, its dict, or None)."""
        if options is None or isinstance(options, dict):
            options = self.options.from_dict(options or {})
        return int(self.state.check_players(players, options))


#: Every registered game by name, in the order of registration (the default game first). Read it; change it
#: through :func:`register_game` and :func:`unregister_game`.
GAMES: dict[str, GameInfo] = {}
_BUILT_IN: set[str] = set()


def register_game(info: GameInfo, *, built_in: bool = False) -> None:
    """Add a game to the registry. ``built_in``: a game of this package (its own ``__init__`` registers it once);
    a built-in game cannot be replaced or taken out again."""
    old = GAMES.get(info.name)
    if old is not None and (info.name in _BUILT_IN or built_in) and old != info:
        raise UnknownGameError(f"game {info.name!r} is built in and cannot be replaced")
    if info.default and any(g.default and g.name != info.name for g in GAMES.values()):
        raise UnknownGameError(f"game {info.name!r} cannot be the default game: {default_game().name!r} is")
    GAMES[info.name] = info
    if built_in:
        _BUILT_IN.add(info.name)


def unregister_game(name: str) -> None:
    """Take a registered game out again (built-in games stay)."""
    if name not in _BUILT_IN:
        GAMES.pop(name, None)


@contextmanager
def registered(info: GameInfo) -> Iterator[GameInfo]:
    """``info`` registered for the duration of a ``with`` block."""
    register_game(info)
    try:
        yield info
    finally:
        unregister_game(info.name)


def built_in() -> tuple[str, ...]:
    """The built-in games' names, in the registry's order (the default game first).

    >>> built_in()[0] == default_game().name
    True
    """
    return tuple(name for name in GAMES if name in _BUILT_IN)


def check_game(name: object) -> str:
    """``name`` if it names a registered game, else an :class:`UnknownGameError` listing them."""
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return name


def find_game(name: str) -> GameInfo:
    """The game called ``name``; an :class:`~diloti.core.errors.UnknownGameError` naming the known ones if none."""
    return GAMES[check_game(name)]


def default_game() -> GameInfo:
    """The game of a position, record, command or request that names none (the one registered with ``default``)."""
    for info in GAMES.values():
        if info.default:
            return info
    raise UnknownGameError("no default game is registered (import diloti registers the built-in games)")


def is_named(name: str) -> bool:
    """Whether outputs name the game called ``name``: every game but the default one (:attr:`GameInfo.named`),
    also one no longer registered (a result read back after its game left the registry)."""
    return name != default_game().name


def sides_of(name: str, players: int, options: Any = None) -> int:
    """How many sides score apart in ``name`` with ``players`` under ``options`` (an options object or its dict)."""
    return find_game(name).sides(players, options)


def new_game(name: str, players: int = 2, options: Any = None, seed: int | None = None,
             first_dealer: int = 0) -> Any:
    """A whole game of ``name``.

    >>> new_game(default_game().name, seed=1).is_over
    False
    """
    return find_game(name).game(players, options, seed=seed, first_dealer=first_dealer)


__all__ = [
    "FLOORS",
    "GAMES",
    "GameInfo",
    "built_in",
    "check_game",
    "default_game",
    "find_game",
    "is_named",
    "new_game",
    "register_game",
    "registered",
    "sides_of",
    "unregister_game",
]
