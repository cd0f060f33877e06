"""Positions and records of every game, through the registry: each game's formats part reads and writes its own.

A position or record says its game: ``"game": "xeri"`` in JSON, a ``[Game "xeri"]`` header in a
record; one that names none is Diloti's (the formats before there were other games). Each game's
part for this floor (:meth:`diloti.games.GameInfo.part` with ``"formats"``) provides
``position_to_dict``, ``position_from_dict``, ``read_record`` and ``record_from_game``
(:class:`GameFormats`); Diloti's is :mod:`diloti.games.diloti.formats`, the one-card games'
:mod:`diloti.formats.hands`.

>>> from diloti.games import new_game
>>> g = new_game("xeri", seed=3)
>>> while not g.is_over:
...     g.push(g.state.legal_moves()[0])
>>> rec = record_from_game(g, names=["ann", "bob"], date="2026.11.23")
>>> back = read_any_record(rec.dumps())
>>> back.errors, back.scores == tuple(g.scores), back.result == rec.result != "*"
([], True, True)
>>> st = back.start(0)
>>> position_from_json(position_to_json(st)) == st
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from diloti.core.errors import InvalidPositionError, UnknownGameError
from diloti.core.interface import RoundRules
from diloti.core.moves import Move
from diloti.formats.hands import HandsRecord, format_hand_score, move_text, result_text
from diloti.formats.reader import _HEADER_RE, _unquote, load_record_file
from diloti.formats.terminal import Terminal
from diloti.formats.wire import TableFacts
from diloti.games import DEFAULT_GAME, check_game, find_game


class GameFormats(Protocol):
    """What a game's formats part provides (a module with these functions)."""

    def position_to_dict(self, state: Any) -> dict[str, Any]: ...

    def position_from_dict(self, data: Mapping[str, Any], game: str) -> Any: ...

    def describe_move(self, state: Any, move: Move) -> str: ...

    def read_record(self, text: str, game: str) -> Any: ...

    def record_from_game(self, game: Any, names: list[str] | None = None, event: str | None = None,
                         date: str | None = None, site: str | None = None,
                         notes: dict[int, str] | None = None) -> Any: ...

    # What the server sends of a game (diloti.formats.wire): a seat's or a spectator's ``state`` message, a
    # replay frame, and a move as a player or the store names it.
    def state_message(self, game: Any, seat: int | None, facts: TableFacts) -> dict[str, Any]: ...

    def replay_frame(self, state: Any, ply: int, seat: int | None, played: dict[str, Any] | None) -> dict[str, Any]:
        ...

    def read_played(self, state: Any, text: str) -> Move: ...

    @property
    def TERMINAL(self) -> Terminal: ...


def formats_of(game: str) -> GameFormats:
    """The formats part of ``game``."""
    part: GameFormats = find_game(game).part("formats")
    return part


def game_of(data: Mapping[str, Any]) -> str:
    """The game a position dict names (Diloti when it names none)."""
    return check_game(data.get("game", DEFAULT_GAME))


# ---------------------------------------------------------------- positions
def position_to_dict(state: RoundRules) -> dict[str, Any]:
    """The JSON-ready dict of a position of any game (Diloti's without a ``game`` key, as always).

    >>> from diloti.games import find_game
    >>> d = position_to_dict(find_game("kontsina").state.new(seed=1))
    >>> d["game"], len(d["hands"][0]), len(d["table"]), len(d["stock"])
    ('kontsina', 4, 4, 40)
    """
    return formats_of(state.game).position_to_dict(state)


def position_to_json(state: RoundRules) -> str:
    return json.dumps(position_to_dict(state), ensure_ascii=False, separators=(", ", ": "))


def position_from_dict(data: Any) -> Any:
    """A position of any game from its dict, validated (every card once, whole deals in the stock).

    >>> s = position_from_dict({"game": "xeri", "players": 3})
    Traceback (most recent call last):
    ...
    diloti.core.errors.InvalidPositionError: invalid number of players 3 for xeri: expected 2 or 4
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
    """A position of any game: JSON (which names its game), or Diloti's compact line."""
    t = text.strip()
    if t.startswith("{"):
        return position_from_json(t)
    return find_game(DEFAULT_GAME).part("formats").parse_compact(t)


def describe_move(state: RoundRules, move: Move) -> str:
    """A short readable form of ``move`` in ``state`` of any game (before it is played), by the game's formats."""
    return formats_of(state.game).describe_move(state, move)


# ------------------------------------------------------------------ records
def record_from_game(game: Any, names: list[str] | None = None, event: str | None = None, date: str | None = None,
                     site: str | None = None) -> Any:
    """The record of a game of any game (finished or not)."""
    return formats_of(game.game).record_from_game(game, names, event, date, site)


def read_any_record(text: str) -> Any:
    """Read a record of any game (its ``Game`` header; none: Diloti), replaying it; problems go to ``errors``."""
    game = DEFAULT_GAME
    for i, raw in enumerate(text.splitlines(), 1):
        m = _HEADER_RE.match(raw.strip())
        if m and m.group(1) == "Game":
            game = _unquote(m.group(2))
            try:
                check_game(game)
            except UnknownGameError as exc:
                rec = HandsRecord()
                rec.errors.append((i, f"bad header Game: {exc}"))
                return rec
            break
    return formats_of(game).read_record(text, game)


def load_any_record(path: str | Path, strict: bool = False) -> Any:
    """Read a record file of any game; with ``strict`` the first problem raises :class:`RecordError`."""
    return load_record_file(path, strict, read_any_record)


__all__ = ["GameFormats", "HandsRecord", "describe_move", "format_hand_score", "formats_of", "game_of",
           "load_any_position",
           "load_any_record", "move_text", "position_from_dict", "position_from_json", "position_to_dict",
           "position_to_json", "read_any_record", "record_from_game", "result_text"]
