"""The one-card games' text formats: the formats part of every one-card game (its registry entry names this
package, :data:`diloti.games.onecard.FORMATS`).

:mod:`diloti.formats.games` reads and writes every game's positions and records through its part; for a
one-card game it calls the functions below: positions (:mod:`~diloti.games.onecard.formats.position`), moves
in words (:mod:`~diloti.games.onecard.formats.notation`), records (:mod:`~diloti.games.onecard.formats.record`),
the look in the terminal (:mod:`~diloti.games.onecard.formats.terminal`) and the server's messages
(:mod:`~diloti.games.onecard.formats.wire`).

>>> from diloti.games.xeri.rules import XeriGame
>>> g = XeriGame(seed=3)
>>> while not g.is_over:
...     g.push(g.state.legal_moves()[0])
>>> back = read_record(record_from_game(g, names=["ann", "bob"]).dumps(), "xeri")
>>> st = back.start(0)
>>> st.push(st.legal_moves()[0])
>>> back.errors, position_from_dict(position_to_dict(st), "xeri") == st
([], True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from diloti.games.onecard.formats.notation import describe_move
from diloti.games.onecard.formats.position import position_from_dict, position_to_dict
from diloti.games.onecard.formats.record import HandsRecord, read_record, record_from_game
from diloti.games.onecard.formats.terminal import TERMINAL
from diloti.games.onecard.formats.wire import read_played, replay_frame, state_message

if TYPE_CHECKING:
    from diloti.formats.part import GameFormats
    from diloti.games.onecard import formats as _this

    _checked: GameFormats = _this

__all__ = ["TERMINAL", "HandsRecord", "describe_move", "position_from_dict", "position_to_dict", "read_played",
           "read_record", "record_from_game", "replay_frame", "state_message"]
