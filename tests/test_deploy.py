"""The shipped proxy configuration (deploy/nginx/diloti.conf) in front of two real server processes.

nginx runs privately with that very file (only its ports changed): the page, the API and
the websocket go through it; when the process holding a player's websocket is killed, the
player reconnects through the proxy to the other process and the game goes on; a creation
flood from one address is cut at the edge with 429.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from servers import ROOT, Server, free_port, my_turn, pg, recv, server_pg

__all__ = ["pg", "server_pg"]  # fixtures
pytestmark = [pytest.mark.slow,
              pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")]
CONF = ROOT / "deploy" / "nginx" / "diloti.conf"


def proxy_conf(upstreams: list[int], listen: int) -> str:
    """The shipped file with this test's ports (and nothing else changed)."""
    conf = CONF.read_text()
    lines = re.findall(r"^\s*server 127\.0\.0\.1:\d+ .*$", conf, flags=re.M)
    assert len(lines) == 2, "the shipped upstream block changed shape"
    conf = conf.replace(lines[0], lines[0].replace(lines[0].split()[1], f"127.0.0.1:{upstreams[0]}"))
    conf = conf.replace(lines[1], lines[1].replace(lines[1].split()[1], f"127.0.0.1:{upstreams[1]}"))
    return conf.replace("listen 8080;", f"listen 127.0.0.1:{listen};")


@pytest.fixture
def nginx(pg: str, tmp_path: Path) -> Iterator[tuple[str, list[Server]]]:
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
        yield base, servers
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


def test_through_the_proxy_a_killed_process_costs_a_reconnect_only(nginx: tuple[str, list[Server]]) -> None:
    base, servers = nginx
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


def test_the_proxy_cuts_a_creation_flood_and_huge_bodies(nginx: tuple[str, list[Server]]) -> None:
    base, _ = nginx
    codes = [httpx.post(f"{base}/api/tables", json={"name": f"F{i}"}, timeout=10).status_code for i in range(40)]
    assert codes.count(201) <= 20 and codes.count(429) >= 20
    big = httpx.post(f"{base}/api/tables", content=b"{" + b" " * 200_000 + b"}",
                     headers={"content-type": "application/json"}, timeout=10)
    assert big.status_code == 413


def client_from(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (any 127.x.y.z is this machine's loopback)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


def test_through_the_proxy_the_servers_count_each_client_apart(nginx: tuple[str, list[Server]]) -> None:
    # 50 clients from 50 addresses create one table each: the servers' own limit (20 a minute per
    # address, per process) would refuse 10 of them if they saw every client as nginx.
    base, _ = nginx
    codes = []
    for i in range(50):
        with client_from(f"127.0.{i // 200 + 1}.{i % 200 + 2}") as c:
            codes.append(c.post(f"{base}/api/tables", json={"name": f"P{i}"}).status_code)
    assert codes == [201] * 50


def test_the_proxy_limits_each_route_apart(nginx: tuple[str, list[Server]]) -> None:
    base, _ = nginx
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
    assert httpx.get(f"{base}/metrics", timeout=10).status_code == 403  # even from this machine: not through nginx
    # Another address is not affected by the first one's use.
    with client_from("127.0.5.6") as c:
        assert c.post(f"{base}/api/tables", json={"name": "Bob"}).status_code == 201
        assert c.post(f"{base}/api/login", json={"name": "somebody", "password": "x" * 10}).status_code != 429
