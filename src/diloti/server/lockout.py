"""The lockout policy of password logins, as OWASP's guidance on lockout and device cookies describes it, and the
other limits that protect a player (recovery attempts per address, renames per player), counted once for the whole
service.

Failed logins are counted per name and client address (``login_pair``), per name from any address
(``login_name``: guessing spread over many addresses) and per trusted device (``login_device``). A name
over its limit is locked only for the unknown: a **device** that signed in as that player before (it holds
a device cookie, signed by the server, naming the player) or an **address** that did, still gets through
with the right password. A refused attempt is refused before its password is checked, with the same
answer whatever the password, so the right password is no oracle while the name is locked. The recovery
code is never subject to any of this (its own per-address limit only).

Every count, and the addresses players signed in from, are kept in the database all the server processes share
(:mod:`diloti.store.counts`; keys stored as SHA-256 digests), not in a process: two processes count a guesser once.
An attempt is counted *when it is let through*, in the same transaction that checks the limits (so any number of
attempts at once, through any processes, get at most the limit's worth past the check), and forgiven once its
password proves right (or if it was never checked: ``503 busy``). A database that cannot be reached fails the
request closed: it is answered ``503 unavailable`` (``diloti.server.health``) and no password is checked.

>>> import asyncio, tempfile, os
>>> from types import SimpleNamespace
>>> from diloti.server.limits import Limiter, Limits
>>> from diloti.store.db import Store
>>> store = Store(f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'l.sqlite3')}")
>>> guard = LoginGuard(Limiter(Limits(login_pair="9/hour", login_name="2/hour")), lambda: store, secret=b"k" * 32)
>>> ann = SimpleNamespace(id="p1")
>>> def at(address, cookie=None):
...     return SimpleNamespace(client=SimpleNamespace(host=address), cookies={DEVICE: cookie} if cookie else {})
>>> async def wrong(attempt):
...     return False
>>> for address in ("10.0.0.1", "10.0.0.2"):  # a guesser spreads failures over addresses
...     attempt = asyncio.run(guard.check(at(address), "ann", ann))
...     asyncio.run(guard.verify(attempt, wrong(attempt)))
False
False
>>> try:
...     asyncio.run(guard.check(at("10.0.0.3"), "ann", ann))  # an unknown address: refused, the password unchecked
... except Exception as exc:
...     print(exc.code)
rate_limited
>>> cookie = guard.cookie("p1")
>>> asyncio.run(guard.check(at("10.0.0.3", cookie), "ann", ann)).device is not None  # the owner's device gets in
True
>>> store.close()
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from diloti.server.limits import SHARED, Limiter, address_of
from diloti.server.protocol import ProtocolError
from diloti.store.counts import CountStore, Rule
from diloti.store.db import Store

DEVICE = "diloti_device"  # the device cookie's name
DEVICE_DAYS = 365  # how long a device stays trusted after its last sign-in
ADVICE = ("; a device or address that signed in as this player before may still sign in, and the recovery code "
          "always works")


def digest(text: str) -> str:
    """What the database stores of a name, an address or a device: its SHA-256 (64 hex digits)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Attempt:
    """One login attempt let through to the password check: who tries, from where, the trusted device (the device
    cookie's nonce) if it came from one, and what it was counted against (``rules``, as attempt ``tag``)."""

    name_key: str
    address: str
    player_id: str | None
    device: str | None
    tag: str = ""
    rules: tuple[Rule, ...] = ()


