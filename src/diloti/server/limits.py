"""Per-address limits: rates of creating and joining tables and of hints (the ``limits`` library),
and the websockets open at once; per seat and per player (across tables), the chat lines they may send.
For players who come back: new players and recoveries per address, login attempts per address and per name, renames
per player.

A client over a rate gets ``429 rate_limited`` with ``Retry-After`` (HTTP) or a
``rate_limited`` error message (websocket), and nothing changes. A websocket over
the address's share gets a ``too_many_connections`` error message and is closed
(code 1008).

Where they are counted: the limits that protect a *player* (:data:`SHARED`: the login lockout's three, recovery
attempts, renames) once for the whole service, in the database every process shares (:mod:`diloti.server.lockout`,
:mod:`diloti.store.counts`), so that a guesser gains nothing from reaching several processes. The limits that
protect a process's *resources* (tables created, seats joined, hints, websockets, chat lines, new players, login
attempts per address: each costs this process's work or memory, and the proxy's edge limits count them for the
service) are kept in this process: the ``limits`` library's memory storage for the rates.

>>> from types import SimpleNamespace
>>> lim = Limiter(Limits(create="2/minute"))
>>> who = SimpleNamespace(client=SimpleNamespace(host="10.0.0.1"))
>>> lim.check("create", who); lim.check("create", who)
>>> try:
...     lim.check("create", who)
... except Exception as exc:
...     print(exc.code, exc.status, exc.retry_after > 0)
rate_limited 429 True
>>> lim = Limiter(Limits(connections=1))
>>> address = lim.connect(who)
>>> try:
...     lim.connect(who)
... except Exception as exc:
...     print(exc.code, exc)
too_many_connections 1 connection from this address is open already (limit 1); close one and try again
>>> lim.disconnect(address); lim.connect(who)
'10.0.0.1'
>>> chat = Window(2, 10.0)
>>> [chat.take(now=t) for t in (0.0, 1.0, 2.0, 10.5)]
[True, True, False, True]
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from limits import parse, storage, strategies

from diloti.server.protocol import ProtocolError


@dataclass(frozen=True)
class Limits:
    """How many of each an address may do, in the ``limits`` notation (``"20/minute"``); those in :data:`SHARED`
    counted for the whole service, the others per process."""

    create: str = "20/minute"
    join: str = "60/minute"
    hint: str = "60/minute"
    connections: int = 20  # websockets open at once from one address (in this process)
    chat: str = "5/10 seconds"  # chat lines per seat and per player (besides each connection's message rate)
    players: str = "20/hour"  # new players per address
    recover: str = "10/hour"  # recovery attempts per address
    login: str = "20/minute"  # login attempts per address
    # The lockout policy (diloti.server.lockout): failed logins per name and address, per name from addresses
    # and devices that never signed in as that player, and per trusted device.
    login_pair: str = "5/15 minutes"
    login_name: str = "20/hour"
    login_device: str = "10/hour"
    rename: str = "10/day"  # renames per player
    daily: str = "20/hour"  # daily-deal games started per address (a ranked one a day: diloti.server.daily)
    arena_create: str = "5/hour"  # arenas created per player
    arena_join: str = "30/minute"  # arena joins and withdrawals per player
    poll: str = "240/minute"  # daily-deal and arena reads per address (a page polls every few seconds)

    def __post_init__(self) -> None:
        if isinstance(self.connections, bool) or not isinstance(self.connections, int) or self.connections < 1:
            raise ValueError(f"invalid connections {self.connections!r}: expected a positive integer")


SHARED = frozenset({"login_pair", "login_name", "login_device", "recover", "rename"})  # counted in the database

_WHAT = {"create": "tables created", "join": "seats joined", "hint": "hints asked for", "players": "new players",
         "recover": "recovery attempts", "login": "login attempts", "login_name": "failed logins",
         "login_pair": "failed logins", "login_device": "failed logins", "rename": "renames",
         "daily": "daily-deal games started", "arena_create": "arenas created", "arena_join": "arena joins",
         "poll": "daily-deal and arena reads"}
_WHO = {"login_name": "for this name", "login_pair": "for this name from this address",
        "login_device": "from this device", "rename": "of this player", "arena_create": "of this player",
        "arena_join": "of this player"}  # counted per key, not per address


def address_of(request: Any) -> str:
    """The client's address (the real client's behind a trusted proxy: uvicorn's ``--forwarded-allow-ips``)."""
    client = getattr(request, "client", None)
    return client.host if client is not None and client.host else "unknown"


