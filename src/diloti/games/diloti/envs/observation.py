"""Diloti's observations: one fixed-layout ``float32`` vector per seat, built only from its :class:`View`.

The view is the one door to hidden information, so an observation cannot show
another hand or the stock order. Seats are relative (0 = the observing seat,
1 = the next to play, ...), sides too (0 = the observer's side), so one policy
can play every seat. The layout is the same for 2 and 4 players (seat slots 2
and 3 stay zero with 2 players). Every entry lies in ``[0, 1]``.

:data:`LAYOUT` names each part with its slice (docs/RESEARCH.md has the
table); :data:`SIZE` is the length.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=3)
>>> obs = observe(s.view(1))
>>> obs.shape, obs.dtype, int(obs[LAYOUT["hand"]].sum()), int(obs[LAYOUT["table"]].sum())
((744,), dtype('float32'), 6, 4)
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from diloti.core.cards import NAMES, cards_of, mask_of
from diloti.core.errors import InvalidPositionError
from diloti.core.moves import GROUP, Declaration
from diloti.core.phase import Phase
from diloti.envs.games import layout_of
from diloti.games.diloti.envs.actions import HEADS, describe
from diloti.games.diloti.options import FACE_REDEAL_CHOICES, Options
from diloti.games.diloti.view import View

if TYPE_CHECKING:
    from diloti.games.diloti.state import State

#: The most points a side can score in a round: 11 plus a xeri on each of its 24 plays.
MAX_ROUND_POINTS = 11 + 10 * 24
#: The flags of :class:`~diloti.games.diloti.options.Options` in the observation, in this order.
OPTION_FLAGS = (
    "dealer_sees_bottom", "three_faces_stay", "any_rank_redeal", "forced_capture", "liberal_groups",
    "liberal_raise", "liberal_capture", "soy", "self_raise", "no_xeri_last_card", "xeri_first_card",
)

#: The parts of the observation in order: (name, length, what it holds). The card planes (52 each, by
#: card index) come first, then the numbers.
PARTS: tuple[tuple[str, int, str], ...] = (
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


LAYOUT: dict[str, slice] = layout_of(PARTS)
SIZE = sum(size for _, size, _ in PARTS)
PLANES = 12  # the card planes at the start
TAIL = SIZE - PLANES * 52
_FULL = (1 << 52) - 1


def _at(name: str) -> int:
    return int(LAYOUT[name].start) - PLANES * 52  # offset among the numbers after the planes


(_DECL, _SIZES, _STOCK, _COUNTS, _XERI, _POINTS, _SCORES, _TURN, _DEALER, _LAST, _PHASE, _FOUR, _DEAL, _PLAYS,
 _PENDING, _OPTIONS, _KIND, _VALUE, _STAGE) = map(_at, (
    "declarations", "hand_sizes", "stock", "captured_counts", "xeri", "points", "scores", "turn", "dealer",
    "last_capturer", "phase", "four_players", "deal", "plays", "pending", "options", "prefix_kind",
    "prefix_value", "prefix_stage"))
_PACK = struct.Struct(f"<{TAIL}f").pack  # the numbers after the planes
_BITS = PLANES * 52
_BYTES = (_BITS + 7) // 8
_DECIDE = Phase.DECIDE
assert Phase.PLAY < Phase.DECIDE < Phase.OVER < Phase.CHANCE
_ZERO_TAIL = [0.0] * TAIL
# _REL[players][seat][other] = the other seat's place counted from seat (0 = itself, 1 = the next to play, ...)
_REL = {n: tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n)) for n in (2, 4)}


def observe(view: View, head: int = -1, chosen: int = 0,
            out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The observation of ``view``'s seat; ``head`` and ``chosen`` are the move being chosen.

    ``head`` is the head action chosen (-1 before it) and ``chosen`` the
    52-bit set of the item cards chosen since, as in
    :class:`~diloti.envs.actions.Decision`. Writes into ``out`` if given.
    """
    cap = view.captured
    return _observe(view.seat, view.players, mask_of(view.hand), mask_of(view.table), view.declarations,
                    _mask_of(cap[0]), _mask_of(cap[1]), view.xeri, view.bottom, view.hand_sizes, view.stock_size,
                    view.scores, view.options, view.phase, view.turn, view.dealer, view.last_capturer,
                    view.deal_no, view.plays, view.pending, head, chosen, out)


