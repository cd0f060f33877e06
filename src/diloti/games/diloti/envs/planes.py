"""Diloti's observation without numpy: the bytes of its ``float32`` vector.

:mod:`diloti.games.diloti.envs.observation` reads them as the observation
vector (one numpy call); everything else an observation needs is worked out
here, in a module compiled with the core (setup.py's list), which imports only
the standard library and the core. :data:`PARTS` is the layout both read.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=3)
>>> len(encode_state(s, 1, (0, 0))) == 4 * SIZE
True
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from diloti.core.moves import GROUP, Declaration
from diloti.core.phase import Phase
from diloti.games.diloti.envs.actions import HEADS
from diloti.games.diloti.options import FACE_REDEAL_CHOICES, Options

if TYPE_CHECKING:
    from diloti.games.diloti.state import State

#: The most points a side can score in a round: 11 plus a xeri on each of its 24 plays.
MAX_ROUND_POINTS: Final = 11 + 10 * 24
#: The flags of :class:`~diloti.games.diloti.options.Options` in the observation, in this order.
OPTION_FLAGS: Final = (
    "dealer_sees_bottom", "three_faces_stay", "any_rank_redeal", "forced_capture", "liberal_groups",
    "liberal_raise", "liberal_capture", "soy", "self_raise", "no_xeri_last_card", "xeri_first_card",
)

#: The parts of the observation in order: (name, length, what it holds). The card planes (52 each, by
#: card index) come first, then the numbers.
PARTS: Final[tuple[tuple[str, int, str], ...]] = (
    ("hand", 52, "own hand"),
    ("table", 52, "loose cards on the table"),
    ("declaration_cards", 4 * 52, "the cards of the declaration owned by each relative seat (one plane each)"),
    ("captured", 2 * 52, "cards captured by each side, own side first"),
    ("unseen", 52, "cards the seat has not seen in play: other hands and the stock (the bottom card too)"),
    ("bottom", 52, "the stock's last card, seen by the dealer with dealer_sees_bottom"),
    ("prefix_card", 52, "the move being chosen: the card of the head chosen"),
    ("prefix_items", 52, "... the table items chosen so far (all their cards)"),
    ("declarations", 4 * 12,
     "per relative seat of the owner: present, group (else plain), value one-hot 1..10"),
    ("hand_sizes", 4, "cards in each hand / 6, by relative seat"),
    ("stock", 1, "undealt cards / 52"),
    ("captured_counts", 2, "cards captured by each side / 52"),
    ("xeri", 2, "xeris of each side / 24"),
    ("points", 2, f"each side's points for the round so far / {MAX_ROUND_POINTS}"),
    ("scores", 2, "each side's game score / target, at most 1 (zero in single-round episodes)"),
    ("turn", 4, "seat to act, one-hot by relative seat (zero while cards are dealt or when over)"),
    ("dealer", 4, "dealer, one-hot by relative seat"),
    ("last_capturer", 5, "last seat to capture, one-hot by relative seat; the fifth: nobody yet"),
    ("phase", 4, "play, decide (face-card redeal), over, chance"),
    ("four_players", 1, "1 with 4 players"),
    ("deal", 4, "the deal of the round, one-hot 1..4"),
    ("plays", 1, "cards played this round / 48"),
    ("pending", 4, "seats still to decide on a face-card redeal, by relative seat"),
    ("options", 14, "option flags (OPTION_FLAGS order), then face_card_redeal off / first_deal / any_deal"),
    ("prefix_kind", 6, "the move being chosen: kind of the head chosen (lay, capture, plain, group, keep, redeal)"),
    ("prefix_value", 11, "... its value 0..10"),
    ("prefix_stage", 1, "1 once the head is chosen (items are being chosen)"),
)

PLANES: Final = 12  # the card planes at the start
SIZE: Final = 744
TAIL: Final = SIZE - PLANES * 52  # the numbers after the planes
_FULL: Final = (1 << 52) - 1
_BYTES: Final = (PLANES * 52 + 7) // 8


def _offsets() -> dict[str, int]:
    """Each part's start among the numbers after the planes."""
    out: dict[str, int] = {}
    at = 0
    for name, size, _ in PARTS:
        out[name] = at - PLANES * 52
        at += size
    assert at == SIZE
    return out


