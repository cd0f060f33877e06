"""Per-address rate limits on creating and joining tables and on hints (the ``limits`` library).

A client over its limit gets ``429 rate_limited`` with ``Retry-After`` (HTTP) or a
``rate_limited`` error message (websocket), and nothing changes. The counters are
kept in this process (the ``limits`` library's memory storage).

>>> from types import SimpleNamespace
>>> lim = Limiter(Limits(create="2/minute"))
>>> who = SimpleNamespace(client=SimpleNamespace(host="10.0.0.1"))
>>> lim.check("create", who); lim.check("create", who)
>>> try:
...     lim.check("create", who)
... except Exception as exc:
...     print(exc.code, exc.status, exc.retry_after > 0)
rate_limited 429 True
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from limits import parse, storage, strategies

from diloti.server.protocol import ProtocolError


@dataclass(frozen=True)
class Limits:
    """How many of each an address may do, in the ``limits`` notation (``"20/minute"``)."""

    create: str = "20/minute"
    join: str = "60/minute"
    hint: str = "60/minute"


_WHAT = {"create": "tables created", "join": "seats joined", "hint": "hints asked for"}


class Limiter:
    """Moving-window counters per (action, address)."""

    def __init__(self, limits: Limits) -> None:
        self.items = {name: parse(getattr(limits, name)) for name in ("create", "join", "hint")}
        self.window = strategies.MovingWindowRateLimiter(storage.MemoryStorage())

    def check(self, action: str, request: Any) -> None:
        """Count one ``action`` for the request's address; raise ``rate_limited`` if over the limit."""
        client = getattr(request, "client", None)
        address = client.host if client is not None else "unknown"
        item = self.items[action]
        if self.window.hit(item, action, address):
            return
        reset = self.window.get_window_stats(item, action, address).reset_time
        retry = max(1, int(reset - time.time()) + 1)
        raise ProtocolError("rate_limited", f"too many {_WHAT[action]} from this address (limit {item}); "
                            f"try again in {retry} s", 429, retry_after=retry)
