"""The metrics a dashboard needs and docs/DEPLOY.md's alerts (issue 47, item 4): every series there from the first
scrape at 0, and each alert's condition brought about and its expression computed from the scraped text.

The app runs in this process (the framework's test client, as the loopback: ``/metrics`` answers it), so a test can
hold the event loop, lower this process's open-file limit or check out the database pool's connections itself.
"""

from __future__ import annotations

import asyncio
import functools
import math
import os
import re
import resource
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy.exc
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import WebSocketTestSession

from diloti import CORE, __version__
from diloti.server import create_app
from diloti.server.limits import Limiter, Limits
from diloti.server.metrics import DB_TROUBLES, LIMITS, STATUSES, UNMATCHED, route_methods, route_template
from diloti.server.tables import TableManager

pytestmark = pytest.mark.timeout(120)
ROOT = Path(__file__).resolve().parents[1]
Samples = list[tuple[str, dict[str, str], float]]


def make_app(tmp_path: Path) -> FastAPI:
    app = create_app(f"sqlite:///{tmp_path / 'd.sqlite3'}", workers=1)

    # Test-only routes, added before the app first runs (so they are known routes, with their series at 0).
    @app.get("/test/block")
    async def block(seconds: float = 0.2) -> dict[str, bool]:
        time.sleep(seconds)  # on the event loop, on purpose: every other task waits
        return {"ok": True}

    @app.get("/test/fail")
    async def fail() -> dict[str, bool]:
        raise RuntimeError("a fault, for the 5xx alert")

    return app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path), client=("127.0.0.1", 50000)) as c:
        yield c


def manager(client: TestClient) -> TableManager:
    m: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    return m


def scrape(client: TestClient) -> str:
    r = client.get("/metrics")
    assert r.status_code == 200, r.text
    return r.text


@functools.lru_cache(maxsize=16)
def samples(text: str) -> Samples:
    return [(s.name, dict(s.labels), s.value) for f in text_string_to_metric_families(text) for s in f.samples]


def get(text: str, name: str, **labels: str) -> float:
    """The value of the one series ``name{labels}`` (labels in any order)."""
    found = [v for n, ls, v in samples(text) if n == name and ls == labels]
    assert len(found) == 1, f"{len(found)} series {name}{labels} in the metrics"
    return found[0]


def total(text: str, name: str, **labels: str) -> float:
    """The sum of every series ``name`` whose labels include ``labels`` (PromQL's ``sum(name{labels})``)."""
    return sum(v for n, ls, v in samples(text) if n == name and labels.items() <= ls.items())


def quantile(q: float, before: str, after: str, name: str) -> float:
    """PromQL's ``histogram_quantile(q, increase(name_bucket[...]))`` between two scrapes (Prometheus's linear
    interpolation inside the bucket)."""
    def buckets(text: str) -> dict[float, float]:
        return {float(ls["le"]): v for n, ls, v in samples(text) if n == f"{name}_bucket"}

    b0, b1 = buckets(before), buckets(after)
    counts = sorted((le, b1[le] - b0.get(le, 0.0)) for le in b1)
    rank = q * counts[-1][1]
    low, below = 0.0, 0.0
    for le, n in counts:
        if n >= rank:
            if math.isinf(le):
                return low
            return low + (le - low) * (rank - below) / (n - below) if n > below else le
        low, below = le, n
    return math.nan


def poll(client: TestClient, ok: Callable[[str], bool], seconds: float = 10.0) -> str:
    """Scrape until ``ok(text)`` (what the server records after it answered: the next loop turn)."""
    deadline = time.monotonic() + seconds
    while True:
        text = scrape(client)
        if ok(text):
            return text
        assert time.monotonic() < deadline, "the metrics never showed it"
        time.sleep(0.02)


def alert_exprs() -> dict[str, str]:
    """docs/DEPLOY.md's alerting rules: the expression of each alert, by name."""
    doc = (ROOT / "docs" / "DEPLOY.md").read_text()
    block = doc.split("### Alerts", 1)[1].split("```yaml", 1)[1].split("```", 1)[0]
    return dict(re.findall(r"- alert: (\w+).*?\n\s+expr: (.+)", block))


