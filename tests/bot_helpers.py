"""What the Bot API's tests against real server processes share: accounts, streams, the reference client as a
process of its own, and the hidden-card check of every message a bot's game stream sent."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx

from diloti.formats.views import view_from_dict, view_to_dict
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options
from diloti.store.db import Store
from servers import ROOT, Server
from test_server import cards_in, hidden_from


def auth(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def person(server: Server, name: str) -> dict[str, Any]:
    return server.post("/api/players", {"name": name})


def bot_account(server: Server, name: str, folder: Path) -> dict[str, Any]:
    """A bot account, its token, and the token's file (for ``diloti bot --token-file``)."""
    p = person(server, name)
    assert httpx.post(f"{server.base}/api/me/bot", headers=auth(p["key"]), timeout=10).status_code == 200
    r = httpx.post(f"{server.base}/api/me/bot/tokens", json={}, headers=auth(p["key"]), timeout=10)
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    path = folder / f"{name}.token"
    path.write_text(token + "\n", encoding="utf-8")
    return {**p, "token": token, "token_id": r.json()["id"], "file": path}


class Lines:
    """An NDJSON stream read on a thread of its own: its messages in a queue (``None`` once it ended)."""

    def __init__(self, server: Server, path: str, secret: str) -> None:
        self.queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.client = httpx.Client(timeout=httpx.Timeout(10.0, read=60.0))
        self.response = self.client.send(self.client.build_request("GET", f"{server.base}{path}",
                                                                   headers=auth(secret)), stream=True)
        self.status = self.response.status_code
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for line in self.response.iter_lines():
                if line.strip():
                    self.queue.put(json.loads(line))
        except (httpx.HTTPError, ValueError):
            pass
        finally:
            self.queue.put(None)

    def next(self, kind: str | None = None, timeout: float = 30.0) -> dict[str, Any] | None:
        """The next message (of ``kind``, skipping others); None if the stream ended."""
        while True:
            msg = self.queue.get(timeout=timeout)
            if msg is None or kind is None or msg.get("type") == kind:
                return msg

    def close(self) -> None:
        self.response.close()
        self.client.close()


def run_client(servers: list[Server], token_file: Path, player: str, log_dir: Path,
               *extra: str) -> subprocess.Popen[str]:
    """``diloti bot`` as a process of its own (the reference client), logging each game under ``log_dir``."""
    args = [sys.executable, "-m", "diloti", "bot", "--token-file", str(token_file), "--player", player,
            "--log-dir", str(log_dir), *extra]
    for s in servers:
        args += ["--server", s.base]
    return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def positions(db_url: str, tid: str) -> tuple[Any, list[Game]]:
    """The stored table and the game after each ply, replayed afresh from its seed (every hand known)."""
    store = Store(db_url, migrate=False)
    try:
        data = store.load(tid)
    finally:
        store.close()
    assert data is not None
    return data, [_replayed(data, ply) for ply in range(len(data.moves) + 1)]


def _replayed(data: Any, ply: int) -> Game:
    g = Game(data.players, Options.from_dict(data.options), data.seed, data.first_dealer)
    for _, text in data.moves[:ply]:
        g.play(text)
    return g


class _At:
    def __init__(self, game: Game) -> None:
        self.game = game


def check_bot_stream(msgs: list[dict[str, Any]], seat: int, states: list[Game]) -> set[str]:
    """Every message of a bot's game stream against the position at that moment: never a card of another hand or
    of the stock, and each view the very view the seat's own game gives; returns the types seen."""
    hidden = [hidden_from(_At(g), seat) for g in states]  # type: ignore[arg-type]
    seen: set[str] = set()
    played: dict[str, Any] | None = None
    for m in msgs:
        kind = m["type"]
        seen.add(kind)
        if kind in ("gameFull", "state"):
            st = m["state"] if kind == "gameFull" else m
            if st is None:
                continue
            p = st["ply"]
            assert st["seat"] == seat
            assert not cards_in({**st, "last": None, "view": None}) & hidden[p], (p, cards_in(st) & hidden[p])
            view = m.get("view")
            if view is not None:
                assert not cards_in(view) & hidden[p], (p, cards_in(view) & hidden[p])
                if not states[p].is_over:
                    assert view == view_to_dict(states[p].view(seat))  # the seat's own view, nothing else
                    assert view_from_dict(view) == states[p].view(seat)
        elif kind == "played":
            p = m["ply"]
            assert cards_in(m) & hidden[p - 1] <= {m["card"]}, m
            played = m
        elif kind == "round_over":
            assert played is not None
            assert not cards_in(m) & (hidden[played["ply"] - 1] - {played["card"]}), m
        else:
            assert kind in ("table", "game_over", "chat", "clock", "timeout"), m
            if kind != "chat":
                assert not cards_in(m), m
    return seen


def transcript(log_dir: Path, tid: str) -> list[dict[str, Any]]:
    path = log_dir / f"{tid}.ndjson"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


__all__ = ["Lines", "auth", "bot_account", "check_bot_stream", "person", "positions", "run_client", "transcript"]
