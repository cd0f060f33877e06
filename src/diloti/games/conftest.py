"""Doctest collection: the games' envs parts are not imported when the research extra is missing.

A game's envs part (``<game>/envs.py`` or ``<game>/envs/``) builds on numpy, and
Diloti's OpenSpiel game on pyspiel; without them they are left out rather than
failing collection, as the environments' own modules are (src/diloti/envs/conftest.py).
"""

from __future__ import annotations

import importlib


def _missing(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return True
    return False


collect_ignore_glob = ["*/envs.py", "*/envs/*"] if _missing("numpy") else []
if _missing("pyspiel"):
    collect_ignore_glob += ["*/envs/openspiel.py", "*/envs/mini.py"]
