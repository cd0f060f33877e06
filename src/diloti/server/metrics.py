"""Prometheus metrics of one server process, answered on its own port at ``/metrics``.

Each ``diloti serve`` is one process on its own port, so Prometheus scrapes each process as its own
target and sums over them; prometheus_client's multiprocess mode (for several processes behind one
port, as gunicorn's workers) is not needed. The worker processes that compute computer moves record
nothing: their time is measured here, around the call. Every app has a registry of its own (tests
make many apps in one process).

``/metrics`` answers the loopback and the addresses given to ``--metrics-allow-ips`` (addresses or
networks, ``10.0.0.0/8``), and 403 to everyone else: the client's address as the server sees it,
which behind the proxy is the real client's (so the public cannot read it through nginx).

Besides the game's own counters: the process (``process_*``: CPU, memory, open files and their limit;
this process only, not its worker processes), the HTTP requests by route template (:class:`Instrument`),
a move's round trip as its player feels it, the event loop's lag (:class:`LoopLag`), the database
pool (:class:`PoolWatch`) and the build (``diloti_build_info``). Every labelled series is there from
the start, at 0: a dashboard and an alert never wait for a first increment. docs/DEPLOY.md, "What to
watch", lists them with their alerts.

>>> m = Metrics()
>>> m.moves.inc(); m.limits.labels("create").inc()
>>> b"diloti_moves_stored_total 1.0" in m.render()
True
>>> b'diloti_database_errors_total{kind="listener"} 0.0' in m.render()
True
>>> allowed = parse_allow("10.0.0.0/8, 192.168.1.5")
>>> [may_read(a, allowed) for a in ("127.0.0.1", "::1", "10.2.3.4", "192.168.1.6", "nonsense")]
[True, True, True, False, False]
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import Pool, PoolProxiedConnection, QueuePool
from starlette.routing import Mount

from diloti import CORE, __version__

log = logging.getLogger("diloti.server")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# The label values known in advance, each series created at 0 (tests/test_metrics_dashboard.py checks that
# LIMITS names every limit diloti.server.limits reports, and DB_TROUBLES every kind the server counts).
LIMITS = ("create", "join", "hint", "players", "recover", "login", "login_name", "login_pair", "login_device",
          "rename", "daily", "arena_create", "arena_join", "poll", "connections")
DB_TROUBLES = ("request", "move", "listener", "locks")
STATUSES = ("2xx", "3xx", "4xx", "5xx")
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})  # any other: "other"
UNMATCHED = "unmatched"  # the route label of a request no route matched (any path: one series)
SECONDS = (.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10)


def parse_allow(text: str) -> tuple[Network, ...]:
    """The networks of a ``--metrics-allow-ips`` value (comma-separated addresses or networks).

    >>> parse_allow("")
    ()
    >>> parse_allow("10.0.0.300")
    Traceback (most recent call last):
    ...
    ValueError: invalid address or network '10.0.0.300' in --metrics-allow-ips
    """
    out = []
    for part in (p.strip() for p in text.split(",")):
        if part:
            try:
                out.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise ValueError(f"invalid address or network {part!r} in --metrics-allow-ips") from None
    return tuple(out)


def may_read(address: str | None, allowed: tuple[Network, ...]) -> bool:
    """Whether a client at ``address`` may read the metrics (the loopback always may)."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return any(ip in net for net in (*LOOPBACK, *allowed))


class _Live(Collector):
    """Gauges read at scrape time from the table manager (nothing to keep current in between)."""

    def __init__(self, read: Callable[[], dict[str, Any]]) -> None:
        self.read = read

    def collect(self) -> Iterator[GaugeMetricFamily]:
        now = self.read()
        tables = GaugeMetricFamily("diloti_tables", "Tables this process holds, by status", labels=["status"])
        for status, n in sorted(now.get("tables", {}).items()):
            tables.add_metric([status], n)
        yield tables
        yield GaugeMetricFamily("diloti_worker_queue", "Computer moves and hints submitted to the worker "
                                "processes and not yet answered", value=now.get("queue", 0))
        yield GaugeMetricFamily("diloti_tables_run", "Tables whose computer seats this process runs",
                                value=now.get("owned", 0))


