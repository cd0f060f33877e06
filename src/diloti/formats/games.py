"""Positions and records of every game, through the registry: each game's formats part reads and writes its own.

A position or record says its game: ``"game": "<name>"`` in JSON, a ``[Game "<name>"]`` header in a
record; one that names none is the default game's (the formats came before there were other games). Each
game's part for this floor (the module its registry entry names, ``parts["formats"]``) provides
``position_to_dict``, ``position_from_dict``, ``read_record`` and ``record_from_game``
(:class:`~diloti.formats.part.GameFormats`): this module imports it by that name (:func:`formats_of`), and
no part imports this module.

>>> from diloti.core.registry import GAMES
>>> for info in GAMES.values():
...     g = info.new_game(seed=3)
...     for _ in range(8):
...         g.push(g.state.legal_moves()[0])
...     rec = record_from_game(g, names=["ann", "bob"], date="2026.11.23")
...     back = read_any_record(rec.dumps())
...     st = back.start(0)
...     assert (back.errors, back.result, len(back.rounds[0].moves)) == ([], rec.result, 8)
...     assert position_from_json(position_to_json(st)) == st
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from diloti.core.errors import InvalidPositionError, UnknownGameError
from diloti.core.interface import RoundRules
from diloti.core.moves import Move
from diloti.core.registry import check_game, default_game, find_game
from diloti.formats.part import GameFormats
from diloti.formats.reader import _HEADER_RE, _unquote, load_record_file

_PARTS: dict[str, tuple[str, ModuleType]] = {}  # game -> (the module's name, the module): imported once


def _part_module(game: str) -> ModuleType:
    name = find_game(game).part_module("formats")
    found = _PARTS.get(game)
    if found is None or found[0] != name:  # a game registered again with another part
        found = _PARTS[game] = (name, importlib.import_module(name))
    return found[1]


def formats_of(game: str) -> GameFormats:
    """The formats part of ``game`` (its module, imported by the name the registry gives on first use).

    >>> formats_of(default_game().name).__name__ == default_game().part_module("formats")
    True
    """
    part: GameFormats = _part_module(game)  # a module meeting the protocol
    return part


def game_of(data: Mapping[str, Any]) -> str:
    """The game a position dict names (the default game when it names none)."""
    return check_game(data.get("game", default_game().name))


# ---------------------------------------------------------------- positions
def position_to_dict(state: RoundRules) -> dict[str, Any]:
    """The JSON-ready dict of a position of any game (the default game's without a ``game`` key, as always).

    >>> from diloti.core.registry import GAMES
    >>> [position_to_dict(info.state.new(seed=1)).get("game") for info in GAMES.values()] == [
    ...     info.name if info.named else None for info in GAMES.values()]
    True
    """
    return formats_of(state.game).position_to_dict(state)


def position_to_json(state: RoundRules) -> str:
    return json.dumps(position_to_dict(state), ensure_ascii=False, separators=(", ", ": "))


def position_from_dict(data: Any) -> Any:
    """A position of any game from its dict, validated (every card once, whole deals in the stock).

    >>> s = position_from_dict({"players": 3})
    Traceback (most recent call last):
    ...
    diloti.core.errors.InvalidPositionError: invalid position: field 'players': expected 2 or 4, got 3
    """
    if not isinstance(data, Mapping):
        raise InvalidPositionError(f"invalid position: expected a JSON object, got {data!r}")
    game = game_of(data)
    return formats_of(game).position_from_dict(data, game)


def position_from_json(text: str) -> Any:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InvalidPositionError(f"invalid position: not JSON: {exc}") from None
    return position_from_dict(data)


def load_any_position(text: str) -> Any:
    """A position of any game: JSON (which names its game), or the default game's compact line."""
    t = text.strip()
    if t.startswith("{"):
        return position_from_json(t)
    return _part_module(default_game().name).parse_compact(t)


def describe_move(state: RoundRules, move: Move) -> str:
    """A short readable form of ``move`` in ``state`` of any game (before it is played), by the game's formats."""
    return formats_of(state.game).describe_move(state, move)


# ------------------------------------------------------------------ records
def record_from_game(game: Any, names: list[str] | None = None, event: str | None = None, date: str | None = None,
                     site: str | None = None) -> Any:
    """The record of a game of any game (finished or not)."""
    return formats_of(game.game).record_from_game(game, names, event, date, site)


def read_any_record(text: str) -> Any:
    """Read a record of any game (its ``Game`` header; none: the default game), replaying it; problems go to
    ``errors`` (a record of a game not registered: the default game's empty record, with that problem)."""
    game = default_game().name
    for i, raw in enumerate(text.splitlines(), 1):
        m = _HEADER_RE.match(raw.strip())
        if m and m.group(1) == "Game":
            named = _unquote(m.group(2))
            try:
                game = check_game(named)
            except UnknownGameError as exc:
                rec = formats_of(game).read_record("", game)
                rec.errors.append((i, f"bad header Game: {exc}"))
                return rec
            break
    return formats_of(game).read_record(text, game)


def load_any_record(path: str | Path, strict: bool = False) -> Any:
    """Read a record file of any game; with ``strict`` the first problem raises :class:`RecordError`."""
    return load_record_file(path, strict, read_any_record)


__all__ = ["GameFormats", "describe_move", "formats_of", "game_of", "load_any_position", "load_any_record",
           "position_from_dict", "position_from_json", "position_to_dict", "position_to_json", "read_any_record",
           "record_from_game"]
