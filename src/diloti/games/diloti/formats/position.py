"""Positions as text: the JSON interchange format and the compact one-line form.

The JSON format (field names fixed by the project) lets other programs drive
the engine::

    {"players": 2, "options": {...}, "dealer": 1, "turn": 0,
     "hands": [["AS", "10D"], [...]], "table": ["5C", "KH"],
     "declarations": [{"cards": ["3D", "5S"], "value": 8, "kind": "plain", "owner": 0}],
     "stock": [...], "captured": [[...], [...]], "xeri": [0, 0],
     "last_capturer": null, "plays": 3}

Optional extra keys, written only when they differ from the default:
``seed`` (drives later reshuffles), ``bottom`` (the stock card the dealer
saw) and ``pending`` (seats still to decide on a face-card redeal).

The compact form is one line of space-separated fields; card lists are
written without separators (every card ends in its suit letter)::

    PLAYERS DEALER TURN HANDS TABLE DECLARATIONS STOCK CAPTURED XERI LAST PLAYS [KEY=VALUE ...]

``HANDS`` and ``CAPTURED`` separate seats/sides with ``/``; ``-`` is an empty
list; ``DECLARATIONS`` are ``CARDS=VALUE@OWNER`` (plain) or
``CARDS=VALUEG@OWNER`` (group) separated by ``/``; ``LAST`` is a seat or
``-``. The ``KEY=VALUE`` words are the non-default options, written by
:meth:`Options.to_text <diloti.games.diloti.options.Options.to_text>` and read word by
word by :meth:`Options.read_word <diloti.games.diloti.options.Options.read_word>`
(so a flag may be ``soy`` or ``soy=true``), then ``seed``, ``shuffles``,
``bottom`` and ``pending``. The per-seat form (:func:`format_view`) starts with ``@SEAT`` and shows
hidden hands as ``?COUNT`` and the stock as ``?SIZE``.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=7)
>>> text = format_position(s)
>>> parse_position(text).key()[:13] == s.key()[:13]
True
>>> format_position(parse_position(text)) == text
True
>>> position_from_json(position_to_json(s)) == parse_position(text)
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from diloti.core.cards import NAMES, VALUE, Card, cards_of, parse_card
from diloti.core.errors import DilotiError, InvalidCardError, InvalidPositionError, OptionsError
from diloti.core.moves import GROUP, PLAIN, Declaration
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import DECIDE, HAND_SIZE, OVER, State
from diloti.games.diloti.validation import bad_field
from diloti.games.diloti.view import View

FIELDS = ("players", "options", "dealer", "turn", "hands", "table", "declarations", "stock",
          "captured", "xeri", "last_capturer", "plays")
EXTRA_FIELDS = ("seed", "shuffles", "bottom", "pending")

_CARD_RE = re.compile(r"(10|[2-9AJQKT])([CDHS])", re.IGNORECASE)


# ---------------------------------------------------------------- JSON form
def position_to_dict(state: State) -> dict[str, Any]:
    """The JSON-ready interchange dict of a full position.

    >>> from diloti.games.diloti.state import State
    >>> d = position_to_dict(State.new(seed=1))
    >>> list(d)[:4], len(d["hands"][0]), len(d["stock"])
    (['players', 'options', 'dealer', 'turn'], 6, 36)
    """
    d: dict[str, Any] = {
        "players": state.players,
        "options": state.options.to_dict(),
        "dealer": state.dealer,
        "turn": state.turn,
        "hands": [[NAMES[c] for c in h] for h in state.hands],
        "table": [NAMES[c] for c in state.table],
        "declarations": [p.to_dict() for p in state.declarations],
        "stock": [NAMES[c] for c in state.remaining_stock],
        "captured": [[NAMES[c] for c in cards_of(m)] for m in state.captured],
        "xeri": list(state.sweeps),
        "last_capturer": state.last_capturer,
        "plays": state.plays,
    }
    if state.seed:
        d["seed"] = state.seed
    if state.shuffles != 1:
        d["shuffles"] = state.shuffles
    if state.bottom is not None:
        d["bottom"] = NAMES[state.bottom]
    if state.phase == DECIDE:
        d["pending"] = list(state.pending)
    return d


def position_to_json(state: State) -> str:
    """One line of JSON (see :func:`position_to_dict`)."""
    return json.dumps(position_to_dict(state), ensure_ascii=False, separators=(", ", ": "))


def position_from_json(text: str) -> State:
    """Read a JSON position; every problem is an :class:`InvalidPositionError`.

    >>> position_from_json('{"players": 3}')
    Traceback (most recent call last):
    ...
    diloti.core.errors.InvalidPositionError: invalid position: field 'players': expected 2 or 4, got 3
    """
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InvalidPositionError(f"invalid position: not JSON: {exc}") from None
    return position_from_dict(data)


def _int(data: Mapping[str, Any], key: str, lo: int, hi: int | None, default: int | None = None) -> int:
    if key not in data:
        if default is not None:
            return default
        raise bad_field(key, "missing")
    v = data[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise bad_field(key, f"expected an integer, got {v!r}")
    if v < lo or (hi is not None and v > hi):
        raise bad_field(key, f"expected {lo}..{hi if hi is not None else ''}, got {v}")
    return v


def _cards(field: str, v: Any) -> list[Card]:
    if not isinstance(v, list):
        raise bad_field(field, f"expected a list of cards, got {v!r}")
    out = []
    for i, c in enumerate(v):
        if not isinstance(c, str):
            raise bad_field(f"{field}[{i}]", f"expected a card like \"10D\", got {c!r}")
        try:
            out.append(parse_card(c))
        except InvalidCardError:
            raise bad_field(f"{field}[{i}]", f"unknown card {c!r}") from None
    return out


def _card_lists(field: str, v: Any, n: int) -> list[list[Card]]:
    if not isinstance(v, list) or len(v) != n:
        raise bad_field(field, f"expected a list of {n} lists, got {v!r}")
    return [_cards(f"{field}[{i}]", x) for i, x in enumerate(v)]


def position_from_dict(data: Any) -> State:
    """Build and validate a :class:`State` from the interchange dict.

    A missing option key takes its default; unknown keys are errors.

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(players=4, seed=2)
    >>> position_from_dict(position_to_dict(s)) == position_from_dict(position_to_dict(s))
    True
    """
    if not isinstance(data, Mapping):
        raise InvalidPositionError(f"invalid position: expected a JSON object, got {data!r}")
    if data.get("game", "diloti") != "diloti":  # a position of Xeri or Kontsina
        raise bad_field("game", f"{data['game']!r}: this reader reads Diloti positions; "
                                "diloti.formats.games.position_from_dict reads every game's")
    for k in data:
        if k not in FIELDS and k not in EXTRA_FIELDS and k != "game":
            raise bad_field(k, f"unknown field (known: {', '.join(FIELDS + EXTRA_FIELDS)})")
    players = data.get("players")
    if players not in (2, 4) or isinstance(players, bool):
        raise bad_field("players", f"expected 2 or 4, got {players!r}")
    try:
        options = Options.from_dict(data.get("options", {}))
    except DilotiError as exc:
        raise bad_field("options", str(exc)) from None
    dealer = _int(data, "dealer", 0, players - 1)
    turn = _int(data, "turn", 0, players - 1)
    hands = _card_lists("hands", data.get("hands"), players)
    table = _cards("table", data.get("table", []))
    decls = data.get("declarations", [])
    if not isinstance(decls, list):
        raise bad_field("declarations", f"expected a list, got {decls!r}")
    declarations = [_pile(i, d, players) for i, d in enumerate(decls)]
    stock = _cards("stock", data.get("stock", []))
    captured = _card_lists("captured", data.get("captured", [[], []]), 2)
    xeri = data.get("xeri", [0, 0])
    if (not isinstance(xeri, list) or len(xeri) != 2
            or any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 26 for x in xeri)):
        raise bad_field("xeri", f"expected two counts 0..26, got {xeri!r}")
    last = data.get("last_capturer")
    if last is not None and (isinstance(last, bool) or not isinstance(last, int) or not 0 <= last < players):
        raise bad_field("last_capturer", f"expected null or a seat 0..{players - 1}, got {last!r}")
    plays = _int(data, "plays", 0, 48)
    seed = _int(data, "seed", 0, None, default=0)
    shuffles = _int(data, "shuffles", 0, None, default=1)
    bottom = None
    if data.get("bottom") is not None:
        bottom = _cards("bottom", [data["bottom"]])[0]
    pending = data.get("pending")
    if pending is not None and (
            not isinstance(pending, list)
            or any(isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < players for p in pending)):
        raise bad_field("pending", f"expected a list of seats, got {pending!r}")
    return build_state(players=players, options=options, dealer=dealer, turn=turn, hands=hands, table=table,
                       declarations=declarations, stock=stock, captured=captured, sweeps=(xeri[0], xeri[1]),
                       last_capturer=last, plays=plays, seed=seed, bottom=bottom,
                       pending=tuple(pending) if pending else (), shuffles=shuffles)


def _pile(i: int, d: Any, players: int) -> Declaration:
    field = f"declarations[{i}]"
    if not isinstance(d, Mapping):
        raise bad_field(field, f"expected an object with cards, value, kind, owner; got {d!r}")
    for k in d:
        if k not in ("cards", "value", "kind", "owner"):
            raise bad_field(f"{field}.{k}", "unknown field (known: cards, value, kind, owner)")
    cards = _cards(f"{field}.cards", d.get("cards"))
    if len(cards) < 2:
        raise bad_field(f"{field}.cards", f"a declaration holds at least 2 cards, got {len(cards)}")
    value = d.get("value")
    if value is None:
        raise bad_field(f"{field}.value", "missing")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
        raise bad_field(f"{field}.value", f"expected 1..10, got {value!r}")
    kind = d.get("kind")
    if kind not in ("plain", "group"):
        raise bad_field(f"{field}.kind", f"expected \"plain\" or \"group\", got {kind!r}")
    owner = d.get("owner")
    if isinstance(owner, bool) or not isinstance(owner, int) or not 0 <= owner < players:
        raise bad_field(f"{field}.owner", f"expected a seat 0..{players - 1}, got {owner!r}")
    mask = 0
    for c in cards:
        if mask >> c & 1:
            raise bad_field(f"{field}.cards", f"card {NAMES[c]} appears twice")
        mask |= 1 << c
    return Declaration(mask, value, GROUP if kind == "group" else PLAIN, owner)


def build_state(*, players: int, options: Options, dealer: int, turn: int, hands: Sequence[Sequence[Card]],
                table: Sequence[Card], declarations: Sequence[Declaration], stock: Sequence[Card],
                captured: Sequence[Sequence[Card]], sweeps: tuple[int, int], last_capturer: int | None,
                plays: int, seed: int = 0, bottom: Card | None = None, pending: tuple[int, ...] = (),
                shuffles: int = 1) -> State:
    """Build a position from parts and check it can arise in a round.

    Beyond :meth:`State.validate` (each card exactly once, declaration values
    and owners; the one validator of positions), this checks what the flow of play implies: the stock size
    matches whole deals, the hand sizes match the seat to move, ``plays``
    matches the cards gone from the hands, and every declarer still holds a
    card of the declaration's value.
    """
    try:
        s = State.from_parts(players=players, options=options, dealer=dealer, turn=turn, hands=hands,
                             table=table, declarations=declarations, stock=stock, captured=captured, sweeps=sweeps,
                             last_capturer=last_capturer, plays=plays, seed=seed, bottom=bottom,
                             shuffles=shuffles, check=False)
        s.validate()
    except InvalidPositionError:
        raise
    except DilotiError as exc:  # e.g. a bad card index from a caller
        raise InvalidPositionError(f"invalid position: {exc}") from None
    _check_flow(s, pending)
    if pending:
        s.phase = DECIDE
        s.pending = pending
    return s


def _check_flow(s: State, pending: tuple[int, ...]) -> None:
    n = s.players
    per_deal = HAND_SIZE * n
    dealt = 48 - len(s.stock)
    if dealt <= 0 or dealt % per_deal:
        raise bad_field("stock", f"{len(s.stock)} cards left does not fit whole deals of {per_deal} cards")
    sizes = [len(h) for h in s.hands]
    order = [(s.dealer + 1 + i) % n for i in range(n)]
    if s.phase == OVER:
        if s.turn != order[0]:
            raise bad_field("turn", f"a finished round has seat {order[0]} (after the dealer) to play, not {s.turn}")
    else:
        k = 0 if pending else order.index(s.turn)  # a redeal decision comes before the lead
        full = sizes[order[0]] if k == 0 else sizes[order[0]] + 1
        expected = [0] * n
        for i, seat in enumerate(order):
            expected[seat] = full - 1 if i < k else full
        if not 1 <= full <= HAND_SIZE or sizes != expected:
            raise bad_field("hands", f"sizes {sizes} do not fit seat {order[k]} to play after dealer {s.dealer} "
                                f"(expected the seats before it in play order to hold one card fewer)")
    expected_plays = dealt - sum(sizes)
    if s.plays != expected_plays:
        raise bad_field("plays", f"expected {expected_plays} (cards dealt to hands minus cards held), got {s.plays}")
    for p in s.declarations:
        if not any(VALUE[c] == p.value for c in s.hands[p.owner]):
            raise bad_field("declarations", f"owner {p.owner} of {p} holds no card of value {p.value}")
    captured = s.captured[0] | s.captured[1]
    if s.last_capturer is None and captured and not s.swept:
        raise bad_field("last_capturer", "cards were captured but no last capturer is given")
    if s.last_capturer is not None and not s.captured[s.last_capturer & 1]:
        raise bad_field("last_capturer", f"seat {s.last_capturer} captured last but its side holds no cards")
    if pending:
        if s.phase == OVER or s.turn != pending[0] or len(set(pending)) != len(pending):
            raise bad_field("pending", f"seats {list(pending)} cannot be deciding on a redeal here")
        if s.options.face_card_redeal == "off":
            raise bad_field("pending", "the face-card redeal option is off")


# -------------------------------------------------------------- compact form
def _fmt_cards(cards: Sequence[int]) -> str:
    return "".join(NAMES[c] for c in cards) or "-"


def _fmt_pile(p: Declaration) -> str:
    return f"{_fmt_cards(p.cards)}={p.value}{'G' if p.kind == GROUP else ''}@{p.owner}"


def format_position(state: State) -> str:
    """The full position as one line (see the module docstring).

    >>> from diloti.games.diloti.state import State
    >>> format_position(State.new(seed=3)).split()[:3]
    ['2', '0', '1']
    """
    s = state
    fields = [
        str(s.players), str(s.dealer), str(s.turn),
        "/".join(_fmt_cards(h) for h in s.hands),
        _fmt_cards(s.table),
        "/".join(_fmt_pile(p) for p in s.declarations) or "-",
        _fmt_cards(s.remaining_stock),
        "/".join(_fmt_cards(cards_of(m)) for m in s.captured),
        f"{s.sweeps[0]}/{s.sweeps[1]}",
        "-" if s.last_capturer is None else str(s.last_capturer),
        str(s.plays),
    ]
    fields += s.options.to_text().split()
    if s.seed:
        fields.append(f"seed={s.seed}")
    if s.shuffles != 1:
        fields.append(f"shuffles={s.shuffles}")
    if s.bottom is not None:
        fields.append(f"bottom={NAMES[s.bottom]}")
    if s.phase == DECIDE:
        fields.append("pending=" + ".".join(str(p) for p in s.pending))
    return " ".join(fields)


def format_view(view: View) -> str:
    """What one seat may know, as one line: ``@SEAT`` then the full fields
    with the other hands as ``?COUNT`` and the stock as ``?SIZE``.

    >>> from diloti.games.diloti.state import State
    >>> format_view(State.new(seed=3).view(1)).split()[:5]
    ['@1', '2', '0', '1', '?6/3C9D10C10SQDKS']
    """
    v = view
    hands = [_fmt_cards(v.hand) if seat == v.seat else f"?{n}" for seat, n in enumerate(v.hand_sizes)]
    fields = [
        f"@{v.seat}", str(v.players), str(v.dealer), str(v.turn), "/".join(hands), _fmt_cards(v.table),
        "/".join(_fmt_pile(p) for p in v.declarations) or "-", f"?{v.stock_size}",
        "/".join(_fmt_cards(c) for c in v.captured), f"{v.sweeps[0]}/{v.sweeps[1]}",
        "-" if v.last_capturer is None else str(v.last_capturer), str(v.plays),
    ]
    fields += v.options.to_text().split()
    if v.bottom is not None:
        fields.append(f"bottom={NAMES[v.bottom]}")
    if v.phase == DECIDE:
        fields.append("pending=" + ".".join(str(p) for p in v.pending))
    return " ".join(fields)


def _parse_cards(field: str, text: str) -> list[Card]:
    if text == "-":
        return []
    out = []
    pos = 0
    for m in _CARD_RE.finditer(text):
        if m.start() != pos:
            break
        out.append(parse_card(m.group(0)))
        pos = m.end()
    if pos != len(text) or not text:
        raise bad_field(field, f"cannot read cards from {text!r} at {text[pos:]!r}")
    return out


def _parse_int(field: str, text: str) -> int:
    if not text.isdigit():
        raise bad_field(field, f"expected a number, got {text!r}")
    return int(text)


_COMPACT_NAMES = ("players", "dealer", "turn", "hands", "table", "declarations", "stock", "captured",
                  "xeri", "last_capturer", "plays")


def parse_position(text: str) -> State:
    """Read the full compact form back into a :class:`State`.

    The per-seat form (with hidden cards) is rejected: it does not define a
    position.

    >>> parse_position("@0 2 0 1 AS/?6")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    diloti.core.errors.InvalidPositionError: invalid position '@0 2 0 1 AS/?6': this is a per-seat view with hidden...
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"invalid position {text!r}: expected text")
    parts = text.split()
    if (parts and parts[0].startswith("@")) or "?" in text:
        raise InvalidPositionError(
            f"invalid position {text!r}: this is a per-seat view with hidden cards, not a full position")
    if len(parts) < len(_COMPACT_NAMES):
        missing = ", ".join(_COMPACT_NAMES[len(parts):])
        raise InvalidPositionError(f"invalid position {text!r}: missing fields: {missing}")
    try:
        return _parse_compact(parts)
    except InvalidPositionError as exc:
        raise InvalidPositionError(f"{exc} (in {text!r})") from None


