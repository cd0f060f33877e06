"""Computer players, by level name.

Levels offered to people (:data:`LEVELS`): ``random``, ``greedy``,
``heuristic``, ``expert``, ``master`` (the expert's search with card-counting
rollouts and a quarter of a second a move: stronger than the expert in matches,
docs/STRENGTH.md), and, where numpy is installed, ``learned`` (a small network's policy, no search at move
time: :mod:`diloti.ai.learned`). :data:`MEASUREMENT_LEVELS` adds ``oracle``, which sees every
hand and is only for measuring (tournaments give it the state).

:func:`make_player` is the one way to build a player, from a level name or a
*spec*, a level with settings: ``expert:iterations=200,seconds=0.5``. Matches
(tournaments, the ladder) also take outside players by import path,
``mypkg.bots:MyBot:depth=2``: ``MyBot(seed, depth=2).choose(view)`` gives its moves.

>>> from diloti.ai import LEVELS, MEASUREMENT_LEVELS, make_player
>>> list(LEVELS), list(MEASUREMENT_LEVELS)[len(LEVELS):]
(['random', 'greedy', 'heuristic', 'expert', 'master', 'learned'], ['oracle'])
>>> make_player("expert:iterations=50,seconds=none", seed=1).iterations
50
>>> make_player("expert", seed=1, iterations=50).iterations
50
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any, cast

from diloti.ai.base import FullStatePlayer, Player, RandomPlayer, ScoringPlayer, player_move
from diloti.ai.errors import InvalidSettingError, NoMoveError, PlayerError, UnknownLevelError
from diloti.ai.expert import ExpertPlayer, OraclePlayer
from diloti.ai.games import game_players, players_part
from diloti.ai.greedy import GreedyPlayer
from diloti.ai.heuristic import HeuristicPlayer
from diloti.ai.learned import LearnedPlayer
from diloti.ai.learned import available as learned_available
from diloti.ai.master import MasterPlayer
from diloti.ai.part import PlayersPart, SearchSettings
from diloti.core.moves import Move

# level name -> factory(seed, **settings). Only these are offered to people.
LEVELS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "heuristic": HeuristicPlayer,
    "expert": ExpertPlayer,
    "master": MasterPlayer,
}
# The learned policy (issue 53) needs numpy: offered only where it can run (a capability, not a name).
if learned_available():
    LEVELS["learned"] = LearnedPlayer

# Every level, the measurement-only oracle included (it sees every hand: never an opponent in play).
MEASUREMENT_LEVELS: dict[str, Callable[..., Player]] = {**LEVELS, "oracle": OraclePlayer}


def level_plays(spec: str, game: str, players: int) -> bool:
    """Whether the level of ``spec`` plays ``game`` with ``players`` players: every level does, but one that says
    otherwise by its factory's ``plays(game, players)`` (the learned level: the games its network was trained for).

    >>> level_plays("master:seconds=2", "xeri", 4)
    True
    """
    factory = MEASUREMENT_LEVELS.get(spec.partition(":")[0].strip())
    plays = getattr(factory, "plays", None)
    return plays is None or bool(plays(game, players))


def _setting(spec: str, text: str, free: bool = False) -> Any:
    """A setting's value: a number or none; with ``free`` (an outside player's) also true/false and text."""
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
        if free:
            return {"true": True, "false": False}.get(low, text.strip())
        raise UnknownLevelError(f"invalid setting value {text!r} in player {spec!r}: expected a number or none",
                                spec) from None


def parse_spec(spec: str, free: bool = False) -> tuple[str, dict[str, Any]]:
    """``"expert:iterations=200,seconds=0.5"`` -> ``("expert", {...})``.

    The built-in levels' settings are numbers (or none), but a setting the level names among its ``words``
    (a mapping of a setting to the words it takes: the master's ``model``), which is one of those words; with
    ``free``, as an outside player's, a value may also be ``true``, ``false`` or any text (a model's file, say).

    >>> parse_spec("expert:iterations=20,seconds=none")
    ('expert', {'iterations': 20, 'seconds': None})
    >>> parse_spec("master:model=learned,infer=1")
    ('master', {'model': 'learned', 'infer': 1})
    >>> parse_spec("x:model=runs/ppo.zip,greedy=true,temperature=0.5", free=True)
    ('x', {'model': 'runs/ppo.zip', 'greedy': True, 'temperature': 0.5})
    """
    level, _, rest = spec.partition(":")
    level = level.strip()
    settings: dict[str, Any] = {}
    words: dict[str, tuple[str, ...]] = {} if free else getattr(MEASUREMENT_LEVELS.get(level), "words", {})
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise UnknownLevelError(f"invalid player {spec!r}: settings are KEY=VALUE, comma separated", spec)
        key = key.strip()
        if key in words:
            if value.strip().lower() not in words[key]:
                raise UnknownLevelError(f"invalid player {spec!r}: invalid {key} {value.strip()!r}: expected one of "
                                        f"{', '.join(words[key])}", spec)
            settings[key] = value.strip().lower()
            continue
        settings[key] = _setting(spec, value, free)
    return level, settings


def make_player(spec: str, seed: int | None = None, *, measurement: bool = False, outside: bool = False,
                **settings: Any) -> Player:
    """A computer player with its own seeded generator.

    ``spec`` is a level name, or a level with settings (``expert:iterations=200``);
    keyword ``settings`` are added to (and override) the spec's. The
    measurement-only ``oracle`` is built only with ``measurement=True``. An outside
    player by import path (``package.module:Name``) is built with ``measurement``
    (matches) or ``outside`` (the terminal game, whose user names their own code),
    never otherwise: a browser table must not import code a request names.

    >>> make_player("oracle")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    diloti.ai.errors.UnknownLevelError: unknown level 'oracle'
        (known: random, greedy, heuristic, expert, master, learned)
    >>> make_player("oracle", measurement=True).name
    'oracle'
    """
    if not isinstance(spec, str):
        raise UnknownLevelError(f"invalid player {spec!r}: expected a level name", spec)
    head, _, rest = spec.partition(":")
    if head.strip() not in MEASUREMENT_LEVELS and rest and "=" not in rest.partition(":")[0]:  # module:Name[:...]
        if measurement or outside:
            return _outside_player(spec, seed, settings)
        raise UnknownLevelError(f"invalid player {spec!r}: an outside player (package.module:Name) plays only in "
                                f"matches (diloti tournament) and terminal games (diloti play), not here; "
                                f"levels: {', '.join(LEVELS)}", spec)
    level, parsed = parse_spec(spec)
    table = MEASUREMENT_LEVELS if measurement else LEVELS
    factory = table.get(level)
    if factory is None:
        raise UnknownLevelError(f"unknown level {level!r} (known: {', '.join(table)})", spec)
    merged = {**parsed, **settings}
    known = settings_of(factory)
    unknown = [] if "..." in known else [k for k in merged if k not in known]
    if unknown:
        raise UnknownLevelError(f"invalid player {spec!r}: unknown setting {unknown[0]!r} for {level} "
                                f"(known: {', '.join(known) or 'none'})", spec)
    try:
        return factory(seed, **merged)
    except (TypeError, ValueError) as exc:
        raise UnknownLevelError(f"invalid player {spec!r}: {exc}", spec) from None


def settings_of(factory: Callable[..., Player]) -> list[str]:
    """The settings a level takes (its factory's keyword parameters after the seed).

    >>> settings_of(LEVELS["expert"])
    ['iterations', 'seconds', 'eps', 'width', 'deals', 'cpu', 'exact']
    """
    known = _SETTINGS.get(factory)
    if known is None:  # inspect.signature costs more than making most players: read once a factory
        params = list(inspect.signature(factory).parameters.values())[1:]
        if any(p.kind == p.VAR_KEYWORD for p in params):
            known = (*(p.name for p in params if p.kind != p.VAR_KEYWORD), "...")  # takes any: the factory checks
        else:
            known = tuple(p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
        _SETTINGS[factory] = known
    return list(known)


_SETTINGS: dict[Callable[..., Player], tuple[str, ...]] = {}


def _outside_player(spec: str, seed: int | None, settings: dict[str, Any]) -> Player:
    """A player from outside this package: ``package.module:Name[:KEY=VALUE,...]`` (matches only).

    ``Name`` is called as ``Name(seed, **settings)`` and must give an object with
    ``choose(view) -> Move``: it sees only its seat's view, as the built-in levels do.
    Never offered in the browser game (importing code named by a request would run it).
    """
    module_name, _, rest = spec.partition(":")
    attr, _, settings_text = rest.partition(":")
    if not attr.strip():
        raise UnknownLevelError(f"invalid player {spec!r}: an outside player is package.module:Name", spec)
    _, parsed = parse_spec(f"x:{settings_text}", free=True)
    try:
        module = importlib.import_module(module_name.strip())
    except ImportError as exc:
        raise UnknownLevelError(f"invalid player {spec!r}: cannot import {module_name.strip()!r}: {exc}",
                                spec) from None
    factory = getattr(module, attr.strip(), None)
    if not callable(factory):
        raise UnknownLevelError(f"invalid player {spec!r}: {module_name.strip()} has no callable "
                                f"{attr.strip()!r}", spec)
    try:
        player = factory(seed, **{**parsed, **settings})
    except (TypeError, ValueError) as exc:
        raise UnknownLevelError(f"invalid player {spec!r}: {exc}", spec) from None
    if not callable(getattr(player, "choose", None)):
        raise UnknownLevelError(f"invalid player {spec!r}: {attr.strip()}(...) has no choose(view) method", spec)
    return OutsidePlayer(spec, player)


class OutsidePlayer:
    """An outside player behind the one door: only ``choose(view)`` reaches it (never a full state)."""

    def __init__(self, name: str, inner: Any) -> None:
        self.name = name
        self._choose = inner.choose

    def choose(self, view: Any) -> Move:
        return cast(Move, self._choose(view))


__all__ = [
    "LEVELS",
    "MEASUREMENT_LEVELS",
    "ExpertPlayer",
    "FullStatePlayer",
    "GreedyPlayer",
    "HeuristicPlayer",
    "InvalidSettingError",
    "MasterPlayer",
    "NoMoveError",
    "OraclePlayer",
    "OutsidePlayer",
    "Player",
    "PlayerError",
    "PlayersPart",
    "RandomPlayer",
    "ScoringPlayer",
    "SearchSettings",
    "UnknownLevelError",
    "game_players",
    "level_plays",
    "make_player",
    "parse_spec",
    "player_move",
    "players_part",
]
