"""A seat's view as JSON and back (the Bot API's ``view``, docs/BOTS.md): the very object a local player's
``choose(view)`` gets, sent by the server and rebuilt by an outside program's client.

Each game's view is a frozen dataclass of public facts plus the seat's own hand (:mod:`diloti.core.view`), so
writing its fields writes nothing another seat hides. The fields are written by their declared types: cards as
their names, moves in notation, declarations, phases and the options as their own JSON.

>>> from diloti.core.registry import new_game
>>> game = new_game("diloti", 2, None, 7, 0)
>>> v = game.view(0)
>>> data = view_to_dict(v)
>>> data["hand"] == [str(c) for c in v.hand], "stock" in data
(True, False)
>>> view_from_dict(data) == v
True
>>> x = new_game("xeri", 2, None, 7, 0).view(1)
>>> view_from_dict(view_to_dict(x)) == x
True
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any

from diloti.core.cards import Card, parse_card
from diloti.core.errors import DilotiError
from diloti.core.moves import Declaration, Move, MoveKind
from diloti.core.phase import Phase
from diloti.core.registry import find_game, new_game


class ViewFormatError(DilotiError):
    """A view's JSON that does not fit its game's view."""


@functools.lru_cache(maxsize=64)
def view_class(game: str) -> type[Any]:
    """The class of ``game``'s seat views (found through the registry: a game's first deal, seen by seat 0)."""
    info = find_game(game)
    return type(new_game(game, info.players[0], None, 0, 0).view(0))


_HINTS: dict[type[Any], tuple[tuple[str, Any], ...]] = {}


def _hints(cls: type[Any]) -> tuple[tuple[str, Any], ...]:
    """A view class's fields and their declared types (read once a class)."""
    got = _HINTS.get(cls)
    if got is None:
        hints = typing.get_type_hints(cls)
        got = _HINTS[cls] = tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))
    return got


def _enc(value: Any) -> Any:
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, Phase):
        return value.label
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Move):
        return str(value)
    if isinstance(value, Declaration):
        return {"mask": value.mask, "value": value.value, "kind": int(value.kind), "owner": value.owner}
    if isinstance(value, int | float):
        return value
    if isinstance(value, tuple | list):
        return [_enc(v) for v in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    raise ViewFormatError(f"cannot write a {type(value).__name__} in a view")


def view_to_dict(view: Any) -> dict[str, Any]:
    """A seat's view as JSON: ``game`` and every field of the view, by its declared type."""
    out: dict[str, Any] = {"game": view.game}
    for name, _ in _hints(type(view)):
        if name != "game":
            out[name] = _enc(getattr(view, name))
    return out


def _dec(tp: Any, value: Any, game: str, what: str) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _dec(inner[0], value, game, what)
    if (tp is Any and what == "options") or (isinstance(tp, type) and hasattr(tp, "from_dict")):
        return find_game(game).options.from_dict(value)
    if origin is tuple:
        if not isinstance(value, list):
            raise ViewFormatError(f"invalid view field {what!r}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_dec(args[0], v, game, what) for v in value)
        if len(args) != len(value):
            raise ViewFormatError(f"invalid view field {what!r}: expected {len(args)} items")
        return tuple(_dec(a, v, game, what) for a, v in zip(args, value, strict=True))
    if tp is Card:
        return parse_card(value)
    if tp is Move:
        return Move.parse(value)
    if tp is Declaration:
        kind = MoveKind(value["kind"])
        return Declaration(int(value["mask"]), int(value["value"]), kind, int(value["owner"]))
    if tp is Phase:
        return next(p for p in Phase if p.label == value)
    if tp in (int, float, bool, str) or tp is Any:
        return value
    raise ViewFormatError(f"cannot read view field {what!r} of type {tp!r}")


def view_from_dict(data: dict[str, Any]) -> Any:
    """The view written by :func:`view_to_dict`, rebuilt as its game's own view class."""
    try:
        game = data["game"]
        cls = view_class(game)
        values = {name: _dec(tp, data[name], game, name) for name, tp in _hints(cls) if name != "game"}
        if "game" in {f.name for f in dataclasses.fields(cls)}:
            values["game"] = game
        return cls(**values)
    except (KeyError, TypeError, ValueError, StopIteration) as exc:
        raise ViewFormatError(f"invalid view: {exc.__class__.__name__}: {exc}") from None


__all__ = ["ViewFormatError", "view_class", "view_from_dict", "view_to_dict"]
