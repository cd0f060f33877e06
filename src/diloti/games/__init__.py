"""The games, by name: Diloti and its two parent games, Xeri and Kontsina, each in its own package.

Each entry (:class:`GameInfo`) names the game's round state, its whole-game class (rounds
to the end of a game), its options class, the players it seats and its rules page, typed by
the interface in :mod:`diloti.core.interface`. Everything that takes a game name
(``State.new(game=...)``, positions and records, the command line, the server, the
environments) reads it here. A game defined elsewhere (a test's, a plug-in's) joins with
:func:`register_game`.

>>> find_game("kontsina").players
(2, 3, 4)
>>> find_game("xeri").options().hands
10
>>> find_game("diloti").state.__name__, find_game("xeri").game.__name__
('State', 'XeriGame')
>>> find_game("pishti")
Traceback (most recent call last):
...
diloti.core.errors.UnknownGameError: unknown game 'pishti' (known: diloti, xeri, kontsina)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from diloti.core.errors import UnknownGameError
from diloti.core.interface import GameOptions, RoundRules, WholeGame
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options
from diloti.games.diloti.scoring import Side
from diloti.games.diloti.state import State
from diloti.games.kontsina.rules import KontsinaGame, KontsinaOptions, KontsinaSide, KontsinaState
from diloti.games.xeri.rules import XeriGame, XeriOptions, XeriSide, XeriState


@dataclass(frozen=True)
class GameInfo:
    """One game: its name, classes, seats and rules page, and the modules of its parts above the rules.

    ``parts`` maps a floor's name (``"players"``: its card sense for the computer players;
    ``"envs"``: its action and observation layouts) to the module that holds that part of the
    game; the floor above loads it by name (:meth:`part`), so the rules never import upward.
    """

    name: str
    state: Any  # the round state's class: new(players, options, dealer, seed=...), from_parts(...), check_players
    game: Any  # the whole game's class: (players, options, seed=, first_dealer=) -> WholeGame
    options: type[GameOptions]
    players: tuple[int, ...]
    rules: str
    round_word: str = "round"  # what a round of this game is called in messages ("hand" in the parent games)
    parts: dict[str, str] = field(default_factory=dict)
    relation: str = ""  # what the game is to the default game, in the command line's help ("parent game")
    players_note: str = ""  # the --players help's note on its seats beside the default game's ("also 3, ...")
    # What the server asks of a game beyond its rules: whether its games may move players' ratings, the prefix of
    # its rating modes (None: the name's first letter), and which levels' searches may give its hints.
    rated: bool = False
    rating_prefix: str | None = None
    hint_levels: tuple[str, ...] = ("expert",)
    side: type[Any] | None = None  # one side's score of a round (a dataclass with ``total``), as replies describe it

    @property
    def title(self) -> str:
        """The game's name as a sentence writes it.

        >>> find_game("kontsina").title
        'Kontsina'
        """
        return self.name.capitalize()

    @property
    def named(self) -> bool:
        """Whether outputs name this game: every game but the default one (the game of a position or record
        that names none), whose outputs read as they did before there were others.

        >>> find_game("diloti").named, find_game("xeri").named
        (False, True)
        """
        return is_named(self.name)

    def rating_mode(self, players: int) -> str:
        """The rating mode of a table of ``players``: its games' ratings and histories are kept apart by it.

        >>> find_game("diloti").rating_mode(4), find_game("kontsina").rating_mode(3)
        ('4p', 'k3p')
        """
        prefix = self.name[0] if self.rating_prefix is None else self.rating_prefix
        return f"{prefix}{players}p"

    def target(self, options: Any) -> int | None:
        """The points that win under ``options`` (None: a game decided by hands won).

        >>> find_game("xeri").target(find_game("xeri").options()), find_game("diloti").target(Options())
        (None, 61)
        """
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
        game: WholeGame = self.game(players, options, seed=seed, first_dealer=first_dealer)
        return game

    def sides(self, players: int, options: Any = None) -> int:
        """How many sides score apart with ``players`` under ``options`` (an options object, its dict, or None)."""
        if options is None or isinstance(options, dict):
            options = self.options.from_dict(options or {})
        return int(self.state.check_players(players, options))

    def part(self, floor: str) -> Any:
        """The module holding this game's part for ``floor`` (imported on first use)."""
        import importlib

        try:
            module = self.parts[floor]
        except KeyError:
            raise UnknownGameError(f"game {self.name!r} has no {floor} part") from None
        return importlib.import_module(module)


