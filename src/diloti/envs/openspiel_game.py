"""OpenSpiel games of every registered game: importing this module registers ``python_<game>`` for each.

Each game's envs part gives its OpenSpiel game (its ``openspiel()``: Diloti's
:mod:`diloti.games.diloti.envs.openspiel`, the one-card games' from
:mod:`diloti.envs.openspiel_hands`); registration with ``pyspiel.register_game``
is global, so a game registered in :mod:`diloti.games` after this import joins
with :func:`register_openspiel`::

    import pyspiel
    import diloti.envs.openspiel_game  # registers python_diloti, python_xeri and python_kontsina
    game = pyspiel.load_game("python_diloti", {"players": 2, "options": "liberal_groups soy"})
    state = game.new_initial_state()

>>> sorted(n for n in pyspiel.registered_names() if n in ("python_diloti", "python_xeri", "python_kontsina"))
['python_diloti', 'python_kontsina', 'python_xeri']
>>> register_openspiel("xeri")  # already registered: nothing to do
'python_xeri'
"""

from __future__ import annotations

import pyspiel

from diloti.envs.games import find_env_game
from diloti.games import GAMES


def register_openspiel(name: str) -> str:
    """Register game ``name``'s OpenSpiel game (``python_<name>``, as its part names it) once; its short name.

    An :class:`~diloti.envs.driver.EnvArgumentError` if ``name`` is not a game with an envs part.
    """
    kind, create = find_env_game(name).part.openspiel()
    short_name = str(kind.short_name)
    if short_name not in pyspiel.registered_names():
        pyspiel.register_game(kind, create)
    return short_name


SHORT_NAMES: dict[str, str] = {name: register_openspiel(name) for name, info in GAMES.items() if "envs" in info.parts}

__all__ = ["SHORT_NAMES", "register_openspiel"]
