"""Kontsina (Κοντσίνα), Diloti's parent game of captures by match or sum: its rules
(:mod:`diloti.games.kontsina.rules`) on the one-card games' frame (:mod:`diloti.games.onecard`), its card sense
for the computer players (``players``) and its research environments (``envs``); its text formats are the
one-card games' (:mod:`diloti.games.onecard.formats`). Registered here as ``"kontsina"``."""

from diloti.core.registry import GameInfo, register_game
from diloti.games.kontsina.rules import KontsinaGame, KontsinaOptions, KontsinaSide, KontsinaState
from diloti.games.onecard import FORMATS

INFO = GameInfo(
    "kontsina", KontsinaState, KontsinaGame, KontsinaOptions, (2, 3, 4), "docs/RULES-KONTSINA.md", "hand",
    {"formats": FORMATS, "players": "diloti.games.kontsina.players", "envs": "diloti.games.kontsina.envs"},
    relation="parent game", players_note="also 3, and 4 each alone unless --partnerships", side=KontsinaSide,
)
register_game(INFO, built_in=True)

__all__ = ["INFO"]