class LoopLag:
    """How late the event loop wakes a sleep of :attr:`INTERVAL` seconds, sampled all the time: each sample in
    a histogram, and the worst of the last :attr:`WINDOW` seconds as a gauge (a stall between two scrapes is
    not missed). A callback that holds the loop for 200 ms shows as a lag of 150 to 200 ms.

    >>> lag = LoopLag(Metrics())
    >>> for now, late in ((0.0, 0.001), (1.0, 0.2), (2.0, 0.002), (40.0, 0.003)):
    ...     lag.record(now, late)
    ...     print(lag.worst.collect()[0].samples[0].value)
    0.001
    0.2
    0.2
    0.003
    """

    INTERVAL = 0.05
    WINDOW = 30.0

    def __init__(self, metrics: Metrics) -> None:
        self.samples = metrics.loop_lag
        self.worst = metrics.loop_lag_max
        self.recent: deque[tuple[float, float]] = deque()  # (when, lag), the lags decreasing: a sliding maximum

    def record(self, now: float, lag: float) -> None:
        self.samples.observe(lag)
        while self.recent and self.recent[-1][1] <= lag:
            self.recent.pop()
        self.recent.append((now, lag))
        while self.recent[0][0] <= now - self.WINDOW:
            self.recent.popleft()
        self.worst.set(self.recent[0][1])

    async def run(self) -> None:
        """Sample until cancelled (for the application's lifespan: :class:`Instrument`)."""
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.INTERVAL
            await asyncio.sleep(self.INTERVAL)
            now = loop.time()
            self.record(now, max(0.0, now - due))


class PoolWatch(Collector):
    """The database pool (SQLAlchemy's): its gauges read at each scrape, and each request for a connection
    timed (waiting for a free one, opening one and its liveness check included), counted when it found every
    connection in use (a wait) and when it gave up after the pool's timeout.

    The pool gives no event before a checkout, so the pool's own ``connect`` is wrapped (the engine calls
    ``engine.pool.connect()`` for every connection); a new pool (after the engine's ``dispose``) is wrapped at
    the next scrape.
    """

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.source: Callable[[], Pool | None] = lambda: None
        self.pool: Pool | None = None

    def current(self) -> Pool | None:
        """The engine's pool now, its connections timed from now on."""
        try:
            pool = self.source()
        except Exception:  # the store is closing, or not open yet
            return self.pool
        if pool is not None and pool is not self.pool:
            self._time(pool)
            self.pool = pool
        return self.pool

    def _time(self, pool: Pool) -> None:
        connect = pool.connect
        m = self.metrics

        def timed() -> PoolProxiedConnection:
            if in_use(pool) >= most(pool):
                m.db_waits.inc()
            t0 = time.perf_counter()
            try:
                return connect()
            except PoolTimeout:
                m.db_timeouts.inc()
                raise
            finally:
                m.db_checkout.observe(time.perf_counter() - t0)

        pool.connect = timed  # type: ignore[method-assign]

    def collect(self) -> Iterator[GaugeMetricFamily]:
        pool = self.current()
        queue = pool if isinstance(pool, QueuePool) else None
        yield GaugeMetricFamily("diloti_database_pool_size", "Connections the database pool keeps open",
                                value=queue.size() if queue is not None else 0)
        yield GaugeMetricFamily("diloti_database_pool_max", "The most connections the database pool opens (its "
                                "size and overflow; +Inf: no limit)", value=most(pool) if pool is not None else 0)
        yield GaugeMetricFamily("diloti_database_pool_checked_out", "Database connections in use",
                                value=in_use(pool) if pool is not None else 0)
        yield GaugeMetricFamily("diloti_database_pool_idle", "Database connections open and free",
                                value=queue.checkedin() if queue is not None else 0)
        yield GaugeMetricFamily("diloti_database_pool_overflow", "Database connections open beyond the pool's size",
                                value=max(0, queue.overflow()) if queue is not None else 0)


def in_use(pool: Pool) -> int:
    """The pool's connections checked out (0 for a pool that does not count them)."""
    return pool.checkedout() if isinstance(pool, QueuePool) else 0