def _parse_compact(parts: list[str]) -> State:
    players = _parse_int("players", parts[0])
    if players not in (2, 4):
        raise bad_field("players", f"expected 2 or 4, got {players}")
    dealer = _parse_int("dealer", parts[1])
    turn = _parse_int("turn", parts[2])
    for name, v in (("dealer", dealer), ("turn", turn)):
        if v >= players:
            raise bad_field(name, f"expected a seat 0..{players - 1}, got {v}")
    hand_texts = parts[3].split("/")
    if len(hand_texts) != players:
        raise bad_field("hands", f"expected {players} hands separated by '/', got {len(hand_texts)}")
    hands = [_parse_cards(f"hands[{i}]", h) for i, h in enumerate(hand_texts)]
    table = _parse_cards("table", parts[4])
    declarations = _parse_declarations(parts[5], players)
    stock = _parse_cards("stock", parts[6])
    cap_texts = parts[7].split("/")
    if len(cap_texts) != 2:
        raise bad_field("captured", f"expected 2 sides separated by '/', got {parts[7]!r}")
    captured = [_parse_cards(f"captured[{i}]", c) for i, c in enumerate(cap_texts)]
    xm = re.fullmatch(r"(\d+)/(\d+)", parts[8])
    if not xm or int(xm.group(1)) > 26 or int(xm.group(2)) > 26:
        raise bad_field("xeri", f"expected two counts like 0/1, got {parts[8]!r}")
    last = None if parts[9] == "-" else _parse_int("last_capturer", parts[9])
    if last is not None and last >= players:
        raise bad_field("last_capturer", f"expected '-' or a seat 0..{players - 1}, got {last}")
    plays = _parse_int("plays", parts[10])
    x = _parse_extras(parts[11:], players)
    return build_state(players=players, options=x.options, dealer=dealer, turn=turn, hands=hands, table=table,
                       declarations=declarations, stock=stock, captured=captured,
                       sweeps=(int(xm.group(1)), int(xm.group(2))),
                       last_capturer=last, plays=plays, seed=x.seed, bottom=x.bottom, pending=x.pending,
                       shuffles=x.shuffles)


