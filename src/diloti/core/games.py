"""The three games the engine plays, by name: Diloti and its two parent games, Xeri and Kontsina.

Each entry names the game's hand state (Diloti's round), its game class
(hands to the end of a game), its options class and the players it seats.
Everything that takes a game name (``State.new(game=...)``, positions and
records, the command line) reads it here or in :mod:`diloti.core.variants`.

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

from dataclasses import dataclass
from typing import Any

from diloti.core.game import Game
from diloti.core.kontsina import KontsinaGame, KontsinaOptions, KontsinaState
from diloti.core.options import Options
from diloti.core.state import State
from diloti.core.variants import GAME_NAMES, check_game
from diloti.core.xeri import XeriGame, XeriOptions, XeriState


@dataclass(frozen=True)
class GameInfo:
    """One game: its name, classes, seats and rules page."""

    name: str
    state: type[Any]
    game: type[Any]
    options: type[Any]
    players: tuple[int, ...]
    rules: str

    def read_options(self, text: str) -> Any:
        """The game's options from their text form (a record's ``Options`` header)."""
        return self.options.from_text(text)


GAMES: dict[str, GameInfo] = {
    "diloti": GameInfo("diloti", State, Game, Options, (2, 4), "docs/RULES.md"),
    "xeri": GameInfo("xeri", XeriState, XeriGame, XeriOptions, (2, 4), "docs/RULES-XERI.md"),
    "kontsina": GameInfo("kontsina", KontsinaState, KontsinaGame, KontsinaOptions, (2, 3, 4),
                         "docs/RULES-KONTSINA.md"),
}
assert tuple(GAMES) == GAME_NAMES


def find_game(name: str) -> GameInfo:
    """The game called ``name``; an :class:`~diloti.core.errors.UnknownGameError` naming the known ones if none."""
    return GAMES[check_game(name)]


def sides_of(name: str, players: int, options: Any = None) -> int:
    """How many sides score apart in ``name`` with ``players`` under ``options`` (an options object or its dict).

    >>> sides_of("diloti", 4), sides_of("kontsina", 3), sides_of("xeri", 4, {"partnerships": True})
    (2, 3, 2)
    """
    info = find_game(name)
    if name == "diloti":
        return 2  # seats 0+2 against 1+3, always
    if options is None or isinstance(options, dict):
        options = info.options.from_dict(options or {})
    return int(info.state.check_players(players, options))


def new_game(name: str, players: int = 2, options: Any = None, seed: int | None = None,
             first_dealer: int = 0) -> Any:
    """A whole game of ``name`` (Diloti's :class:`~diloti.core.game.Game`, or the variant's).

    >>> g = new_game("xeri", seed=1)
    >>> g.game, g.state.stock_size
    ('xeri', 36)
    """
    return find_game(name).game(players, options, seed=seed, first_dealer=first_dealer)


__all__ = ["GAMES", "GameInfo", "find_game", "new_game", "sides_of"]
