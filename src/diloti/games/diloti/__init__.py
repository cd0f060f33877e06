"""Diloti (Δηλωτή): its rules (the round's state, move generation over table piles and declarations,
scoring, options, dealing, the per-seat view, the whole game to the target), and its parts for the floors
above: its text formats (``formats/``: notation, positions, records), its card sense for the computer players
(``players/``) and its research environments (``envs/``). Registered here as ``"diloti"``, the default game
(positions and records that name no game are Diloti's: the formats came before the other games).
"""

from diloti.core.registry import GameInfo, register_game
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options
from diloti.games.diloti.scoring import Side
from diloti.games.diloti.state import State

INFO = GameInfo(
    "diloti", State, Game, Options, (2, 4), "docs/RULES.md", "round",
    {"formats": "diloti.games.diloti.formats", "players": "diloti.games.diloti.players",
     "envs": "diloti.games.diloti.envs"},
    default=True, rated=True, rating_prefix="", hint_levels=("expert", "master"), side=Side,
    episodes=("round", "game"), small=True,
)
register_game(INFO, built_in=True)

__all__ = ["INFO"]
