"""The JSON of a game in play as the server sends it (docs/PROTOCOL.md): moves, sides' scores, replay frames,
and what a game's formats part needs to write its ``state`` message.

Every game's formats part provides ``state_message(game, seat, facts)`` (its own fields, in its own order),
``replay_frame(state, ply, seat, played)`` and ``read_played(state, text)``, on the shared writers below; the
server reaches them through the registry and never asks which game it holds.

>>> move_dict(Move.parse("9D x 4H 5C"))
{'move': '9D x 4H 5C', 'card': '9D', 'kind': 'capture', 'value': 9, 'cards': ['4H', '5C']}
>>> @dataclasses.dataclass
... class Side:
...     cards: int
...     sweeps: int
...     @property
...     def total(self) -> int:
...         return self.cards + self.sweeps
>>> side_dict(Side(30, 2))
{'cards': 30, 'sweeps': 2, 'total': 32}
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from diloti.core.cards import NAMES
from diloti.core.moves import Move
from diloti.core.phase import Phase

KIND_NAMES = ("lay", "capture", "plain", "group", "keep", "redeal")


@functools.lru_cache(maxsize=65536)
def notation(move: Move) -> str:
    """``str(move)``, remembered: every state message repeats the round's history."""
    return str(move)


def move_dict(move: Move) -> dict[str, Any]:
    """A move with its notation and parts (the page matches selections on ``card`` and ``cards``)."""
    card = move.card
    return {"move": notation(move), "card": None if card is None else NAMES[card], "kind": KIND_NAMES[move.kind],
            "value": move.value, "cards": [NAMES[c] for c in move.cards]}


def side_dict(side: Any) -> dict[str, int]:
    """One side's round score: its breakdown (the fields of the game's score dataclass, in order) and ``total``."""
    return {**dataclasses.asdict(side), "total": side.total}


@dataclass(frozen=True)
class TableFacts:
    """What a table adds to a seat's view in its ``state`` message: the move count, the round, how the game is
    won (``target``, or ``hands`` and ``hands_won`` in a game decided by hands won), the last move and the
    finished rounds' breakdowns."""

    ply: int
    round_no: int
    target: int | None
    hands: int | None
    hands_won: list[int] | None
    last: dict[str, Any] | None
    rounds: list[dict[str, Any]]


def history(view: Any) -> list[list[Any]]:
    """The round's moves so far, ``[seat, notation]`` each."""
    return [[seat, notation(m)] for seat, m in view.history]


def frame_dict(state: Any, ply: int, seat: int | None, played: dict[str, Any] | None,
               declarations: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A replay frame: the position after ``played`` (``None``: before a round's first move), every hand shown."""
    return {
        "ply": ply, "seat": seat, "move": None if played is None else played["move"], "played": played,
        "hands": [[str(c) for c in h] for h in state.hands],
        "table": [str(c) for c in state.table],
        "declarations": list(declarations),
        "stock": state.stock_size,
        "captured": [side.bit_count() for side in state.captured],
        "xeri": list(state.sweeps), "turn": state.turn, "phase": Phase(state.phase).label,  # the sweeps' word
    }


__all__ = ["KIND_NAMES", "TableFacts", "frame_dict", "history", "move_dict", "notation", "side_dict"]
