"""Research environments: PettingZoo, Gymnasium and OpenSpiel, on one fixed action encoding.

:mod:`diloti.envs.actions` (the factored action encoding) needs nothing beyond
the engine. The environments need the ``research`` extra
(``pip install 'diloti[research]'``): :mod:`diloti.envs.observation`,
:mod:`diloti.envs.pettingzoo_env`, :mod:`diloti.envs.gym_env` and
:mod:`diloti.envs.openspiel_game`. Importing this package registers the
Gymnasium environments ``diloti/Diloti-v0``, ``diloti/Xeri-v0`` and
``diloti/Kontsina-v0`` when Gymnasium is installed, so
``gymnasium.make("diloti/Diloti-v0", opponent="expert")`` works after
``import diloti.envs``. The parent games' environments are the same classes
with ``game="xeri"`` or ``game="kontsina"`` (:mod:`diloti.envs.games`).
docs/RESEARCH.md describes each environment.
"""

from __future__ import annotations

GYM_ID = "diloti/Diloti-v0"
#: The registered Gymnasium id of each game.
GYM_IDS = {"diloti": GYM_ID, "xeri": "diloti/Xeri-v0", "kontsina": "diloti/Kontsina-v0"}


def _register_gymnasium() -> None:
    try:
        import gymnasium
    except ImportError:  # the research extra is not installed: nothing to register
        return
    for game, gym_id in GYM_IDS.items():
        if gym_id not in gymnasium.registry:
            kwargs = {} if game == "diloti" else {"game": game}
            gymnasium.register(id=gym_id, entry_point="diloti.envs.gym_env:DilotiEnv", kwargs=kwargs)


_register_gymnasium()

__all__ = ["GYM_ID", "GYM_IDS"]
