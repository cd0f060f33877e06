"""What the games' batched C kernels share on the Python side: the calls that are the same for every kernel (a
step, the sampling of allowed actions, the legal moves for tests).

A game's kernel module (Diloti's :mod:`diloti.games.diloti.envs.cbatch`, the one-card games'
:mod:`diloti.games.onecard.envs.cbatch`) imports its extension (optional: not built without a C compiler) and
subclasses :class:`CBatchKernel`, adding what only it knows: how a game is dealt into C (``start``) and how a game
in C becomes a Python driver again (``export``). Both extensions share the C side's glue too (``cbatch_glue.h``).
The extension is imported by its own module, not by name here: this floor loads no game's module by name.

>>> from diloti.envs.batch import SelfPlayBatch
>>> batch = SelfPlayBatch(2, game="xeri")
>>> isinstance(batch.kernel, CBatchKernel) or batch.backend == "python"
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt



class CBatchKernel:
    """A batched kernel over an extension's ``Batch`` (``self._batch``, made by the subclass): the calls every
    kernel makes alike. See :class:`diloti.envs.games.BatchKernel` for the contract."""

    name = "c"
    _batch: Any

    def step(self, actions: npt.NDArray[np.int64]) -> tuple[list[int], list[int]]:
        """One action of each game played in C: the games whose episode ended (their final observations, rewards
        and dones written; to be dealt again), and those handed to Python in this step (``export``)."""
        ended, handed = self._batch.step(actions)
        return ended, handed

    def sample(self, uniforms: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
        """A legal action of each game from its mask row, the k-th allowed (ascending) for k = floor(u * count) with
        u its uniform: :func:`diloti.envs.batch.sample_masks` from the same draws, without numpy's passes over
        every mask."""
        import numpy as np

        out: npt.NDArray[np.int64] = np.empty(len(uniforms), np.int64)
        self._batch.sample(np.ascontiguousarray(uniforms, np.float64), out)
        return out

    def moves(self, i: int) -> list[tuple[int, int, int, int]]:
        """Game ``i``'s legal moves now as (card, kind, value, table cards taken), in no order (for tests)."""
        out: list[tuple[int, int, int, int]] = self._batch.moves(i)
        return out


__all__ = ["CBatchKernel"]
