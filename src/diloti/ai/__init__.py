"""Computer players, by level name.

Levels offered to people (:data:`LEVELS`): ``random``, ``greedy``,
``heuristic``, ``expert``. :data:`MEASUREMENT_LEVELS` adds ``oracle``, which
sees every hand and is only for measuring (tournaments give it the state).

A *spec* names a level with settings: ``expert:iterations=200,seconds=0.5``.

>>> from diloti.ai import LEVELS, make_player, make_player_spec
>>> list(LEVELS)
['random', 'greedy', 'heuristic', 'expert']
>>> make_player_spec("expert:iterations=50,seconds=none", seed=1).iterations
50
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from diloti.ai.base import Player, RandomPlayer
from diloti.ai.greedy import GreedyPlayer
from diloti.ai.heuristic import HeuristicPlayer
from diloti.ai.search import ExpertPlayer, OraclePlayer
from diloti.core.errors import DilotiError

# level name -> factory(seed, **options). Only these are offered to people.
LEVELS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "heuristic": HeuristicPlayer,
    "expert": ExpertPlayer,
}

# Every level, the measurement-only ones included (never an opponent in play).
MEASUREMENT_LEVELS: dict[str, Callable[..., Any]] = {**LEVELS, "oracle": OraclePlayer}


class UnknownLevelError(DilotiError, ValueError):
    """No computer player has that name, or a setting is wrong."""


def make_player(level: str, seed: int | None = None, **kwargs: Any) -> Player:
    """A computer player of the named level with its own seeded generator."""
    factory = LEVELS.get(level)
    if factory is None:
        raise UnknownLevelError(f"unknown level {level!r} (known: {', '.join(LEVELS)})")
    try:
        return factory(seed, **kwargs)
    except (TypeError, ValueError) as exc:
        raise UnknownLevelError(f"invalid settings for level {level!r}: {exc}") from None


def _setting(text: str) -> Any:
    low = text.strip().lower()
    if low in ("none", "off"):
        return None
    try:
        return int(low)
    except ValueError:
        pass
    try:
        return float(low)
    except ValueError:
        raise UnknownLevelError(f"invalid setting value {text!r}: expected a number or none") from None


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"expert:iterations=200,seconds=0.5"`` -> ``("expert", {...})``."""
    level, _, rest = spec.partition(":")
    level = level.strip()
    settings: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise UnknownLevelError(f"invalid player {spec!r}: settings are KEY=VALUE, comma separated")
        settings[key.strip()] = _setting(value)
    return level, settings


def make_player_spec(spec: str, seed: int | None = None, measurement: bool = True) -> Any:
    """A player from a spec; ``oracle`` is allowed only with ``measurement``."""
    level, settings = parse_spec(spec)
    table = MEASUREMENT_LEVELS if measurement else LEVELS
    factory = table.get(level)
    if factory is None:
        raise UnknownLevelError(f"unknown level {level!r} (known: {', '.join(table)})")
    try:
        return factory(seed, **settings)
    except (TypeError, ValueError) as exc:
        raise UnknownLevelError(f"invalid player {spec!r}: {exc}") from None


__all__ = [
    "LEVELS", "MEASUREMENT_LEVELS", "ExpertPlayer", "GreedyPlayer", "HeuristicPlayer", "OraclePlayer", "Player",
    "RandomPlayer", "UnknownLevelError", "make_player", "make_player_spec", "parse_spec",
]
