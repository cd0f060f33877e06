"""The login lockout, played against a real ``diloti serve`` as a guesser would (docs/PROTOCOL.md, "Players who
come back"): failures count per name and address and per name across addresses; while a name is locked an
unknown address gets the same refusal whatever the password (no oracle), while the owner's device (its device
cookie) or an address that signed in as the owner before still gets in, and the recovery code always works.

The limits that protect a player are counted once for the whole service (issue 47): two real processes on one
PostgreSQL, a guesser alternating between them over 25 addresses, and both lock the name at the 21st failure; the
shared counter itself (:mod:`diloti.store.counts`) on SQLite and PostgreSQL, by several engines at once as several
processes would, never lets more through than the limit; old hits are pruned; a database that cannot be reached
fails the lockout closed with a JSON ``503 unavailable``."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from diloti.server import create_app
from diloti.server.hashing import Hashing
from diloti.server.lockout import DEVICE
from diloti.store.counts import PRUNE_SECONDS, CountStore, Rule
from diloti.store.db import Store
from servers import Server, pg, server_pg

__all__ = ["pg", "server_pg"]  # fixtures
pytestmark = pytest.mark.timeout(180)
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


# ---------------------------------------------------------------------------- one service, several processes
@pytest.fixture
def two(pg: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Server, Server]]:
    """Two processes on one PostgreSQL (started side by side), signing device cookies with one secret."""
    monkeypatch.setenv("DILOTI_DEVICE_SECRET", "the same secret in every process")
    started: list[Server] = []
    failed: list[BaseException] = []

    def start() -> None:
        try:
            started.append(Server(pg))
        except BaseException as exc:
            failed.append(exc)

    threads = [threading.Thread(target=start) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        if failed:
            raise failed[0]
        yield started[0], started[1]
    finally:
        for s in started:
            s.stop()


@pytest.mark.slow
def test_two_processes_on_postgres_count_one_guesser_once(two: tuple[Server, Server], pg: str) -> None:
    """25 wrong passwords over 25 addresses, alternating between two processes: the 21st is refused by one
    process and the 22nd by the other (20 an hour for the name, counted once), and then the right password from
    a new address is refused on both with the documented lockout error; the owner's address and device still get
    in through the process that did not see them sign in."""
    a, b = two
    home = "10.0.0.1"
    made = post(a, "/api/players", {"name": "Ann"}, home)
    assert made.status_code == 201, made.text
    ann, device = made.json(), made.cookies.get(DEVICE)
    r = httpx.put(f"{a.base}/api/me/password", json={"password": RIGHT}, timeout=30,
                  headers={"Authorization": f"Bearer {ann['key']}", "X-Forwarded-For": home})
    assert r.status_code == 200, r.text
    answers = [login((a, b)[i % 2], "guess guess", f"10.5.{i}.1") for i in range(25)]
    assert [r.status_code for r in answers[:20]] == [401] * 20, [r.text for r in answers[:20]]
    assert [r.status_code for r in answers[20:]] == [429] * 5  # both processes: the 21st on a, the 22nd on b
    for r in answers[20:22]:
        assert r.json()["code"] == "rate_limited" and "failed logins for this name" in r.json()["message"]
        assert "limit 20 per 1 hour" in r.json()["message"] and int(r.headers["Retry-After"]) > 3000
    for server, address in ((a, "10.6.0.1"), (b, "10.6.0.2")):  # the right password from a new address
        r = login(server, RIGHT, address)
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
        assert "for this name" in r.json()["message"] and "recovery code" in r.json()["message"]
    # Ann signed in (became a player) through a only: b knows her address and her device all the same.
    assert login(b, RIGHT, home).status_code == 200
    r = login(b, RIGHT, "10.7.0.1", cookie=device)
    assert r.status_code == 200 and r.json()["player"] == ann["player"]
    # Recovery attempts per address and renames per player: counted once too.
    tries = [post((a, b)[i % 2], "/api/players/recover", {"recovery": "0000-0000-0000-0000-0000"}, "10.8.0.1")
             for i in range(11)]
    assert [r.status_code for r in tries] == [401] * 10 + [429]
    key = {"Authorization": f"Bearer {ann['key']}"}
    renames = [httpx.patch(f"{(a, b)[i % 2].base}/api/me", json={"name": f"Ann {i}"}, headers=key, timeout=30)
               for i in range(11)]
    assert [r.status_code for r in renames] == [200] * 10 + [429], renames[-1].text
    assert "renames of this player" in renames[-1].json()["message"]
    # What the database holds of the counts: digests, not names or addresses.
    eng = create_engine(pg.replace("postgresql://", "postgresql+psycopg://", 1))
    with eng.connect() as conn:
        keys = [k for (k,) in conn.execute(text("SELECT key FROM limit_hits"))]
        addresses = [k for (k,) in conn.execute(text("SELECT address FROM sign_ins"))]
    eng.dispose()
    assert keys and addresses and all(re.fullmatch("[0-9a-f]{64}", k) for k in keys + addresses)


# ---------------------------------------------------------------------------- the shared counter
class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_the_shared_counter_on_sqlite_is_one_count_for_every_engine(tmp_path: Path) -> None:
    """Two stores on one SQLite file, as two processes would have: one window, moving, with forgiven hits and a
    wait that says when the next hit fits; old rows pruned."""
    url = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    clock = Clock()
    one, two = CountStore(Store(url), clock), CountStore(Store(url, migrate=False), clock)
    rule = Rule("login_name", "k" * 64, 3, 600.0)
    try:
        assert [(one, two)[i % 2].take(rule, f"t{i}") for i in range(3)] == [0, 0, 0]
        assert one.take(rule, "t3") == 600 and two.take(rule, "t4") == 600  # full, whichever store asks
        clock.now += 100
        two.forgive([rule], "t1")  # a right password: that attempt is not a failure
        assert one.take(rule, "t5") == 0 and two.take(rule, "t6") == 500  # t0's hit leaves in 500 s
        clock.now += 500
        assert one.take(rule, "t7") == 0
        with one.counting([rule]) as c:
            assert [tag for _, tag in c.window(rule).hits] == ["t5", "t7"]  # t0 and t2 left with their window
        # Another key, another limit: counted apart.
        other = Rule("login_pair", "k" * 64, 1, 60.0)
        assert two.take(other, "u") == 0 and one.take(other, "v") == 60
        clock.now += 601 + PRUNE_SECONDS
        assert one.take(Rule("rename", "p" * 16, 10, 86400.0), "w") == 0  # a count prunes, once a minute
        eng = create_engine(url)
        with eng.connect() as conn:
            rows = conn.execute(text("SELECT kind FROM limit_hits")).scalars().all()
        eng.dispose()
        assert rows == ["rename"]  # the login windows had nothing left in them
        assert one.prune() == 0
    finally:
        one.store.close()
        two.store.close()


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_shared_counter_never_lets_more_through_at_once(database: str, tmp_path: Path,
                                                             request: pytest.FixtureRequest) -> None:
    """Twelve engines (twelve processes, as far as the database can tell) take one key at once: exactly the
    limit's worth get through, whatever the interleaving."""
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}" if database == "sqlite" else request.getfixturevalue("pg")
    first = Store(url)
    stores = [first] + [Store(url, migrate=False) for _ in range(11)]
    rule = Rule("login_name", "r" * 64, 5, 3600.0)
    start = threading.Barrier(len(stores))
    waits: list[int] = []

    def take(store: Store, i: int) -> None:
        counts = CountStore(store)
        start.wait()
        waits.append(counts.take(rule, f"t{i}"))

    threads = [threading.Thread(target=take, args=(s, i)) for i, s in enumerate(stores)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(waits)[:6] == [0, 0, 0, 0, 0, 3600] and len(waits) == 12, waits
    finally:
        for s in stores:
            s.close()


def test_sign_in_addresses_are_kept_per_player_and_go_with_the_player(tmp_path: Path) -> None:
    from diloti.store.players import PlayerStore

    store = Store(f"sqlite:///{tmp_path / 's.sqlite3'}")
    clock = Clock()
    counts = CountStore(store, clock)
    players = PlayerStore(store)
    try:
        players.create_player("p1", "Ann", "ann", "k" * 64, "r" * 64)
        for i in range(12):
            clock.now += 1
            counts.signed_in("p1", f"{i:064x}")
        with counts.counting([]) as c:
            assert [c.known("p1", f"{i:064x}") for i in range(12)] == [False] * 2 + [True] * 10  # the latest 10
            assert not c.known("p2", f"{11:064x}")
        players.delete_player("p1")
        with counts.counting([]) as c:
            assert not c.known("p1", f"{11:064x}")
    finally:
        store.close()


# ---------------------------------------------------------------------------- a database out of reach
@pytest.mark.parametrize("route", ["login", "recover"])
def test_a_database_out_of_reach_fails_the_lockout_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture, route: str) -> None:
    """The count cannot be read or written: the request is a JSON 503 (try again shortly), no password is
    checked, and the log has one line, no traceback."""
    checked: list[str] = []

    async def never(self: Hashing, stored: str, password: str) -> bool:
        checked.append(password)
        return True

    def down(self: CountStore, rules: Any) -> Any:
        raise OperationalError("SELECT hits FROM limit_hits", {}, Exception("could not connect to server"))

    with TestClient(create_app(f"sqlite:///{tmp_path / 'd.sqlite3'}")) as client:
        ann = client.post("/api/players", json={"name": "Ann"}).json()
        assert client.put("/api/me/password", json={"password": RIGHT},
                          headers={"Authorization": f"Bearer {ann['key']}"}).status_code == 200
        monkeypatch.setattr(Hashing, "verify", never)
        monkeypatch.setattr(CountStore, "counting", down)
        caplog.set_level(logging.ERROR, logger="diloti.server")
        if route == "login":
            r = client.post("/api/login", json={"name": "Ann", "password": RIGHT})
        else:
            r = client.post("/api/players/recover", json={"recovery": ann["recovery"]})
    assert r.status_code == 503 and r.json()["code"] == "unavailable" and r.headers["Retry-After"] == "5", r.text
    assert checked == []
    lines = [rec for rec in caplog.records if rec.name == "diloti.server"]
    assert [rec.getMessage() for rec in lines] == ["database trouble: OperationalError: (builtins.Exception) could "
                                                    "not connect to server"]
    assert all(rec.exc_info is None for rec in lines)
