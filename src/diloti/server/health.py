"""What an operator relies on: every failure a JSON error, and health that tells the truth.

:class:`Errors` is the outermost guard of every HTTP request: a request whose path or query holds a
NUL or other control character is refused with 400 before any route sees it (PostgreSQL cannot
store a NUL, and no id or name of this server has one); a database that cannot be reached gives a
JSON 503 with ``Retry-After``; any other fault a JSON 500 (its traceback goes to the server's log,
never to the client).

:class:`Outage` is what the process knows of its database: every database call's outcome (the normal
traffic), its own connections' losses and a background probe (``SELECT 1`` on a thread of its own, with its
own timeout, at once after a failure and whenever the database has not answered for a second) keep it
current. A database out of reach is one log line at its first sign (``database trouble: ...``: what
failed, and the error), one every :data:`REPORT_EVERY` seconds while the outage lasts (``database trouble
for N s so far: ...``, what was refused) and one when it ends (``database trouble over after N s: ...``,
with the total refused); the expected errors (refused, reset or closed connections, timeouts, an
administrator's shutdown) never log a traceback, and once the probe confirms the outage nothing waits
for the database: requests are refused at once (503), moves too (``server_error``, the game unchanged).

``/healthz`` says the process is alive (its event loop answers); ``/readyz`` says it can serve: the
database answered its last contact (a call or the probe, the last answer at most :data:`STALE` seconds
old) and, on PostgreSQL, the listener that hears the other processes is connected. It answers from what
the process knows, never waiting for the database, so within milliseconds whatever the database does.
Load balancers and Kubernetes send traffic only to a ready process and restart one that is not alive.

>>> has_control("/api/tables/ab%00c"), has_control("/api/tables/abc?status=over")
(True, False)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import re
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

log = logging.getLogger("diloti.server")

READY_TIMEOUT = 2.0  # seconds the database may take to answer the probe before it counts as out of reach
PROBE_EVERY = 1.0  # seconds without an answer from the database before the probe asks (half that in an outage)
STALE = PROBE_EVERY + READY_TIMEOUT + 1.0  # seconds since the last answer beyond which the process is not ready
REPORT_EVERY = 30.0  # seconds between the log lines that count an outage while it lasts
STRAGGLE = 10.0  # a failure of unknown start is taken to have started this long ago (twice the connect timeout)
RETRY_AFTER = 5  # seconds a client is told to wait when the database is out of reach
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def has_control(text: str) -> bool:
    """Whether ``text`` (a path or query, percent-encoded or not) holds a control character."""
    return bool(_CONTROL.search(text) or _CONTROL.search(unquote(text)))


class Unreachable(Exception):
    """Refused without trying: this process knows its database is out of reach (an :class:`Outage` under way)."""


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached or did not answer in time (not a bad query)."""
    from sqlalchemy.exc import InterfaceError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    if isinstance(exc, Unreachable | OperationalError | InterfaceError | PoolTimeout):
        return True
    try:
        import psycopg
    except ImportError:
        return False
    return isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)


def outage_line(exc: BaseException) -> str:
    """The one log line for a database outage: the error's class and first line (no traceback)."""
    return f"database trouble: {describe(exc)}"


def describe(exc: BaseException) -> str:
    """An error in one line: its class and its message's first line.

    >>> describe(ConnectionRefusedError("connection refused\\nis the server running?"))
    'ConnectionRefusedError: connection refused'
    """
    first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
    return f"{exc.__class__.__name__}: {first}" if first else exc.__class__.__name__