_AT: Final = _offsets()
# Offsets among the numbers (C constants once compiled; checked against PARTS below).
_DECL: Final = 0
_SIZES: Final = 48
_STOCK: Final = 52
_COUNTS: Final = 53
_XERI: Final = 55
_POINTS: Final = 57
_SCORES: Final = 59
_TURN: Final = 61
_DEALER: Final = 65
_LAST: Final = 69
_PHASE: Final = 74
_FOUR: Final = 78
_DEAL: Final = 79
_PLAYS: Final = 83
_PENDING: Final = 84
_OPTIONS: Final = 88
_KIND: Final = 102
_VALUE: Final = 108
_STAGE: Final = 119
_NAMES = ("declarations", "hand_sizes", "stock", "captured_counts", "xeri", "points", "scores", "turn", "dealer",
          "last_capturer", "phase", "four_players", "deal", "plays", "pending", "options", "prefix_kind",
          "prefix_value", "prefix_stage")
assert tuple(_AT[name] for name in _NAMES) == (_DECL, _SIZES, _STOCK, _COUNTS, _XERI, _POINTS, _SCORES, _TURN,
                                               _DEALER, _LAST, _PHASE, _FOUR, _DEAL, _PLAYS, _PENDING, _OPTIONS,
                                               _KIND, _VALUE, _STAGE)
_PACK: Final = struct.Struct(f"<{TAIL}f").pack
#: A byte's eight bits as eight little-endian ``float32`` (0.0 or 1.0), lowest bit first, by the byte's value.
_FLOATS8: Final = tuple(b"".join(struct.pack("<f", float(x >> i & 1)) for i in range(8)) for x in range(256))
_DECIDE: Final = int(Phase.DECIDE)
assert Phase.PLAY < Phase.DECIDE < Phase.OVER < Phase.CHANCE
# _REL[players][seat][other] = the other seat's place counted from seat (0 = itself, 1 = the next to play, ...)
_REL: Final = {n: tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n)) for n in (2, 4)}
#: Each head action's (card, kind, value) as ints (the card -1 for keep and redeal): the prefix parts.
HEAD_PARTS: Final = tuple((-1 if c is None else int(c), int(k), v) for c, k, v in HEADS)


def encode_state(state: State, seat: int, scores: Sequence[int], head: int = -1, chosen: int = 0) -> bytearray:
    """:func:`encode` of ``state.view(seat, scores)``, read from the state (only the seat's own hand and, for the
    dealer, the bottom card of what the seat cannot see, as the view gives them); ``head`` and ``chosen`` are
    the move being chosen (by default none)."""
    planes, tail = state_parts(state, seat, scores, head, chosen)
    return _joined(planes, tail)


def encode(seat: int, n: int, hand: int, table: int, declarations: Sequence[Declaration], cap0: int, cap1: int,
           xeri: Sequence[int], bottom: int | None, hand_sizes: Sequence[int], stock_size: int,
           scores: Sequence[int], options: Options, phase: int, turn: int, dealer: int, lc: int | None,
           deal_no: int, plays: int, pending: Sequence[int], head: int, chosen: int) -> bytearray:
    """The observation of ``seat`` as the bytes of its ``float32`` vector (little-endian): its twelve card planes,
    then its numbers. ``head`` and ``chosen`` are the move being chosen (-1 and 0 before its head)."""
    planes, tail = parts(seat, n, hand, table, declarations, cap0, cap1, xeri, bottom, hand_sizes, stock_size,
                         scores, options, phase, turn, dealer, lc, deal_no, plays, pending, head, chosen)
    return _joined(planes, tail)


def _joined(planes: list[int], tail: list[float]) -> bytearray:
    """The planes and numbers as the bytes of the ``float32`` vector."""
    whole = 0
    for i in range(PLANES):
        whole |= planes[i] << (52 * i)
    # Each byte of the planes is eight floats (a table of 256), then the numbers: one buffer, read by numpy at once.
    chunks = [_FLOATS8[x] for x in whole.to_bytes(_BYTES, "little")]
    chunks.append(_PACK(*tail))
    return bytearray(b"").join(chunks)


