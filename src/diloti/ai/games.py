"""The games the computer players play: each registered game's players part, found by the game's name.

A game's players part is the module its registry entry names for this floor (``parts["players"]``); this
module imports it by that name on first use and keeps its ``PART``: an object meeting
:class:`~diloti.ai.part.PlayersPart` (a one-card game's :class:`~diloti.games.onecard.players.HandPlayers`), or
the module itself, whose functions are the part (Diloti's). The players, the analysis and the matches ask
here; no part imports this module (a part ranks its moves with :func:`diloti.ai.search.search_ranking`,
given its own worlds and rollouts).

>>> from diloti.core.registry import default_game
>>> info = default_game()
>>> players_part(info.new_state(seed=1).view(0)) is game_players(info.name)
True
"""

from __future__ import annotations

import importlib
from typing import Any

from diloti.ai.part import PlayersPart
from diloti.core.registry import find_game

_PARTS: dict[str, tuple[str, PlayersPart]] = {}  # game -> (the module's name, its part): imported once


def game_players(name: str) -> PlayersPart:
    """The players part of the game called ``name``."""
    module = find_game(name).part_module("players")
    found = _PARTS.get(name)
    if found is None or found[0] != module:  # first use, or a game registered again with another part
        part: PlayersPart = importlib.import_module(module).PART
        found = _PARTS[name] = (module, part)
    return found[1]


def players_part(view: Any) -> PlayersPart:
    """The players part of the game ``view`` (or a state) belongs to."""
    return game_players(view.game)


__all__ = ["game_players", "players_part"]
