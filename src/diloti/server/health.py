"""What an operator relies on: every failure a JSON error, and health that tells the truth.

:class:`Errors` is the outermost guard of every HTTP request: a request whose path or query holds a
NUL or other control character is refused with 400 before any route sees it (PostgreSQL cannot
store a NUL, and no id or name of this server has one); a database that cannot be reached gives a
JSON 503 with ``Retry-After`` and one log line ``database trouble: ...``; any other fault a JSON
500 (its traceback goes to the server's log, never to the client).

``/healthz`` says the process is alive (its event loop answers); ``/readyz`` says it can serve:
the database answers ``SELECT 1`` within :data:`READY_TIMEOUT` seconds and, on PostgreSQL, the
listener that hears the other processes is connected. Load balancers and Kubernetes send traffic
only to a ready process and restart one that is not alive.

>>> has_control("/api/tables/ab%00c"), has_control("/api/tables/abc?status=over")
(True, False)
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

log = logging.getLogger("diloti.server")

READY_TIMEOUT = 2.0  # seconds the database may take to answer a readiness check
RETRY_AFTER = 5  # seconds a client is told to wait when the database is out of reach
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def has_control(text: str) -> bool:
    """Whether ``text`` (a path or query, percent-encoded or not) holds a control character."""
    return bool(_CONTROL.search(text) or _CONTROL.search(unquote(text)))


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached or did not answer in time (not a bad query)."""
    from sqlalchemy.exc import InterfaceError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    if isinstance(exc, OperationalError | InterfaceError | PoolTimeout):
        return True
    try:
        import psycopg
    except ImportError:
        return False
    return isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)


def outage_line(exc: BaseException) -> str:
    """The one log line for a database outage: the error's class and first line (no traceback)."""
    first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
    return f"database trouble: {exc.__class__.__name__}: {first}"


class Errors:
    """A plain ASGI middleware: control characters in the path or query refused, and no fault unanswered.

    ``on_outage`` is called (with the exception) for each request a database outage failed.
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

        async def tracking(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            if is_outage(exc):
                log.error(outage_line(exc))
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
    """Whether this process can serve: ``ping`` (a blocking database round trip) answers within
    :data:`READY_TIMEOUT` seconds, and ``listening`` (None: no listener needed) is true."""
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
    if listening is False:
        problems.append("not listening to the other processes' notices")
    ok = database and listening is not False
    out: dict[str, Any] = {"ok": ok, "database": database, "listener": listening}
    if problems:
        out["problems"] = problems
    return ok, out