class Window:
    """At most ``amount`` events in any ``seconds`` (a moving window, kept by one connection)."""

    def __init__(self, amount: int, seconds: float) -> None:
        self.amount = amount
        self.seconds = seconds
        self.times: deque[float] = deque()

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if not self.room(now):
            return False
        self.times.append(now)
        return True

    def room(self, now: float) -> bool:
        """One more event would fit now (events older than the window are forgotten)."""
        while self.times and self.times[0] <= now - self.seconds:
            self.times.popleft()
        return len(self.times) < self.amount


class Limiter:
    """Moving-window counters per (action, address), and the open websockets per address."""

    def __init__(self, limits: Limits) -> None:
        self.items = {name: parse(getattr(limits, name)) for name in _WHAT}
        self.window = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self.max_connections = limits.connections
        self.open: dict[str, int] = {}
        self.on_hit: Callable[[str], None] | None = None  # told the limit's name at each refusal (the metrics)
        chat = parse(limits.chat)
        self.chat_lines, self.chat_seconds = chat.amount, float(chat.get_expiry())
        self.chats: dict[str, Window] = {}  # chat allowances by seat and by player

    def chat_window(self) -> Window:
        """A new chat allowance (one seat's, or one player's)."""
        return Window(self.chat_lines, self.chat_seconds)

    CHAT_KEEP = 10_000  # allowances kept before the idle ones are forgotten

    def chat(self, *keys: str, now: float | None = None) -> bool:
        """Count one chat line against every allowance named (a seat's ``table/seat``, a player's ``player:ID``):
        True if each has room (then each counts it), else False and nothing is counted. Allowances belong to
        seats and players, not connections: ten tabs of one seat share one.

        >>> lim = Limiter(Limits(chat="2/10 seconds"))
        >>> [lim.chat("t1/0", "player:p", now=0.0), lim.chat("t2/1", "player:p", now=1.0),
        ...  lim.chat("t2/1", now=2.0), lim.chat("t1/0", "player:p", now=3.0)]
        [True, True, True, False]
        """
        now = time.monotonic() if now is None else now
        if len(self.chats) > self.CHAT_KEEP:
            for key in [k for k, w in self.chats.items() if not w.times or w.times[-1] <= now - w.seconds]:
                del self.chats[key]
        windows = [self.chats.get(k) or self.chats.setdefault(k, self.chat_window()) for k in keys]
        if not all(w.room(now) for w in windows):
            return False
        for w in windows:
            w.times.append(now)
        return True

    def connect(self, request: Any) -> str:
        """Count one more open websocket for the request's address, or raise ``too_many_connections``.

        Returns the address, to give back to :meth:`disconnect` when the socket ends.
        """
        address = address_of(request)
        n = self.open.get(address, 0)
        if n >= self.max_connections:
            self._hit("connections")
            what = "1 connection from this address is" if n == 1 else f"{n} connections from this address are"
            raise ProtocolError("too_many_connections", f"{what} open already (limit {self.max_connections}); "
                                "close one and try again", 429)
        self.open[address] = n + 1
        return address

    def disconnect(self, address: str) -> None:
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)

    def _hit(self, name: str) -> None:
        if self.on_hit is not None:
            self.on_hit(name)

    def check(self, action: str, request: Any, key: str | None = None) -> None:
        """Count one ``action`` for the request's address (or for ``key``: a name, a player); raise
        ``rate_limited`` if over the limit."""
        who = address_of(request) if key is None else key
        if not self.window.hit(self.items[action], action, who):
            raise self.refusal(action, who)

    def room(self, action: str, key: str) -> bool:
        """One more ``action`` for ``key`` would be within the limit (nothing is counted)."""
        return bool(self.window.test(self.items[action], action, key))

    def count(self, action: str, key: str) -> None:
        """Count one ``action`` for ``key`` (over the limit or not: a failed login is counted whatever)."""
        self.window.hit(self.items[action], action, key)

    def refusal(self, action: str, key: str, advice: str = "", retry: int | None = None) -> ProtocolError:
        """The ``rate_limited`` error of ``action`` over its limit for ``key``, saying when to try again (in ``retry``
        seconds: a count kept elsewhere; else this process's count says)."""
        item = self.items[action]
        self._hit(action)  # the metrics count every refusal
        if retry is None:
            reset = self.window.get_window_stats(item, action, key).reset_time
            retry = int(reset - time.time()) + 1
        retry = max(1, retry)
        return ProtocolError("rate_limited", f"too many {_WHAT[action]} {_WHO.get(action, 'from this address')} "
                             f"(limit {item}); try again in {retry} s{advice}", 429, retry_after=retry)
