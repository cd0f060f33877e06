"""The lockout policy of password logins, as OWASP's guidance on lockout and device cookies describes it.

Failed logins are counted per name and client address (``login_pair``), per name from any address
(``login_name``: guessing spread over many addresses) and per trusted device (``login_device``). A name
over its limit is locked only for the unknown: a **device** that signed in as that player before (it holds
a device cookie, signed by the server, naming the player) or an **address** that did, still gets through
with the right password. A refused attempt is refused before its password is checked, with the same
answer whatever the password, so the right password is no oracle while the name is locked. The recovery
code is never subject to any of this (its own per-address limit only).

>>> from types import SimpleNamespace
>>> from diloti.server.limits import Limiter, Limits
>>> guard = LoginGuard(Limiter(Limits(login_pair="9/hour", login_name="2/hour")), b"k" * 32)
>>> ann = SimpleNamespace(id="p1")
>>> def at(address, cookie=None):
...     return SimpleNamespace(client=SimpleNamespace(host=address), cookies={DEVICE: cookie} if cookie else {})
>>> for address in ("10.0.0.1", "10.0.0.2"):  # a guesser spreads failures over addresses
...     guard.failed(guard.check(at(address), "ann", ann))
>>> try:
...     guard.check(at("10.0.0.3"), "ann", ann)  # an unknown address: refused, the password unchecked
... except Exception as exc:
...     print(exc.code)
rate_limited
>>> cookie = guard.cookie("p1")
>>> guard.check(at("10.0.0.3", cookie), "ann", ann).device is not None  # the owner's device gets through
True
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from diloti.server.limits import Limiter, address_of

DEVICE = "diloti_device"  # the device cookie's name
DEVICE_DAYS = 365  # how long a device stays trusted after its last sign-in
KNOWN_PLAYERS = 100_000  # players whose sign-in addresses are remembered (the least recent forgotten first)
KNOWN_ADDRESSES = 10  # addresses remembered per player
ADVICE = ("; a device or address that signed in as this player before may still sign in, and the recovery code "
          "always works")


@dataclass(frozen=True)
class Attempt:
    """One login attempt let through to the password check: who tries, from where, and the trusted device
    (the device cookie's nonce) if it came from one."""

    name_key: str
    address: str
    player_id: str | None
    device: str | None


class LoginGuard:
    """Counts failed logins and decides, before the password is checked, whether an attempt may be made.

    ``secret`` signs the device cookies: ``DILOTI_DEVICE_SECRET`` (the same for every process of a
    deployment, so that cookies outlive a restart), else a random one for this process.
    """

    def __init__(self, limiter: Limiter, secret: bytes | None = None) -> None:
        self.limiter = limiter
        env = os.environ.get("DILOTI_DEVICE_SECRET", "").encode()
        self.secret = secret or env or secrets.token_bytes(32)
        self.known: OrderedDict[str, list[str]] = OrderedDict()  # player id -> addresses that signed in as them

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
    def check(self, request: Any, name_key: str, player: Any) -> Attempt:
        """Let an attempt through to the password check, or raise ``rate_limited`` (the password unchecked)."""
        address = address_of(request)
        pid = player.id if player is not None else None
        device = self.device(request, pid) if pid is not None else None
        if device is not None and self.limiter.room("login_device", device):
            return Attempt(name_key, address, pid, device)  # a trusted device: only its own failures count
        pair = f"{name_key}|{address}"
        if not self.limiter.room("login_pair", pair):
            raise self.limiter.refusal("login_pair", pair, ADVICE)
        known = pid is not None and address in self.known.get(pid, ())
        if not known and not self.limiter.room("login_name", name_key):
            raise self.limiter.refusal("login_name", name_key, ADVICE)
        return Attempt(name_key, address, pid, None)

    def failed(self, attempt: Attempt) -> None:
        """Count a wrong password."""
        if attempt.device is not None:
            self.limiter.count("login_device", attempt.device)
            return
        self.limiter.count("login_pair", f"{attempt.name_key}|{attempt.address}")
        self.limiter.count("login_name", attempt.name_key)

    def signed_in(self, request: Any, response: Any, pid: str) -> None:
        """A sign-in (a login, a new player, a recovery) as ``pid``: remember the address, and give the device
        a device cookie (``response``: the reply to set it on, if any)."""
        address = address_of(request)
        seen = self.known.pop(pid, [])
        self.known[pid] = ([address] + [a for a in seen if a != address])[:KNOWN_ADDRESSES]
        while len(self.known) > KNOWN_PLAYERS:
            self.known.popitem(last=False)
        if response is not None:
            secure = getattr(getattr(request, "url", None), "scheme", "") == "https"
            response.set_cookie(DEVICE, self.cookie(pid), max_age=DEVICE_DAYS * 86400, path="/api/",
                                httponly=True, samesite="strict", secure=secure)
