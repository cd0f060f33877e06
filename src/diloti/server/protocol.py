"""Websocket messages: reading client messages strictly, building server messages.

Every client message is checked field by field; anything wrong becomes a
:class:`ProtocolError` with a stable ``code`` and a message naming the input.
Server messages are built only from a seat's :class:`~diloti.core.view.View` and
public facts, so nothing here can reveal another hand or the stock.

>>> parse_message('{"type": "move", "move": "7H", "ply": 3}')
{'type': 'move', 'move': '7H', 'ply': 3}
>>> try:
...     parse_message('{"type": "dance"}')
... except ProtocolError as exc:
...     print(exc.code, exc)
unknown_type unknown message type 'dance' (known: hello, move, hint, sync, ping)
>>> try:
...     parse_message('{"type": "ping", "x": "' + "λ" * 2100 + '"}')
... except ProtocolError as exc:
...     print(exc.code, exc)
too_large message of 4225 bytes is over the limit of 4096
>>> move_dict(Move.parse("9D x 4H 5C"))
{'move': '9D x 4H 5C', 'card': '9D', 'kind': 'capture', 'value': 9, 'cards': ['4H', '5C']}
"""

from __future__ import annotations

import functools
import json
import unicodedata
from typing import Any

from diloti.core.cards import NAMES
from diloti.core.errors import DilotiError
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.core.scoring import Side
from diloti.core.view import View

MAX_MESSAGE = 4096
NAME_MAX = 24
KIND_NAMES = ("lay", "capture", "plain", "group", "keep", "redeal")

# type -> {field: (python type, required)}
CLIENT_MESSAGES: dict[str, dict[str, tuple[type, bool]]] = {
    "hello": {"table": (str, True), "token": (str, True)},
    "move": {"move": (str, True), "ply": (int, False)},
    "hint": {},
    "sync": {},
    "ping": {"id": (int, False)},
}
_FIELD_MAX = 200


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


def parse_message(text: str | bytes) -> dict[str, Any]:
    """Read one client message; raise :class:`ProtocolError` naming what is wrong."""
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
    spec = CLIENT_MESSAGES.get(kind)
    if spec is None:
        raise ProtocolError("unknown_type",
                            f"unknown message type {_short(kind)} (known: {', '.join(CLIENT_MESSAGES)})")
    out: dict[str, Any] = {"type": kind}
    for name, (typ, required) in spec.items():
        if name not in data or data[name] is None:
            if required:
                raise ProtocolError("bad_message", f"{kind!r} message needs a {name!r} field")
            continue
        value = data[name]
        # bool is an int in Python; a JSON true is not a ply.
        if not isinstance(value, typ) or isinstance(value, bool):
            want = "text" if typ is str else "an integer"
            raise ProtocolError("bad_message", f"field {name!r} of {kind!r} must be {want}, not {value!r:.40}")
        if isinstance(value, str) and len(value) > _FIELD_MAX:
            raise ProtocolError("bad_message", f"field {name!r} of {kind!r} is too long ({len(value)} characters)")
        out[name] = value
    return out


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
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp") for ch in text):
        raise ProtocolError("bad_name", f"invalid name {text!r}: control characters are not allowed")
    return text


# ------------------------------------------------------------------ server messages
@functools.lru_cache(maxsize=65536)
def notation(move: Move) -> str:
    """``str(move)``, remembered: every state message repeats the round's history."""
    return str(move)


def move_dict(move: Move) -> dict[str, Any]:
    """A move with its notation and parts (the page matches selections on ``card`` and ``cards``)."""
    card = move.card
    return {"move": notation(move), "card": None if card is None else NAMES[card], "kind": KIND_NAMES[move.kind],
            "value": move.value, "cards": [NAMES[c] for c in move.cards]}


def side_dict(side: Side) -> dict[str, int]:
    """One side's round score with its breakdown."""
    return {"cards": side.cards, "cards_points": side.cards_points, "aces": side.aces,
            "ten_of_diamonds": side.ten_of_diamonds, "two_of_clubs": side.two_of_clubs,
            "xeri": side.xeri, "total": side.total}


def state_message(view: View, *, ply: int, round_no: int, target: int, last: dict[str, Any] | None,
                  rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``state`` message for the seat of ``view`` (built from the view alone)."""
    return {
        "type": "state",
        "ply": ply,
        "round": round_no,
        "seat": view.seat,
        "players": view.players,
        "dealer": view.dealer,
        "turn": view.turn,
        "phase": Phase(view.phase).label,
        "your_turn": view.to_move,
        "hand": [NAMES[c] for c in view.hand],
        "table": [NAMES[c] for c in view.table],
        "declarations": [p.to_dict() for p in view.declarations],
        "hand_sizes": list(view.hand_sizes),
        "stock": view.stock_size,
        "deal": view.deal_no,
        "xeri": list(view.xeri),
        "captured": [[NAMES[c] for c in side] for side in view.captured],
        "captured_counts": [len(side) for side in view.captured],
        "last_capturer": view.last_capturer,
        "pending": list(view.pending),
        "bottom": None if view.bottom is None else NAMES[view.bottom],
        "scores": list(view.scores),
        "target": target,
        "history": [[seat, notation(m)] for seat, m in view.history],
        "first_table": [NAMES[c] for c in view.first_table],
        "legal": [move_dict(m) for m in view.legal] if view.to_move else [],
        "last": last,
        "rounds": rounds,
    }