def observe_state(state: State, seat: int, scores: tuple[int, int] = (0, 0)) -> npt.NDArray[np.float32]:
    """``observe(state.view(seat, scores))``, read from the state without building the view (the environments'
    drivers, once a move). Only the seat's own hand and, for the dealer, the bottom card are read of what
    the seat cannot see, as the view does (tests/test_envs_fast.py compares the two on random rounds).

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=3)
    >>> bool((observe_state(s, 1) == observe(s.view(1))).all())
    True
    """
    if not 0 <= seat < state.players:
        raise InvalidPositionError(f"invalid seat {seat!r}: expected 0..{state.players - 1}")
    cap = state.captured
    return _observe(seat, state.players, mask_of(state.hands[seat]), mask_of(state.table), state.declarations,
                    cap[0], cap[1], state.xeri, state.bottom if seat == state.dealer else None,
                    [len(h) for h in state.hands], len(state.stock) - state.stock_pos, scores, state.options,
                    state.phase, state.turn, state.dealer, state.last_capturer, state.deal_no, state.plays,
                    state.pending, -1, 0, None)


def _observe(seat: int, n: int, hand: int, table: int, declarations: Sequence[Declaration], cap0: int, cap1: int,
             xeri: Sequence[int], bottom: int | None, hand_sizes: Sequence[int], stock_size: int,
             scores: tuple[int, int], options: Options, phase: int, turn: int, dealer: int, lc: int | None,
             deal_no: int, plays: int, pending: Sequence[int], head: int, chosen: int,
             out: npt.NDArray[np.float32] | None) -> npt.NDArray[np.float32]:
    rel = _REL[n][seat]  # seat -> relative seat
    if seat & 1:
        own_cap, other_cap = cap1, cap0
        x0, x1 = xeri[1], xeri[0]
    else:
        own_cap, other_cap = cap0, cap1
        x0, x1 = xeri[0], xeri[1]
    tail = _ZERO_TAIL.copy()
    planes = [hand, table, 0, 0, 0, 0, own_cap, other_cap, 0, 0, 0, chosen]
    seen = hand | table | own_cap | other_cap
    for d in declarations:
        r = rel[d.owner]
        planes[2 + r] = d.mask
        seen |= d.mask
        k = _DECL + 12 * r
        tail[k] = 1.0
        if d.kind == GROUP:
            tail[k + 1] = 1.0
        if 1 <= d.value <= 10:
            tail[k + 1 + d.value] = 1.0
    planes[8] = _FULL & ~seen
    if bottom is not None and not seen >> bottom & 1:
        planes[9] = 1 << bottom
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
    if scores[0] or scores[1]:
        if seat & 1:
            scores = (scores[1], scores[0])
        target = options.target
        tail[_SCORES] = min(max(scores[0], 0), target) / target
        tail[_SCORES + 1] = min(max(scores[1], 0), target) / target
    if phase <= _DECIDE:  # PLAY or DECIDE: a seat is to act
        tail[_TURN + rel[turn]] = 1.0
    tail[_DEALER + rel[dealer]] = 1.0
    tail[_LAST + (4 if lc is None else rel[lc])] = 1.0
    tail[_PHASE + phase] = 1.0
    if n == 4:
        tail[_FOUR] = 1.0
    tail[_DEAL + min(max(deal_no, 1), 4) - 1] = 1.0
    tail[_PLAYS] = min(plays, 48) / 48.0
    for s in pending:
        tail[_PENDING + rel[s]] = 1.0
    tail[_OPTIONS:_OPTIONS + 14] = _options_part(options)
    if head >= 0:
        card, kind, value = HEADS[head]
        if card is not None:
            planes[10] = 1 << card
        tail[_KIND + kind] = 1.0
        tail[_VALUE + value] = 1.0
        tail[_STAGE] = 1.0
    # The planes side by side as one int of 12 * 52 bits, unpacked at once; the numbers packed as float32.
    p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11 = planes
    whole = (p0 | p1 << 52 | p2 << 104 | p3 << 156 | p4 << 208 | p5 << 260 | p6 << 312 | p7 << 364 | p8 << 416
             | p9 << 468 | p10 << 520 | p11 << 572)
    o = np.empty(SIZE, dtype=np.float32) if out is None else out
    o[:_BITS] = np.unpackbits(np.frombuffer(whole.to_bytes(_BYTES, "little"), dtype=np.uint8), bitorder="little")
    o[_BITS:] = np.frombuffer(_PACK(*tail), dtype=np.float32)
    return o


