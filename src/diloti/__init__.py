"""diloti: the Greek fishing card game Diloti (Δηλωτή).

A small, typed, dependency-free rules core (:mod:`diloti.core.cards`,
:mod:`diloti.core.moves`, :mod:`diloti.games.diloti.state`, :mod:`diloti.games.diloti.game`,
:mod:`diloti.games.diloti.options`, :mod:`diloti.core.view`) and everything else built on it.

>>> from diloti import State
>>> s = State.new(seed=1)
>>> m = s.legal_moves()[0]
>>> s.push(m)
>>> State.new(seed=1, game="xeri").stock_size  # Diloti's parent games, Xeri and Kontsina
36
"""

# First: it decides whether the compiled core or the pure-Python one is imported below (diloti._core).
from diloti._core import CORE as CORE
from diloti.core.cards import CARDS, Card, parse_card, parse_cards
from diloti.core.errors import (
    AmbiguousMoveError,
    DilotiError,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidPositionError,
    OptionsError,
    RecordError,
)
from diloti.core.moves import Declaration, Move, MoveKind, Pile
from diloti.games import GAMES, find_game, new_game
from diloti.games.diloti.game import Game, RoundRecord
from diloti.games.diloti.options import Options
from diloti.games.diloti.scoring import Side
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View
from diloti.games.kontsina.rules import KontsinaGame, KontsinaOptions, KontsinaState
from diloti.games.xeri.rules import XeriGame, XeriOptions, XeriState

__version__ = "0.1.0"

__all__ = [
    "CARDS", "CORE", "GAMES", "AmbiguousMoveError", "Card", "Declaration", "DilotiError", "Game", "IllegalMoveError",
    "InvalidCardError", "InvalidMoveError", "InvalidPositionError", "KontsinaGame", "KontsinaOptions",
    "KontsinaState", "Move", "MoveKind", "Options", "OptionsError", "Pile", "RecordError", "RoundRecord", "Side",
    "State", "View", "XeriGame", "XeriOptions", "XeriState", "find_game", "new_game", "parse_card", "parse_cards",
]
