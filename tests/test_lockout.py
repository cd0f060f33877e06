"""The login lockout, played against a real ``diloti serve`` as a guesser would (docs/PROTOCOL.md, "Players who
come back"): failures count per name and address and per name across addresses; while a name is locked an
unknown address gets the same refusal whatever the password (no oracle), while the owner's device (its device
cookie) or an address that signed in as the owner before still gets in, and the recovery code always works."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from diloti.server.lockout import DEVICE
from servers import Server

pytestmark = pytest.mark.timeout(120)
RIGHT = "correct horse battery"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    # The default --forwarded-allow-ips trusts a proxy on this machine: X-Forwarded-For names the client.
    srv = Server(f"sqlite:///{tmp_path / 'd.sqlite3'}")
    try:
        yield srv
    finally:
        srv.stop()


def post(server: Server, path: str, body: dict[str, Any], address: str, **headers: str) -> httpx.Response:
    return httpx.post(f"{server.base}{path}", json=body, timeout=30,
                      headers={"X-Forwarded-For": address, **headers})


def login(server: Server, password: str, address: str, cookie: str | None = None) -> httpx.Response:
    extra = {"Cookie": f"{DEVICE}={cookie}"} if cookie else {}
    return post(server, "/api/login", {"name": "Ann", "password": password}, address, **extra)


def test_guessing_is_stopped_without_locking_the_owner_out(server: Server) -> None:
    home = "10.0.0.1"
    made = post(server, "/api/players", {"name": "Ann"}, home)
    assert made.status_code == 201
    ann = made.json()
    device = made.cookies.get(DEVICE)
    assert device and ann["player"] in device
    r = httpx.put(f"{server.base}/api/me/password", json={"password": RIGHT}, timeout=30,
                  headers={"Authorization": f"Bearer {ann['key']}", "X-Forwarded-For": home})
    assert r.status_code == 200, r.text
    # One address guessing: 5 failures in 15 minutes for the name from that address.
    for _ in range(5):
        assert login(server, "guess guess", "10.9.9.9").status_code == 401
    r = login(server, RIGHT, "10.9.9.9")
    assert r.status_code == 429 and "from this address" in r.json()["message"]
    # Guessing spread over many addresses: 20 failures an hour lock the name for the unknown.
    for i in range(15):
        assert login(server, "guess guess", f"10.1.{i}.1").status_code == 401
    stranger = [login(server, pw, "10.2.0.1") for pw in (RIGHT, "guess guess")]
    assert [r.status_code for r in stranger] == [429, 429]  # the same answer: the right password is no oracle
    assert stranger[0].json()["code"] == stranger[1].json()["code"] == "rate_limited"
    assert "recovery code" in stranger[0].json()["message"]
    # The owner still gets in: from the address that signed in before, and from their device anywhere.
    assert login(server, RIGHT, home).status_code == 200
    r = login(server, RIGHT, "10.3.0.1", cookie=device)
    assert r.status_code == 200 and r.json()["player"] == ann["player"]
    forged = device.rsplit(".", 1)[0] + ".0123456789abcdef0123456789abcdef"
    assert login(server, RIGHT, "10.3.0.2", cookie=forged).status_code == 429  # a forged cookie is no device
    # The recovery code always works, from anywhere.
    r = post(server, "/api/players/recover", {"recovery": ann["recovery"]}, "10.4.0.1")
    assert r.status_code == 200 and r.json()["player"] == ann["player"]
