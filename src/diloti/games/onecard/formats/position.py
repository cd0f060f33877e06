"""Positions of the one-card games in JSON: a game's, named by ``"game"``.

What differs between the games comes from the game's own classes: the per-side counts a position carries
(its state's ``POSITION_COUNTS``, of the family's :data:`COUNTS`: Xeri's ``xeri`` and ``jack_xeri``) and the
order of its table (a pile keeps its order)::

    {"game": "xeri", "players": 2, "options": {...}, "dealer": 1, "turn": 0,
     "hands": [["AS", "10D"], [...]], "table": ["4C", "9H", "KD", "7S"],
     "stock": [...], "captured": [[...], [...]], "xeri": [0, 0], "jack_xeri": [0, 0],
     "last_capturer": null}

Xeri's ``table`` is the pile, bottom first (its last card is the top); ``captured`` has one list per side;
``xeri`` (the sweeps, Diloti's word) and ``jack_xeri`` are Xeri's only; ``seed`` and ``shuffles`` are written
when they differ from 0 and 1. There is no compact form.

>>> from diloti.games.kontsina.rules import KontsinaState
>>> s = KontsinaState.new(seed=1)
>>> position_from_dict(position_to_dict(s), "kontsina") == s
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from diloti.core.cards import NAMES, cards_of, parse_cards
from diloti.core.errors import DilotiError, InvalidCardError, InvalidPositionError
from diloti.core.registry import find_game
from diloti.games.onecard.state import HandState

HAND_FIELDS = ("game", "players", "options", "dealer", "turn", "hands", "table", "stock", "captured", "xeri",
               "jack_xeri", "last_capturer", "plays", "seed", "shuffles")
#: The per-side counts a position of the family may carry, each with the state's field it is read into (a game
#: carries those its state's ``POSITION_COUNTS`` names): the sweeps are written ``xeri``, as Diloti's are.
COUNTS = {"xeri": "sweeps", "jack_xeri": "jack_xeri"}


def position_to_dict(state: HandState) -> dict[str, Any]:
    """The JSON-ready dict of a position of a one-card game.

    >>> from diloti.games.kontsina.rules import KontsinaState
    >>> d = position_to_dict(KontsinaState.new(seed=1))
    >>> d["game"], len(d["hands"][0]), len(d["table"]), len(d["stock"])
    ('kontsina', 4, 4, 40)
    """
    d: dict[str, Any] = {
        "game": state.GAME, "players": state.players, "options": state.options.to_dict(), "dealer": state.dealer,
        "turn": state.turn, "hands": [[NAMES[c] for c in h] for h in state.hands],
        "table": [NAMES[c] for c in state.table], "stock": [NAMES[c] for c in state.remaining_stock],
        "captured": [[NAMES[c] for c in cards_of(m)] for m in state.captured],
    }
    for key in state.POSITION_COUNTS:
        d[key] = list(getattr(state, COUNTS[key]))
    d["last_capturer"] = state.last_capturer
    if state.seed:
        d["seed"] = state.seed
    if state.shuffles != 1:
        d["shuffles"] = state.shuffles
    return d


def _field(name: str, reason: str) -> InvalidPositionError:
    return InvalidPositionError(f"invalid position: field {name!r}: {reason}")


def _cards(name: str, v: Any) -> list[int]:
    if not isinstance(v, list) or not all(isinstance(c, str) for c in v):
        raise _field(name, f"expected a list of cards like \"10D\", got {v!r}")
    try:
        return list(parse_cards(v))
    except InvalidCardError as exc:
        raise _field(name, str(exc)) from None


def _seat(data: Mapping[str, Any], key: str, players: int, default: int | None = None) -> int | None:
    v = data.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < players:
        raise _field(key, f"expected a seat 0..{players - 1}, got {v!r}")
    return v


def _side_counts(data: Mapping[str, Any], key: str, sides: int, known: bool) -> list[int]:
    """A count a side, 0 each when absent; ``known``: the game keeps this count at all."""
    v = data.get(key, [0] * sides)
    if (not known and key in data) or not isinstance(v, list) or len(v) != sides or any(
            isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 26 for x in v):
        raise _field(key, f"expected {sides} counts 0..26 (xeri only), got {v!r}")
    return v


def position_from_dict(data: Mapping[str, Any], game: str) -> HandState:
    """A position of the one-card game ``game`` from its dict, validated (every card once, whole deals in the stock).

    >>> s = position_from_dict({"game": "xeri", "players": 3}, "xeri")
    Traceback (most recent call last):
    ...
    diloti.core.errors.InvalidPositionError: invalid number of players 3 for xeri: expected 2 or 4
    """
    for k in data:
        if k not in HAND_FIELDS:
            raise _field(k, f"unknown field (known: {', '.join(HAND_FIELDS)})")
    info = find_game(game)
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise _field("players", f"expected a number of players, got {players!r}")
    try:
        options = info.options.from_dict(data.get("options", {}))
    except DilotiError as exc:
        raise _field("options", str(exc)) from None
    sides = info.state.check_players(players, options)
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise _field("hands", f"expected a list of {players} lists, got {hands!r}")
    captured = data.get("captured", [[]] * sides)
    if not isinstance(captured, list) or len(captured) != sides:
        raise _field("captured", f"expected a list of {sides} lists (one per side), got {captured!r}")
    carried = info.state.POSITION_COUNTS
    counts = {COUNTS[key]: _side_counts(data, key, sides, key in carried) for key in COUNTS if key in carried or
              key in data}
    for key in ("seed", "shuffles"):
        v = data.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise _field(key, f"expected a number 0 or more, got {v!r}")
    dealer = _seat(data, "dealer", players)
    if dealer is None:  # absent or null: every position has a dealer
        raise _field("dealer", "missing" if "dealer" not in data else f"expected a seat 0..{players - 1}, got None")
    state: HandState = info.state.from_parts(
        players=players, options=options, dealer=dealer, turn=_seat(data, "turn", players, (dealer + 1) % players),
        hands=[_cards(f"hands[{i}]", h) for i, h in enumerate(hands)], table=_cards("table", data.get("table", [])),
        stock=_cards("stock", data.get("stock", [])),
        captured=[_cards(f"captured[{i}]", c) for i, c in enumerate(captured)],
        sweeps=counts.pop("sweeps", None), tallies=counts, last_capturer=_seat(data, "last_capturer", players),
        seed=data.get("seed", 0), shuffles=data.get("shuffles", 1),
    )
    if "plays" in data and data["plays"] != state.plays:
        raise _field("plays", f"the hands and stock say {state.plays} cards were played, not {data['plays']!r}")
    return state


__all__ = ["COUNTS", "HAND_FIELDS", "position_from_dict", "position_to_dict"]
