"""Health that tells the truth, and a JSON answer to every failure (diloti.server.health), on real processes.

A real ``diloti serve`` on the project's PostgreSQL, reached through a relay the test cuts: a database
outage as the server sees it. ``/healthz`` stays 200 (alive), ``/readyz`` turns 503 within its timeout
and back to 200 once the database is back; creating a table meanwhile is a JSON 503, and the log
says ``database trouble``. A NUL byte in an id or a body is a 400 naming the input.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import text

from diloti.store.db import Store
from servers import Relay, Server, pg, server_pg

__all__ = ["pg", "server_pg"]  # fixtures
pytestmark = [pytest.mark.slow]


@pytest.fixture
def relayed(pg: str) -> Iterator[tuple[Server, Relay]]:
    relay = Relay(pg)
    server = Server(relay.url)
    try:
        yield server, relay
    finally:
        server.stop()
        relay.close()


def until(check: object, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.1)


def test_ready_follows_the_database_and_failures_are_json(relayed: tuple[Server, Relay]) -> None:
    server, relay = relayed
    ready = httpx.get(f"{server.base}/readyz", timeout=10)
    assert ready.status_code == 200 and ready.json() == {"ok": True, "database": True, "listener": True}
    relay.cut()
    t0 = time.monotonic()
    r = httpx.get(f"{server.base}/readyz", timeout=20)
    assert r.status_code == 503 and r.json()["database"] is False and time.monotonic() - t0 < 8, r.text
    assert httpx.get(f"{server.base}/healthz", timeout=5).status_code == 200  # alive all the same
    made = httpx.post(f"{server.base}/api/tables", json={"name": "Ann"}, timeout=20)
    assert made.status_code == 503, made.text
    assert made.json()["code"] == "unavailable" and made.headers["retry-after"] == "5"
    until(lambda: httpx.get(f"{server.base}/readyz", timeout=20).json()["listener"] is False)
    relay.mend()
    until(lambda: httpx.get(f"{server.base}/readyz", timeout=20).status_code == 200)
    assert httpx.post(f"{server.base}/api/tables", json={"name": "Ann"}, timeout=20).status_code == 201
    counted = httpx.get(f"{server.base}/metrics", timeout=10).text
    assert 'diloti_database_errors_total{kind="request"} 1.0' in counted
    assert 'diloti_database_errors_total{kind="listener"}' in counted
    server.stop()
    log = server.log
    assert "database trouble: " in log and "Traceback" not in log.split("database trouble")[1][:300], log[-2000:]


def test_nul_bytes_are_a_400_naming_the_input(relayed: tuple[Server, Relay]) -> None:
    server, _ = relayed
    for path in ("/api/tables/ab%00cd", "/api/tables/ab%00cd/join", "/api/players/x%00y", "/api/tables?status=o%00"):
        r = httpx.request("POST" if path.endswith("join") else "GET", f"{server.base}{path}", json={}, timeout=10)
        assert r.status_code == 400 and r.json()["code"] == "bad_request", (path, r.text)
        assert "control characters" in r.json()["message"]
    r = httpx.post(f"{server.base}/api/login", json={"name": "A\u0000n", "password": "x" * 12}, timeout=10)
    assert r.status_code == 400 and r.json()["message"] == "invalid name: a NUL character is not allowed", r.text
    seats = [{"kind": "hu\u0000"}, {"kind": "human"}]
    r = httpx.post(f"{server.base}/api/tables", json={"name": "Ann", "seats": seats}, timeout=10)
    assert r.status_code == 400 and "seats[0].kind" in r.json()["message"], r.text


def test_database_timeouts_are_set(pg: str) -> None:
    store = Store(pg)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("SHOW statement_timeout")).scalar() == "30s"
            assert conn.execute(text("SHOW idle_in_transaction_session_timeout")).scalar() == "1min"
    finally:
        store.close()
