"""Diloti's batched kernel: many rounds stepped in C, for :class:`diloti.envs.batch.SelfPlayBatch`.

The C extension :mod:`diloti.games.diloti.envs._cbatch` (``_cbatch.c``, built by ``scripts/build-core`` with the
mypyc core, optional) holds N rounds in C structs and applies one action of each in one call: the same legal
moves, action ids, observation bytes, rewards and dones as the Python drivers, written into the batch's numpy
buffers. What it plays: **Diloti with the standard rules (no option set), 2 or 4 players, one-round episodes**
(:func:`kernel_for` says None for anything else, and the batch plays those through the Python drivers).

The deal stays in Python: :meth:`CKernel.start` deals the round with :meth:`State.new` (the seeded shuffle, the
first table's redeal) and hands its cards to C, so a seed deals what it deals in the Python batch. A table whose
legal moves would pass the kernel's bounds (more than 2,048 moves, or too many sets of numerals: a table grown by
lays) is handed back to Python for the rest of its round (:meth:`CKernel.export`, the Python driver's bounded
large-table path), as the Python engine bounds the same tables.

>>> from diloti.envs.batch import SelfPlayBatch
>>> SelfPlayBatch(4, players=2).backend == ("c" if available() else "python")
True
>>> SelfPlayBatch(4, players=2, options={"soy": True}).backend  # an option set: the Python drivers
'python'
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from diloti.core.moves import Declaration, MoveKind
from diloti.envs.cbatch_base import CBatchKernel
from diloti.games.diloti.envs.driver import Driver
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State

_cbatch: ModuleType | None
try:
    import diloti.games.diloti.envs._cbatch as _cbatch
except ImportError:  # not built (no C compiler, or a pure install): the batch plays in Python
    _cbatch = None

_STANDARD = Options()


def available() -> bool:
    """Whether the C extension is built and importable here."""
    return _cbatch is not None


class CKernel(CBatchKernel):
    """N Diloti rounds in C over the batch's buffers (see the module's description)."""

    def __init__(self, num_envs: int, players: int, options: Options, buffers: Any, illegal_reward: float,
                 max_steps: int | None) -> None:
        assert _cbatch is not None
        self.players = players
        self.options = options
        b = buffers
        self._batch = _cbatch.Batch(num_envs, players, b.observations, b.action_masks, b.to_act, b.rewards,
                                    b.terminated.view("u1"), b.truncated.view("u1"), b.illegal.view("u1"),
                                    b.final_observations, illegal_reward, -1 if max_steps is None else max_steps)

    def start(self, i: int, dealer: int, seed: int) -> Driver | None:
        """Deal game ``i``'s round from ``seed`` (as the Python driver does) and write its first row; None when it
        plays in C, else the Python driver that plays it (its first position passed the kernel's bounds)."""
        s = State.new(self.players, self.options, dealer, seed=seed)
        if self._batch.start(i, s.dealer, s.turn, s.hands, s.table, s.stock[s.stock_pos:]):
            return None
        return self.export(i)

    def export(self, i: int) -> Driver:
        """Game ``i``'s round as a Python driver, which plays it from now until it ends (then :meth:`start`)."""
        p = self._batch.export(i)
        decls = [Declaration(mask, value, MoveKind(kind), owner) for mask, value, kind, owner in p["declarations"]]
        s = State.from_parts(players=p["players"], options=self.options, dealer=p["dealer"], turn=p["turn"],
                             hands=p["hands"], table=p["table"], declarations=decls, stock=p["stock"],
                             captured=p["captured"], sweeps=p["sweeps"], last_capturer=p["last_capturer"],
                             plays=p["plays"], check=False)
        s.deal_no = p["deal_no"]
        d = Driver.__new__(Driver)
        d._start(s)
        d.applied = d.steps = p["applied"]
        return d




def kernel_for(num_envs: int, players: int, options: Any, episode: str, buffers: Any, illegal_reward: float,
               max_steps: int | None) -> CKernel | None:
    """The C kernel for these arguments, or None where it does not play them (not built; an option set; a
    whole-game episode)."""
    if _cbatch is None or options != _STANDARD or episode != "round" or players not in (2, 4):
        return None
    return CKernel(num_envs, players, options, buffers, illegal_reward, max_steps)


__all__ = ["CKernel", "available", "kernel_for"]
