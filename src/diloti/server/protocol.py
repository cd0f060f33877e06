"""Websocket messages and HTTP bodies: reading what clients send strictly, building server messages.

Every client message and request body is checked by its typed model
(:mod:`diloti.server.messages`); anything wrong becomes a :class:`ProtocolError`
with a stable ``code`` and a message naming the input and the reason, in our words
(never the validation library's text, which carries links).
Server messages are built only from a seat's :class:`~diloti.core.view.View` and
public facts, so nothing here can reveal another hand or the stock.

>>> parse_message('{"type": "move", "move": "7H", "ply": 3}')
{'type': 'move', 'move': '7H', 'ply': 3}
>>> try:
...     parse_message('{"type": "dance"}')
... except ProtocolError as exc:
...     print(exc.code, exc)  # doctest: +ELLIPSIS
unknown_type unknown message type 'dance' (known: hello, watch, move, hint, choices, sync, ping, chat, ..., arena)
>>> try:
...     parse_message('{"type": "ping", "x": "' + "λ" * 2100 + '"}')
... except ProtocolError as exc:
...     print(exc.code, exc)
too_large message of 4225 bytes is over the limit of 4096
>>> from diloti.core.moves import Move
>>> move_dict(Move.parse("9D x 4H 5C"))
{'move': '9D x 4H 5C', 'card': '9D', 'kind': 'capture', 'value': 9, 'cards': ['4H', '5C']}
"""

from __future__ import annotations

import json
import unicodedata
from datetime import UTC
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails

from diloti.core.errors import DilotiError
from diloti.formats.wire import KIND_NAMES, move_dict, notation, side_dict
from diloti.server.event_models import DailyField, DailyStart, NewArena
from diloti.server.messages import (
    CLIENT_MESSAGE,
    CLIENT_MODELS,
    ClientMessage,
    JoinTable,
    NewTable,
)
from diloti.server.model_base import CHAT_MAX, NAME_MAX
from diloti.server.player_models import Login, NewPlayer, QuickPlay, QuickPlayComputer, Recover, Rename, SetPassword
from diloti.store.db import ChatLine

MAX_MESSAGE = 4096
__all__ = ["CHAT_MAX", "KIND_NAMES", "MAX_MESSAGE", "NAME_MAX", "ProtocolError", "chat_dict", "clean_chat",
           "clean_name", "error", "move_dict", "notation", "parse_message", "read_body", "read_message", "side_dict"]


