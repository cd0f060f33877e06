"""What the learned player's network reads: a seat's view, and each of its legal moves, as numbers.

The network scores each legal move from two vectors: the **position** (:func:`position_features`, the same for
every move of a decision) and the **move** (:func:`move_features`, one row a legal move). Both are built from
the seat's view alone (``view.hand``, ``view.table``, the captured cards, the counts every seat sees), the
one door to hidden information, and from the game's own card sense asked of that view (its players part's
``greedy_scores`` and ``heuristic_scores``, :mod:`diloti.ai.part`): the network learns where the teacher's
search disagrees with the heuristic, instead of learning card arithmetic from nothing.

Every game's view has what these read; what only some games' views hold (Diloti's declarations, the hand
sizes, the stock) is read when present. The layout is :data:`FEATURES_VERSION`: weights name the version
they were trained on and a mismatch is refused (:mod:`diloti.ai.learned.network`).

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=4)
>>> v = s.view(s.turn)
>>> position_features(v).shape == (POSITION_SIZE,), move_features(v).shape == (len(v.legal), MOVE_SIZE)
(True, True)
"""

from __future__ import annotations

import os
from typing import Any

# The network's products are a few dozen rows: BLAS threads only cost. Waking them took some 9 ms a pass between a
# search's rollouts (the master's model=learned) on a busy 2-core machine, against 0.1 ms on one thread. numpy's
# wheels bring OpenBLAS, which reads this when numpy is first imported (here or in network.py, whichever loads
# first): a numpy imported earlier in the process keeps its threads, and a user's own setting is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
import numpy.typing as npt

from diloti.ai.games import players_part

#: The layout of both vectors below. Change it (and train again) whenever a feature's meaning moves.
FEATURES_VERSION = "learned-features-1"

CARDS = 52
MAX_SEATS = 4
MAX_DEALS = 6
KINDS = 6  # lay, capture, plain, group, keep, redeal (diloti.core.moves.MoveKind)
VALUES = 11  # a move's declared value 0..10

#: The position's parts, in order: (name, size).
POSITION_PARTS: tuple[tuple[str, int], ...] = (
    ("hand", CARDS), ("table", CARDS), ("declaration_cards", CARDS), ("unseen", CARDS),
    ("captured_own", CARDS), ("captured_other", CARDS),
    ("hand_sizes", MAX_SEATS), ("stock", 1), ("plays", 1), ("deal", MAX_DEALS), ("dealer", MAX_SEATS),
    ("last_capturer", MAX_SEATS + 1), ("captured_counts", 2), ("sweeps", 2), ("declarations", 3 * MAX_SEATS),
    ("players", 3),
)
#: A move's parts, in order: (name, size).
MOVE_PARTS: tuple[tuple[str, int], ...] = (
    ("card", CARDS), ("taken", CARDS), ("kind", KINDS), ("value", VALUES),
    ("count", 1), ("clears", 1), ("own_declaration", 1), ("other_declaration", 1),
    ("greedy", 1), ("heuristic", 1), ("heuristic_gap", 1), ("heuristic_best", 1), ("heuristic_rank", 1),
    ("heuristic_top", 1), ("greedy_gap", 1),
)


def _offsets(parts: tuple[tuple[str, int], ...]) -> dict[str, slice]:
    out: dict[str, slice] = {}
    at = 0
    for name, size in parts:
        out[name] = slice(at, at + size)
        at += size
    return out


POSITION = _offsets(POSITION_PARTS)
MOVE = _offsets(MOVE_PARTS)
POSITION_SIZE = sum(size for _, size in POSITION_PARTS)
MOVE_SIZE = sum(size for _, size in MOVE_PARTS)

SCALE = 10.0  # scores are points: a tenth keeps them near the unit range
TOP = 5  # the searches' candidates are the heuristic's best 5 (diloti.ai.search.DEFAULT_WIDTH)


