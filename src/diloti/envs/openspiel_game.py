"""OpenSpiel games of every registered game: importing this module registers ``python_<game>`` for each.

Each game's envs part gives its OpenSpiel game (its ``openspiel()``: Diloti's
:mod:`diloti.games.diloti.envs.openspiel`, the one-card games' from
:mod:`diloti.games.onecard.envs.openspiel`); registration with ``pyspiel.register_game``
is global, so a game registered (:func:`diloti.core.registry.register_game`) after this
import joins with :func:`register_openspiel`::

    import pyspiel
    import diloti.envs.openspiel_game  # registers python_<game> for every registered game
    game = pyspiel.load_game("python_diloti", {"players": 2, "options": "liberal_groups soy"})
    state = game.new_initial_state()

>>> all(f"python_{name}" in pyspiel.registered_names() for name in SHORT_NAMES)
True
>>> register_openspiel(next(iter(SHORT_NAMES)))  # already registered: nothing to do
'python_diloti'
"""

from __future__ import annotations

import pyspiel

from diloti.core.registry import GAMES
from diloti.envs.games import find_env_game


def register_openspiel(name: str) -> str:
    """Register game ``name``'s OpenSpiel game (``python_<name>``, as its part names it) once; its short name.

    An :class:`~diloti.envs.driver.EnvArgumentError` if ``name`` is not a game with an envs part.
    """
    kind, create = find_env_game(name).part.openspiel()
    short_name = str(kind.short_name)
    if short_name not in pyspiel.registered_names():
        pyspiel.register_game(kind, create)
    return short_name


SHORT_NAMES: dict[str, str] = {name: register_openspiel(name) for name, info in GAMES.items() if info.has_part("envs")}

__all__ = ["SHORT_NAMES", "register_openspiel"]
