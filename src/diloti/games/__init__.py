"""The built-in games, each in its own package: Diloti and its two parent games, Xeri and Kontsina.

Importing this package imports each game's package, which registers the game in the registry
(:mod:`diloti.core.registry`); ``import diloti`` does it first. The registry's names are here too, as they were
before the registry moved to the bottom floor (``diloti.games.find_game`` still finds a game).

>>> find_game("kontsina").players
(2, 3, 4)
>>> find_game("xeri").options().hands
10
>>> find_game("diloti").state.__name__, find_game("xeri").game.__name__
('State', 'XeriGame')
>>> DEFAULT_GAME, BUILT_IN
('diloti', ('diloti', 'xeri', 'kontsina'))
"""

from __future__ import annotations

# isort: off
# Each package registers its game as it is imported, in this order: the registry's (the default game first).
from diloti.games import diloti as diloti
from diloti.games import xeri as xeri
from diloti.games import kontsina as kontsina
# isort: on
from diloti.core.registry import (
    GAMES,
    GameInfo,
    check_game,
    default_game,
    find_game,
    is_named,
    new_game,
    register_game,
    registered,
    sides_of,
    unregister_game,
)
from diloti.core.registry import built_in as _built_in
from diloti.games.onecard import FORMATS as HANDS_FORMATS

BUILT_IN = _built_in()  # the built-in games' names (the command line offers every registered game: GAMES)
GAME_NAMES = BUILT_IN
DEFAULT_GAME = default_game().name  # the game of a position or record that names none

__all__ = [
    "BUILT_IN",
    "DEFAULT_GAME",
    "GAMES",
    "GAME_NAMES",
    "HANDS_FORMATS",
    "GameInfo",
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
