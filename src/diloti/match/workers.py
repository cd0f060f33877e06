"""Worker processes for the CPU-heavy work: computer moves, hints and match games.

One design serves the browser server (computer seats and hints), ``diloti
tournament --jobs N`` and the strength ladder: a standard
:class:`concurrent.futures.ProcessPoolExecutor` whose workers are started with
``spawn`` (safe beside the server's threads and event loop), fed with
picklable values (a level spec, a seed and a :class:`~diloti.core.view.View`)
and answering with picklable values (a :class:`~diloti.core.moves.Move`). A
computer player is made afresh for each move from its seed, so what a worker
answers depends only on what it is given: the same as a serial run.

>>> from diloti.core.state import State
>>> view = State.new(seed=3).view(1)
>>> with worker_pool(1) as pool:
...     pool.submit(choose_move, "greedy", 7, view).result() == choose_move("greedy", 7, view)
True
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from diloti.ai import make_player
from diloti.core.errors import DilotiError
from diloti.core.moves import Move
from diloti.core.view import View


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes (started when first needed)."""
    if jobs < 1:
        raise DilotiError(f"invalid number of worker processes {jobs!r}: expected at least 1")
    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))


def choose_move(spec: str, seed: int, view: View) -> Move:
    """The move a computer player of ``spec`` (a level or ``LEVEL:KEY=VALUE`` spec) seeded ``seed`` chooses."""
    return make_player(spec, seed=seed).choose(view)
