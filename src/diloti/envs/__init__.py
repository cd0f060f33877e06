"""Research environments: PettingZoo, Gymnasium and OpenSpiel, for every registered game with an envs part.

Each game's action encoding, observation layout, driver and bounds come from
its envs part (the module its registry entry names, ``parts["envs"]``), through the
contract of :mod:`diloti.envs.part`, found by :mod:`diloti.envs.games`;
:mod:`diloti.envs.actions` (the step decisions) needs nothing beyond the engine. The
environments need the ``research`` extra (``pip install 'diloti[research]'``):
:mod:`diloti.envs.pettingzoo_env`, :mod:`diloti.envs.gym_env` and
:mod:`diloti.envs.openspiel_game`. Importing this package registers the Gymnasium
environment ``diloti/<Game>-v0`` of each registered game with an envs part
(``diloti/Diloti-v0`` for the default game; a game registered later joins with
:func:`register_gymnasium`) when Gymnasium is installed, so
``gymnasium.make("diloti/Diloti-v0", opponent="expert")`` works after
``import diloti.envs``, and each versioned id (:mod:`diloti.envs.ids`: ``diloti/Diloti-2p-round-v0``).
docs/RESEARCH.md describes each environment.
"""

from __future__ import annotations

from diloti.core.registry import GAMES, default_game


def gym_id(game: str) -> str:
    """The Gymnasium id of ``game``: ``diloti/<Game>-v0``.

    >>> gym_id("pairs")
    'diloti/Pairs-v0'
    """
    return f"diloti/{game.capitalize()}-v0"


GYM_ID = gym_id(default_game().name)  # the default game's
#: The registered Gymnasium id of each game (with an envs part) when this package was imported.
GYM_IDS = {name: gym_id(name) for name, info in GAMES.items() if info.has_part("envs")}


def register_gymnasium(game: str) -> str | None:
    """Register ``game``'s Gymnasium environment (once); its id, or None without Gymnasium."""
    try:
        import gymnasium
    except ImportError:  # the research extra is not installed: nothing to register
        return None
    env_id = gym_id(game)
    if env_id not in gymnasium.registry:
        gymnasium.register(id=env_id, entry_point="diloti.envs.gym_env:CardGameEnv", kwargs={"game": game})
    return env_id


def register_versioned() -> list[str]:
    """Register the versioned id of each game, player count and episode kind with Gymnasium
    (``diloti/Diloti-2p-round-v0``: :mod:`diloti.envs.ids`), once; their ids (none without Gymnasium)."""
    try:
        import gymnasium
    except ImportError:
        return []
    from diloti.envs.ids import env_ids

    out = []
    for e in env_ids().values():
        if "gymnasium" in e.libraries:
            if e.gym_id not in gymnasium.registry:
                gymnasium.register(id=e.gym_id, entry_point="diloti.envs.gym_env:CardGameEnv", kwargs=e.kwargs)
            out.append(e.gym_id)
    return out


for _game in GYM_IDS:
    register_gymnasium(_game)
register_versioned()

__all__ = ["GYM_ID", "GYM_IDS", "gym_id", "register_gymnasium", "register_versioned"]
