"""HTTP request bodies: read with a size and a time limit, parsed as JSON, and refused with a clear error.

The application reads every body itself, before its model checks it, so that a huge body is refused while it
streams in and never held in memory, and a body sent a byte at a time holds no task for ever.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import Request

from diloti.server.protocol import MAX_MESSAGE, ProtocolError

MAX_BODY = 16 * MAX_MESSAGE  # bytes of an HTTP request body
BODY_TIMEOUT = 10.0  # seconds to receive a request body (at most MAX_BODY bytes)


def nul_at(data: Any, where: str = "") -> str | None:
    """Where in a JSON value a text (or a key) holds a NUL character (None: nowhere).

    >>> nul_at({"name": "Ann", "seats": [{"kind": "hu\\x00man"}]}), nul_at({"name": "Ann"})
    ('seats[0].kind', None)
    """
    if isinstance(data, str):
        return (where or "request body") if "\x00" in data else None
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        here = f"{where}[{k}]" if isinstance(k, int) else f"{where}.{k}" if where else str(k)
        if isinstance(k, str) and "\x00" in k:
            return f"a key of {where or 'the request body'}"
        found = nul_at(v, here)
        if found is not None:
            return found
    return None


async def read_json(request: Request) -> Any:
    """A request's body as JSON: refused (413) past :data:`MAX_BODY` bytes while it streams in, (408) when
    it takes over :data:`BODY_TIMEOUT` seconds, (400) when it is not JSON or a text in it holds a NUL."""
    # Refused while it streams in: a huge body is never read past the limit, nor held in memory.
    limit = MAX_BODY
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ProtocolError("too_large", f"request body of {declared} bytes is over the limit of {limit}", 413)
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(BODY_TIMEOUT):  # a body sent a byte at a time holds no task for ever
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise ProtocolError("too_large", f"request body is over the limit of {limit} bytes", 413)
                chunks.append(chunk)
    except TimeoutError:
        raise ProtocolError("timeout", f"request body not received within {BODY_TIMEOUT:g} s", 408) from None
    raw = b"".join(chunks)
    try:
        data = json.loads(raw or b"{}")
    except ValueError as exc:
        raise ProtocolError("bad_json", f"request body is not valid JSON: {exc}") from None
    except RecursionError:
        raise ProtocolError("bad_json", "request body is nested too deeply") from None
    if (where := nul_at(data)) is not None:  # no text of this server holds one; PostgreSQL stores none
        raise ProtocolError("bad_request", f"invalid {where}: a NUL character is not allowed")
    return data
