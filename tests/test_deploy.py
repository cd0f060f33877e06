"""The shipped proxy configuration (deploy/nginx/diloti.conf and diloti-main.conf) in front of two real
server processes.

nginx runs privately with those very files (only the ports changed): the page, the API and the websocket go
through it; when the process holding a player's websocket is killed, the player reconnects through the proxy
to the other process and the game goes on; a creation flood from one address is cut at the edge with 429;
nginx's own refusals (400, 403, 413, 414, 429, 502) answer with the servers' JSON error and its code, with
Retry-After where waiting helps; a client too slow to send its head or body is cut off; a redirect keeps the
port the client used; a reload closes the old workers' websockets within worker_shutdown_timeout; and
bench/load.py plays through the proxy and checks the database behind it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from servers import ROOT, Server, free_port, my_turn, pg, recv, server_pg

__all__ = ["pg", "server_pg"]  # fixtures
pytestmark = [pytest.mark.slow,
              pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")]
CONF = ROOT / "deploy" / "nginx" / "diloti.conf"
MAIN = ROOT / "deploy" / "nginx" / "diloti-main.conf"


def seconds(directive: str, conf: Path = CONF) -> int:
    """The shipped value of a directive given in seconds (``client_header_timeout 10s;``)."""
    found = re.findall(rf"^\s*{directive} (\d+)s;", conf.read_text(), flags=re.M)
    assert len(found) == 1, f"{conf.name} sets {directive} once, in seconds"
    return int(found[0])


@dataclass
class Proxy:
    base: str  # http://127.0.0.1:PORT, nginx
    servers: list[Server]
    proc: subprocess.Popen[str]  # nginx's master process


def proxy_conf(upstreams: list[int], listen: int) -> str:
    """The shipped file with this test's ports (and nothing else changed)."""
    conf = CONF.read_text()
    lines = re.findall(r"^\s*server 127\.0\.0\.1:\d+ .*$", conf, flags=re.M)
    assert len(lines) == 2, "the shipped upstream block changed shape"
    conf = conf.replace(lines[0], lines[0].replace(lines[0].split()[1], f"127.0.0.1:{upstreams[0]}"))
    conf = conf.replace(lines[1], lines[1].replace(lines[1].split()[1], f"127.0.0.1:{upstreams[1]}"))
    return conf.replace("listen 8080;", f"listen 127.0.0.1:{listen};")