def test_every_series_is_there_from_the_first_scrape_at_zero(client: TestClient) -> None:
    text = scrape(client)
    app = client.app
    assert isinstance(app, FastAPI)
    # Every route and method, with every status class, and the unmatched requests: 0 (the scrape is counted
    # once answered).
    known = [(route_template(r), m) for r in app.routes for m in route_methods(r)]
    assert ("/api/tables/{table_id}", "GET") in known and ("/static/{path}", "GET") in known
    for route, method in [*known, (UNMATCHED, "GET")]:
        for status in STATUSES:
            assert get(text, "diloti_http_requests_total", route=route, method=method, status=status) == 0
        assert get(text, "diloti_http_request_seconds_count", route=route, method=method) == 0
    for kind in DB_TROUBLES:
        assert get(text, "diloti_database_errors_total", kind=kind) == 0
    for limit in LIMITS:
        assert get(text, "diloti_limits_hit_total", limit=limit) == 0
    assert get(text, "diloti_move_round_trip_seconds_count") == 0
    assert get(text, "diloti_build_info", version=__version__, core=CORE) == 1
    assert get(text, "diloti_database_pool_size") == 5 and get(text, "diloti_database_pool_max") == 15
    assert get(text, "diloti_database_pool_checked_out") == 0
    assert get(text, "diloti_database_pool_waits_total") == get(text, "diloti_database_pool_timeouts_total") == 0
    assert get(text, "diloti_event_loop_lag_seconds_count") >= 0
    if Path("/proc/self/fd").is_dir():  # prometheus_client reads the process's figures from /proc
        for name in ("process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds",
                     "process_max_fds", "process_start_time_seconds"):
            assert get(text, name) > 0, name
    # Every metric the alerts and the table of docs/DEPLOY.md name is there now.
    exprs = alert_exprs()
    assert len(exprs) >= 10, exprs
    names = {n for e in exprs.values() for n in re.findall(r"\b(?:diloti|process)_[a-z_]+\b", e)}
    table = (ROOT / "docs" / "DEPLOY.md").read_text().split("## What to watch", 1)[1].split("### Alerts", 1)[0]
    names |= set(re.findall(r"`((?:diloti|process)_[a-z_]+)`", table))
    assert {"diloti_move_round_trip_seconds_bucket", "process_max_fds", "diloti_database_pool_max"} <= names
    present = {n for n, _, _ in samples(text)} | {f.name for f in text_string_to_metric_families(text)}
    assert not names - present, f"named in docs/DEPLOY.md, not in the metrics: {sorted(names - present)}"


def test_the_known_label_values_are_every_one_the_server_reports() -> None:
    assert set(LIMITS) == {*Limiter(Limits()).items, "connections"}
    source = "\n".join(p.read_text() for p in (ROOT / "src" / "diloti" / "server").glob("*.py"))
    kinds = set(re.findall(r"(?:_trouble|db_errors\.labels)\(\"(\w+)\"\)", source))
    assert kinds and kinds <= set(DB_TROUBLES), kinds


