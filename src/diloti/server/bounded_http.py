"""Bounds on what a client may make a server process hold before its request even starts.

uvicorn's HTTP/1.1 protocol (h11) limits the size of a request's head
(:data:`MAX_HEAD`: an endless header is refused with 400 and the connection closed), but a
connection that sends part of a request head and then nothing stays open for ever: 2,000 of
them cost a process 2,000 sockets and buffers. :class:`BoundedH11Protocol` closes a connection
whose request head has not arrived within ``header_timeout`` seconds of the connection opening
(or of the previous response, on a kept-alive connection). A request body too slow to arrive
is the application's to time out (``diloti.server.app``: 408).

:func:`uvicorn_settings` gathers every bound ``diloti serve`` gives uvicorn.

>>> settings = uvicorn_settings(header_timeout=10.0, limit_concurrency=2000)
>>> settings["h11_max_incomplete_event_size"], settings["limit_concurrency"], settings["http"].header_timeout
(32768, 2000, 10.0)
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_HEAD = 32 * 1024  # bytes of a request line and headers (a browser sends 1-4 kB)
HEADER_TIMEOUT = 10.0  # seconds a client has to send a whole request head
KEEP_ALIVE = 5.0  # seconds an idle kept-alive connection stays open
LIMIT_CONCURRENCY = 4000  # connections and requests at once before new requests get 503


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head does not arrive in time."""

    header_timeout = HEADER_TIMEOUT
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        super().data_received(data)
        if self.cycle is not before or self.transport.get_protocol() is not self:
            self._disarm()  # a request's head arrived (or the connection became a websocket)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection gets the same time for its head

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        waiting = self.cycle is None or self.cycle.response_complete  # no request under way
        if waiting and self.transport.get_protocol() is self and not self.transport.is_closing():
            self.transport.close()


def bounded_protocol(header_timeout: float) -> type[BoundedH11Protocol]:
    """The protocol class with its own header timeout (uvicorn makes one instance per connection)."""
    return type("BoundedH11Protocol", (BoundedH11Protocol,), {"header_timeout": header_timeout})


def uvicorn_settings(header_timeout: float = HEADER_TIMEOUT, limit_concurrency: int = LIMIT_CONCURRENCY,
                     keep_alive: float = KEEP_ALIVE) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` that bound what one client can make a process hold."""
    return {"http": bounded_protocol(header_timeout), "h11_max_incomplete_event_size": MAX_HEAD,
            "timeout_keep_alive": keep_alive, "limit_concurrency": limit_concurrency}