def _parse_declarations(text: str, players: int) -> list[Declaration]:
    """The compact form's declarations field: ``-``, or ``CARDS=VALUE@OWNER`` (``VALUEG`` for a group) by ``/``."""
    declarations: list[Declaration] = []
    if text == "-":
        return declarations
    for i, ptext in enumerate(text.split("/")):
        m = re.fullmatch(r"([^=]+)=(10|[1-9])(G?)@(\d)", ptext, re.IGNORECASE)
        if not m:
            raise bad_field(f"declarations[{i}]",
                            f"expected CARDS=VALUE@OWNER or CARDS=VALUEG@OWNER, got {ptext!r}")
        cards = _parse_cards(f"declarations[{i}]", m.group(1))
        owner = int(m.group(4))
        if owner >= players:
            raise bad_field(f"declarations[{i}]", f"owner {owner} is not a seat 0..{players - 1}")
        if len(cards) < 2 or len(set(cards)) != len(cards):
            raise bad_field(f"declarations[{i}]", "a declaration holds at least 2 different cards")
        kind = GROUP if m.group(3) else PLAIN
        declarations.append(Declaration(sum(1 << c for c in cards), int(m.group(2)), kind, owner))
    return declarations


@dataclass(frozen=True)
class _Extras:
    """The compact form's optional ``KEY=VALUE`` fields after the eleven fixed ones."""

    options: Options
    seed: int = 0
    shuffles: int = 1
    bottom: Card | None = None
    pending: tuple[int, ...] = ()


