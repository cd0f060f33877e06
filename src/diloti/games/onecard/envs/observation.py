"""Observations of the one-card games (any HandState game): one fixed-layout ``float32`` vector per seat.

As Diloti's (:mod:`diloti.games.diloti.envs.observation`): the
:class:`~diloti.games.onecard.state.HandView` is the one door to hidden
information, seats are relative (0 = the observing seat, 1 = the next to
play, ...) and sides too (0 = the observer's side, then the next side to play),
every entry lies in ``[0, 1]``, and one layout serves every player count of a
game (unused seat and side slots stay zero).

A game's :class:`HandLayout` (in its envs part) names its parts in order: first
its 52-card planes, then numbers. The parts every one-card game has are filled
here (:data:`COMMON_TAIL`, and ``hand_sizes``, ``stock``, ``plays``,
``captured_counts`` and ``deal``); the game's ``fill`` gives its planes and sets
its own numbers. docs/RESEARCH.md has each game's table.

>>> from diloti.games import find_game
>>> from diloti.games.kontsina.envs import LAYOUT
>>> s = find_game("kontsina").new_state(3, seed=3)
>>> obs = observe_hand(LAYOUT, s.view(1))
>>> L = LAYOUT.layout
>>> obs.shape, int(obs[L["hand"]].sum()), int(obs[L["table"]].sum()), obs[L["players"]].tolist()
((517,), 4, 4, [0.0, 1.0, 0.0])
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from diloti.core.cards import NAMES, cards_of, mask_of
from diloti.core.phase import Phase
from diloti.envs.part import Parts, layout_of
from diloti.games.onecard.envs.planes import FULL, Board, Fill, Seen
from diloti.games.onecard.view import HandView

#: The parts every one-card game's layout holds after its own numbers (the game places them in its parts).
COMMON_TAIL: Parts = (
    ("turn", 4, "seat to act, one-hot by relative seat (zero while cards are dealt or when over)"),
    ("dealer", 4, "dealer, one-hot by relative seat"),
    ("last_capturer", 5, "last seat to capture, one-hot by relative seat; the fifth: nobody yet"),
    ("phase", 4, "play, (unused), over, chance"),
)
@dataclass(frozen=True)
class HandLayout:
    """One game's observation layout: its ``parts`` in order (the first ``planes`` of them 52-card planes),
    what a full hand holds (``hand_size``, for the ``hand_sizes`` part), its ``fill``, and for the text
    form the word for the table (``table_word``) and the per-side counts the views hold (``tallies``: each the
    word the text shows and the view's field, e.g. Xeri's ``("xeri", "sweeps")``)."""

    parts: Parts
    planes: int
    hand_size: int
    fill: Fill
    table_word: str = "table"
    tallies: tuple[tuple[str, str], ...] = ()
    layout: dict[str, slice] = field(init=False)
    size: int = field(init=False)
    tail: int = field(init=False)
    at: dict[str, int] = field(init=False)  # each number's offset among the numbers after the planes
    deals: int = field(init=False)  # the deals of a hand: the length of the one-hot "deal" part
    pack: Callable[..., bytes] = field(init=False)

    def __post_init__(self) -> None:
        layout = layout_of(self.parts)
        size = sum(p[1] for p in self.parts)
        first = 52 * self.planes
        set_ = object.__setattr__  # frozen: the derived fields are set once here
        set_(self, "layout", layout)
        set_(self, "size", size)
        set_(self, "tail", size - first)
        set_(self, "at", {name: int(sl.start) - first for name, sl in layout.items() if sl.start >= first})
        set_(self, "deals", int(layout["deal"].stop - layout["deal"].start))
        set_(self, "pack", struct.Struct(f"<{size - first}f").pack)

    def __reduce__(self) -> tuple[type[HandLayout], tuple[Any, ...]]:
        # Made again from its given fields (the derived ones, a struct's method among them, do not pickle).
        return HandLayout, (self.parts, self.planes, self.hand_size, self.fill, self.table_word, self.tallies)


def observe_hand(layout: HandLayout, view: HandView, head: int = -1, chosen: int = 0,
                 out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The observation of ``view``'s seat in ``layout``; ``head`` and ``chosen`` are the move being chosen
    (the head action, -1 before it, and the 52-bit set of table cards chosen since)."""
    seat, n, sides = view.seat, view.players, view.sides
    me = seat % sides
    order = [(me + i) % sides for i in range(sides)]  # relative side -> side
    caps = [mask_of(view.captured[s]) for s in order]
    counts = [m.bit_count() for m in caps]
    hand, table = mask_of(view.hand), mask_of(view.table)
    seen = hand | table
    for m in caps:
        seen |= m
    at = layout.at
    tail = [0.0] * layout.tail
    if view.phase == Phase.PLAY:
        tail[at["turn"] + (view.turn - seat) % n] = 1.0
    tail[at["dealer"] + (view.dealer - seat) % n] = 1.0
    lc = view.last_capturer
    tail[at["last_capturer"] + (4 if lc is None else (lc - seat) % n)] = 1.0
    tail[at["phase"] + int(view.phase)] = 1.0
    size = float(layout.hand_size)
    for s, k in enumerate(view.hand_sizes):
        tail[at["hand_sizes"] + (s - seat) % n] = k / size
    tail[at["stock"]] = view.stock_size / 52.0
    tail[at["plays"]] = min(view.plays, 48) / 48.0
    for i, k in enumerate(counts):
        tail[at["captured_counts"] + i] = k / 52.0
    tail[at["deal"] + min(max(view.deal_no, 1), layout.deals) - 1] = 1.0
    planes = layout.fill(view, head, chosen, Seen(order, caps, counts, hand, table, FULL & ~seen), tail, at)
    # The planes side by side as one int, unpacked at once; the numbers packed as float32.
    whole = 0
    for i, m in enumerate(planes):
        whole |= m << (52 * i)
    bits = 52 * len(planes)
    o = np.empty(layout.size, dtype=np.float32) if out is None else out
    raw = np.frombuffer(whole.to_bytes((bits + 7) // 8, "little"), dtype=np.uint8)
    o[:bits] = np.unpackbits(raw, count=bits, bitorder="little")
    o[bits:] = np.frombuffer(layout.pack(*tail), dtype=np.float32)
    return o


def describe_hand_view(layout: HandLayout, view: HandView, head: int = -1, chosen: int = 0,
                       describe: Callable[[int], str] = str) -> str:
    """The observation as one line of text, from the same view (for OpenSpiel's observation string);
    ``describe`` says the head action of the move being chosen.

    It holds what :func:`observe_hand` holds, no more and no less (tests/test_envs_observation_agreement.py):
    each side's captured cards (their count, then the cards, own side first), the table in the order the
    game keeps it (Xeri's pile bottom first, which its layout holds too), the tallies, the move being chosen.

    >>> from diloti.games import find_game
    >>> from diloti.games.xeri.envs import LAYOUT
    >>> describe_hand_view(LAYOUT, find_game("xeri").new_state(seed=3).view(0))[:42]
    'xeri seat 0/2; phase play; turn +1; dealer'
    """
    seat, n, me = view.seat, view.players, view.side
    sides = range(view.sides)
    parts = [
        f"{view.game} seat {seat}/{n}", f"phase {Phase(view.phase).label}", f"turn +{(view.turn - seat) % n}",
        f"dealer +{(view.dealer - seat) % n}", "hand " + (" ".join(NAMES[c] for c in view.hand) or "-"),
        f"{layout.table_word} " + (" ".join(NAMES[c] for c in view.table) or "-"),
        "sizes " + " ".join(str(view.hand_sizes[(seat + i) % n]) for i in range(n)),
        f"stock {view.stock_size}", f"deal {view.deal_no}", f"plays {view.plays}",
        "captured " + "/".join(str(len(view.captured[(me + i) % view.sides])) for i in sides) + ": "
        + " | ".join(" ".join(NAMES[c] for c in view.captured[(me + i) % view.sides]) or "-" for i in sides),
    ]
    for name, attr in layout.tallies:
        counts = getattr(view, attr)
        parts.append(f"{name} " + "/".join(str(counts[(me + i) % view.sides]) for i in sides))
    if view.last_capturer is not None:
        parts.append(f"last +{(view.last_capturer - seat) % n}")
    if head >= 0:
        items = " ".join(NAMES[c] for c in cards_of(chosen))
        parts.append("choosing " + describe(head) + (" " + items if items else ""))
    return "; ".join(parts)


__all__ = ["COMMON_TAIL", "FULL", "Board", "Fill", "HandLayout", "Seen", "describe_hand_view", "observe_hand"]
