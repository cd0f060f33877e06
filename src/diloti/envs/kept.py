"""One player's OpenSpiel tensor kept from one call to the next, as the bytes of its ``float32`` vector.

:class:`KeptTensor` holds the bytes of a player's observation or information-state tensor (``float32`` in
the machine's order, as numpy reads them), what its observation part was made of (the card planes as 52-bit
sets and the numbers after them) and how far its recall part goes (the moves written). Each call writes only
what differs from the previous one: the card bits that changed, the numbers that changed, the moves played
since; then one copy into the observer's buffer, which its numpy tensor shares
(:mod:`diloti.envs.openspiel_base`). Compiled with the core (setup.py's ``RESEARCH_COMPILED``): it imports only
the standard library.

>>> k = KeptTensor(size=52 + 2, total=52 + 2, planes=1)
>>> k.observe([1 << 3 | 1 << 51], [0.5, 0.0])
>>> out = bytearray(4 * 54)
>>> end = k.copy_into(out, 0)
>>> floats = memoryview(out).cast("f")
>>> [i for i, x in enumerate(floats) if x], floats[52]
([3, 51, 52], 0.5)
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any, Final, cast

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

class KeptTensor:
    """One player's tensor: ``size`` floats of observation (its first ``planes`` x 52 the card planes) and, when
    ``total`` is larger, the recall part (:data:`RECALL_SIZE` floats)."""

    def __init__(self, size: int, total: int, planes: int) -> None:
        self.data = bytearray(4 * total)
        # Bytes are copied between memoryviews: a bytearray's slice assigned from a memoryview (or bytes) is first
        # copied into a new bytearray (CPython's bytearray_ass_subscript), which cost more than the copy itself.
        self.view = memoryview(self.data)
        self.zeros = memoryview(bytes(4 * total))
        # The same bytes as floats (native order, as numpy's float32 reads them): one write a float. Typed Any so
        # that a compiled write passes the float objects made once below instead of boxing a new one each time.
        self.floats: Any = self.view.cast("f")
        self.size = size
        self.planes: list[int] = [0] * planes
        self.known = True  # whether planes say what the observation's card floats hold
        # The numbers after the planes are written whole, packed in the machine's order as the float view
        # writes them (one C call for them all: comparing them one by one as Python floats cost more).
        self.tail_at = 4 * 52 * planes
        self.pack_tail: Callable[..., None] = struct.Struct(f"@{size - 52 * planes}f").pack_into
        self.end = 4 * size  # the bytes that may be nonzero: the observation and the moves written
        # The recall part: the round it was written for, its moves written and the last of them, the first table.
        self.round: object = None
        self.n = 0
        self.last: object = None
        self.first: tuple[int, ...] = ()
        # What changed since the last copy, for a copy into a buffer that holds that copy (the same player asked
        # again, as while a move's items are chosen): the first byte of the recall part written since (past the
        # end: none) and whether the played cards and first table changed. The observation is always copied.
        self.since = 4 * total
        self.played = False

    def observe(self, planes: list[int], tail: list[float]) -> None:
        """Make the observation bytes those of ``planes`` (52-bit sets) and ``tail`` (the numbers after them):
        the card floats that changed, then the numbers whole."""
        floats = self.floats
        one: object = 1.0  # the float objects written, made once a call (not once a write)
        zero: object = 0.0
        old = self.planes
        if not self.known:  # after raw bytes: every card float written
            for i in range(len(old)):
                old[i] = ~planes[i] & ((1 << 52) - 1)
            self.known = True
        for i in range(len(planes)):
            new = planes[i]
            x = new ^ old[i]
            if x:
                base = 52 * i - 1
                while x:
                    low = x & -x
                    floats[base + low.bit_length()] = one if new & low else zero
                    x ^= low
                old[i] = new
        self.pack_tail(self.data, self.tail_at, *tail)

    def update(self, parts: tuple[list[int], list[float]] | None, round: Any, player: int, out: bytearray,
               end: int, held: bool = False) -> int:
        """One call of an observer: :meth:`observe` ``parts`` (None: the observation was written by
        :meth:`observe_raw`), :meth:`recall` ``round``'s moves for ``player`` (None: no recall part), then
        :meth:`copy_into` ``out`` (``held``: it holds this tensor's previous copy); returns the new end."""
        if parts is not None:
            self.observe(parts[0], parts[1])
        if round is not None:
            self.recall(round, round.history, player, round.players, round.first_table)
        return self.copy_into(out, end, held)

    def observe_raw(self, raw: bytes) -> None:
        """Make the observation bytes ``raw`` (made elsewhere, e.g. from a view): the next :meth:`observe` writes
        every float."""
        self.view[0:4 * self.size] = raw
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
        floats = self.floats
        one: object = 1.0  # made once a call, not once a write
        base = self.size  # in floats
        done = self.n
        if round is not self.round or n < done or (done and history[done - 1] is not self.last):
            self.view[4 * base:self.end] = self.zeros[4 * base:self.end]
            self.end = 4 * base
            self.since = 4 * base
            self.round, self.first, done = round, (), 0
        first = tuple(first_table)
        if first != self.first:  # laid face up: public (dealt once a round, by chance in OpenSpiel)
            at = base + 4 * 52
            zero: object = 0.0
            for c in self.first:
                floats[at + c] = zero
            for c in first:
                floats[at + c] = one
            self.first = first
            self.played = True
            self.end = max(self.end, 4 * (at + 52))
        if n == done:
            return
        self.played = True
        self.since = min(self.since, 4 * (base + 5 * 52 + done * PLY_SIZE))
        for i in range(done, n):
            # Read as a native tuple here, but the entries are compared by identity: history stays a list of objects.
            seat, move = cast(Entry, history[i])
            card, kind, value, mask = move
            rel = (seat - player) % players
            at = base + 5 * 52 + i * PLY_SIZE
            floats[at + rel] = one
            if card is not None:
                floats[base + 52 * rel + card] = one
                floats[at + 4 + card] = one
            floats[at + 56 + kind] = one
            floats[at + 62 + value] = one
            while mask:
                low = mask & -mask
                floats[at + 72 + low.bit_length()] = one
                mask ^= low
        self.n = n
        self.last = history[n - 1]
        self.end = max(self.end, 4 * (base + 5 * 52 + n * PLY_SIZE))

    def copy_into(self, out: bytearray, end: int, held: bool = False) -> int:
        """Copy the tensor into ``out``, which holds nonzero bytes only before ``end`` (what the previous copy
        returned): the bytes up to the further of the two ends, past which both are zero. With ``held``, ``out``
        holds this tensor's previous copy: only the observation and the recall bytes written since are copied.
        Returns this tensor's end."""
        upto = max(self.end, end)
        view = self.view
        target = memoryview(out)
        if held:
            size = 4 * self.size
            target[0:size] = view[0:size]
            if self.played:  # the played cards and the first table, just after the observation
                target[size:size + 4 * 5 * 52] = view[size:size + 4 * 5 * 52]
            since = self.since
            if since < upto:
                target[since:upto] = view[since:upto]
        else:
            target[0:upto] = view[0:upto]
        self.since = len(self.data)
        self.played = False
        return self.end


__all__ = ["HISTORY_PLIES", "PLY_SIZE", "RECALL_SIZE", "KeptTensor"]
