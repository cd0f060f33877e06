"""Reading what people type as a move, against the legal moves of a position.

The rules core's one text reader, so that :meth:`State.play` can take notation
without reaching up to the formats floor. :func:`diloti.games.diloti.formats.notation.parse_move`
is the public entry point for states and views.

>>> from diloti.core.cards import parse_cards
>>> from diloti.core.moves import Move
>>> legal = [Move.parse("9C x 4S 5S"), Move.parse("9C"), Move.parse("KH")]
>>> str(read_move("9c takes 5s 4s", legal, parse_cards("4S 5S"), (), (), "[here]"))
'9C x 4S 5S'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from diloti.core.cards import NAMES, Card, parse_card
from diloti.core.errors import AmbiguousMoveError, IllegalMoveError, InvalidCardError, InvalidMoveError
from diloti.core.moves import CAPTURE, GROUP, KEEP, LAY, PLAIN, REDEAL, Declaration, Move, MoveKind

_VALUE_WORDS = {"a": 1, "t": 10, **{str(i): i for i in range(1, 11)}}
_CAPTURE_OPS = ("x", ":", "×", "takes", "take", "capture", "captures")
_DECLARE_OPS = ("+", "*", "on", "builds", "build", "declare", "declares", "raise", "raises")
_KIND_WORDS = {"g": GROUP, "group": GROUP, "s": GROUP, "*": GROUP, "plain": PLAIN, "p": PLAIN}
_SPECIALS = {"keep": KEEP, "k": KEEP, "redeal": REDEAL, "r": REDEAL}  # the face-card redeal decision's answers
_SEPARATORS = (",", "[", "]", "and", "&")
_VALUE_RE = re.compile(r"(10|[1-9]|a|t)(g|s|\*|group|plain|p)?")


def _pile_of(declarations: Sequence[Declaration], card: Card) -> Declaration | None:
    for p in declarations:
        if p.mask >> card & 1:
            return p
    return None


# ----------------------------------------------------------------- reading
_TOKEN_RE = re.compile(r"\s*(\[|\]|=|\+|\*|×|:|,|[^\s\[\]=+*×:,]+)")


def _tokens(text: str) -> list[str]:
    out = []
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m:
            break
        if m.group(1):
            out.append(m.group(1))
        pos = m.end()
    return out


class _Spec:
    """What a move string says, before it meets the position."""

    def __init__(self) -> None:
        self.card: Card | None = None
        self.op: str | None = None  # "capture", "declare" or None
        self.named: list[Card] = []
        self.value: int | None = None
        self.kind: MoveKind | None = None
        self.special: MoveKind | None = None


def _read(text: str) -> _Spec:
    spec = _Spec()
    low = text.strip().lower()
    if low in _SPECIALS:
        spec.special = _SPECIALS[low]
        return spec
    toks = _tokens(text.strip())
    if not toks:
        raise InvalidMoveError(f"invalid move {text!r}: empty")
    after_eq = False
    for tok in toks:
        if tok.lower() in _SEPARATORS:
            continue
        if after_eq:
            _read_value(spec, tok, text)
        else:
            after_eq = _read_word(spec, tok, text)
    if spec.card is None:
        raise InvalidMoveError(f"invalid move {text!r}: it names no card to play")
    if after_eq and spec.value is None:
        raise InvalidMoveError(f"invalid move {text!r}: '=' must be followed by a value (1..10, optional G)")
    return spec


def _read_word(spec: _Spec, tok: str, text: str) -> bool:
    """Reads one token before any '=' into ``spec``; True when the token is the '=' itself."""
    lt = tok.lower()
    if lt in _CAPTURE_OPS:
        _set_op(spec, "capture", text)
    elif lt in _DECLARE_OPS:
        _set_op(spec, "declare", text)
        if lt == "*":  # Move.parse's group operator
            spec.kind = GROUP
    elif lt == "=":
        _set_op(spec, "declare", text, allow_same=True)
        return True
    elif lt in ("group", "plain"):
        _set_op(spec, "declare", text, allow_same=True)
        spec.kind = _KIND_WORDS[lt]
    elif spec.card is not None and lt in ("lay", "lays"):
        raise InvalidMoveError(f"invalid move {text!r}: 'lay' comes before the card, or write the card alone")
    elif not (spec.card is None and lt in ("lay", "lays", "play", "plays")):
        _read_card(spec, tok, text)
    return False


def _read_value(spec: _Spec, tok: str, text: str) -> None:
    """Reads one token after '=': the declared value (with its kind written on, as ``8G``), or the kind alone."""
    lt = tok.lower()
    m = _VALUE_RE.fullmatch(lt)
    if m and spec.value is None:
        spec.value = _VALUE_WORDS[m.group(1)]
        if m.group(2):
            spec.kind = _KIND_WORDS[m.group(2)]
    elif lt in _KIND_WORDS and spec.kind is None:
        spec.kind = _KIND_WORDS[lt]
    else:
        raise InvalidMoveError(f"invalid move {text!r}: cannot read {tok!r} after '='")


def _read_card(spec: _Spec, tok: str, text: str) -> None:
    """The card played (the first one named) or a table card it takes or builds on (every later one)."""
    try:
        card = parse_card(tok)
    except InvalidCardError:
        raise InvalidMoveError(
            f"invalid move {text!r}: cannot read {tok!r} (expected a card like 9D, 10♦, TD, "
            "or x / + / = VALUE [G])") from None
    if spec.card is None:
        spec.card = card
    elif card == spec.card or card in spec.named:
        raise InvalidMoveError(f"invalid move {text!r}: card {NAMES[card]} is named twice")
    else:
        spec.named.append(card)


def _set_op(spec: _Spec, op: str, text: str, allow_same: bool = False) -> None:
    if spec.card is None:
        raise InvalidMoveError(f"invalid move {text!r}: start with the card played")
    if spec.op is not None and not (allow_same and spec.op == op):
        raise InvalidMoveError(f"invalid move {text!r}: a move is either a capture (x) or a declaration (+ ... =)")
    spec.op = op


def read_move(text: str, legal: Sequence[Move], table: Sequence[Card], declarations: Sequence[Declaration],
              hand: Sequence[Card], where: str) -> Move:
    """The one move of ``legal`` that ``text`` describes.

    ``table``, ``declarations`` and ``hand`` (the mover's, or empty when unknown) are the position's;
    ``where`` describes it for error messages. Raises :class:`InvalidMoveError` when the text
    cannot be read, :class:`IllegalMoveError` when no legal move fits and
    :class:`AmbiguousMoveError` when several do; every message names the input and the position.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"invalid move {text!r}: expected text")
    spec = _read(text)
    if spec.special is not None:
        for m in legal:
            if m.kind == spec.special:
                return m
        raise IllegalMoveError(f"illegal move {text!r}: no face-card redeal decision is due in {where}")
    card = spec.card
    assert card is not None
    if not legal:
        raise IllegalMoveError(f"illegal move {text!r}: no move can be made now in {where}")
    with_card = [m for m in legal if m.card == card]
    if not with_card:
        if hand and card not in hand:
            held = " ".join(NAMES[c] for c in hand)
            raise IllegalMoveError(f"illegal move {text!r}: {NAMES[card]} is not in the hand ({held}) in {where}")
        raise IllegalMoveError(f"illegal move {text!r}: {NAMES[card]} has no legal move in {where}")
    cands = _fitting(spec, with_card, _named_mask(spec, table, declarations, text, where), text)
    if len(cands) == 1:
        return cands[0]
    if not cands:
        some = ", ".join(str(m) for m in with_card[:6])
        more = f" (and {len(with_card) - 6} more)" if len(with_card) > 6 else ""
        raise IllegalMoveError(
            f"illegal move {text!r}: no legal move fits; legal with {NAMES[card]}: {some}{more} in {where}")
    # Listed in a fixed order (kind, then notation), whatever order move generation found them in.
    cands.sort(key=lambda m: (m.kind, str(m)))
    names = " or ".join(f"{_kind_phrase(m)} ({m})" for m in cands[:8])
    more = f" or {len(cands) - 8} more" if len(cands) > 8 else ""
    raise AmbiguousMoveError(f"ambiguous move {text!r}: fits {names}{more} in {where}")