class LoginGuard:
    """Counts logins and decides, before the password is checked, whether an attempt may be made; counts the other
    limits that protect a player (:meth:`take`).

    ``store`` gives the database the counts are kept in (every process's), ``run`` runs a blocking call off the
    event loop (the server's database thread; by default a thread of asyncio's). ``secret`` signs the device
    cookies: ``DILOTI_DEVICE_SECRET`` (the same for every process of a deployment, so that cookies outlive a
    restart), else a random one for this process.
    """

    def __init__(self, limiter: Limiter, store: Callable[[], Store], run: Callable[..., Awaitable[Any]] | None = None,
                 secret: bytes | None = None) -> None:
        self.limiter = limiter
        self.store = store
        self.run: Callable[..., Awaitable[Any]] = run or asyncio.to_thread
        env = os.environ.get("DILOTI_DEVICE_SECRET", "").encode()
        self.secret = secret or env or secrets.token_bytes(32)
        self._counts: CountStore | None = None

    def counts(self) -> CountStore:
        """The shared counts, on the current store."""
        store = self.store()
        if self._counts is None or self._counts.store is not store:
            self._counts = CountStore(store)
        return self._counts

    def rule(self, action: str, key: str) -> Rule:
        """``action``'s limit (``Limits``; one of :data:`~diloti.server.limits.SHARED`) on ``key``, as the database
        counts it."""
        if action not in SHARED:
            raise ValueError(f"{action!r} is counted per process, not in the database")
        item = self.limiter.items[action]
        return Rule(action, digest(key), int(item.amount), float(item.get_expiry()))

    # ------------------------------------------------------------ device cookies
    def _mac(self, pid: str, nonce: str) -> str:
        return hmac.new(self.secret, f"{pid}.{nonce}".encode(), hashlib.sha256).hexdigest()[:32]

    def cookie(self, pid: str) -> str:
        """A new device cookie's value for a player: ``PLAYER.NONCE.MAC``."""
        nonce = secrets.token_urlsafe(12)
        return f"{pid}.{nonce}.{self._mac(pid, nonce)}"

    def device(self, request: Any, pid: str) -> str | None:
        """The nonce of the request's device cookie if it is a good one for this player, else None."""
        raw = getattr(request, "cookies", {}).get(DEVICE)
        if not isinstance(raw, str) or len(raw) > 200 or raw.count(".") != 2:
            return None
        who, nonce, mac = raw.split(".")
        if who != pid or not hmac.compare_digest(mac, self._mac(pid, nonce)):
            return None
        return nonce

    # ------------------------------------------------------------ the policy
    async def check(self, request: Any, name_key: str, player: Any) -> Attempt:
        """Let an attempt through to the password check, counted as a failure until :meth:`verify` says otherwise,
        or raise ``rate_limited`` (the password unchecked, nothing counted)."""
        address = address_of(request)
        pid = player.id if player is not None else None
        device = self.device(request, pid) if pid is not None else None
        rules = {"login_pair": self.rule("login_pair", json.dumps([name_key, address])),
                 "login_name": self.rule("login_name", name_key)}
        if device is not None:
            rules["login_device"] = self.rule("login_device", device)
        attempt = Attempt(name_key, address, pid, device, secrets.token_hex(8))
        out = await self.run(self._check, self.counts(), rules, attempt, digest(address))
        if isinstance(out, Attempt):
            return out
        action, retry = out
        raise self.limiter.refusal(action, name_key, ADVICE, retry)

    @staticmethod
    def _check(counts: CountStore, rules: dict[str, Rule], attempt: Attempt, address: str) -> Attempt | tuple[str, int]:
        """The policy, in one transaction holding the keys' windows (on the database's thread)."""
        with counts.counting(list(rules.values())) as c:
            device = rules.get("login_device")
            if device is not None and c.window(device).room():  # a trusted device: only its own failures count
                c.window(device).add(attempt.tag)
                return replace(attempt, rules=(device,))
            pair, name = c.window(rules["login_pair"]), c.window(rules["login_name"])
            if not pair.room():
                return "login_pair", pair.retry()
            known = attempt.player_id is not None and c.known(attempt.player_id, address)
            if not known and not name.room():
                return "login_name", name.retry()
            pair.add(attempt.tag)
            name.add(attempt.tag)
            return replace(attempt, device=None, rules=(pair.rule, name.rule))

    async def verify(self, attempt: Attempt, check: Awaitable[bool]) -> bool:
        """The password check of an attempt let through: a wrong password stays counted; a right one is forgiven,
        and so is a check that never ran (``503 busy``)."""
        try:
            right = await check
        except ProtocolError:
            await self.run(self.counts().forgive, attempt.rules, attempt.tag)
            raise
        if right:
            await self.run(self.counts().forgive, attempt.rules, attempt.tag)
        return right

    async def take(self, action: str, request: Any, key: str | None = None) -> None:
        """Count one ``action`` for the request's address (or for ``key``: a player) for the whole service; raise
        ``rate_limited`` (nothing counted) if over the limit."""
        who = address_of(request) if key is None else key
        retry = await self.run(self.counts().take, self.rule(action, who), secrets.token_hex(8))
        if retry:
            raise self.limiter.refusal(action, who, retry=retry)

    async def signed_in(self, request: Any, response: Any, pid: str) -> None:
        """A sign-in (a login, a new player, a recovery) as ``pid``: remember the address, and give the device
        a device cookie (``response``: the reply to set it on, if any)."""
        await self.run(self.counts().signed_in, pid, digest(address_of(request)))
        if response is not None:
            secure = getattr(getattr(request, "url", None), "scheme", "") == "https"
            response.set_cookie(DEVICE, self.cookie(pid), max_age=DEVICE_DAYS * 86400, path="/api/",
                                httponly=True, samesite="strict", secure=secure)
