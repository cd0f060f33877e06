"""Doctest collection: the environment modules whose library is missing are not imported.

The package's doctests run with the suite (``--doctest-modules``); without the
``research`` extra these modules cannot be imported, so they are left out
rather than failing collection (their tests in tests/ skip, saying why).
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
    "observation.py": ("numpy",),
    "driver.py": ("numpy",),
    "driver_base.py": ("numpy",),
    "pettingzoo_env.py": ("numpy", "gymnasium", "pettingzoo"),
    "gym_env.py": ("numpy", "gymnasium"),
    "openspiel_game.py": ("numpy", "pyspiel"),
    "openspiel_variants.py": ("numpy", "pyspiel"),
    "openspiel_base.py": ("numpy", "pyspiel"),
    "variant_observation.py": ("numpy",),
    "variant_driver.py": ("numpy",),
    "games.py": ("numpy",),
}

collect_ignore = [name for name, needs in _NEEDS.items() if any(_missing(m) for m in needs)]