def state_parts(state: State, seat: int, scores: Sequence[int], head: int = -1, chosen: int = 0,
                private: bool = True) -> tuple[list[int], list[float]]:
    """:func:`parts` of ``state.view(seat, scores)`` read from the state, as :func:`encode_state`; with ``private``
    False, of the public view (without the seat's hand and bottom card)."""
    cap = state.captured
    hand = 0
    if private:
        for c in state.hands[seat]:
            ci: int = c
            hand |= 1 << ci
    table = 0
    for c in state.table:
        ci = c
        table |= 1 << ci
    return parts(seat, state.players, hand, table, state.declarations, cap[0], cap[1], state.sweeps,
                 state.bottom if private and seat == state.dealer else None, [len(h) for h in state.hands],
                 len(state.stock) - state.stock_pos, scores, state.options, state.phase, state.turn, state.dealer,
                 state.last_capturer, state.deal_no, state.plays, state.pending, head, chosen)


def parts(seat: int, n: int, hand: int, table: int, declarations: Sequence[Declaration], cap0: int, cap1: int,
          xeri: Sequence[int], bottom: int | None, hand_sizes: Sequence[int], stock_size: int,
          scores: Sequence[int], options: Options, phase: int, turn: int, dealer: int, lc: int | None,
          deal_no: int, plays: int, pending: Sequence[int], head: int, chosen: int) -> tuple[list[int], list[float]]:
    """What :func:`encode` writes: the twelve card planes (52-bit sets, in :data:`PARTS` order) and the
    :data:`TAIL` numbers after them."""
    rel = _REL[n][seat]  # seat -> relative seat
    if seat & 1:
        own_cap, other_cap = cap1, cap0
        x0, x1 = xeri[1], xeri[0]
    else:
        own_cap, other_cap = cap0, cap1
        x0, x1 = xeri[0], xeri[1]
    tail = [0.0] * TAIL
    decl = [0, 0, 0, 0]
    seen = hand | table | own_cap | other_cap
    for d in declarations:
        r = rel[d.owner]
        dmask: int = d.mask
        decl[r] = dmask
        seen |= dmask
        k = _DECL + 12 * r
        tail[k] = 1.0
        if d.kind == GROUP:
            tail[k + 1] = 1.0
        value: int = d.value
        if 1 <= value <= 10:
            tail[k + 1 + value] = 1.0
    unseen = _FULL & ~seen
    low = 0
    if bottom is not None:
        b: int = bottom
        if not seen >> b & 1:
            low = 1 << b
    for s, size in enumerate(hand_sizes):
        tail[_SIZES + rel[s]] = size / 6.0
    tail[_STOCK] = stock_size / 52.0
    own_n, other_n = own_cap.bit_count(), other_cap.bit_count()
    tail[_COUNTS] = own_n / 52.0
    tail[_COUNTS + 1] = other_n / 52.0
    if x0 or x1:
        tail[_XERI] = min(x0, 24) / 24.0
        tail[_XERI + 1] = min(x1, 24) / 24.0
    tail[_POINTS] = min(_points(own_cap, own_n > other_n, x0), MAX_ROUND_POINTS) / MAX_ROUND_POINTS
    tail[_POINTS + 1] = min(_points(other_cap, other_n > own_n, x1), MAX_ROUND_POINTS) / MAX_ROUND_POINTS
    s0, s1 = scores[0], scores[1]
    if s0 or s1:
        if seat & 1:
            s0, s1 = s1, s0
        target: int = options.target
        tail[_SCORES] = min(max(s0, 0), target) / target
        tail[_SCORES + 1] = min(max(s1, 0), target) / target
    ph: int = phase
    if ph <= _DECIDE:  # PLAY or DECIDE: a seat is to act
        tail[_TURN + rel[turn]] = 1.0
    tail[_DEALER + rel[dealer]] = 1.0
    tail[_LAST + (4 if lc is None else rel[lc])] = 1.0
    tail[_PHASE + ph] = 1.0
    if n == 4:
        tail[_FOUR] = 1.0
    tail[_DEAL + min(max(deal_no, 1), 4) - 1] = 1.0
    tail[_PLAYS] = min(plays, 48) / 48.0
    for p in pending:
        tail[_PENDING + rel[p]] = 1.0
    part = _options_part(options)
    for i in range(14):
        tail[_OPTIONS + i] = part[i]
    card_plane = 0
    if head >= 0:
        card, kind, value = HEAD_PARTS[head]
        if card >= 0:
            card_plane = 1 << card
        tail[_KIND + kind] = 1.0
        tail[_VALUE + value] = 1.0
        tail[_STAGE] = 1.0
    return [hand, table, decl[0], decl[1], decl[2], decl[3], own_cap, other_cap, unseen, low, card_plane,
            chosen], tail


