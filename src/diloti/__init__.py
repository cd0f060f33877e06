"""diloti: the Greek fishing card game Diloti (Δηλωτή).

A small, typed, dependency-free rules core (:mod:`diloti.cards`,
:mod:`diloti.moves`, :mod:`diloti.state`, :mod:`diloti.game`,
:mod:`diloti.options`, :mod:`diloti.view`) and everything else built on it.

>>> from diloti import State
>>> s = State.new(seed=1)
>>> m = s.legal_moves()[0]
>>> s.push(m)
"""

from diloti.cards import CARDS, Card, parse_card, parse_cards
from diloti.errors import (
    AmbiguousMoveError,
    DilotiError,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidPositionError,
    OptionsError,
    RecordError,
)
from diloti.game import Game, RoundRecord
from diloti.moves import Move, MoveKind, Pile
from diloti.options import Options
from diloti.state import Side, State
from diloti.view import View

__version__ = "0.1.0"

__all__ = [
    "CARDS", "AmbiguousMoveError", "Card", "DilotiError", "Game", "IllegalMoveError",
    "InvalidCardError", "InvalidMoveError", "InvalidPositionError", "Move", "MoveKind", "Options",
    "OptionsError", "Pile", "RecordError", "RoundRecord", "Side", "State", "View", "parse_card",
    "parse_cards",
]
