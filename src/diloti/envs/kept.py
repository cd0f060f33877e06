"""One player's OpenSpiel tensor kept from one call to the next, as the bytes of its ``float32`` vector.

:class:`KeptTensor` holds the bytes of a player's observation or information-state tensor (little-endian
``float32``), what its observation part was made of (the card planes as 52-bit sets and the numbers after them)
and how far its recall part goes (the moves written). Each call writes only what differs from the previous one:
the card bits that changed, the numbers that changed, the moves played since; then one copy into the observer's
buffer, which its numpy tensor shares (:mod:`diloti.envs.openspiel_base`). Compiled with the core (setup.py's
``RESEARCH_COMPILED``): it imports only the standard library.

>>> k = KeptTensor(size=52 + 2, total=52 + 2, planes=1)
>>> k.observe([1 << 3 | 1 << 51], [0.5, 0.0])
>>> out = bytearray(4 * 54)
>>> end = k.copy_into(out, 0)
>>> import struct
>>> [i for i, x in enumerate(struct.unpack("<54f", out)) if x], struct.unpack_from("<f", out, 4 * 52)[0]
([3, 51, 52], 0.5)
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Final, cast

#: The moves of a round or hand that the information-state tensor can hold, one block each: every card of
#: a deck played once (at most 48 moves after the first table) and the face-card redeal decisions.
HISTORY_PLIES: Final = 64
#: One move's block: the mover's seat relative to the observer (4), the card played (52), the kind (lay,
#: capture, plain, group, keep, redeal: 6), the value (0..10: 11) and the cards the move takes or builds on (52).
PLY_SIZE: Final = 4 + 52 + 6 + 11 + 52
#: The recall part after the observation: the cards each relative seat played (4 x 52), the first table (52),
#: then one block a move.
RECALL_SIZE: Final = 5 * 52 + HISTORY_PLIES * PLY_SIZE

#: A history entry: the seat and its move (card or None, kind, value, the 52-bit set of the cards it takes or
#: builds on).
Entry = tuple[int, tuple[int | None, int, int, int]]

_PACK_INTO: Final = struct.Struct("<f").pack_into


class KeptTensor:
    """One player's tensor: ``size`` floats of observation (its first ``planes`` x 52 the card planes) and, when
    ``total`` is larger, the recall part (:data:`RECALL_SIZE` floats)."""

    def __init__(self, size: int, total: int, planes: int) -> None:
        self.data = bytearray(4 * total)
        self.view = memoryview(self.data)
        self.size = size
        self.planes: list[int] = [0] * planes
        self.tail: list[float] = [0.0] * (size - 52 * planes)
        self.known = True  # whether planes and tail say what the observation bytes hold
        self.end = 4 * size  # the bytes that may be nonzero: the observation and the moves written
        # The recall part: the round it was written for, its moves written and the last of them, the first table.
        self.round: object = None
        self.n = 0
        self.last: object = None
        self.first: tuple[int, ...] = ()

    def observe(self, planes: list[int], tail: list[float]) -> None:
        """Make the observation bytes those of ``planes`` (52-bit sets) and ``tail`` (the numbers after them),
        writing only the floats that changed."""
        data = self.data
        old, old_tail = self.planes, self.tail
        if not self.known:  # after raw bytes: every float written
            for i in range(len(old)):
                old[i] = ~planes[i] & ((1 << 52) - 1)
            for j in range(len(old_tail)):
                old_tail[j] = -1.0
            self.known = True
        for i in range(len(planes)):
            new = planes[i]
            x = new ^ old[i]
            if x:
                base = 208 * i + 2
                while x:
                    low = x & -x
                    at = base + 4 * (low.bit_length() - 1)
                    if new & low:
                        data[at] = 0x80  # 1.0 is 00 00 80 3f
                        data[at + 1] = 0x3F
                    else:
                        data[at] = 0
                        data[at + 1] = 0
                    x ^= low
                old[i] = new
        at = 208 * len(planes)
        for j in range(len(tail)):
            v = tail[j]
            if v != old_tail[j]:
                _PACK_INTO(data, at + 4 * j, v)
                old_tail[j] = v

    def observe_raw(self, raw: bytes) -> None:
        """Make the observation bytes ``raw`` (made elsewhere, e.g. from a view): the next :meth:`observe` writes
        every float."""
        self.data[0:4 * self.size] = raw
        self.known = False

    def recall(self, round: object, history: Sequence[object], player: int, players: int,
               first_table: Sequence[int]) -> None:
        """Write the recall part of ``player`` for ``round``: the first table if it changed, and the blocks of
        ``history``'s moves not yet written.

        It goes on from the moves written while ``round`` is the same object and its history still holds, at the
        place of the last move written, that very entry (identity: a move taken back and another played is a new
        entry): a round only appends to its history between moves, so the entries before it are those already
        written. Anything else (a clone, a resampled round, the next round of a whole game, a move taken back)
        starts again from nothing.
        """
        n = len(history)
        if n > HISTORY_PLIES:
            raise ValueError(f"a round of {n} moves: the tensor holds {HISTORY_PLIES}")
        data = self.data
        base = 4 * self.size
        done = self.n
        if round is not self.round or n < done or (done and history[done - 1] is not self.last):
            data[base:self.end] = bytes(self.end - base)
            self.end = base
            self.round, self.first, done = round, (), 0
        first = tuple(first_table)
        if first != self.first:  # laid face up: public (dealt once a round, by chance in OpenSpiel)
            at = base + 4 * 4 * 52
            data[at:at + 4 * 52] = bytes(4 * 52)
            for c in first:
                _one(data, at + 4 * c)
            self.first = first
            self.end = max(self.end, at + 4 * 52)
        if n == done:
            return
        for i in range(done, n):
            # Read as a native tuple here, but the entries are compared by identity: history stays a list of objects.
            seat, move = cast(Entry, history[i])
            card, kind, value, mask = move
            rel = (seat - player) % players
            at = base + 4 * (5 * 52 + i * PLY_SIZE)
            _one(data, at + 4 * rel)
            if card is not None:
                _one(data, base + 4 * (52 * rel + card))
                _one(data, at + 4 * (4 + card))
            _one(data, at + 4 * (56 + kind))
            _one(data, at + 4 * (62 + value))
            while mask:
                low = mask & -mask
                _one(data, at + 4 * (72 + low.bit_length()))
                mask ^= low
        self.n = n
        self.last = history[n - 1]
        self.end = max(self.end, base + 4 * (5 * 52 + n * PLY_SIZE))

    def copy_into(self, out: bytearray, end: int) -> int:
        """Copy the tensor into ``out``, which holds nonzero bytes only before ``end`` (what the previous copy
        returned): the bytes up to the further of the two ends, past which both are zero. Returns this tensor's
        end."""
        upto = max(self.end, end)
        out[0:upto] = self.view[0:upto]
        return self.end


def _one(data: bytearray, at: int) -> None:
    """Writes 1.0 as a little-endian ``float32`` (bytes 00 00 80 3f) over the 0.0 at byte offset ``at``."""
    data[at + 2] = 0x80
    data[at + 3] = 0x3F


__all__ = ["HISTORY_PLIES", "PLY_SIZE", "RECALL_SIZE", "KeptTensor"]
