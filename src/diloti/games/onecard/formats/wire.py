"""The JSON the server sends of a table of a one-card game (docs/PROTOCOL.md): the shape of Diloti's ``state``
message, with the game's ``sides``, the sweeps (``xeri``) and the family's other count (``jack_xeri``: Xeri's,
zeros in the other games), on the shared writers of :mod:`diloti.formats.wire`.

>>> from diloti.formats.wire import TableFacts
>>> from diloti.games.kontsina.rules import KontsinaGame
>>> g = KontsinaGame(3, seed=1)
>>> msg = state_message(g, 1, TableFacts(0, 1, 21, None, None, None, []))
>>> msg["game"], msg["sides"], msg["xeri"], msg["jack_xeri"], len(msg["legal"])
('kontsina', 3, [0, 0, 0], [0, 0, 0], 6)
"""

from __future__ import annotations

from typing import Any

from diloti.core.cards import NAMES
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.formats.wire import TableFacts, frame_dict, history, move_dict
from diloti.games.onecard.game import HandsGame
from diloti.games.onecard.state import HandState


def state_message(game: HandsGame, seat: int | None, facts: TableFacts) -> dict[str, Any]:
    """The ``state`` message of a table of a one-card game: the shape of Diloti's, with ``game`` and ``sides``.

    ``table`` is the pile (bottom first, the top card last) in a game whose table is one, or the loose cards.
    A spectator's message (``seat`` None) is built from the view of the seat after the one to move, with its
    hand and moves left out (``seat`` null).
    """
    public = seat is None
    view = game.view(seat if seat is not None else (game.state.turn + 1) % game.players)
    return {
        "type": "state",
        "game": view.game,
        "ply": facts.ply,
        "round": facts.round_no,
        "seat": None if public else view.seat,
        "players": view.players,
        "sides": view.sides,
        "dealer": view.dealer,
        "turn": view.turn,
        "phase": Phase(view.phase).label,
        "your_turn": not public and view.to_move,
        "hand": [] if public else [NAMES[c] for c in view.hand],
        "table": [NAMES[c] for c in view.table],
        "declarations": [],
        "hand_sizes": list(view.hand_sizes),
        "stock": view.stock_size,
        "deal": view.deal_no,
        "xeri": list(view.sweeps),  # the protocol's word for the sweeps
        "jack_xeri": list(view.tally("jack_xeri")),
        "captured": [[NAMES[c] for c in side] for side in view.captured],
        "captured_counts": [len(side) for side in view.captured],
        "last_capturer": view.last_capturer,
        "pending": [],
        "bottom": None,
        "scores": list(view.scores),
        "target": facts.target,
        "hands": facts.hands,
        "hands_won": facts.hands_won,
        "history": history(view),
        "first_table": [],
        "legal": [move_dict(m) for m in view.legal] if view.to_move and not public else [],
        "legal_complete": True,  # a one-card game's moves are always few
        "last": facts.last,
        "rounds": facts.rounds,
    }


def replay_frame(state: HandState, ply: int, seat: int | None, played: dict[str, Any] | None) -> dict[str, Any]:
    """A replay frame: every hand shown (no declarations in these games)."""
    return frame_dict(state, ply, seat, played, [])


def read_played(state: HandState, text: str) -> Move:
    """A move a player sent or the store holds: its notation, or (as in the records) a card alone naming its
    one legal move."""
    move = Move.parse(text)
    return move if state.is_over or state.is_legal(move) else state.read_move(text)


__all__ = ["read_played", "replay_frame", "state_message"]
