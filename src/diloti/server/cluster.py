"""Several server processes on one PostgreSQL: change notices and one computer-seat runner per table.

Every write of a :class:`~diloti.store.db.Store` with an ``origin`` also sends a
``NOTIFY diloti`` in its own transaction (so a notice means the change is committed).
A :class:`Cluster` holds two connections of its own:

- the *listener* runs ``LISTEN diloti`` and hands every notice from another process
  to the table manager, which applies it to its copy of the table and tells its own
  players. Notices are a wake-up, not the truth: after a lost connection the manager
  re-reads every table it holds (``on_reset``), and a periodic check compares move
  counts with the database anyway.
- the *lock* connection holds a session-level advisory lock per unfinished table this
  process runs (its computer seats, and an away player's). A table is locked by the
  process that creates it before it is stored, so it has an owner from its first
  moment, and ownership changes only when the lock does: when its process dies
  (``kill -9`` closes its sockets; PostgreSQL releases the locks) or loses its lock
  connection. A slow or starved process keeps its tables: nothing expires.

The moves themselves need no lock: a move is stored as the row ``(table, ply)``, and
the primary key lets exactly one writer store each ply (versioned rows).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from diloti.server.health import Outage, is_outage
from diloti.server.tasks import Background
from diloti.store.db import CHANNEL, CONNECT_TIMEOUT

log = logging.getLogger("diloti.server")

Handler = Callable[[dict[str, Any]], Awaitable[None]]


def _dsn(url: str) -> str:
    # SQLAlchemy's URL names the driver; libpq does not want it.
    for prefix in ("postgresql+psycopg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


class Cluster:
    """This process's membership of a service of several processes on one PostgreSQL."""

    def __init__(self, url: str, origin: str | None = None, poll: float = 2.0) -> None:
        self.dsn = _dsn(url)
        self.origin = origin or secrets.token_hex(6)
        self.on_notice: Handler | None = None
        self.on_reset: Callable[[], Awaitable[None]] | None = None
        self.poll = poll
        self.owned: set[str] = set()
        self._lost: set[str] = set()  # owned when the lock connection went: taken back on reconnecting
        self._lock_conn: Any = None
        self._lock_mutex = asyncio.Lock()
        self._listener: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self.listening = False  # the listener is connected (notices flow): /readyz
        self.on_trouble: Callable[[str], None] | None = None  # told of each lost connection (the metrics)
        # Told of each failure and answer (its log lines say an outage; without it, each failure logs a line).
        self.outage: Outage | None = None
        self._tails: dict[str, asyncio.Task[None]] = {}  # the last notice task of each table

    async def start(self, on_notice: Handler, on_reset: Callable[[], Awaitable[None]]) -> None:
        """Connect, start listening, and return once notices flow: each notice of another process to ``on_notice``,
        and ``on_reset`` called after the listener reconnects (the notices sent meanwhile are lost)."""
        self.on_notice, self.on_reset = on_notice, on_reset
        self._listener = asyncio.create_task(self._listen())
        waiter = asyncio.create_task(self._ready.wait())
        done, _ = await asyncio.wait({waiter, self._listener}, return_when=asyncio.FIRST_COMPLETED)
        if waiter not in done:
            waiter.cancel()
            self._listener.result()  # raises why listening failed

    async def stop(self) -> None:
        for task in list(self._tails.values()):
            task.cancel()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        if self._lock_conn is not None:
            with contextlib.suppress(Exception):
                await self._lock_conn.close()  # releases every advisory lock held
        self.owned.clear()
        self._lost.clear()

    async def _connect(self) -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(self.dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT)

    async def _listen(self) -> None:
        first = True
        while True:
            t0 = self._now()
            try:
                conn = await self._connect()
            except Exception as exc:
                if first:
                    raise
                self._failed(None, exc, t0, "the PostgreSQL listener",
                             f"cannot reach PostgreSQL to listen ({exc.__class__.__name__}); retrying")
                await asyncio.sleep(1.0)
                continue
            try:
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening = True
                    self._answered(t0)
                    if first:
                        first = False
                        self._ready.set()
                    else:
                        # Notices sent while we were away are gone: re-read what we hold.
                        assert self.on_reset is not None
                        await self.on_reset()
                    while True:
                        # The generator holds the connection: leave it now and then to check
                        # the connection is alive (a silent network loses no notices: they queue).
                        async for note in conn.notifies(timeout=self.poll):
                            await self._dispatch(note.payload)
                        await self._alive(conn)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.listening = False
                self._failed("listener", exc, None, "the PostgreSQL listener",
                             f"database trouble: lost the PostgreSQL listener ({exc.__class__.__name__}); reconnecting")
                await asyncio.sleep(0.2)

    async def _alive(self, conn: Any) -> None:
        """``SELECT 1`` on the listener's connection. A database that takes the query and does not answer (stopped,
        frozen) for ``poll`` seconds: not listening, and said so, until it answers; the query is not cancelled
        (psycopg would wait on a cancel request the database does not answer either)."""
        t0 = self._now()
        check = asyncio.ensure_future(conn.execute("SELECT 1"))
        try:
            done, _ = await asyncio.wait({check}, timeout=self.poll)
        except asyncio.CancelledError:
            check.cancel()
            raise
        if check not in done:
            self.listening = False
            self._failed("listener", TimeoutError(f"no answer within {self.poll:g} s"), None,
                         "the PostgreSQL listener", f"database trouble: the PostgreSQL listener has had no answer "
                         f"for {self.poll:g} s; waiting for one")
            await check
            self.listening = True
            self._answered(t0)
        check.result()

    def _trouble(self, kind: str) -> None:
        if self.on_trouble is not None:
            self.on_trouble(kind)

    def _now(self) -> float | None:
        return self.outage.clock() if self.outage is not None else None

    def _answered(self, started: float | None) -> None:
        if self.outage is not None:
            self.outage.ok(started)

    def _failed(self, kind: str | None, exc: BaseException, started: float | None, what: str, line: str) -> None:
        """A database call of this process's own connections, begun at ``started`` (None: the failure is news now,
        as a connection lost), failed: counted (``kind``: the metrics' kind), and told to the outage tracker
        (its lines say it: no line each) or else logged as ``line``."""
        if kind is not None:
            self._trouble(kind)
        if self.outage is not None and (is_outage(exc) or isinstance(exc, TimeoutError)):
            self.outage.failed(exc, started, what)
        else:
            log.warning(line)

    async def _dispatch(self, payload: str) -> None:
        try:
            notice = json.loads(payload)
        except ValueError:
            log.error("unreadable notice %r", payload[:80])
            return
        if not isinstance(notice, dict) or notice.get("o") == self.origin:
            return
        # One table's notices in order, each table on its own: a table waiting for its lock (a
        # local move being committed) must not hold up the notices of every other table.
        key = str(notice.get("t"))
        task = asyncio.create_task(self._handle(self._tails.get(key), notice))
        self._tails[key] = task
        task.add_done_callback(lambda t: self._tails.pop(key, None) if self._tails.get(key) is t else None)

    async def _handle(self, before: asyncio.Task[None] | None, notice: dict[str, Any]) -> None:
        if before is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(before)
        try:
            assert self.on_notice is not None
            await self.on_notice(notice)
        except Exception as exc:
            if not is_outage(exc):  # an outage: its own lines say it, and the resync catches up afterwards
                log.exception("handling notice %r failed", str(notice)[:80])

    # ------------------------------------------------------------ computer-seat runners
    async def _locks(self) -> Any:
        if self._lock_conn is None or self._lock_conn.closed:
            if self.owned and not (self.outage is not None and self.outage.down):
                log.warning("lost the lock connection: giving up %d tables", len(self.owned))
            self._give_up()
            self._lock_conn = await self._connect()
            if self._lost:
                # The tables this process ran before its lock connection went: taken back first, before another
                # process's watcher finds them free (it would count a takeover of a process still alive).
                lost, self._lost = sorted(self._lost), set()
                self.owned.update(await self._try_locks(self._lock_conn, lost))
        return self._lock_conn

    def _give_up(self) -> None:
        """The lock connection is gone, and with it every lock: remember what it held, to take it back."""
        self._lost |= self.owned
        self.owned.clear()

    @staticmethod
    async def _try_locks(conn: Any, table_ids: list[str]) -> set[str]:
        cur = await conn.execute(
            "SELECT t, pg_try_advisory_lock(hashtext('diloti-table'), hashtext(t)) "
            "FROM unnest(%s::text[]) AS t", (table_ids,))
        return {tid for tid, got in await cur.fetchall() if got}

    async def claim(self, table_ids: list[str]) -> set[str]:
        """Try to become the runner of these tables; returns those this process runs.

        A process claims a table when it creates it (before the table is stored, so that no other process
        can see it unowned) and when it resumes it; after that only when its runner is gone.
        """
        want = [t for t in table_ids if t not in self.owned]
        if want:
            async with self._lock_mutex:
                t0 = self._now()
                try:
                    conn = await self._locks()
                    self.owned.update(await self._try_locks(conn, [t for t in want if t not in self.owned]))
                except Exception as exc:
                    self._failed(None, exc, t0, "the lock connection",
                                 f"cannot take table locks ({exc.__class__.__name__})")
                    with contextlib.suppress(Exception):
                        await self._lock_conn.close()
                    self._give_up()
        return {t for t in table_ids if t in self.owned}

    async def check(self) -> None:
        """Make sure the locks we count on are still held (their connection is alive)."""
        if not self.owned:
            return
        async with self._lock_mutex:
            t0 = self._now()
            try:
                await self._lock_conn.execute("SELECT 1")
            except Exception as exc:
                self._failed("locks", exc, t0, f"the lock connection (giving up {len(self.owned)} tables)",
                             f"database trouble: lost the lock connection ({exc.__class__.__name__}): giving up "
                             f"{len(self.owned)} tables")
                self._give_up()
                with contextlib.suppress(Exception):
                    await self._lock_conn.close()

    async def release(self, table_id: str) -> None:
        """Stop running this table (it is over or closed)."""
        self._lost.discard(table_id)
        if table_id not in self.owned:
            return
        self.owned.discard(table_id)
        async with self._lock_mutex:
            with contextlib.suppress(Exception):
                await self._lock_conn.execute(
                    "SELECT pg_advisory_unlock(hashtext('diloti-table'), hashtext(%s))", (table_id,))


