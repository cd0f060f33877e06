"""The reference bot client's connection to one service's processes (cli/bot_client.py): a call or a stream
that cannot connect moves on to the next process, and threads failing together move on once."""

from __future__ import annotations

import http.server
import json
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from diloti.cli.bot_client import Api


class _Answer(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps({"path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def live() -> Iterator[str]:
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Answer)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.fixture
def dead() -> str:
    with socket.socket() as s:  # a port nothing listens on once closed: connections are refused
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def test_a_call_that_cannot_connect_moves_on_to_the_next_process(dead: str, live: str) -> None:
    api = Api([dead, live], "token", timeout=5)
    with pytest.raises(ConnectionError):
        api.call("GET", "/api/bot/account")
    assert api.call("GET", "/api/bot/account") == {"path": "/api/bot/account"}


def test_two_threads_cut_off_together_both_reach_the_live_process(dead: str, live: str) -> None:
    # Both threads pick the dead process before either finds it dead (the event stream and a game stream cut by
    # one kill, reconnecting in step): it is left once, not twice (which was back onto it).
    both = threading.Barrier(2, timeout=10)

    class InStep(Api):
        def _conn(self, at: int, timeout: float | None) -> Any:
            both.wait()
            return super()._conn(at, timeout)

    api = InStep([dead, live], "token", timeout=5)
    failed: list[BaseException] = []

    def attempt() -> None:
        try:
            next(iter(api.stream("/api/stream/event")))
        except OSError as exc:
            failed.append(exc)

    threads = [threading.Thread(target=attempt) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(15)
    assert len(failed) == 2
    both = threading.Barrier(1)  # one thread from here: nothing to wait for
    assert api.call("GET", "/x") == {"path": "/x"}
