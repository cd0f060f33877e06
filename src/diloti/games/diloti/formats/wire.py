"""Diloti's ``state`` message and replay frames (docs/PROTOCOL.md), as its formats part provides them.

>>> from diloti.formats.wire import TableFacts
>>> from diloti.games.diloti.game import Game
>>> msg = state_message(Game(seed=3), None, TableFacts(0, 1, 61, None, None, None, []))
>>> msg["game"], msg["seat"], msg["hand"], msg["legal"], msg["target"], msg["jack_xeri"]
('diloti', None, [], [], 61, None)
"""

from __future__ import annotations

from typing import Any

from diloti.core.cards import NAMES
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.formats.wire import TableFacts, frame_dict, history, move_dict
from diloti.games.diloti.game import Game
from diloti.games.diloti.state import State
from diloti.games.diloti.view import PublicView, View


def state_message(game: Game, seat: int | None, facts: TableFacts) -> dict[str, Any]:
    """The ``state`` message for ``seat`` (built from its view alone), or (``None``) a spectator's, built from
    a :class:`~diloti.games.diloti.view.PublicView`: no hand, no legal moves, ``seat`` null."""
    view = game.view(seat) if seat is not None else PublicView.of(game.state, (game.scores[0], game.scores[1]))
    return {
        "type": "state",
        "game": "diloti",
        "ply": facts.ply,
        "round": facts.round_no,
        "seat": view.seat,
        "players": view.players,
        "sides": 2,
        "dealer": view.dealer,
        "turn": view.turn,
        "phase": Phase(view.phase).label,
        "your_turn": view.to_move,
        "hand": [NAMES[c] for c in view.hand],
        "table": [NAMES[c] for c in view.table],
        "declarations": [p.to_dict() for p in view.declarations],
        "hand_sizes": list(view.hand_sizes),
        "stock": view.stock_size,
        "deal": view.deal_no,
        "xeri": list(view.sweeps),
        "captured": [[NAMES[c] for c in side] for side in view.captured],
        "captured_counts": [len(side) for side in view.captured],
        "last_capturer": view.last_capturer,
        "pending": list(view.pending),
        "bottom": None if view.bottom is None else NAMES[view.bottom],
        "scores": list(view.scores),
        "target": facts.target,
        "jack_xeri": None,
        "hands": facts.hands,
        "hands_won": facts.hands_won,
        "history": history(view),
        "first_table": [NAMES[c] for c in view.first_table],
        "legal": [move_dict(m) for m in view.legal] if view.to_move else [],
        "legal_complete": not isinstance(view, View) or not view.to_move or view.lists_all(),
        "last": facts.last,
        "rounds": facts.rounds,
    }


def replay_frame(state: State, ply: int, seat: int | None, played: dict[str, Any] | None) -> dict[str, Any]:
    """A replay frame of Diloti: every hand shown, and the declarations on the table."""
    return frame_dict(state, ply, seat, played, [p.to_dict() for p in state.declarations])


def read_played(state: State, text: str) -> Move:
    """A move a player sent or the store holds: Diloti's notation, read exactly (the server checks it)."""
    return Move.parse(text)


__all__ = ["read_played", "replay_frame", "state_message"]
