"""Doctest collection: the environment modules whose library is missing are not imported.

The package's doctests run with the suite (``--doctest-modules``); without the
``research`` extra these modules cannot be imported, so they are left out
rather than failing collection (their tests in tests/ skip, saying why). The
games' envs parts are left out the same way (src/diloti/games/conftest.py).
"""

from __future__ import annotations

import importlib


def _missing(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return True
    return False


_NEEDS = {
    "actions.py": ("numpy",),  # its example loads a game's envs part
    "batch.py": ("numpy",),
    "driver.py": ("numpy",),
    "driver_base.py": ("numpy",),
    "games.py": ("numpy",),
    "pettingzoo_env.py": ("numpy", "gymnasium", "pettingzoo"),
    "gym_env.py": ("numpy", "gymnasium"),
    "vector.py": ("numpy", "gymnasium"),
    "sb3.py": ("numpy", "gymnasium", "stable_baselines3"),
    "openspiel_base.py": ("numpy", "pyspiel"),
    "openspiel_game.py": ("numpy", "pyspiel"),
}

collect_ignore = [name for name, needs in _NEEDS.items() if any(_missing(m) for m in needs)]
