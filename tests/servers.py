"""Real ``diloti serve`` processes on the project's private PostgreSQL, for the cluster and deploy tests."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def server_pg() -> str:
    """A URL of a fresh database on the project's private PostgreSQL server."""
    url = os.environ.get("DILOTI_TEST_POSTGRES_URL")
    if not url:
        out = subprocess.run(["bash", str(ROOT / "scripts" / "install-postgres")], capture_output=True,
                             text=True, timeout=120, check=False)
        if out.returncode != 0:
            pytest.skip(f"PostgreSQL could not be started: {out.stderr.strip()[-300:]}")
        url = out.stdout.strip().splitlines()[-1]
    base, _, _ = url.rpartition("/")
    admin = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text("DROP DATABASE IF EXISTS diloti_cluster WITH (FORCE)"))
        conn.execute(text("CREATE DATABASE diloti_cluster"))
    admin.dispose()
    return f"{base}/diloti_cluster"


# Every table of the diloti schema, the ones that refer to others first.
DILOTI_TABLES = ("arena_results", "arena_games", "arena_players", "arenas", "daily_attempts", "daily_days",
                 "bot_events", "challenges", "bot_tokens",
                 "limit_hits", "sign_ins", "reviews", "queue", "results", "ratings", "player_stats", "player_keys",
                 "chat", "moves", "seats", "tables", "players", "alembic_version")


def drop_tables(conn: Any) -> None:
    """Drop every diloti table (a fresh database for the next test)."""
    for name in DILOTI_TABLES:
        conn.execute(text(f"DROP TABLE IF EXISTS {name} CASCADE"))


@pytest.fixture
def pg(server_pg: str) -> str:
    eng = create_engine(server_pg.replace("postgresql://", "postgresql+psycopg://", 1))
    with eng.begin() as conn:
        drop_tables(conn)
    eng.dispose()
    return server_pg


@pytest.fixture
def servers(pg: str) -> Iterator[list[Server]]:
    """Two server processes on the fresh database ``pg``, stopped after the test."""
    started: list[Server] = []
    try:
        started.append(Server(pg))
        started.append(Server(pg))
        yield started
    finally:
        for s in started:
            s.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One ``diloti serve`` process."""

    def __init__(self, url: str, *args: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.log = ""
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "diloti", "serve", "--db", url, "--port", str(self.port), "--workers", "1",
             "--allow-seed", "--log-level", "warning", *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120  # a slow host imports the server in tens of seconds
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited: {self.proc.stderr.read() if self.proc.stderr else ''}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.1)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = httpx.post(f"{self.base}{path}", json=body, timeout=30)
        assert r.status_code in (200, 201), r.text
        return dict(r.json())

    def get(self, path: str) -> Any:
        return httpx.get(f"{self.base}{path}", timeout=30).json()

    def ws(self) -> ClientConnection:
        # Held across a test and closed by it (or with the server): a direct connection, which websockets
        # (since 17.1) asks to be said with legacy=True rather than warn that there is no `with`.
        return connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=10, legacy=True)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc.stderr is not None and not self.proc.stderr.closed:
            self.log = self.proc.stderr.read()  # what it logged (the process has ended)
            self.proc.stderr.close()


def recv(ws: ClientConnection, kind: str, timeout: float = 20.0, **match: Any) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {kind} {match} within {timeout} s"
        msg = json.loads(ws.recv(timeout=left))
        assert msg["type"] != "error" or kind == "error", msg
        if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
            return dict(msg)


def hello(server: Server, table: str, token: str) -> ClientConnection:
    ws = server.ws()
    ws.send(json.dumps({"type": "hello", "table": table, "token": token}))
    recv(ws, "welcome")
    return ws


def my_turn(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = recv(ws, "state", timeout=max(0.1, deadline - time.monotonic()))
        if msg["your_turn"] or msg["phase"] == "over":
            return msg


class Relay:
    """A TCP relay to PostgreSQL that a test can cut (every connection dropped, new ones refused) and mend:
    a database outage, as the server sees it, without stopping the shared PostgreSQL."""

    def __init__(self, url: str) -> None:
        import threading
        from urllib.parse import urlsplit

        target = urlsplit(url)
        self.target = (target.hostname or "127.0.0.1", target.port or 5432)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = url.replace(f"{target.hostname}:{target.port}", f"127.0.0.1:{self.port}")
        self.down = False
        self.socks: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                # Cut while the upstream connection was being made: refused as any connection after the cut (it
                # would have been a live database connection that the cut missed: CI, /readyz said database true).
                if self.down:
                    client.close()
                    upstream.close()
                    continue
                self.socks |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with self.lock:
            self.down = True
            for s in self.socks:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self.socks.clear()

    def mend(self) -> None:
        self.down = False

    def close(self) -> None:
        self.cut()
        self.listener.close()