def _named_mask(spec: _Spec, table: Sequence[Card], declarations: Sequence[Declaration], text: str,
                where: str) -> int:
    """The table cards the text names, a declared build's card standing for its whole build."""
    mask = 0
    for c in spec.named:
        if c in table:
            mask |= 1 << c
            continue
        p = _pile_of(declarations, c)
        if p is None:
            raise IllegalMoveError(f"illegal move {text!r}: {NAMES[c]} is not on the table in {where}")
        mask |= p.mask
    return mask


def _fitting(spec: _Spec, with_card: list[Move], mask: int, text: str) -> list[Move]:
    """The moves of the played card that fit everything else the text says (a card alone lays it, if it may)."""
    cands = with_card
    if spec.op == "capture":
        cands = [m for m in cands if m.kind == CAPTURE]
    elif spec.op == "declare":
        cands = [m for m in cands if m.kind in (PLAIN, GROUP)]
    if spec.named:
        cands = [m for m in cands if m.mask == mask]
    elif spec.op is None:
        lay = [m for m in cands if m.kind == LAY]
        if lay:
            return lay[:1]
    elif spec.op == "declare" and spec.value is None:
        raise InvalidMoveError(f"invalid move {text!r}: a declaration names the table cards it uses")
    if spec.value is not None:
        cands = [m for m in cands if m.value == spec.value]
    if spec.kind is not None:
        cands = [m for m in cands if m.kind == spec.kind]
    return cands


def _kind_phrase(m: Move) -> str:
    if m.kind == CAPTURE:
        return "capture"
    if m.kind == PLAIN:
        return f"plain {m.value}"
    if m.kind == GROUP:
        return f"group of {m.value}s"
    if m.kind == LAY:
        return "lay"
    return str(m)


# ----------------------------------------------------------------- writing