@pytest.fixture
def nginx(pg: str, tmp_path: Path) -> Iterator[Proxy]:
    out = subprocess.run(["bash", str(ROOT / "scripts" / "install-proxy")], capture_output=True, text=True,
                         timeout=300, check=False)
    if out.returncode != 0:
        pytest.skip(f"nginx could not be installed: {out.stderr.strip()[-300:]}")
    binary = out.stdout.strip().splitlines()[-1]
    servers = [Server(pg), Server(pg)]
    port = free_port()
    (tmp_path / "logs").mkdir()
    (tmp_path / "diloti.conf").write_text(proxy_conf([s.port for s in servers], port))
    (tmp_path / "nginx.conf").write_text(f"""
daemon off;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/logs/error.log warn;
include {MAIN};
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {tmp_path}/body;
    proxy_temp_path {tmp_path}/proxy;
    include {tmp_path}/diloti.conf;
}}
""")
    check = subprocess.run([binary, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([binary, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                            stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
        yield Proxy(base, servers, proc)
    finally:
        proc.terminate()
        proc.wait(10)
        for s in servers:
            s.stop()


def join_ws(base: str, table: str, token: str) -> ClientConnection:
    ws = connect(base.replace("http://", "ws://") + "/ws", open_timeout=10, legacy=True)  # held by the caller
    ws.send(json.dumps({"type": "hello", "table": table, "token": token}))
    recv(ws, "welcome")
    return ws


def test_through_the_proxy_a_killed_process_costs_a_reconnect_only(nginx: Proxy) -> None:
    base, servers = nginx.base, nginx.servers
    assert httpx.get(f"{base}/", timeout=5).status_code == 200
    r = httpx.post(f"{base}/api/tables", json={"name": "Ann", "seed": 21,
                                                "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]},
                   timeout=10)
    assert r.status_code == 201, r.text
    t = r.json()
    ws = join_ws(base, t["table"], t["token"])
    state = my_turn(ws)
    for _ in range(2):
        ws.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "ply": state["ply"]}))
        state = my_turn(ws)
    # Kill the process that holds this player's websocket (it is the one that sees it connected).
    holder = next(s for s in servers if s.get(f"/api/tables/{t['table']}")["seats"][0]["connected"])
    holder.kill()
    with pytest.raises(Exception):  # noqa: B017 - the proxy drops the connection, however it says so
        while True:
            ws.recv(timeout=10)
    t0 = time.monotonic()
    ws = join_ws(base, t["table"], t["token"])  # as the page does: the same address, the same token
    try:
        again = my_turn(ws)
        assert time.monotonic() - t0 < 10
        assert again["ply"] == state["ply"] and again["hand"] == state["hand"]
        for _ in range(3):
            ws.send(json.dumps({"type": "move", "move": again["legal"][0]["move"], "ply": again["ply"]}))
            again = my_turn(ws)
        assert again["ply"] >= state["ply"] + 6
    finally:
        ws.close()


def edge_error(r: httpx.Response, status: int, code: str, retry_after: int | None = None) -> None:
    """``r`` is a refusal of nginx's own, in the servers' shape: JSON with a code (docs/PROTOCOL.md)."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json", r.headers
    body = r.json()
    assert body["type"] == "error" and body["code"] == code and body["message"], body
    assert r.headers.get("retry-after") == (None if retry_after is None else str(retry_after)), r.headers


def test_the_proxy_refuses_floods_and_oversized_requests_with_the_servers_json_errors(nginx: Proxy) -> None:
    base = nginx.base
    flood = [httpx.post(f"{base}/api/tables", json={"name": f"F{i}"}, timeout=10) for i in range(40)]
    codes = [r.status_code for r in flood]
    assert codes.count(201) <= 20 and codes.count(429) >= 20
    # One over 20 creations a minute fits again after 3 s.
    edge_error(next(r for r in flood if r.status_code == 429), 429, "rate_limited", retry_after=3)
    big = httpx.post(f"{base}/api/tables", content=b"{" + b" " * 200_000 + b"}",
                     headers={"content-type": "application/json"}, timeout=10)
    edge_error(big, 413, "too_large")
    edge_error(httpx.get(f"{base}/api/tables?name={'x' * 10_000}", timeout=10), 414, "too_large")
    edge_error(httpx.get(f"{base}/api/info", headers={"x-big": "x" * 10_000}, timeout=10), 400, "bad_request")
    with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=10) as raw:
        raw.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        answer = raw.recv(65536).decode()
    assert answer.startswith("HTTP/1.1 400") and '"code": "bad_request"' in answer, answer
    edge_error(httpx.get(f"{base}/metrics", timeout=10), 403, "forbidden")
    edge_error(httpx.get(f"{base}/_diloti/error", timeout=10), 404, "not_found")  # the error page is internal
    # The servers' own errors pass through as they are (nginx rewrites only its own refusals).
    mine = httpx.get(f"{base}/api/tables/nosuchtable", timeout=10)
    assert mine.status_code == 404 and mine.json()["code"] == "unknown_table"
    # No process answers: 502, worth asking again in 5 s.
    for s in nginx.servers:
        s.stop()
    edge_error(httpx.get(f"{base}/api/info", timeout=10), 502, "unavailable", retry_after=5)


def slow_client(port: int, data: bytes) -> tuple[float, bytes]:
    """Send ``data`` (part of a request) and nothing more: how long until nginx drops the connection, and what
    it said before (bounded: the socket gives up after 60 s)."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(data)
        t0, got = time.monotonic(), b""
        try:
            while chunk := s.recv(65536):
                got += chunk
        except ConnectionResetError:
            pass
        return time.monotonic() - t0, got


def test_the_proxy_cuts_off_slow_clients_and_keeps_the_port_in_redirects(nginx: Proxy) -> None:
    base = nginx.base
    port = int(base.rsplit(":", 1)[1])
    head, body = seconds("client_header_timeout"), seconds("client_body_timeout")
    assert head <= 10 and body <= 10 and seconds("send_timeout") <= 60
    with ThreadPoolExecutor(2) as pool:
        slow_head = pool.submit(slow_client, port, b"GET /api/info HTTP/1.1\r\nHost: x\r\n")
        slow_body = pool.submit(slow_client, port, b"POST /api/tables HTTP/1.1\r\nHost: x\r\n"
                                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        # Meanwhile everyone else is served, and a redirect of the servers' keeps the port the client used
        # (the Host nginx passes on is the client's, port included).
        moved = httpx.get(f"{base}/api/info/", timeout=10)
        assert moved.status_code == 307 and moved.headers["location"] == f"{base}/api/info"
        moved = httpx.get(f"{base}/metrics/", timeout=10)
        assert moved.status_code == 307 and moved.headers["location"] == f"{base}/metrics"
        took, said = slow_head.result(timeout=60)
        assert head - 1 <= took <= head + 5 and said == b"", (took, said)
        took, said = slow_body.result(timeout=60)
        assert body - 1 <= took <= body + 5 and said == b"", (took, said)
    # The half-sent table was never created: nginx reads a body whole before a server sees it.
    assert httpx.get(f"{base}/api/tables", timeout=10).json()["total"] == 0


def client_from(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (any 127.x.y.z is this machine's loopback)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


def test_through_the_proxy_the_servers_count_each_client_apart(nginx: Proxy) -> None:
    # 50 clients from 50 addresses create one table each: the servers' own limit (20 a minute per
    # address, per process) would refuse 10 of them if they saw every client as nginx.
    base = nginx.base
    codes = []
    for i in range(50):
        with client_from(f"127.0.{i // 200 + 1}.{i % 200 + 2}") as c:
            codes.append(c.post(f"{base}/api/tables", json={"name": f"P{i}"}).status_code)
    assert codes == [201] * 50


def socket_from(address: str, base: str) -> ClientConnection:
    """A websocket through the proxy whose connection comes from ``address`` (held by the caller)."""
    raw = socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=10,
                                   source_address=(address, 0))
    return connect(base.replace("http://", "ws://") + "/ws", sock=raw, open_timeout=10, proxy=None, legacy=True)


def test_the_proxy_limits_each_route_apart(nginx: Proxy) -> None:
    base = nginx.base
    with client_from("127.0.5.5") as c:
        # Lobby reads are generous and do not count against creating tables.
        assert [c.get(f"{base}/api/tables").status_code for _ in range(60)] == [200] * 60
        assert c.post(f"{base}/api/tables", json={"name": "Ann"}).status_code == 201
        # Quick play: a ticket may seat a computer, so tickets are limited at the edge.
        quick = [c.post(f"{base}/api/quickplay", json={"name": f"Q{i}"}).status_code for i in range(25)]
        assert quick.count(429) >= 10 and 201 in quick, quick
        # Logins (each a password hash on the server) are limited at the edge, before the servers'
        # own limit (20 a minute per address and process) would be reached.
        login = [c.post(f"{base}/api/login", json={"name": f"nobody{i}", "password": "x" * 10}).status_code
                 for i in range(15)]
        assert login.count(429) >= 3 and 429 not in login[:10], login
        # New players: 20 at once, then one a minute (the servers' 20 an hour per process stays the hour's bound).
        new = [c.post(f"{base}/api/players", json={"name": f"newcomer{i}"}) for i in range(22)]
        assert [r.status_code for r in new[:20]] == [201] * 20, [r.text for r in new[:20] if r.status_code != 201]
        edge_error(new[21], 429, "rate_limited", retry_after=60)
    assert httpx.get(f"{base}/metrics", timeout=10).status_code == 403  # even from this machine: not through nginx
    # Websockets open at once from one address: 20 for the whole service (each process would let 20 through).
    sockets = [socket_from("127.0.5.7", base) for _ in range(20)]
    try:
        with pytest.raises(InvalidStatus) as refused:
            socket_from("127.0.5.7", base).close()
        assert refused.value.response.status_code == 429
        assert json.loads(refused.value.response.body or b"{}")["code"] == "rate_limited"
        sockets.pop().close()  # a place frees as soon as nginx sees the close
        deadline = time.monotonic() + 10
        while True:
            try:
                sockets.append(socket_from("127.0.5.7", base))
                break
            except InvalidStatus:
                assert time.monotonic() < deadline, "a closed websocket's place was never freed"
                time.sleep(0.1)
    finally:
        for ws in sockets:
            ws.close()
    # Another address is not affected by the first one's use.
    with client_from("127.0.5.6") as c:
        assert c.post(f"{base}/api/tables", json={"name": "Bob"}).status_code == 201
        assert c.post(f"{base}/api/login", json={"name": "somebody", "password": "x" * 10}).status_code != 429


def test_a_reload_closes_the_old_workers_websockets_within_worker_shutdown_timeout(nginx: Proxy) -> None:
    base = nginx.base
    limit = seconds("worker_shutdown_timeout", MAIN)
    assert limit <= 60
    t = httpx.post(f"{base}/api/tables", json={"name": "Ann", "seed": 5, "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "greedy"}]}, timeout=10).json()
    ws = join_ws(base, t["table"], t["token"])
    state = my_turn(ws)
    nginx.proc.send_signal(signal.SIGHUP)  # systemctl reload nginx
    t0 = time.monotonic()
    # The old worker holds the websocket (the page is waiting for its player's move) until the timeout, then
    # closes it; never the hour a websocket may otherwise stay open.
    with pytest.raises(ConnectionClosed):
        while True:
            ws.recv(timeout=max(0.1, limit + 15 - (time.monotonic() - t0)))
    assert time.monotonic() - t0 <= limit + 10
    ws = join_ws(base, t["table"], t["token"])  # the page reconnects, through the new workers
    try:
        again = my_turn(ws)
        assert (again["ply"], again["hand"]) == (state["ply"], state["hand"])
        ws.send(json.dumps({"type": "move", "move": again["legal"][0]["move"], "ply": again["ply"]}))
        assert my_turn(ws)["ply"] >= again["ply"] + 2
    finally:
        ws.close()


def test_the_load_benchmark_plays_through_the_proxy_and_checks_the_database_behind_it(nginx: Proxy, pg: str,
                                                                                         tmp_path: Path) -> None:
    figures = tmp_path / "load.jsonl"
    # Its own process group: if it hangs, nothing of it is left behind.
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "load.py"), "--url", nginx.base, "--db", pg,
                             "--tables", "2", "--ramp", "0.2", "--think-min", "0.01", "--think-max", "0.02",
                             "--json", str(figures)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(
                                filter(None, [os.environ.get("PYTHONPATH"), str(ROOT / "src")]))},
                            start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
        pytest.fail("bench/load.py did not finish in 240 s:\n" + stdout[-3000:] + stderr[-3000:])
    assert proc.returncode == 0, stdout[-3000:] + stderr[-3000:]
    run = json.loads(figures.read_text().splitlines()[-1])
    assert run["finished"] == 2 and run["errors"] == 0
    assert run["check"] == {"over": 2, "lost": 0, "unstored": 0, "gaps": 0, "duplicates": 0, "bad_replays": 0}
    assert run["stored"] > 0 and "its database checked after the run" in stdout
