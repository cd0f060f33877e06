"""Workers for the CPU-heavy work: computer moves, hints and match games.

One design serves the browser server (computer seats and hints), ``diloti
tournament --workers SPEC`` and the strength ladder: a standard
:class:`concurrent.futures.Executor` fed with picklable values (a level spec, a
seed and a :class:`~diloti.core.view.View`) and answering with picklable
values (a :class:`~diloti.core.moves.Move`). A computer player is made afresh
for each move from its seed, so what a worker answers depends only on what it
is given: the same as a serial run, wherever the worker runs.

:func:`worker_pool` takes a *pool spec*:

* ``N`` (an int, or a decimal string): N local worker processes, a
  :class:`~concurrent.futures.ProcessPoolExecutor` started with ``spawn`` (safe
  beside the server's threads and event loop);
* ``ray``: a :class:`RayExecutor` on the Ray cluster ``ray.init()`` finds (the
  one ``RAY_ADDRESS`` names, else one started with ``ray start`` on this
  machine, else a new one on this machine alone);
* ``ray://HOST:PORT``: a Ray cluster reached through its client port (10001 by
  default), from a machine outside the cluster;
* ``ray:HOST:PORT``: a Ray cluster by its head's address (port 6379 by
  default), from a machine that is itself a node of the cluster.

The Ray forms need the ``cluster`` extra (``pip install 'diloti[cluster]'``);
docs/WORKERS.md tells how to run a cluster on several machines.

>>> from diloti.games.diloti.state import State
>>> view = State.new(seed=3).view(1)
>>> with worker_pool(1) as pool:
...     pool.submit(choose_move, "greedy", 7, view).result() == choose_move("greedy", 7, view)
True
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import multiprocessing
import os
import re
import socket
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, InvalidStateError, ProcessPoolExecutor
from concurrent.futures import wait as wait_all
from dataclasses import dataclass
from typing import Any, TypeVar

from diloti.ai import make_player
from diloti.core.errors import DilotiError
from diloti.core.moves import Move
from diloti.core.registry import GAMES, GameInfo, register_game

T = TypeVar("T")

PoolSpec = int | str
EXPECTED = "expected a number of processes, ray, ray://HOST:PORT or ray:HOST:PORT"
EXTRA = "pip install 'diloti[cluster]'"
CONNECT_TIMEOUT = 10.0  # seconds to wait for a Ray head's port to answer


class WorkerPoolError(DilotiError, ValueError):
    """A pool spec that cannot be used: bad, or Ray is missing or unreachable."""


@dataclass(frozen=True)
class RayCluster:
    """A parsed Ray pool spec: ``address`` as ``ray.init`` takes it (None: let ``ray.init()`` find one)."""

    address: str | None = None


_HOST_PORT = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(?P<port>[0-9]{1,5})")


def parse_pool_spec(spec: PoolSpec) -> int | RayCluster:
    """Check a pool spec: the number of local processes, or the Ray cluster to use.

    >>> parse_pool_spec(4), parse_pool_spec(" 2 "), parse_pool_spec("ray://head.example:10001")
    (4, 2, RayCluster(address='ray://head.example:10001'))
    >>> parse_pool_spec("ray:10.0.0.5:6379")
    RayCluster(address='10.0.0.5:6379')
    >>> for bad in ("fast", 0, "ray://head"):
    ...     try:
    ...         parse_pool_spec(bad)
    ...     except DilotiError as exc:
    ...         print(exc)
    invalid worker pool 'fast': expected a number of processes, ray, ray://HOST:PORT or ray:HOST:PORT
    invalid worker pool 0: expected at least 1 worker process
    invalid worker pool 'ray://head': expected ray://HOST:PORT (a port of 1..65535)

    The Ray forms are only checked for their shape here: :func:`worker_pool`
    (and :func:`check_pool_spec`) also need Ray installed.
    """
    if isinstance(spec, bool) or not isinstance(spec, int | str):
        raise WorkerPoolError(f"invalid worker pool {spec!r}: {EXPECTED}")
    if isinstance(spec, str):
        text = spec.strip()
        if re.fullmatch(r"[+-]?[0-9]+", text):
            n = int(text)
        elif text == "ray":
            return RayCluster(None)
        elif text.startswith(("ray://", "ray:")):
            rest = text.removeprefix("ray://") if text.startswith("ray://") else text.removeprefix("ray:")
            m = _HOST_PORT.fullmatch(rest)
            form = "ray://HOST:PORT" if text.startswith("ray://") else "ray:HOST:PORT"
            if m is None or not 1 <= int(m["port"]) <= 65535:
                raise WorkerPoolError(f"invalid worker pool {spec!r}: expected {form} (a port of 1..65535)")
            return RayCluster(text if text.startswith("ray://") else rest)
        else:
            raise WorkerPoolError(f"invalid worker pool {spec!r}: {EXPECTED}")
    else:
        n = spec
    if n < 1:
        raise WorkerPoolError(f"invalid worker pool {spec!r}: expected at least 1 worker process")
    return n


def _import_ray(spec: PoolSpec, cluster: RayCluster) -> Any:
    """The ``ray`` module, or the error that says which extra is missing."""
    try:
        ray = importlib.import_module("ray")
        if cluster.address is not None and cluster.address.startswith("ray://"):
            importlib.import_module("grpc")  # the Ray client's transport, part of ray[client]
    except ImportError as exc:
        raise WorkerPoolError(f"worker pool {spec!r} needs the cluster extra: {EXTRA} ({exc})") from None
    return ray


def check_pool_spec(spec: PoolSpec) -> int | RayCluster:
    """:func:`parse_pool_spec`, and for a Ray spec check that Ray can be imported (nothing is started)."""
    kind = parse_pool_spec(spec)
    if isinstance(kind, RayCluster):
        _import_ray(spec, kind)
    return kind


def worker_pool(spec: PoolSpec) -> Executor:
    """A pool for ``spec`` (see the module's docstring); its ``shutdown`` ends what it started.

    Local processes are started when first needed; a Ray connection is made
    here, so a bad or unreachable cluster fails at once.
    """
    kind = check_pool_spec(spec)
    if isinstance(kind, int):
        return _LocalPool(kind, mp_context=multiprocessing.get_context("spawn"),
                          initializer=die_with_parent, initargs=(os.getpid(),))
    return RayExecutor(kind.address, spec=spec)


class _LocalPool(ProcessPoolExecutor):
    """Local processes whose ``with`` block, left by an error or Ctrl-C, stops what runs and drops what is queued:
    the executor's own exit waits for every task, and an interrupted match kept playing games (for 40 minutes once,
    its results no longer written) before the command returned."""

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool | None:
        if exc_type is None:
            return super().__exit__(exc_type, exc, tb)
        workers = list((self._processes or {}).values())
        self.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        return None


PARENT_POLL = 0.5  # seconds between a worker's looks at its parent


def die_with_parent(parent: int, poll: float = PARENT_POLL) -> None:
    """A local worker's initializer: the worker ends itself once ``parent`` (its pool's process) is gone.

    A pool shut down normally ends its workers; one whose process is killed (``kill -9``, the OOM
    killer) cannot, and its workers would otherwise run for ever. A daemon thread looks every
    ``poll`` seconds whether the worker was re-parented (its parent died). That is chosen over
    Linux's ``PR_SET_PDEATHSIG``, which fires when the *thread* that started the worker ends
    (the pool starts workers from whichever thread submits), and which other systems lack.
    """
    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(poll)
        os._exit(1)

    threading.Thread(target=watch, name="diloti-parent-watch", daemon=True).start()


def pool_width(pool: Executor) -> int:
    """How many tasks ``pool`` runs at once: its processes, or the CPUs of its Ray cluster (at least 1).

    A sequential match keeps this many games in flight, so that it stops soon after its verdict.

    >>> with worker_pool(2) as pool:
    ...     pool_width(pool)
    2
    """
    if isinstance(pool, RayExecutor):
        with contextlib.suppress(Exception):  # the cluster's size is a hint: on any trouble, one CPU
            return max(1, int(pool._ray.cluster_resources().get("CPU", 1)))
        return 1
    return max(1, int(getattr(pool, "_max_workers", 1)))


class RayExecutor(Executor):
    """An :class:`~concurrent.futures.Executor` whose tasks are Ray remote tasks.

    ``submit(fn, *args)`` runs ``fn`` (a module-level function: Ray's workers
    import it by name, so every node needs diloti installed at the same
    version) as a Ray task of one CPU and answers a
    :class:`concurrent.futures.Future`, so callers such as
    ``loop.run_in_executor`` and ``as_completed`` work unchanged. A task that
    raises gives the future the task's own exception (Ray's wrapper removed).
    Cancelling a future cancels its task.

    The executor connects to Ray unless this process already is connected, in
    which case it uses that connection. ``shutdown`` waits for (or with
    ``cancel_futures`` cancels) the tasks it submitted, then disconnects if it
    was the one that connected (stopping the Ray instance it started, if any).
    ``init_options`` go to ``ray.init`` (for example ``num_cpus`` for a local
    instance); by default no dashboard is started and the workers' output
    stays in Ray's log files rather than on this process's terminal.
    """

    def __init__(self, address: str | None = None, *, spec: PoolSpec | None = None, **init_options: Any) -> None:
        self._spec = spec if spec is not None else (address or "ray")
        self._ray = _import_ray(self._spec, RayCluster(address))
        self._lock = threading.Lock()
        self._remote: dict[Callable[..., Any], Any] = {}
        self._pending: set[_RayFuture[Any]] = set()
        self._closed = False
        if address is not None and address != "local":
            _check_reachable(self._spec, address)
        self._owns = not self._ray.is_initialized()
        if not self._owns and address is not None:
            raise WorkerPoolError(f"worker pool {self._spec!r}: this process is already connected to a Ray "
                                  f"cluster (worker pool 'ray' uses that one)")
        if self._owns:
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                       "logging_level": logging.WARNING, **init_options}
            try:
                self._ray.init(address=address, **options)
            except Exception as exc:  # ConnectionError, ValueError, RuntimeError, ...: all mean "cannot use it"
                raise WorkerPoolError(f"worker pool {self._spec!r}: cannot connect to Ray: {exc}") from exc

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            remote = self._remote.get(fn)
            if remote is None:
                remote = self._remote[fn] = self._ray.remote(fn)
            ref = remote.remote(*args, **kwargs)
            fut: _RayFuture[T] = _RayFuture(ref, self._ray)
            self._pending.add(fut)
        fut.add_done_callback(self._forget)
        ref.future().add_done_callback(fut._copy)
        return fut

    def _forget(self, fut: Future[Any]) -> None:
        with self._lock:
            self._pending.discard(fut)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            already, self._closed = self._closed, True
            pending = list(self._pending)
        if cancel_futures:
            for fut in pending:
                fut.cancel()
        if wait:
            self._finish(pending, already)
        else:
            threading.Thread(target=self._finish, args=(pending, already), daemon=True,
                             name="diloti-ray-shutdown").start()

    def _finish(self, pending: list[_RayFuture[Any]], already: bool) -> None:
        wait_all(pending)
        if self._owns and not already and self._ray.is_initialized():
            self._ray.shutdown()


def _check_reachable(spec: PoolSpec, address: str) -> None:
    """Fail in seconds, not minutes, when nothing listens at a Ray address (Ray itself retries for long)."""
    m = _HOST_PORT.fullmatch(address.removeprefix("ray://"))
    if m is None:
        return  # not HOST:PORT: leave it to Ray
    host, port = m["host"].strip("[]"), int(m["port"])
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise WorkerPoolError(f"worker pool {spec!r}: cannot reach {host}:{port}: {exc.strerror or exc} (is the "
                              f"Ray head running there? see docs/WORKERS.md)") from None


class _RayFuture(Future[T]):
    """The future of one Ray task: done when the task is; cancelling it cancels the task."""

    def __init__(self, ref: Any, ray: Any) -> None:
        super().__init__()
        self._ref = ref
        self._ray = ray

    def cancel(self) -> bool:
        if not super().cancel():
            return False
        # The task may be finished or the connection gone: then there is nothing left to stop.
        with contextlib.suppress(Exception):
            self._ray.cancel(self._ref)
        return True

    def _copy(self, done: Future[Any]) -> None:
        """Give this future the outcome of Ray's own future for the task."""
        exc = done.exception()
        try:
            if exc is None:
                self.set_result(done.result())
            else:
                cause = getattr(exc, "cause", None)  # RayTaskError: the task's own exception
                self.set_exception(cause if isinstance(cause, BaseException) else exc)
        except InvalidStateError:  # cancelled meanwhile
            pass


