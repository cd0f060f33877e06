"""Xeri (Ξερή), Diloti's parent game of one pile: its rules (:mod:`diloti.games.xeri.rules`) on the one-card
games' frame (:mod:`diloti.games.onecard`), its card sense for the computer players (``players``) and its
research environments (``envs``); its text formats are the one-card games' (:mod:`diloti.games.onecard.formats`).
Registered here as ``"xeri"``."""

from diloti.core.registry import GameInfo, register_game
from diloti.games.onecard import FORMATS
from diloti.games.xeri.rules import XeriGame, XeriOptions, XeriSide, XeriState

INFO = GameInfo(
    "xeri", XeriState, XeriGame, XeriOptions, (2, 4), "docs/RULES-XERI.md", "hand",
    {"formats": FORMATS, "players": "diloti.games.xeri.players", "envs": "diloti.games.xeri.envs"},
    relation="parent game", side=XeriSide,
)
register_game(INFO, built_in=True)

__all__ = ["INFO"]
