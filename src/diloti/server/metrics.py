"""Prometheus metrics of one server process, answered on its own port at ``/metrics``.

Each ``diloti serve`` is one process on its own port, so Prometheus scrapes each process as its own
target and sums over them; prometheus_client's multiprocess mode (for several processes behind one
port, as gunicorn's workers) is not needed. The worker processes that compute computer moves record
nothing: their time is measured here, around the call. Every app has a registry of its own (tests
make many apps in one process).

``/metrics`` answers the loopback and the addresses given to ``--metrics-allow-ips`` (addresses or
networks, ``10.0.0.0/8``), and 403 to everyone else: the client's address as the server sees it,
which behind the proxy is the real client's (so the public cannot read it through nginx).

>>> m = Metrics()
>>> m.moves.inc(); m.limits.labels("create").inc()
>>> b"diloti_moves_stored_total 1.0" in m.render()
True
>>> allowed = parse_allow("10.0.0.0/8, 192.168.1.5")
>>> [may_read(a, allowed) for a in ("127.0.0.1", "::1", "10.2.3.4", "192.168.1.6", "nonsense")]
[True, True, True, False, False]
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger("diloti.server")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


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

    def watch(self, read: Callable[[], dict[str, Any]]) -> None:
        """Read the live gauges from ``read`` at each scrape (``{"tables": {status: n}, "queue": n, ...}``)."""
        if self._live is not None:
            self.registry.unregister(self._live)
        self._live = _Live(read)
        self.registry.register(self._live)

    def render(self) -> bytes:
        """The metrics in Prometheus's text format."""
        return generate_latest(self.registry)