def in_game(game: GameInfo, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` with ``game`` in this process's registry first.

    A game registered at run time (a plug-in's, a test's) is in the registry of the process that registered
    it, not in a worker process's started afresh: the game's entry travels with the work (its classes and
    parts by their modules' names), and the worker registers it once (a built-in game is there already).

    >>> from diloti.core.registry import default_game
    >>> in_game(default_game(), len, "abc")
    3
    """
    if GAMES.get(game.name) != game:
        register_game(game)
    return fn(*args)


def choose_move(spec: str, seed: int, view: Any) -> Move:
    """The move a computer player of ``spec`` (a level or ``LEVEL:KEY=VALUE`` spec) seeded ``seed`` chooses
    for ``view`` (of any registered game)."""
    return make_player(spec, seed=seed).choose(view)


def rank_hint(view: Any, seed: int, ply: int, level: str = "expert") -> list[tuple[Move, float, float | None]]:
    """The ranking of the legal moves for a hint by ``level``'s search (``expert`` or ``master``), best first:
    each move with its estimate in round points and the chance to win the game after it by the game's model
    (:func:`diloti.ai.analysis.win_chances`; None where the game has none).

    Seeded by the table's seed and the ply, so every process (and a restarted server) gives
    the same hint. Here rather than in the server, so that a Ray node needs only diloti itself.
    In an exact position (2 players, the stock empty) the estimates are the exact solver's values
    (:func:`diloti.ai.analysis.rank_moves`; issue 54).
    """
    from diloti.ai.analysis import rank_moves, win_chances
    from diloti.core.seeds import derive_seed

    hint_seed = derive_seed("diloti-hint", seed, ply)
    ranked = rank_moves(view, seed=hint_seed, level=level)
    wins = win_chances(view, ranked)
    if wins is None:
        return [(move, float(score), None) for move, score in ranked]
    return [(move, float(score), win) for (move, score), win in zip(ranked, wins, strict=True)]
