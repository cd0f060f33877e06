"""What ``GET /api/info`` says of each game: what the page draws a game by, so that it knows no game by name.

Each registered game's entry (the model :class:`diloti.server.messages.InfoGame`) holds its seats, its options
(defaults, the numbers' bounds, the choices' words and what each means), how its tables seat the players (the
sides, and the options that go with a number of players), what decides a game (a target score or hands won, and
the flags that switch between them) and how its table and moves are drawn (one pile or loose cards; declarations
or none). All of it is asked of the game through the registry (:class:`diloti.games.GameInfo`) and its classes;
what the games' interface does not say yet is worked out in one place, :func:`derived`.

>>> from diloti.games import find_game
>>> xeri = game_entry(find_game("xeri"))
>>> xeri["goal"], xeri["goal_flags"], xeri["pile"], xeri["declarations"], xeri["hands_won"]
('hands', ['game_by_points'], True, False, True)
>>> [(s["players"], s["sides"], s["options"]) for s in game_entry(find_game("kontsina"))["seating"]]
... # doctest: +NORMALIZE_WHITESPACE
[(2, 2, {'partnerships': False}), (3, 3, {'partnerships': False}), (4, 4, {'partnerships': False}),
 (4, 2, {'partnerships': True})]
>>> diloti = game_entry(find_game("diloti"))
>>> diloti["ranges"], diloti["choices"]
({'target': [1, 610]}, {'face_card_redeal': ['off', 'first_deal', 'any_deal']})
>>> diloti["help"]["soy"]
'a group of exactly two equal numerals cannot be added to'
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

from diloti.ai import LEVELS, level_plays
from diloti.core.errors import DilotiError
from diloti.games import GAMES, HANDS_FORMATS, GameInfo
from diloti.server.quickplay import POOL_GAME
from diloti.server.seating import table_ranges


def option_bounds(game: GameInfo) -> dict[str, Any]:
    """What a form needs of each option beside its default: the numbers' bounds (``ranges``: name -> [least,
    greatest], a table's: :func:`diloti.server.seating.table_ranges`),
    the words a choice takes (``choices``) and what each option means (``help``, in English). An
    option in neither ``ranges`` nor ``choices`` is a flag."""
    options = game.options
    names = [f.name for f in dataclasses.fields(options)]  # type: ignore[arg-type]
    ranges = table_ranges(game)  # a table's bounds: a game it can last (the form's are these too)
    return {"ranges": {n: ranges[n] for n in names if n in ranges},
            "choices": {n: list(options.CHOICES[n]) for n in names if n in options.CHOICES},
            "help": {n: options.help(n) for n in names}}


def _sides(game: GameInfo, players: int, options: dict[str, Any]) -> int | None:
    """How many sides score apart with ``players`` under ``options`` (None: the game does not seat them so)."""
    try:
        return game.sides(players, options)
    except DilotiError:
        return None


def seating(game: GameInfo, flags: list[str]) -> list[dict[str, Any]]:
    """Every way the game seats its players: for each number of players, the sides that score apart and the values
    of its seating flags (the flags a number of players needs or allows: Xeri's and Kontsina's ``partnerships``),
    the defaults' way first.

    A flag is a seating flag when turning it on changes which numbers of players are allowed or how many sides
    they make.
    """
    seated = [f for f in flags if any(_sides(game, n, {}) != _sides(game, n, {f: True}) for n in game.players)]
    default = game.options().to_dict()
    out = []
    for n in game.players:
        seen: set[int] = set()
        for values in itertools.product(*[(default[f], not default[f]) for f in seated]):
            options = dict(zip(seated, values, strict=True))
            sides = _sides(game, n, options)
            if sides is not None and sides not in seen:  # two ways to the same sides: the defaults' is the one
                seen.add(sides)
                out.append({"players": n, "sides": sides, "options": options})
    return out


def goal(game: GameInfo, options: Any) -> str:
    """What decides a game under ``options``: ``"target"`` (points) or ``"hands"`` (hands won)."""
    return "target" if game.target(options) is not None else "hands"


def goal_flags(game: GameInfo, flags: list[str]) -> list[str]:
    """The flags that, turned on, change what decides the game (Xeri's ``game_by_points``)."""
    default = game.options()
    out = []
    for f in flags:
        try:
            switched = goal(game, default.replace(**{f: not getattr(default, f)}))
        except DilotiError:
            continue
        if switched != goal(game, default):
            out.append(f)
    return out


# ---------------------------------------------------------------------------------------------------------------
# DERIVED HERE FOR NOW: what the page needs of a game that the games' interface (diloti.games.GameInfo) does not
# say yet. Each should become a field of GameInfo (or of the game's classes) that the game states itself:
#   pile          the round state's class attribute PILE (one-card games only: the terminal reads it the same way)
#   declarations  a one-card game (one on the one-card games' formats, HANDS_FORMATS: its move is a card, taking
#                 or laid) makes none; any other game is taken to make them
#   hands_won     the whole game counts hands (hands_of(defaults) is a number: Xeri)
#   quick_play    the game is the quick-play pool's (server/quickplay.py: POOL_GAME; not the game's to say, but the
#                 server's: it stays here)
def derived(game: GameInfo) -> dict[str, Any]:
    return {
        "pile": bool(getattr(game.state, "PILE", False)),
        "declarations": game.parts.get("formats") != HANDS_FORMATS,
        "hands_won": game.hands(game.options()) is not None,
        "quick_play": game.name == POOL_GAME.name,
    }
# ---------------------------------------------------------------------------------------------------------------


def game_entry(game: GameInfo) -> dict[str, Any]:
    """The game's entry of ``/api/info`` ``games`` (docs/PROTOCOL.md)."""
    default = game.options().to_dict()
    bounds = option_bounds(game)
    flags = [n for n, v in default.items() if isinstance(v, bool)]
    return {"players": list(game.players), "options": default, **bounds, "title": game.title,
            "named": game.named, "rated": game.rated, **derived(game),
            "goal": goal(game, game.options()), "goal_flags": goal_flags(game, flags),
            "seating": seating(game, flags),
            # The computer's levels that play each player count of it (a level may play only some: the learned one).
            "levels": {str(n): [lv for lv in LEVELS if level_plays(lv, game.name, n)] for n in game.players}}


def games_info() -> dict[str, dict[str, Any]]:
    """Every registered game's entry, in the registry's order (the default game first)."""
    return {name: game_entry(game) for name, game in GAMES.items()}


__all__ = ["derived", "game_entry", "games_info", "goal", "goal_flags", "option_bounds", "seating"]
