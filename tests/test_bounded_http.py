"""A server process bounds what a client may make it hold (diloti.server.bounded_http), on a real ``diloti serve``:
an endless header is refused, request heads and bodies that do not arrive in time are cut off."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from diloti.server.bodies import BODY_TIMEOUT
from diloti.server.bounded_http import MAX_HEAD
from servers import Server

pytestmark = [pytest.mark.slow]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path}/d.sqlite3", "--header-timeout", "1")
    try:
        yield s
    finally:
        s.stop()


def raw(server: Server, data: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    if data:
        sock.sendall(data)
    return sock


def closed_by_server(sock: socket.socket, within: float) -> bytes:
    """What the server sent before closing the connection (fails if it stays open ``within`` seconds)."""
    sock.settimeout(within)
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except ConnectionResetError:
        pass
    except TimeoutError:
        raise AssertionError(f"the server kept the connection open for {within} s (got {got[:80]!r})") from None
    finally:
        sock.close()
    return got


def test_an_endless_header_is_refused(server: Server) -> None:
    sock = raw(server, b"GET / HTTP/1.1\r\nHost: x\r\nX-Endless: ")
    sent = 0
    try:
        while sent < 64 * MAX_HEAD:  # 2 MiB, far past the limit: the server stops reading long before
            sock.sendall(b"a" * 4096)
            sent += 4096
    except OSError:
        pass  # closed by the server while we were still sending
    answer = closed_by_server(sock, 10)
    assert answer == b"" or answer.startswith(b"HTTP/1.1 400"), answer[:80]
    assert httpx.get(f"{server.base}/healthz", timeout=5).status_code == 200


def test_heads_and_bodies_that_do_not_arrive_are_cut_off(server: Server) -> None:
    slow_body = raw(server, b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            b"Content-Length: 100\r\n\r\n{")
    t0 = time.monotonic()
    half = [raw(server, b"GET / HTTP/1.1\r\nHost: x\r\n") for _ in range(200)] + [raw(server, b"")]
    for sock in half:
        assert closed_by_server(sock, 10) == b""  # cut off after the 1 s header timeout, unanswered
    assert time.monotonic() - t0 < 15
    # A kept-alive connection gets the same time for its next request's head.
    sock = raw(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\n")
    answer = closed_by_server(sock, 10)
    assert answer.startswith(b"HTTP/1.1 200") and answer.count(b"HTTP/1.1") == 1
    answer = closed_by_server(slow_body, BODY_TIMEOUT + 10)
    assert answer.startswith(b"HTTP/1.1 408") and b'"code":"timeout"' in answer.replace(b" ", b""), answer[:300]
    assert httpx.get(f"{server.base}/healthz", timeout=5).status_code == 200