class Ownership:
    """Which tables' computer seats this process runs, as the table manager's parts ask it: every table when it
    is alone; with a :class:`Cluster`, those whose lock it holds. The parts ask this, not the cluster, so that
    they read the same alone and in a cluster."""

    def __init__(self, cluster: Cluster | None, background: Background) -> None:
        self.cluster = cluster
        self.background = background

    @property
    def shared(self) -> bool:
        """Other processes may hold these tables too (and this process knows only its own connections)."""
        return self.cluster is not None

    def runs(self, table_id: str) -> bool:
        """This process runs the table's computer seats (another process does, in a cluster, if it holds the lock;
        its watcher takes over if that process dies)."""
        return self.cluster is None or table_id in self.cluster.owned

    async def claim(self, table_ids: list[str]) -> set[str]:
        """Become the runner of these tables where nobody else is; returns those this process runs."""
        if self.cluster is None:
            return set(table_ids)
        return await self.cluster.claim(table_ids)

    async def release(self, table_id: str) -> None:
        """Stop running this table (it is over or closed, or it was not stored)."""
        if self.cluster is not None:
            await self.cluster.release(table_id)

    def let_go(self, table_id: str) -> None:
        """:meth:`release`, in the background (for callers that cannot wait)."""
        if self.cluster is not None:
            self.background.spawn(self.cluster.release(table_id))
