"""Research environments: PettingZoo, Gymnasium and OpenSpiel, on one fixed action encoding.

:mod:`diloti.envs.actions` (the factored action encoding) needs nothing beyond
the engine. The environments need the ``research`` extra
(``pip install 'diloti[research]'``): :mod:`diloti.envs.observation`,
:mod:`diloti.envs.pettingzoo_env`, :mod:`diloti.envs.gym_env` and
:mod:`diloti.envs.openspiel_game`. Importing this package registers the
Gymnasium environment ``diloti/Diloti-v0`` when Gymnasium is installed, so
``gymnasium.make("diloti/Diloti-v0", opponent="expert")`` works after
``import diloti.envs``. docs/RESEARCH.md describes each environment.
"""

from __future__ import annotations

GYM_ID = "diloti/Diloti-v0"


def _register_gymnasium() -> None:
    try:
        import gymnasium
    except ImportError:  # the research extra is not installed: nothing to register
        return
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="diloti.envs.gym_env:DilotiEnv")


_register_gymnasium()

__all__ = ["GYM_ID"]