def test_http_requests_are_counted_by_route_template_and_the_5xx_alert_fires(client: TestClient) -> None:
    before = scrape(client)
    assert client.get("/api/tables/nosuchtable").status_code == 404
    assert client.get("/api/tables/another").status_code == 404
    assert client.post("/api/tables", json={"name": "Ann"}).status_code == 201
    assert client.get("/no/such/page/123").status_code == 404
    assert client.get("/static/nosuchfile.js").status_code == 404
    assert client.put("/api/info").status_code == 405
    after = scrape(client)
    assert get(after, "diloti_http_requests_total", route="/api/tables/{table_id}", method="GET", status="4xx") == 2
    assert get(after, "diloti_http_request_seconds_count", route="/api/tables/{table_id}", method="GET") == 2
    assert get(after, "diloti_http_requests_total", route="/api/tables", method="POST", status="2xx") == 1
    assert get(after, "diloti_http_requests_total", route=UNMATCHED, method="GET", status="4xx") == 1
    assert get(after, "diloti_http_requests_total", route="/static/{path}", method="GET", status="4xx") == 1
    assert get(after, "diloti_http_requests_total", route="/api/info", method="PUT", status="4xx") == 1
    assert get(after, "diloti_http_requests_total", route="/metrics", method="GET", status="2xx") == 1
    for raw in ("nosuchtable", "/no/such", "nosuchfile"):  # never a raw path as a label
        assert raw not in after
    # DilotiHttpErrors: the share of 5xx over the window, between two scrapes.
    expr = alert_exprs()["DilotiHttpErrors"]
    assert 'status="5xx"' in expr and expr.endswith("> 0.01")

    def share_5xx(a: str, b: str) -> float:
        errors = total(b, "diloti_http_requests_total", status="5xx") - total(a, "diloti_http_requests_total",
                                                                              status="5xx")
        return errors / (total(b, "diloti_http_requests_total") - total(a, "diloti_http_requests_total"))

    assert share_5xx(before, after) == 0
    assert client.get("/test/fail").status_code == 500
    failed = scrape(client)
    assert get(failed, "diloti_http_requests_total", route="/test/fail", method="GET", status="5xx") == 1
    assert share_5xx(after, failed) > 0.01


def test_the_loop_lag_rises_when_the_loop_is_held(client: TestClient) -> None:
    def late(text: str) -> float:  # samples later than 0.1 s
        return get(text, "diloti_event_loop_lag_seconds_count") - get(text, "diloti_event_loop_lag_seconds_bucket",
                                                                     le="0.1")

    time.sleep(0.3)  # some samples of an idle loop
    before = scrape(client)
    assert client.get("/test/block", params={"seconds": 0.2}).status_code == 200
    after = poll(client, lambda t: late(t) > late(before))
    assert late(after) >= late(before) + 1
    assert get(after, "diloti_event_loop_lag_max_seconds") >= 0.15  # 0.2 s held, sampled every 0.05 s
    # DilotiEventLoopLag: p99 of the samples over the window > 0.1 s (one sample in a few dozen here).
    assert "diloti_event_loop_lag_seconds_bucket" in alert_exprs()["DilotiEventLoopLag"]
    assert quantile(0.99, before, after, "diloti_event_loop_lag_seconds") > 0.1
    # DilotiEventLoopStalled: the worst lag of the last 30 s over a second.
    assert alert_exprs()["DilotiEventLoopStalled"].endswith("> 1")
    assert client.get("/test/block", params={"seconds": 1.1}).status_code == 200
    poll(client, lambda t: get(t, "diloti_event_loop_lag_max_seconds") > 1)


def state_for(ws: WebSocketTestSession, ply: int) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and msg["ply"] == ply:
            return dict(msg)


def test_a_moves_round_trip_as_the_player_feels_it(client: TestClient) -> None:
    t = client.post("/api/tables", json={"name": "Ann"}).json()
    bob = client.post(f"/api/tables/{t['table']}/join", json={"name": "Bob"}).json()
    count = "diloti_move_round_trip_seconds_count"
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        socks = {0: a, 1: b}
        for ws, token in ((a, t["token"]), (b, bob["token"])):
            ws.send_json({"type": "hello", "table": t["table"], "token": token})
        states = {seat: state_for(ws, 0) for seat, ws in socks.items()}
        for ply in range(2):
            turn = states[0]["turn"]
            socks[turn].send_json({"type": "move", "move": states[turn]["legal"][0]["move"], "ply": ply})
            states = {seat: state_for(ws, ply + 1) for seat, ws in socks.items()}
        text = poll(client, lambda t: get(t, count) == 2)
        assert get(text, "diloti_moves_stored_total") == 2
        assert get(text, "diloti_move_round_trip_seconds_sum") >= get(text, "diloti_move_store_seconds_sum") > 0
        # A refused move (stale) is not a round trip.
        turn = states[0]["turn"]
        socks[turn].send_json({"type": "move", "move": states[turn]["legal"][0]["move"], "ply": 0})
        assert socks[turn].receive_json()["code"] == "stale"
        assert get(scrape(client), count) == 2
        expr = alert_exprs()["DilotiMoveRoundTripSlow"]
        assert "diloti_move_round_trip_seconds_bucket" in expr and expr.endswith("> 0.5")
        # DilotiMoveRoundTripSlow: a slow commit (0.6 s, test-only) makes a move that its player waits for.
        storage = manager(client).storage
        store_move = storage.store_move

        async def slow(*args: Any, **kw: Any) -> None:
            await asyncio.sleep(0.6)
            await store_move(*args, **kw)

        storage.store_move = slow  # type: ignore[method-assign]
        socks[turn].send_json({"type": "move", "move": states[turn]["legal"][0]["move"], "ply": 2})
        state_for(socks[turn], 3)
        slow_text = poll(client, lambda t: get(t, count) == 3)
        assert quantile(0.99, text, slow_text, "diloti_move_round_trip_seconds") > 0.5


