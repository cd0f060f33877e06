"""What a game provides the text formats: the contract of a game's formats part.

A game's formats part is the module its registry entry names for this floor (``parts["formats"]``:
Diloti's :mod:`diloti.games.diloti.formats`, the one-card games' :mod:`diloti.games.onecard.formats`), a module
with the functions of :class:`GameFormats`. :mod:`diloti.formats.games` imports it by that name and reads and
writes every game's positions and records through it; a part imports this module and the shared writers
(:mod:`diloti.formats.reader`, :mod:`diloti.formats.wire`, :mod:`diloti.formats.terminal`), never
:mod:`diloti.formats.games`. mypy checks each part against the contract (each assigns itself to a
``GameFormats`` under ``TYPE_CHECKING``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from diloti.core.moves import Move
from diloti.formats.terminal import Terminal
from diloti.formats.wire import TableFacts


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


__all__ = ["GameFormats"]