def most(pool: Pool) -> float:
    """The most connections ``pool`` opens at once (infinite: no limit)."""
    if not isinstance(pool, QueuePool):
        return math.inf
    overflow = int(getattr(pool, "_max_overflow", -1))  # not public: QueuePool(max_overflow=...), -1 unlimited
    return math.inf if overflow < 0 else float(pool.size() + overflow)


class Metrics:
    """The metrics of one server process (one registry of its own)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.sockets = Gauge("diloti_websockets", "Websockets connected to this process", registry=r)
        self.moves = Counter("diloti_moves_stored", "Moves stored by this process", registry=r)
        self.move_seconds = Histogram("diloti_move_store_seconds", "Time from a move's arrival to its commit",
                                      buckets=(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5), registry=r)
        self.computer_seconds = Histogram("diloti_computer_move_seconds", "Time of a computer move, waiting "
                                          "for a worker included", buckets=(.01, .05, .1, .25, .5, 1, 2, 5, 10),
                                          registry=r)
        self.db_errors = Counter("diloti_database_errors", "Database failures (unreachable, timed out, lost "
                                 "connections)", ["kind"], registry=r)
        self.limits = Counter("diloti_limits_hit", "Requests refused by a limit", ["limit"], registry=r)
        self.takeovers = Counter("diloti_takeovers", "Tables whose computer seats this process took over from "
                                 "a process that was gone", registry=r)
        self._live: _Live | None = None
        self._add_dashboard(r)
        self.db_up = Gauge("diloti_database_up", "1 while this process reaches its database, 0 during an outage "
                           "(from the outage's first failure to the database's next answer)", registry=r)
        self.db_up.set(1)

    def _add_dashboard(self, r: CollectorRegistry) -> None:
        """The process, the HTTP requests, a move's round trip, the event loop, the database pool, the build."""
        ProcessCollector(registry=r)  # process_cpu_seconds_total, process_resident_memory_bytes, process_*_fds
        PlatformCollector(registry=r)  # python_info
        GCCollector(registry=r)  # python_gc_*: a full collection stalls the event loop too
        build = Gauge("diloti_build_info", "This server's version and its core (compiled with mypyc, or pure "
                      "Python): always 1", ["version", "core"], registry=r)
        build.labels(__version__, CORE).set(1)
        self.http_requests = Counter("diloti_http_requests", "HTTP requests answered, by route template "
                                     f"({UNMATCHED}: no route), method and status class",
                                     ["route", "method", "status"], registry=r)
        self.http_seconds = Histogram("diloti_http_request_seconds", "Time to answer an HTTP request, by route "
                                      "template and method", ["route", "method"], buckets=SECONDS, registry=r)
        self.move_round_trip = Histogram("diloti_move_round_trip_seconds", "A player's move as its player feels "
                                         "it: from its message received to the mover's 'played' and 'state' "
                                         "written to its socket", buckets=SECONDS, registry=r)
        self.loop_lag = Histogram("diloti_event_loop_lag_seconds", "How late the event loop woke a sleep "
                                  f"(sampled every {LoopLag.INTERVAL * 1000:g} ms)",
                                  buckets=(.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5), registry=r)
        self.loop_lag_max = Gauge("diloti_event_loop_lag_max_seconds", "The worst event-loop lag of the last "
                                  f"{LoopLag.WINDOW:g} seconds", registry=r)
        self.lag = LoopLag(self)
        self.db_waits = Counter("diloti_database_pool_waits", "Requests for a database connection that found "
                                "every connection of the pool in use", registry=r)
        self.db_timeouts = Counter("diloti_database_pool_timeouts", "Requests for a database connection that "
                                   "gave up after the pool's timeout", registry=r)
        self.db_checkout = Histogram("diloti_database_checkout_seconds", "Time to get a database connection from "
                                     "the pool (waiting for a free one, opening one, its liveness check)",
                                     buckets=(.001, .005, .01, .025, .05, .1, .25, .5, 1, 5, 10, 30), registry=r)
        self.pool = PoolWatch(self)
        r.register(self.pool)
        for kind in DB_TROUBLES:
            self.db_errors.labels(kind)
        for name in LIMITS:
            self.limits.labels(name)

    def watch(self, read: Callable[[], dict[str, Any]]) -> None:
        """Read the live gauges from ``read`` at each scrape (``{"tables": {status: n}, "queue": n, ...}``)."""
        if self._live is not None:
            self.registry.unregister(self._live)
        self._live = _Live(read)
        self.registry.register(self._live)

    def routes(self, known: Iterable[tuple[str, Iterable[str]]]) -> None:
        """Create the HTTP series of every route template and its methods (and of unmatched requests) at 0."""
        for route, methods in [*known, (UNMATCHED, ("GET",))]:
            for method in methods:
                self.http_seconds.labels(route, method)
                for status in STATUSES:
                    self.http_requests.labels(route, method, status)

    def moved(self, since: float) -> None:
        """A player's move has reached its player's socket, ``since`` (``time.perf_counter()``) its arrival."""
        self.move_round_trip.observe(time.perf_counter() - since)

    def render(self) -> bytes:
        """The metrics in Prometheus's text format."""
        return generate_latest(self.registry)