def test_open_files_near_the_limit_fire_their_alert(client: TestClient) -> None:
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("no /proc: prometheus_client reports no process_* here")
    expr = alert_exprs()["DilotiFilesNearLimit"]
    assert "process_open_fds" in expr and "process_max_fds" in expr and expr.endswith("> 0.8")

    def ratio(text: str) -> float:
        return get(text, "process_open_fds") / get(text, "process_max_fds")

    assert ratio(scrape(client)) < 0.8
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    opened: list[int] = []
    try:
        # This process's soft limit lowered to 100 files more than it holds, then 85 % of it filled.
        limit = len(os.listdir("/proc/self/fd")) + 100
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
        while len(os.listdir("/proc/self/fd")) < 0.85 * limit:
            opened.append(os.open(os.devnull, os.O_RDONLY))
        text = scrape(client)
        assert get(text, "process_max_fds") == limit
        assert ratio(text) > 0.8
    finally:
        for fd in opened:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert ratio(scrape(client)) < 0.8


def test_an_exhausted_database_pool_fires_its_alerts(client: TestClient) -> None:
    engine = manager(client).store.engine
    pool = engine.pool
    text = scrape(client)
    most = get(text, "diloti_database_pool_max")
    checkouts = get(text, "diloti_database_checkout_seconds_count")
    assert "diloti_database_pool_checked_out" in alert_exprs()["DilotiDatabasePoolExhausted"]
    assert "diloti_database_pool_timeouts_total" in alert_exprs()["DilotiDatabasePoolTimeouts"]
    held = []
    timeout = pool._timeout  # type: ignore[attr-defined]
    pool._timeout = 0.2  # type: ignore[attr-defined]  # test-only: a request gives up in 0.2 s, not 30
    try:
        held = [engine.connect() for _ in range(int(most))]
        full = scrape(client)
        assert get(full, "diloti_database_pool_checked_out") >= get(full, "diloti_database_pool_max") == most
        assert get(full, "diloti_database_pool_overflow") == most - get(full, "diloti_database_pool_size")
        with pytest.raises(sqlalchemy.exc.TimeoutError):
            engine.connect()
        timed_out = scrape(client)
        assert get(timed_out, "diloti_database_pool_waits_total") >= 1
        timeouts = "diloti_database_pool_timeouts_total"
        assert get(timed_out, timeouts) >= get(full, timeouts) + 1
        assert get(timed_out, "diloti_database_checkout_seconds_count") >= checkouts + most + 1
        assert get(timed_out, "diloti_database_checkout_seconds_bucket", le="0.1") < \
            get(timed_out, "diloti_database_checkout_seconds_count")  # the 0.2 s wait
    finally:
        for conn in held:
            conn.close()
        pool._timeout = timeout  # type: ignore[attr-defined]
    after = scrape(client)
    assert get(after, "diloti_database_pool_checked_out") == 0
    assert get(after, "diloti_database_pool_idle") >= get(after, "diloti_database_pool_size")