# Where prefix writes: the byte offsets of the prefix planes and parts (4 bytes a float).
_CARD_AT: Final = 4 * 10 * 52
_ITEMS_AT: Final = 4 * 11 * 52
_KIND_AT: Final = 4 * (PLANES * 52 + _KIND)
_VALUE_AT: Final = 4 * (PLANES * 52 + _VALUE)
_STAGE_AT: Final = 4 * (PLANES * 52 + _STAGE)
assert 4 * (_AT["prefix_card"] + PLANES * 52) == _CARD_AT
assert 4 * (_AT["prefix_items"] + PLANES * 52) == _ITEMS_AT


def prefix(base: bytes, head: int, chosen: int) -> bytearray:
    """:func:`encode` with the move being chosen (``head`` and ``chosen``) from ``base``, its bytes before the
    move's head (a new buffer): only the prefix parts differ, so the later steps of a move copy the first's
    bytes and set a few floats to 1.0 instead of building everything again.

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=3)
    >>> prefix(bytes(encode_state(s, 1, (0, 0))), 7, 1 << 9) == encode_state(s, 1, (0, 0), 7, 1 << 9)
    True
    """
    out = bytearray(base)
    if head >= 0:
        card, kind, value = HEAD_PARTS[head]
        if card >= 0:
            _one(out, _CARD_AT + 4 * card)
        _one(out, _KIND_AT + 4 * kind)
        _one(out, _VALUE_AT + 4 * value)
        _one(out, _STAGE_AT)
    while chosen:
        low = chosen & -chosen
        _one(out, _ITEMS_AT + 4 * (low.bit_length() - 1))
        chosen ^= low
    return out


def _one(out: bytearray, at: int) -> None:
    """Writes 1.0 as a little-endian ``float32`` (bytes 00 00 80 3f) over the 0.0 at byte offset ``at``."""
    out[at + 2] = 0x80
    out[at + 3] = 0x3F


def _points(captured: int, more_cards: bool, xeri: int) -> int:
    return ((4 if more_cards else 0) + (captured & 0xF).bit_count() + (2 if captured >> 37 & 1 else 0)
            + (1 if captured >> 4 & 1 else 0) + 10 * xeri)


_OPTION_CACHE: Final[dict[Options, list[float]]] = {}
_last_options: Final[list[tuple[Options, list[float]]]] = []


def _options_part(opts: Options) -> list[float]:
    if _last_options and _last_options[0][0] is opts:
        return _last_options[0][1]
    part = _OPTION_CACHE.get(opts)
    if part is None:
        part = [1.0 if getattr(opts, name) else 0.0 for name in OPTION_FLAGS] + [0.0, 0.0, 0.0]
        part[11 + FACE_REDEAL_CHOICES.index(opts.face_card_redeal)] = 1.0
        _OPTION_CACHE[opts] = part
    _last_options[:] = [(opts, part)]
    return part


__all__ = ["HEAD_PARTS", "MAX_ROUND_POINTS", "OPTION_FLAGS", "PARTS", "PLANES", "SIZE", "TAIL", "encode",
           "encode_state", "parts", "prefix", "state_parts"]