class Errors:
    """A plain ASGI middleware: control characters in the path or query refused, and no fault unanswered.

    ``on_outage`` is called (with the exception) for each request a database outage failed; the app's
    :class:`Outage` (its table manager's, ``app.state.manager.outage``) counts it, and logs the outage's
    lines (without it, each such request logs one line).
    """

    def __init__(self, app: Any, on_outage: Callable[[BaseException], None] | None = None) -> None:
        self.app = app
        self.on_outage = on_outage

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = scope.get("query_string", b"").decode("latin-1")
        for where, text in (("path", scope.get("path", "")), ("query", query)):
            if has_control(text):
                await _json(send, 400, "bad_request", f"invalid {where} {text[:60]!r}: control characters "
                                                      "(such as NUL) are not allowed")
                return
        started = False
        outage = _outage_of(scope)
        t0 = outage.clock() if outage is not None else 0.0

        async def tracking(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            if is_outage(exc):
                if outage is None:
                    log.error(outage_line(exc))
                else:
                    outage.failed(exc, started=t0, what=f"{scope.get('method')} {scope.get('path')}")
                    outage.refuse("requests", exc)
                if self.on_outage is not None:
                    self.on_outage(exc)
                if not started:
                    await _json(send, 503, "unavailable", "the database is out of reach; try again shortly",
                                retry_after=RETRY_AFTER)
                return
            log.exception("unexpected fault answering %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await _json(send, 500, "server_error", "unexpected fault; nothing was changed that you were told of")


async def _json(send: Any, status: int, code: str, message: str, retry_after: int | None = None) -> None:
    body = json.dumps({"type": "error", "code": code, "message": message}, ensure_ascii=False).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def readiness(ping: Callable[[], Any], listening: bool | None) -> tuple[bool, dict[str, Any]]:
    """Whether this process can serve: its database answers and ``listening`` (None: no listener needed) is true.

    A store an :class:`Outage` watches (``ping`` is its method) is answered from what the tracker knows, at
    once; any other ``ping`` (a blocking database round trip) must answer within :data:`READY_TIMEOUT` seconds.
    """
    outage = watching(ping)
    if outage is not None:
        return outage.readiness(listening)
    problems = []
    try:
        await asyncio.wait_for(asyncio.to_thread(ping), READY_TIMEOUT)
        database = True
    except TimeoutError:
        database = False
        problems.append(f"the database did not answer within {READY_TIMEOUT:g} s")
    except Exception as exc:
        database = False
        problems.append(outage_line(exc))
    return _ready(database, listening, problems)


def _ready(database: bool, listening: bool | None, problems: list[str]) -> tuple[bool, dict[str, Any]]:
    if listening is False:
        problems.append("not listening to the other processes' notices")
    ok = database and listening is not False
    out: dict[str, Any] = {"ok": ok, "database": database, "listener": listening}
    if problems:
        out["problems"] = problems
    return ok, out


_WATCHED: weakref.WeakKeyDictionary[Any, Outage] = weakref.WeakKeyDictionary()


def watching(ping: Callable[[], Any]) -> Outage | None:
    """The tracker that watches the store ``ping`` belongs to (a bound method's object), if any."""
    owner = getattr(ping, "__self__", None)
    try:
        return _WATCHED.get(owner) if owner is not None else None
    except TypeError:  # an object that cannot be weakly referenced: watched by none
        return None


def _outage_of(scope: Any) -> Outage | None:
    """The outage tracker of the app answering ``scope`` (its table manager's), if it has one yet."""
    manager = getattr(getattr(scope.get("app"), "state", None), "manager", None)
    outage = getattr(manager, "outage", None)
    return outage if isinstance(outage, Outage) else None


def _plural(n: int, what: str) -> str:
    return f"{n} {what if n != 1 else what.rstrip('s')}"


class Outage:
    """What this process knows of its database: reachable, suspected out, or out of reach since when (the state
    machine behind ``/readyz`` and the outage's log lines).

    - up, then a failure (an expected database error of a call, a lost connection of the process's own):
      *suspected*. Its one line is logged at once (``database trouble: WHAT: ERROR``, :func:`outage_line`),
      ``/readyz`` says not ready, and the probe asks the database at once. A failure of an attempt that began
      before the database's last answer is not news (a straggler) and changes nothing.
    - suspected, then an answer to an attempt begun since (the probe's, any call's): up again, nothing more
      said (one statement timed out, one connection lost: not an outage).
    - suspected (or up), then the probe fails or is not answered within its timeout: an *outage*, from the
      first sign on (no further line: the first sign's was its first). While it lasts, what needs the database
      is refused at once (:meth:`check`), what is refused is counted (:meth:`refuse`: ``moves``, ``requests``,
      ``other``), and :meth:`tick` logs the count every ``report_every`` seconds (``database trouble for N s
      so far: ...``).
    - an answer to an attempt begun during the outage ends it: one line ``database trouble over after N s:
      ...`` with the total refused.

    Calls come from the event loop and, through the log filter (:meth:`start`), from any thread: a lock keeps
    the state whole. ``on_change(down)`` is told when an outage begins and ends (the metrics' gauge, and the
    moves waiting for a commit).

    >>> clock = [100.0]
    >>> o = Outage(clock=lambda: clock[0])
    >>> o.readiness(True)
    (True, {'ok': True, 'database': True, 'listener': True})
    >>> o.failed(ConnectionRefusedError("connection refused")); o.refuse("moves"); o.suspected, o.down
    (True, False)
    >>> o.confirm(ConnectionRefusedError("connection refused"), clock[0]); o.down
    True
    >>> o.readiness(None)[1]["problems"]
    ['database out of reach for 0 s: ConnectionRefusedError: connection refused']
    >>> clock[0] += 12.5; o.ok(); o.down, o.last_outage
    (False, (12.5, {'moves': 1}))
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, report_every: float = REPORT_EVERY,
                 on_change: Callable[[bool], None] | None = None) -> None:
        self.clock = clock
        self.report_every = report_every
        self.on_change = on_change
        self.last_ok = clock()  # the last answer from the database (a new tracker: the store just opened it)
        self.suspected_since: float | None = None  # the first sign of trouble not yet confirmed or cleared
        self.down_since: float | None = None  # the outage's first sign
        self.cause = ""  # the first sign, in one line
        self.refused: dict[str, int] = {}  # what was refused since the first sign, by kind
        self.last_outage: tuple[float, dict[str, int]] | None = None  # the last outage's length and refusals
        self._reported = 0.0
        self._lock = threading.Lock()
        self._probe: asyncio.Task[None] | None = None
        self._filter: _Quiet | None = None
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def down(self) -> bool:
        """An outage is under way (confirmed)."""
        return self.down_since is not None

    @property
    def suspected(self) -> bool:
        """A sign of trouble not yet confirmed (or cleared) by the probe."""
        return self.suspected_since is not None

    @property
    def refusing(self) -> bool:
        """Refuse what needs the database without trying: an outage is under way and the probe will see it end
        (without the probe nothing would: every call refused, none would answer)."""
        return self.down_since is not None and self._probe is not None and not self._probe.done()

    def check(self) -> None:
        """Raise :class:`Unreachable` while refusing (see :attr:`refusing`)."""
        if self.refusing:
            raise Unreachable(f"the database is out of reach ({self.cause})")

    async def back(self) -> None:
        """Return once no outage is under way (polled: the tracker is told from any thread)."""
        while self.down_since is not None:
            await asyncio.sleep(0.25)

    def ok(self, started: float | None = None) -> None:
        """The database answered an attempt begun at ``started`` (None: just now): a suspicion or an outage that
        began before that attempt is over."""
        with self._lock:
            now = self.clock()
            begun = now if started is None else started
            self.last_ok = max(self.last_ok, now)
            if self.down_since is None:
                if self.suspected_since is not None and begun >= self.suspected_since:
                    self.suspected_since, self.refused, self.cause = None, {}, ""  # not an outage
                return
            if begun < self.down_since:
                return  # an answer to an attempt older than the outage: not proof that it is over
            took, refused = now - self.down_since, self.refused
            self.down_since, self.suspected_since, self.refused, self.cause = None, None, {}, ""
            self.last_outage = (took, refused)
        log.warning("database trouble over after %.1f s: %s", took, self._counted(refused, "meanwhile"))
        if self.on_change is not None:
            self.on_change(False)

    def failed(self, exc: BaseException, started: float | None = None, what: str = "") -> None:
        """An attempt begun at ``started`` (None: just now; a connection lost: now) failed with ``exc``, an
        expected database error (or a timeout); ``what`` says what failed. A first sign of trouble: logged, and
        the probe asks at once."""
        with self._lock:
            now = self.clock()
            begun = now if started is None else started
            if self.down_since is not None or self.suspected_since is not None or begun < self.last_ok:
                return
            self.suspected_since = now
            self.cause = f"{what}: {describe(exc)}" if what else describe(exc)
        log.error("database trouble: %s", self.cause)
        self._poke()

    def confirm(self, exc: BaseException, started: float) -> None:
        """The probe begun at ``started`` failed with ``exc`` (or was not answered in time): an outage, from the
        first sign on (the probe's own failure if it is the first, logged then)."""
        with self._lock:
            now = self.clock()
            if self.down_since is not None or started < self.last_ok:
                return
            first = self.suspected_since is None
            self.down_since = min(started, self.suspected_since if self.suspected_since is not None else now)
            self.suspected_since, self._reported = None, now
            if first:
                self.cause = f"the readiness probe: {describe(exc)}"
        if first:
            log.error("database trouble: %s", self.cause)
        if self.on_change is not None:
            self.on_change(True)

    def refuse(self, kind: str, exc: BaseException | None = None, what: str = "") -> None:
        """Count one thing refused because of the trouble (``moves``, ``requests``, ``other``). Outside any
        (a straggler of an outage just over) ``exc`` is logged instead, in one line without a traceback, after
        ``what``."""
        with self._lock:
            if self.down_since is not None or self.suspected_since is not None:
                self.refused[kind] = self.refused.get(kind, 0) + 1
                return
        if exc is not None:
            log.error("%s%s", f"{what}: " if what else "", outage_line(exc))

    def tick(self) -> None:
        """While an outage lasts, log how long and what it refused so far, every ``report_every`` seconds."""
        with self._lock:
            now = self.clock()
            if self.down_since is None or now - self._reported < self.report_every:
                return
            self._reported = now
            took, refused = now - self.down_since, dict(self.refused)
        log.warning("database trouble for %.0f s so far: %s", took, self._counted(refused, "so far"))

    @staticmethod
    def _counted(refused: dict[str, int], when: str) -> str:
        """What an outage refused, in words.

        >>> Outage._counted({"moves": 3, "requests": 1}, "so far")
        'refused 3 moves, 1 request and 0 other so far'
        """
        return (f"refused {_plural(refused.get('moves', 0), 'moves')}, "
                f"{_plural(refused.get('requests', 0), 'requests')} and {refused.get('other', 0)} other {when}")

    def readiness(self, listening: bool | None) -> tuple[bool, dict[str, Any]]:
        """``/readyz``'s answer from what is known now (no database call)."""
        now = self.clock()
        problems = []
        down, suspected = self.down_since, self.suspected_since
        if down is not None:
            problems.append(f"database out of reach for {now - down:.0f} s: {self.cause}")
        elif suspected is not None:
            problems.append(f"database trouble, checking: {self.cause}")
        elif now - self.last_ok > STALE:
            problems.append(f"the database has not answered for {now - self.last_ok:.0f} s")
        return _ready(not problems, listening, problems)

    # ------------------------------------------------------------ the probe and the log
    def start(self, ping: Callable[[], Any], owner: Any = None, every: float = PROBE_EVERY,
              timeout: float = READY_TIMEOUT) -> None:
        """Start the probe (``ping``: one blocking round trip) on the running loop; ``owner`` (the store):
        ``/readyz`` answers from this tracker. The log filter folds into the outage the expected database
        errors logged with a traceback anywhere in the server (``diloti.server``)."""
        if owner is not None:
            _WATCHED[owner] = self
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._probe = self._loop.create_task(self._run(ping, every, timeout))
        self._filter = _Quiet(self)
        logging.getLogger("diloti.server").addFilter(self._filter)

    async def stop(self) -> None:
        if self._filter is not None:
            logging.getLogger("diloti.server").removeFilter(self._filter)
            self._filter = None
        if self._probe is not None:
            self._probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probe

    def _poke(self) -> None:
        """Wake the probe (from any thread)."""
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # (the loop closing)
                loop.call_soon_threadsafe(wake.set)

    async def _run(self, ping: Callable[[], Any], every: float, timeout: float) -> None:
        assert self._wake is not None
        wake = self._wake
        pending: asyncio.Future[Any] | None = None
        began = 0.0
        flagged = False
        seen: set[type[BaseException]] = set()  # unexpected errors of the probe: each logged once
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), min(0.25, every / 4))
            wake.clear()
            self.tick()
            now = self.clock()
            if pending is not None and not pending.done():
                if not flagged and now - began > timeout:
                    flagged = True
                    self.confirm(TimeoutError(f"the database did not answer within {timeout:g} s"), began)
                continue
            if pending is not None:
                exc = pending.exception()
                if exc is None:
                    self.ok(began)
                else:
                    if not is_outage(exc) and type(exc) not in seen:
                        seen.add(type(exc))
                        log.error("the readiness probe failed unexpectedly", exc_info=exc)
                    self.confirm(exc, began)
                pending = None
            quiet = now - max(self.last_ok, began) < (every / 2 if self.down else every)
            if quiet and not (self.suspected and began < (self.suspected_since or now)):
                continue  # the database answered (or was asked) lately, and nothing is suspected since
            began, flagged = now, False
            pending = asyncio.wrap_future(_on_a_thread(ping))
            pending.add_done_callback(lambda _: wake.set())


def _on_a_thread(fn: Callable[[], Any]) -> concurrent.futures.Future[Any]:
    """``fn()`` on a daemon thread of its own: a call the database never answers holds that thread only, and
    never the process's exit."""
    fut: concurrent.futures.Future[Any] = concurrent.futures.Future()

    def run() -> None:
        if not fut.set_running_or_notify_cancel():
            return
        try:
            fut.set_result(fn())
        except BaseException as exc:  # handed to the awaiting side
            fut.set_exception(exc)

    threading.Thread(target=run, name="diloti-probe", daemon=True).start()
    return fut


class _Quiet(logging.Filter):
    """Records of ``diloti.server`` that carry an expected database error: folded into the outage (no traceback).

    During trouble (suspected or an outage) such a record is dropped and counted (``other``: what the code that
    logged it refused); one that is the first sign is dropped too (the first sign's line says it); outside any
    (a straggler of an outage just over) it is kept as one line, without the traceback.
    """

    def __init__(self, outage: Outage) -> None:
        super().__init__()
        self.outage = outage

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None or not is_outage(exc):
            return True
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit: logging says so, as for any other
            return True
        self.outage.failed(exc, self.outage.clock() - STRAGGLE, message)
        if self.outage.down or self.outage.suspected:
            self.outage.refuse("other")
            return False
        record.msg, record.args = f"{message}: {outage_line(exc)}", None
        record.exc_info, record.exc_text = None, None
        return True