def _parse_extras(words: list[str], players: int) -> _Extras:
    opts: dict[str, Any] = {}
    found: dict[str, Any] = {}
    for extra in words:
        key, _, val = extra.partition("=")
        if key in ("seed", "shuffles"):
            found[key] = _parse_int(key, val)
        elif key == "bottom":
            cards = _parse_cards("bottom", val) if val else []
            if len(cards) != 1:
                raise bad_field("bottom", f"expected one card, got {val!r}")
            found["bottom"] = cards[0]
        elif key == "pending":
            found["pending"] = tuple(_parse_int("pending", p) for p in val.split("."))
            if any(p >= players for p in found["pending"]):
                raise bad_field("pending", f"expected seats 0..{players - 1}, got {val!r}")
        elif key in Options.names():
            try:
                name, value = Options.read_word(extra)
            except OptionsError as exc:
                raise bad_field(key, str(exc)) from None
            opts[name] = value
        else:
            known = ", ".join(Options.names())
            raise bad_field(extra, f"unknown option (known: {known}, seed, shuffles, bottom, pending)")
    try:
        return _Extras(Options.from_dict(opts), **found)
    except DilotiError as exc:
        raise bad_field("options", str(exc)) from None


def load_position(text: str) -> State:
    """Read a position in either form: JSON (starts with ``{``) or compact.

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=9)
    >>> load_position(position_to_json(s)) == load_position(format_position(s))
    True
    """
    t = text.strip()
    if t.startswith("{"):
        return position_from_json(t)
    return parse_position(t)


def same_position(a: State, b: State) -> bool:
    """Whether two states hold the same position (what both formats record)."""
    return position_to_dict(a) == position_to_dict(b) and a.phase == b.phase


__all__ = [
    "build_state", "format_position", "format_view", "load_position", "parse_position", "position_from_dict",
    "position_from_json", "position_to_dict", "position_to_json", "same_position",
]