def _bits(masks: list[int]) -> npt.NDArray[np.float32]:
    """Rows of 52 zeros and ones, one row a 52-bit card mask."""
    raw = np.array(masks, dtype=np.uint64).view(np.uint8).reshape(len(masks), 8)
    return np.unpackbits(raw, axis=1, bitorder="little")[:, :CARDS].astype(np.float32)


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def position_features(view: Any) -> npt.NDArray[np.float32]:
    """The position as the seat sees it, seats relative to it (0 = itself, then in turn order).

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=4)
    >>> f = position_features(s.view(s.turn))
    >>> int(f[POSITION["hand"]].sum()), int(f[POSITION["players"]].argmax())
    (6, 0)
    """
    out = np.zeros(POSITION_SIZE, dtype=np.float32)
    players = int(view.players)
    seat = int(view.seat)
    side = int(view.side)
    declarations = getattr(view, "declarations", ())
    captured = view.captured
    other = 0
    for i, cards in enumerate(captured):
        if i != side:
            other |= _mask(cards)
    dec_cards = 0
    for d in declarations:
        dec_cards |= int(d.mask)
    out[:6 * CARDS] = _bits([_mask(view.hand), _mask(view.table), dec_cards, int(view.unseen_mask),
                             _mask(captured[side]), other]).reshape(-1)

    def rel(s: int) -> int:
        return (s - seat) % players

    sizes = getattr(view, "hand_sizes", ())
    for s, n in enumerate(sizes):
        out[POSITION["hand_sizes"].start + rel(s)] = n / 6.0
    out[POSITION["stock"].start] = getattr(view, "stock_size", 0) / CARDS
    out[POSITION["plays"].start] = getattr(view, "plays", 0) / 48.0
    deal = int(getattr(view, "deal_no", 1))
    out[POSITION["deal"].start + min(max(deal, 1), MAX_DEALS) - 1] = 1.0
    out[POSITION["dealer"].start + rel(int(getattr(view, "dealer", seat)))] = 1.0
    last = getattr(view, "last_capturer", None)
    out[POSITION["last_capturer"].start + (MAX_SEATS if last is None else rel(int(last)))] = 1.0
    own_count = len(captured[side])
    out[POSITION["captured_counts"]] = (own_count / CARDS, sum(len(c) for c in captured) / CARDS - own_count / CARDS)
    sweeps = getattr(view, "sweeps", ())
    if len(sweeps) >= 2:
        out[POSITION["sweeps"]] = (sweeps[side] / 5.0, sum(sweeps) / 5.0 - sweeps[side] / 5.0)
    at = POSITION["declarations"].start
    for d in declarations:
        k = at + 3 * rel(int(d.owner))
        out[k:k + 3] = (1.0, 1.0 if int(d.kind) == 3 else 0.0, int(d.value) / 10.0)
    out[POSITION["players"].start + min(max(players, 2), 4) - 2] = 1.0
    return out


def move_features(view: Any) -> npt.NDArray[np.float32]:
    """One row a legal move (``view.legal``'s order): what it plays and takes, and the game's scores of it.

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=4)
    >>> v = s.view(s.turn)
    >>> m = move_features(v)
    >>> bool((m[:, MOVE["heuristic_best"]].sum() >= 1))
    True
    """
    legal = view.legal
    n = len(legal)
    out = np.zeros((n, MOVE_SIZE), dtype=np.float32)
    if n == 0:
        return out
    part = players_part(view)
    greedy = dict(part.greedy_scores(view))
    heuristic = dict(part.heuristic_scores(view))
    g = np.array([greedy.get(m, 0.0) for m in legal], dtype=np.float32) / SCALE
    h = np.array([heuristic.get(m, 0.0) for m in legal], dtype=np.float32) / SCALE
    out[:, MOVE["taken"]] = _bits([int(m.mask) for m in legal])
    table_all = _mask(view.table)
    seat = int(view.seat)
    own_dec = other_dec = 0
    for d in getattr(view, "declarations", ()):
        table_all |= int(d.mask)
        if int(d.owner) == seat:
            own_dec |= int(d.mask)
        else:
            other_dec |= int(d.mask)
    card0, kind0, value0 = MOVE["card"].start, MOVE["kind"].start, MOVE["value"].start
    count, clears = MOVE["count"].start, MOVE["clears"].start
    own, oth = MOVE["own_declaration"].start, MOVE["other_declaration"].start
    for i, m in enumerate(legal):
        if m.card is not None:
            out[i, card0 + int(m.card)] = 1.0
        kind = int(m.kind)
        out[i, kind0 + kind] = 1.0
        out[i, value0 + min(max(int(m.value), 0), VALUES - 1)] = 1.0
        mask = int(m.mask)
        out[i, count] = mask.bit_count() / 10.0
        out[i, clears] = 1.0 if kind == 1 and table_all and mask == table_all else 0.0
        out[i, own] = 1.0 if mask & own_dec else 0.0
        out[i, oth] = 1.0 if mask & other_dec else 0.0
    out[:, MOVE["greedy"].start] = g
    out[:, MOVE["heuristic"].start] = h
    out[:, MOVE["heuristic_gap"].start] = h - h.max()
    out[:, MOVE["greedy_gap"].start] = g - g.max()
    out[:, MOVE["heuristic_best"].start] = h >= h.max() - 1e-6
    # Rank 0 is the best; ties share the better rank (a stable argsort of the negated scores, then the first of each).
    order = np.argsort(-h, kind="stable")
    ranks = np.empty(n, dtype=np.float32)
    ranks[order] = np.arange(n, dtype=np.float32)
    out[:, MOVE["heuristic_rank"].start] = np.minimum(ranks, 20.0) / 20.0
    out[:, MOVE["heuristic_top"].start] = ranks < TOP
    return out


__all__ = ["FEATURES_VERSION", "MOVE", "MOVE_PARTS", "MOVE_SIZE", "POSITION", "POSITION_PARTS", "POSITION_SIZE",
           "move_features", "position_features"]