def with_prefix(base: npt.NDArray[np.float32], head: int, chosen: int) -> npt.NDArray[np.float32]:
    """``observe(view, head, chosen)`` from ``base = observe(view)``: a copy with the move being chosen written in.

    Only the prefix parts depend on ``head`` and ``chosen``, so the later steps of a move need not
    build the rest again.

    >>> from diloti.games.diloti.state import State
    >>> v = State.new(seed=3).view(1)
    >>> bool((with_prefix(observe(v), 7, 1 << 9 | 1 << 20) == observe(v, 7, 1 << 9 | 1 << 20)).all())
    True
    """
    o = base.copy()
    if head >= 0:
        card, kind, value = HEADS[head]
        if card is not None:
            o[_PREFIX_CARD + card] = 1.0
        o[_BITS + _KIND + kind] = 1.0
        o[_BITS + _VALUE + value] = 1.0
        o[_BITS + _STAGE] = 1.0
    while chosen:
        low = chosen & -chosen
        o[_PREFIX_ITEMS + low.bit_length() - 1] = 1.0
        chosen ^= low
    return o


_PREFIX_CARD, _PREFIX_ITEMS = 10 * 52, 11 * 52
assert LAYOUT["prefix_card"].start == _PREFIX_CARD and LAYOUT["prefix_items"].start == _PREFIX_ITEMS


# The card sets of a view's captured tuples by identity (State.view hands out the same tuple for the same
# set, diloti.core.view.cards_of_set), each kept with its tuple so that its id is not reused.
_MASKS: dict[int, tuple[tuple[int, ...], int]] = {}


def _mask_of(cards: tuple[int, ...]) -> int:
    hit = _MASKS.get(id(cards))
    if hit is not None and hit[0] is cards:
        return hit[1]
    if len(_MASKS) >= 4096:
        _MASKS.clear()
    m = mask_of(cards)
    _MASKS[id(cards)] = (cards, m)
    return m


def _points(captured: int, more_cards: bool, xeri: int) -> int:
    return ((4 if more_cards else 0) + (captured & 0xF).bit_count() + (2 if captured >> 37 & 1 else 0)
            + (1 if captured >> 4 & 1 else 0) + 10 * xeri)


_OPTION_CACHE: dict[Options, list[float]] = {}
_last_options: list[tuple[Options, list[float]]] = []


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


def _declaration_text(d: Declaration, seat: int, n: int) -> str:
    who = "me" if d.owner == seat else f"+{(d.owner - seat) % n}"
    return f"[{' '.join(NAMES[c] for c in cards_of(d.mask))}]={d.value}{'G' if d.is_group else ''}@{who}"


def describe_view(view: View, head: int = -1, chosen: int = 0) -> str:
    """The observation as one line of text, from the same view (for OpenSpiel's observation string).

    >>> from diloti.games.diloti.state import State
    >>> describe_view(State.new(seed=3).view(0))[:40]
    'seat 0/2; phase play; turn +1; dealer +0'
    """
    seat, n = view.seat, view.players
    parts = [
        f"seat {seat}/{n}", f"phase {Phase(view.phase).label}", f"turn +{(view.turn - seat) % n}",
        f"dealer +{(view.dealer - seat) % n}", "hand " + (" ".join(NAMES[c] for c in view.hand) or "-"),
        "table " + (" ".join([NAMES[c] for c in view.table]
                             + [_declaration_text(d, seat, n) for d in view.declarations]) or "-"),
        "sizes " + " ".join(str(view.hand_sizes[(seat + i) % n]) for i in range(n)),
        f"stock {view.stock_size}", f"deal {view.deal_no}", f"plays {view.plays}",
        f"captured {len(view.captured[seat & 1])}/{len(view.captured[1 - (seat & 1)])}",
        f"xeri {view.xeri[seat & 1]}/{view.xeri[1 - (seat & 1)]}",
    ]
    if view.last_capturer is not None:
        parts.append(f"last +{(view.last_capturer - seat) % n}")
    if view.bottom is not None:
        parts.append(f"bottom {NAMES[view.bottom]}")
    if view.pending:
        parts.append("pending " + " ".join(f"+{(s - seat) % n}" for s in view.pending))
    if head >= 0:
        parts.append("choosing " + describe(head) + (" " + " ".join(NAMES[c] for c in cards_of(chosen))
                                                    if chosen else ""))
    return "; ".join(parts)


__all__ = ["LAYOUT", "MAX_ROUND_POINTS", "OPTION_FLAGS", "PARTS", "SIZE", "describe_view", "observe", "observe_state",
           "with_prefix"]