DEFAULT_GAME = "diloti"  # the game of a position or record that names none (the formats came before the others)


def _parts(name: str, formats: str) -> dict[str, str]:
    return {"formats": formats, "players": f"diloti.games.{name}.players", "envs": f"diloti.games.{name}.envs"}


HANDS_FORMATS = "diloti.formats.hands"  # the formats of every game on the core's HandState


GAMES: dict[str, GameInfo] = {
    "diloti": GameInfo("diloti", State, Game, Options, (2, 4), "docs/RULES.md", "round",
                       _parts("diloti", "diloti.games.diloti.formats"), rated=True, rating_prefix="",
                       hint_levels=("expert", "master"), side=Side),
    "xeri": GameInfo("xeri", XeriState, XeriGame, XeriOptions, (2, 4), "docs/RULES-XERI.md", "hand",
                     _parts("xeri", HANDS_FORMATS), relation="parent game", side=XeriSide),
    "kontsina": GameInfo("kontsina", KontsinaState, KontsinaGame, KontsinaOptions, (2, 3, 4),
                         "docs/RULES-KONTSINA.md", "hand", _parts("kontsina", HANDS_FORMATS), relation="parent game",
                         players_note="also 3, and 4 each alone unless --partnerships", side=KontsinaSide),
}
BUILT_IN = tuple(GAMES)
GAME_NAMES = BUILT_IN  # the built-in games' names (the command line offers every registered game: GAMES)


def is_named(name: str) -> bool:
    """Whether outputs name the game called ``name``: every game but the default one (:attr:`GameInfo.named`),
    also one no longer registered (a result read back after its game left the registry).

    >>> is_named("xeri"), is_named(DEFAULT_GAME)
    (True, False)
    """
    return name != DEFAULT_GAME


def check_game(name: object) -> str:
    """``name`` if it names a registered game, else an :class:`UnknownGameError` listing them."""
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return name


def find_game(name: str) -> GameInfo:
    """The game called ``name``; an :class:`~diloti.core.errors.UnknownGameError` naming the known ones if none."""
    return GAMES[check_game(name)]


def register_game(info: GameInfo) -> None:
    """Add a game to the registry (a game defined outside this package: a test's, a plug-in's)."""
    if info.name in BUILT_IN:
        raise UnknownGameError(f"game {info.name!r} is built in and cannot be replaced")
    GAMES[info.name] = info


def unregister_game(name: str) -> None:
    """Take a registered game out again (built-in games stay)."""
    if name not in BUILT_IN:
        GAMES.pop(name, None)


@contextmanager
def registered(info: GameInfo) -> Iterator[GameInfo]:
    """``info`` registered for the duration of a ``with`` block."""
    register_game(info)
    try:
        yield info
    finally:
        unregister_game(info.name)


def sides_of(name: str, players: int, options: Any = None) -> int:
    """How many sides score apart in ``name`` with ``players`` under ``options`` (an options object or its dict).

    >>> sides_of("diloti", 4), sides_of("kontsina", 3), sides_of("xeri", 4, {"partnerships": True})
    (2, 3, 2)
    """
    return find_game(name).sides(players, options)


def new_game(name: str, players: int = 2, options: Any = None, seed: int | None = None,
             first_dealer: int = 0) -> Any:
    """A whole game of ``name``.

    >>> g = new_game("xeri", seed=1)
    >>> g.game, g.state.stock_size
    ('xeri', 36)
    """
    return find_game(name).game(players, options, seed=seed, first_dealer=first_dealer)


__all__ = [
    "BUILT_IN",
    "DEFAULT_GAME",
    "GAMES",
    "GAME_NAMES",
    "HANDS_FORMATS",
    "GameInfo",
    "check_game",
    "find_game",
    "is_named",
    "new_game",
    "register_game",
    "registered",
    "sides_of",
    "unregister_game",
]