def route_template(route: Any) -> str:
    """A route's label: its path template (``/api/tables/{table_id}``); a mounted app's, its path and
    ``/{path}``."""
    path = str(getattr(route, "path", "") or "")
    return f"{path}/{{path}}" if isinstance(route, Mount) else path or UNMATCHED


def route_methods(route: Any) -> tuple[str, ...]:
    """The methods a route answers (a mounted app: GET and HEAD; a websocket route: none)."""
    if isinstance(route, Mount):
        return ("GET", "HEAD")
    return tuple(sorted(getattr(route, "methods", None) or ()))


class Instrument:
    """A plain ASGI middleware (the outermost of the app's own) for the metrics a dashboard needs.

    Each HTTP request is counted by its route template (never the raw path: the series are bounded; a request
    no route matched is ``unmatched``), method and status class, and timed; the series of every route are
    created at 0 when the app first runs. Over the application's lifespan the event loop's lag is sampled, and
    once the app has started (the database open) its pool's connections are timed (``pool``: the engine's pool
    then, None before).
    """

    def __init__(self, app: Any, metrics: Metrics, router: Any, pool: Callable[[], Pool | None]) -> None:
        self.app = app
        self.metrics = metrics
        metrics.pool.source = pool
        # Built at the app's first call (its lifespan): every route is there by then.
        routes = [r for r in router.routes if route_methods(r)]
        metrics.routes((route_template(r), route_methods(r)) for r in routes)
        # The router names the matched route in the scope (``route``) for FastAPI's routes only; a Starlette
        # route or a mounted app leaves its ``endpoint`` (the mounted app itself).
        self.by_endpoint = {getattr(r, "endpoint", None) or getattr(r, "app", None): route_template(r)
                            for r in routes}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "lifespan":
            await self._lifespan(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Any, receive: Any, send: Any) -> None:
        status = 500  # unless the app answers

        async def seen(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        t0 = time.perf_counter()
        try:
            await self.app(scope, receive, seen)
        finally:
            label = self.label(scope)
            method = str(scope.get("method", "GET"))
            method = method if method in METHODS else "other"
            self.metrics.http_seconds.labels(label, method).observe(time.perf_counter() - t0)
            self.metrics.http_requests.labels(label, method, f"{status // 100}xx").inc()

    def label(self, scope: Any) -> str:
        """The route label of a request answered (the router updates the scope it was given: this one)."""
        route = scope.get("route")
        if route is not None:
            return route_template(route)
        try:
            return self.by_endpoint.get(scope.get("endpoint"), UNMATCHED)
        except TypeError:  # an endpoint that cannot be a key
            return UNMATCHED

    async def _lifespan(self, scope: Any, receive: Any, send: Any) -> None:
        async def told(message: Any) -> None:
            if message["type"] == "lifespan.startup.complete":
                self.metrics.pool.current()  # the database is open: time its connections from now on
            await send(message)

        lag = asyncio.create_task(self.metrics.lag.run())
        try:
            await self.app(scope, receive, told)
        finally:
            lag.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await lag