class ProtocolError(DilotiError):
    """A bad client message or request; ``code`` is stable (see docs/PROTOCOL.md)."""

    def __init__(self, code: str, message: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.retry_after = retry_after  # seconds, sent as Retry-After with a 429

    def to_message(self) -> dict[str, Any]:
        return error(self.code, str(self))


def error(code: str, message: str) -> dict[str, Any]:
    """The error message sent to one connection."""
    return {"type": "error", "code": code, "message": message}


def _short(text: str, n: int = 60) -> str:
    return repr(text if len(text) <= n else text[:n] + "...")


def read_message(text: str | bytes) -> ClientMessage:
    """Read one client message into its model; raise :class:`ProtocolError` naming what is wrong.

    >>> read_message('{"type": "ping", "id": 5}')
    ClientPing(type='ping', id=5)
    >>> for bad in ('{"type": "move", "move": "7H", "ply": true}', '{"type": "sync", "x": 1}', '{"type": "hello"}'):
    ...     try:
    ...         read_message(bad)
    ...     except ProtocolError as exc:
    ...         print(exc.code, exc)
    bad_message field 'ply' of 'move' must be an integer of at least 0, not True
    bad_message unknown field 'x' in 'sync' message (it has no fields)
    bad_message 'hello' message needs a 'table' field
    """
    # The limit is in bytes of UTF-8, as sent: a message of Greek letters takes two bytes a letter.
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE:
        raise ProtocolError("too_large", f"message of {size} bytes is over the limit of {MAX_MESSAGE}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad_json", f"message is not valid JSON: {exc}") from None
    except RecursionError:
        raise ProtocolError("bad_json", "message is nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", f"message must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "message has no 'type' text field")
    try:
        return CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        raise _message_error(exc, kind) from None


def parse_message(text: str | bytes) -> dict[str, Any]:
    """:func:`read_message` as a dict of the fields given (a ``null`` optional field is left out)."""
    return read_message(text).model_dump(exclude_none=True)


def _message_error(exc: ValidationError, kind: str) -> ProtocolError:
    err = exc.errors(include_url=False)[0]
    if err["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return ProtocolError("unknown_type", f"unknown message type {_short(kind)} (known: {', '.join(CLIENT_MODELS)})")
    model = CLIENT_MODELS[kind]
    loc = err["loc"][1:]  # the first is the message type the union chose
    field = _path(loc)
    if err["type"] == "extra_forbidden":
        known = [f for f in model.model_fields if f != "type"]
        has = f"known: {', '.join(known)}" if known else "it has no fields"
        return ProtocolError("bad_message", f"unknown field {_show(field)} in {kind!r} message ({has})")
    if err["type"] == "missing":
        return ProtocolError("bad_message", f"{kind!r} message needs a {field!r} field")
    if err["type"] == "string_too_long":
        code = "bad_chat" if kind == "chat" else "bad_message"  # the chat's own code for a line too long
        return ProtocolError(code, f"field {field!r} of {kind!r} is too long ({len(err['input'])} "
                                            f"characters; at most {err['ctx']['max_length']})")
    return ProtocolError("bad_message", f"field {field!r} of {kind!r} must be {_wanted(err, model, loc)}, "
                                        f"not {_show(err['input'])}")


# The code of a bad field of an HTTP body, by its path (list positions left out); the longest match wins.
NEW_TABLE_CODES: dict[tuple[str, ...], str] = {
    ("game",): "bad_game", ("players",): "bad_players", ("options",): "bad_options", ("seats",): "bad_seats",
    ("seats", "level"): "bad_level",
    ("seat",): "bad_seat", ("name",): "bad_name", ("seed",): "bad_seed", ("private",): "bad_request",
    ("away_level",): "bad_level", ("grace",): "bad_grace", ("clock",): "bad_clock", ("rated",): "bad_request"}
JOIN_CODES: dict[tuple[str, ...], str] = {("name",): "bad_name", ("seat",): "bad_seat"}
PLAYER_CODES: dict[tuple[str, ...], str] = {("name",): "bad_name", ("recovery",): "bad_recovery",
                                            ("password",): "bad_password", ("current",): "bad_password"}
BODY_CODES: dict[type[BaseModel], dict[tuple[str, ...], str]] = {
    NewTable: NEW_TABLE_CODES,  # and every game's model of a new table (messages.table_model), a NewTable
    JoinTable: JOIN_CODES, NewPlayer: PLAYER_CODES, Rename: PLAYER_CODES,
    Recover: PLAYER_CODES, SetPassword: PLAYER_CODES, Login: PLAYER_CODES, QuickPlay: NEW_TABLE_CODES,
    QuickPlayComputer: {("level",): "bad_level"},
    DailyStart: {("name",): "bad_name", ("device",): "bad_device", ("ranked",): "bad_ranked"},
    DailyField: {("table",): "bad_token", ("token",): "bad_token"},
    NewArena: {("name",): "bad_name", ("game",): "bad_game", ("options",): "bad_options", ("clock",): "bad_clock",
               ("starts_in",): "bad_start", ("minutes",): "bad_minutes", ("wait",): "bad_wait"}}


def read_body(model: type[BaseModel], data: Any) -> dict[str, Any]:
    """Check an HTTP body's shape with ``model``; the fields given, as plain JSON values.

    A bad field is :class:`ProtocolError` with the field's code (``bad_players``, ``bad_seats``, ...;
    ``bad_request`` for an unknown field or a body that is not an object).

    >>> read_body(JoinTable, {"name": "Bob", "seat": None})
    {'name': 'Bob'}
    >>> for bad in ({"players": "4", "name": "A"}, {"name": "A", "options": {"target": 0}}, {"name": "A", "x": 1}):
    ...     try:
    ...         read_body(NewTable, bad)
    ...     except ProtocolError as exc:
    ...         print(exc.code, exc)  # doctest: +ELLIPSIS
    bad_players invalid players '4': expected an integer
    bad_options invalid options.target 0: expected 1..10000
    bad_request unknown field 'x' (known: away_level, bots, clock, game, grace, name, options, ..., seed)
    """
    try:
        body = model.model_validate(data)
    except ValidationError as exc:
        raise _body_error(exc, model) from None
    out: dict[str, Any] = body.model_dump(exclude_unset=True, exclude_none=True)
    return out


def _body_error(exc: ValidationError, model: type[BaseModel]) -> ProtocolError:
    errors = exc.errors(include_url=False)
    # An unknown top-level field is named first, as the handlers always did.
    err = min(errors, key=lambda e: 0 if e["type"] == "extra_forbidden" and len(e["loc"]) == 1 else 1)
    loc = err["loc"]
    if not loc:
        return ProtocolError("bad_request", "the request body must be a JSON object")
    names = tuple(p for p in loc if isinstance(p, str))
    codes = next((BODY_CODES[m] for m in model.__mro__ if m in BODY_CODES), {})
    code = next((codes[names[:n]] for n in range(len(names), 0, -1) if names[:n] in codes), "bad_request")
    path = _path(loc)
    if err["type"] == "extra_forbidden":
        owner = _model_in(_walk(model, loc[:-1])[1])
        known = ", ".join(sorted(owner.model_fields)) if owner is not None else ""
        if len(loc) == 1:
            return ProtocolError("bad_request", f"unknown field {_show(path)} (known: {known})")
        return ProtocolError(code, f"unknown field {_show(str(loc[-1]))} in {_path(loc[:-1])} (known: {known})")
    if err["type"] == "missing":
        return ProtocolError(code, f"the request needs a {path!r} field")
    return ProtocolError(code, f"invalid {path} {_show(err['input'])}: expected {_wanted(err, model, loc)}")


def _show(value: Any, n: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= n else text[:n - 3] + "..."


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _walk(model: type[BaseModel], loc: tuple[int | str, ...]) -> tuple[FieldInfo | None, Any]:
    """The field at ``loc`` under ``model`` (``None`` for a list entry or an unknown field) and its type."""
    info: FieldInfo | None = None
    kind: Any = model
    for part in loc:
        if isinstance(part, int):
            info, kind = None, _element(kind)
            continue
        owner = _model_in(kind)
        info = None if owner is None else owner.model_fields.get(part)
        if info is None:
            return None, None
        kind = info.annotation
    return info, kind


def _model_in(kind: Any) -> type[BaseModel] | None:
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return kind
    return next((m for arg in get_args(kind) if (m := _model_in(arg)) is not None), None)


def _element(kind: Any) -> Any:
    if get_origin(kind) is list:
        return get_args(kind)[0]
    return next((e for arg in get_args(kind) if (e := _element(arg)) is not None), None)


def _constraints(info: FieldInfo | None) -> dict[str, Any]:
    """The bounds of a field, wherever they were written (on the field or inside ``X | None``)."""
    found: dict[str, Any] = {}

    def visit(items: Any) -> None:
        for item in items:
            for name in ("ge", "gt", "le", "lt", "max_length"):
                if getattr(item, name, None) is not None and not isinstance(item, type):
                    found.setdefault(name, getattr(item, name))
            if isinstance(item, FieldInfo):
                visit(item.metadata)
            if get_origin(item) is Annotated:
                visit(item.__metadata__)
            visit(get_args(item))

    if info is not None:
        visit(info.metadata)
        visit(get_args(info.annotation))
    return found


_WANTED = {"string_type": "text", "int_type": "an integer", "int_from_float": "an integer",
           "bool_type": "true or false", "float_type": "a number", "list_type": "a list", "model_type": "a JSON object",
           "model_attributes_type": "a JSON object", "dict_type": "a JSON object"}


def _wanted(err: ErrorDetails, model: type[BaseModel], loc: tuple[int | str, ...]) -> str:
    """What a bad value should have been, in words (never pydantic's text)."""
    kind = err["type"]
    ctx = err.get("ctx", {})
    if kind == "literal_error":
        return str(ctx.get("expected", "one of the choices"))
    if kind == "string_too_long":
        return f"text of at most {ctx.get('max_length')} characters"
    if kind == "string_too_short":
        return f"text of at least {ctx.get('min_length')} characters"
    if kind == "string_pattern_mismatch":
        return "letters, digits, '-' and '_' only"
    if kind == "too_long":
        return f"at most {ctx.get('max_length')} entries"
    c = _constraints(_walk(model, loc)[0])
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than", "int_type"):
        lo = c["ge"] if "ge" in c else (c["gt"] + 1 if "gt" in c else None)
        hi = c["le"] if "le" in c else (c["lt"] - 1 if "lt" in c else None)
        if lo is not None and hi is not None:
            return f"{lo}..{hi}"
        if lo is not None:
            return f"an integer of at least {lo}"
        if hi is not None:
            return f"an integer of at most {hi}"
    return _WANTED.get(kind, "a valid value")


# Control and formatting characters refused in names and chat (bidirectional overrides included).
_CONTROL = ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")
_JOINERS = ("\u200c", "\u200d")  # zero-width (non-)joiners: part of emoji and some scripts


def clean_name(name: object) -> str:
    """A player's name: text, 1..24 characters after trimming, no control characters.

    >>> clean_name("  Ελένη ")
    'Ελένη'
    >>> clean_name("<b>x</b>")  # kept as text; the page inserts it as text
    '<b>x</b>'
    >>> try:
    ...     clean_name("a\\x00b")
    ... except ProtocolError as exc:
    ...     print(exc.code, exc)
    bad_name invalid name 'a\\x00b': control characters are not allowed
    """
    if not isinstance(name, str):
        raise ProtocolError("bad_name", f"invalid name {name!r:.40}: expected text")
    text = unicodedata.normalize("NFC", name).strip()
    if not text:
        raise ProtocolError("bad_name", "invalid name: empty")
    if len(text) > NAME_MAX:
        raise ProtocolError("bad_name", f"invalid name {_short(text, 30)}: longer than {NAME_MAX} characters")
    if any(unicodedata.category(ch) in _CONTROL for ch in text):
        raise ProtocolError("bad_name", f"invalid name {text!r}: control characters are not allowed")
    return text


def clean_chat(text: object) -> str:
    """A chat line: text, 1..200 characters after trimming, no control characters (joiners allowed).

    >>> clean_chat("  Καλή τύχη! ")
    'Καλή τύχη!'
    >>> clean_chat("<script>alert(1)</script>")  # kept as text; the page inserts it as text
    '<script>alert(1)</script>'
    >>> for bad in ("", "   ", "x" * 201, "a\\nb", "\\u202eevil"):
    ...     try:
    ...         clean_chat(bad)
    ...     except ProtocolError as exc:
    ...         print(exc.code, exc)
    bad_chat invalid chat line: empty
    bad_chat invalid chat line: empty
    bad_chat invalid chat line: 201 characters (at most 200)
    bad_chat invalid chat line 'a\\nb': control characters are not allowed
    bad_chat invalid chat line '\\u202eevil': control characters are not allowed
    """
    if not isinstance(text, str):
        raise ProtocolError("bad_chat", f"invalid chat line {text!r:.40}: expected text")
    line = unicodedata.normalize("NFC", text).strip()
    if not line:
        raise ProtocolError("bad_chat", "invalid chat line: empty")
    if len(line) > CHAT_MAX:
        raise ProtocolError("bad_chat", f"invalid chat line: {len(line)} characters (at most {CHAT_MAX})")
    if any(unicodedata.category(ch) in _CONTROL and ch not in _JOINERS for ch in line):
        raise ProtocolError("bad_chat", f"invalid chat line {_short(line, 30)}: control characters are not allowed")
    return line


def chat_dict(line: ChatLine) -> dict[str, Any]:
    """The ``chat`` message of a stored line."""
    return {"type": "chat", "id": line.id, "seat": line.seat, "name": line.name, "text": line.text,
            "at": line.created.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
