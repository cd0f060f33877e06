"""Diloti's own text formats: its move notation, its positions (JSON and the compact line) and its records.

This package is Diloti's part for the formats' floor: :mod:`diloti.formats.games` reads and writes
every game's positions and records through the registry, and for Diloti it calls the functions
below (the same functions every game's formats part provides).

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=4)
>>> position_from_dict(position_to_dict(s), "diloti") == s
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from diloti.core.moves import Move
from diloti.games.diloti.formats import notation as _notation
from diloti.games.diloti.formats import position as _position
from diloti.games.diloti.formats import record as _record
from diloti.games.diloti.formats.terminal import TERMINAL
from diloti.games.diloti.formats.wire import read_played, replay_frame, state_message
from diloti.games.diloti.game import Game
from diloti.games.diloti.state import State


def position_to_dict(state: State) -> dict[str, Any]:
    """Diloti's JSON position (without a ``game`` key: Diloti's format from before there were other games)."""
    return _position.position_to_dict(state)


def position_from_dict(data: Mapping[str, Any], game: str = "diloti") -> State:
    """A Diloti position from its dict, validated."""
    return _position.position_from_dict(data)


def parse_compact(text: str) -> State:
    """A position from Diloti's compact one-line form."""
    return _position.parse_position(text)


def describe_move(state: State, move: Move) -> str:
    """A short declaration-aware form of ``move`` in ``state`` (before it is played)."""
    return _notation.describe_move(state, move)


def read_record(text: str, game: str = "diloti") -> _record.GameRecord:
    """Read a Diloti record, replaying it; problems go to ``errors``."""
    return _record.read_record(text)


def record_from_game(game: Game, names: list[str] | None = None, event: str | None = None, date: str | None = None,
                     site: str | None = None, notes: dict[int, str] | None = None) -> _record.GameRecord:
    """The record of a game of Diloti (finished or not); ``notes``: comments on moves, by ply over the game."""
    return _record.GameRecord.from_game(game, names, event or "diloti", date, site, notes)


__all__ = ["TERMINAL", "describe_move", "parse_compact", "position_from_dict", "position_to_dict", "read_played",
           "read_record", "record_from_game", "replay_frame", "state_message"]
