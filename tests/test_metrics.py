"""Prometheus metrics on a real ``diloti serve`` (diloti.server.metrics): what they count, and who may read them."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from servers import Server, my_turn

pytestmark = [pytest.mark.slow,
              pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path}/d.sqlite3", "--metrics-allow-ips", "198.51.100.0/24")
    try:
        yield s
    finally:
        s.stop()


def value(text: str, name: str) -> float:
    m = re.search(rf"^{re.escape(name)} (\S+)$", text, flags=re.M)
    assert m is not None, f"no {name} in the metrics"
    return float(m.group(1))


def test_metrics_count_what_an_operator_watches(server: Server) -> None:
    t = server.post("/api/tables", {"name": "Ann", "seed": 3, "seats": [{"kind": "human"},
                                                                          {"kind": "bot", "level": "greedy"}]})
    ws = server.ws()
    try:
        ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["token"]}))
        state = my_turn(ws)
        for _ in range(3):
            ws.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "ply": state["ply"]}))
            state = my_turn(ws)
        codes = [httpx.post(f"{server.base}/api/tables", json={"name": f"F{i}"}, timeout=10).status_code
                 for i in range(20)]
        assert 429 in codes
        text = httpx.get(f"{server.base}/metrics", timeout=10).text
    finally:
        ws.close()
    assert value(text, "diloti_websockets") == 1
    assert value(text, 'diloti_tables{status="playing"}') == 1
    assert value(text, "diloti_moves_stored_total") >= state["ply"] >= 6
    assert value(text, "diloti_move_store_seconds_count") == value(text, "diloti_moves_stored_total")
    assert value(text, "diloti_computer_move_seconds_count") >= 3
    assert value(text, "diloti_worker_queue") == 0
    assert value(text, 'diloti_limits_hit_total{limit="create"}') == codes.count(429)
    assert value(text, "diloti_takeovers_total") == 0
    for kind in ("request", "move", "listener", "locks"):  # none yet, each there at 0
        assert value(text, f'diloti_database_errors_total{{kind="{kind}"}}') == 0
    # A dashboard's figures (issue 47): each human move's round trip, the HTTP requests by route template.
    assert value(text, "diloti_move_round_trip_seconds_count") == 3
    assert value(text, 'diloti_http_requests_total{method="POST",route="/api/tables",status="4xx"}') == \
        codes.count(429)
    assert value(text, 'diloti_http_requests_total{method="POST",route="/api/tables",status="2xx"}') == \
        1 + len(codes) - codes.count(429)
    assert value(text, "process_open_fds") / value(text, "process_max_fds") < 0.8
    assert value(text, "diloti_database_pool_checked_out") <= value(text, "diloti_database_pool_max")
    deadline = time.monotonic() + 30
    while value(httpx.get(f"{server.base}/metrics", timeout=10).text, "diloti_websockets") != 0:
        assert time.monotonic() < deadline, "the closed websocket is still counted"
        time.sleep(0.05)


def test_metrics_are_for_the_operators_addresses_only(server: Server) -> None:
    assert httpx.get(f"{server.base}/metrics", timeout=10).status_code == 200  # the loopback
    # Through the proxy (127.0.0.1, trusted for X-Forwarded-For) the client's own address decides.
    for client, code in (("203.0.113.7", 403), ("198.51.100.20", 200)):
        r = httpx.get(f"{server.base}/metrics", headers={"X-Forwarded-For": client}, timeout=10)
        assert r.status_code == code, (client, r.text)
    refused = httpx.get(f"{server.base}/metrics", headers={"X-Forwarded-For": "203.0.113.7"}, timeout=10)
    assert refused.json()["code"] == "forbidden"
