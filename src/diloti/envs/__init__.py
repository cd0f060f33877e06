"""Research environments: PettingZoo, Gymnasium and OpenSpiel, for every registered game with an envs part.

Each game's action encoding, observation layout, driver and bounds come from
its envs part (``diloti.games.<game>.envs``), through the contract of
:mod:`diloti.envs.games`; :mod:`diloti.envs.actions` (the step decisions) needs
nothing beyond the engine. The environments need the ``research`` extra
(``pip install 'diloti[research]'``): :mod:`diloti.envs.pettingzoo_env`,
:mod:`diloti.envs.gym_env` and :mod:`diloti.envs.openspiel_game`. Importing this
package registers the Gymnasium environments ``diloti/Diloti-v0``,
``diloti/Xeri-v0`` and ``diloti/Kontsina-v0`` (``diloti/<Game>-v0`` for each
registered game; a game registered later joins with :func:`register_gymnasium`)
when Gymnasium is installed, so
``gymnasium.make("diloti/Diloti-v0", opponent="expert")`` works after
``import diloti.envs``. docs/RESEARCH.md describes each environment.
"""

from __future__ import annotations

from diloti.games import GAMES

GYM_ID = "diloti/Diloti-v0"


def gym_id(game: str) -> str:
    """The Gymnasium id of ``game``: ``diloti/Diloti-v0``, ``diloti/Xeri-v0``, ..."""
    return f"diloti/{game.capitalize()}-v0"


#: The registered Gymnasium id of each game (with an envs part) when this package was imported.
GYM_IDS = {name: gym_id(name) for name, info in GAMES.items() if "envs" in info.parts}


def register_gymnasium(game: str) -> str | None:
    """Register ``game``'s Gymnasium environment (once); its id, or None without Gymnasium."""
    try:
        import gymnasium
    except ImportError:  # the research extra is not installed: nothing to register
        return None
    env_id = gym_id(game)
    if env_id not in gymnasium.registry:
        gymnasium.register(id=env_id, entry_point="diloti.envs.gym_env:DilotiEnv", kwargs={"game": game})
    return env_id


for _game in GYM_IDS:
    register_gymnasium(_game)

__all__ = ["GYM_ID", "GYM_IDS", "gym_id", "register_gymnasium"]
