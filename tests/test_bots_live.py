"""The Bot API against a real server process (docs/BOTS.md): the reference client ``diloti bot``, a process of
its own, plays a scripted person on the websocket through the streams, and every message its game stream sent
is checked for hidden cards; a stream that reconnects starts from the game as it is; a revoked token's streams
end within a second.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bot_helpers import Lines, auth, bot_account, check_bot_stream, person, positions, run_client, transcript
from servers import Server, hello, recv

pytestmark = [pytest.mark.slow,
              pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('bots') / 'd.sqlite3'}"
    s = Server(url)
    try:
        yield s, url
    finally:
        s.stop()


def test_the_reference_client_plays_a_person_and_never_sees_a_hidden_card(server: tuple[Server, str],
                                                                         tmp_path: Path) -> None:
    s, url = server
    b = bot_account(s, "Hermes", tmp_path)
    ann = person(s, "Ann")
    events = Lines(s, "/api/stream/event", b["token"])
    client = run_client([s], b["file"], "greedy", tmp_path / "games", "--games", "1")
    try:
        t = httpx.post(f"{s.base}/api/tables", json={"name": "Ann", "bots": True, "seed": 17, "rated": False,
                                                      "options": {"target": 11}},
                       headers=auth(ann["key"]), timeout=10).json()
        tid = t["table"]
        joined = httpx.post(f"{s.base}/api/bot/tables/{tid}/join", headers=auth(b["token"]), timeout=10).json()
        assert joined == {"table": tid, "seat": 1}
        start = events.next("gameStart")
        assert start is not None and start["game"] == {"id": tid, "seat": 1}
        ws = hello(s, tid, t["token"])
        rng = random.Random(3)
        last = 0.0
        try:
            while True:
                msg = recv(ws, "state", timeout=60)
                if msg["phase"] == "over":
                    break
                if msg["your_turn"]:
                    # A person's pace, as tests/test_bots_cluster.py's: the bot answers in milliseconds, and a socket
                    # may send 20 messages a second (CI's person, moving at once, was refused as rate_limited).
                    time.sleep(max(0.0, last + 0.08 - time.monotonic()))
                    last = time.monotonic()
                    ws.send(json.dumps({"type": "move", "move": rng.choice(msg["legal"])["move"], "ply": msg["ply"]}))
        finally:
            ws.close()
        finish = events.next("gameFinish")
        assert finish is not None and finish["game"]["id"] == tid
        out, _ = client.communicate(timeout=120)
        assert client.returncode == 0, out
        assert f"game {tid} over" in out
    finally:
        events.close()
        if client.poll() is None:
            client.kill()
    data, states = positions(url, tid)
    assert states[-1].is_over
    msgs = transcript(tmp_path / "games", tid)
    assert msgs[0]["type"] == "gameFull"
    seen = check_bot_stream(msgs, 1, states)
    assert {"gameFull", "state", "played", "round_over", "game_over"} <= seen
    bot_moves = [m for seat, m in data.moves if seat == 1]
    assert bot_moves and len(bot_moves) >= len(data.moves) // 2 - 1


def test_a_stream_that_reconnects_resumes_and_a_revoked_token_ends_its_streams(server: tuple[Server, str],
                                                                             tmp_path: Path) -> None:
    s, _ = server
    b = bot_account(s, "Iris", tmp_path)
    ann = person(s, "Bea")
    made = httpx.post(f"{s.base}/api/challenge/Iris", json={"rated": False, "seat": 0},
                      headers=auth(ann["key"]), timeout=10).json()
    got = httpx.post(f"{s.base}/api/challenge/{made['challenge']['id']}/accept", headers=auth(b["token"]),
                     timeout=10).json()
    tid = got["table"]
    ws = hello(s, tid, made["token"])
    try:
        game = Lines(s, f"/api/bot/game/stream/{tid}", b["token"])
        full = game.next()
        assert full is not None and full["type"] == "gameFull" and full["seat"] == 1 and full["state"]["ply"] == 0
        # The person moves while the bot's stream is away; a new stream starts from the game as it is now.
        game.close()
        st = recv(ws, "state", ply=0)
        if not st["your_turn"]:
            first = full["view"]["legal"][0]
            assert httpx.post(f"{s.base}/api/bot/game/{tid}/move", json={"move": first, "ply": 0},
                              headers=auth(b["token"]), timeout=10).json() == {"ok": True, "ply": 1}
            st = recv(ws, "state", ply=1)
        ws.send(json.dumps({"type": "move", "move": st["legal"][0]["move"], "ply": st["ply"]}))
        recv(ws, "state", ply=st["ply"] + 1)
        again = Lines(s, f"/api/bot/game/stream/{tid}", b["token"])
        resumed = again.next()
        assert resumed is not None and resumed["type"] == "gameFull" and resumed["state"]["ply"] == st["ply"] + 1
        assert resumed["state"]["your_turn"] and resumed["view"]["legal"]
        events = Lines(s, "/api/stream/event", b["token"])
        assert events.next("gameStart") == {"type": "gameStart", "game": {"id": tid, "seat": 1}}
        revoked = httpx.delete(f"{s.base}/api/me/bot/tokens/{b['token_id']}", headers=auth(b["key"]), timeout=10)
        assert revoked.json() == {"ok": True}
        for stream in (again, events):
            last = stream.next("error", timeout=1.0)  # within a second, on every stream of the token
            assert last is not None and last["code"] == "token_revoked"
            assert stream.next(timeout=1.0) is None  # and the stream ends
        r = httpx.get(f"{s.base}/api/bot/game/stream/{tid}", headers=auth(b["token"]), timeout=10)
        assert r.status_code == 401 and r.json()["code"] == "bad_token"
    finally:
        ws.close()


def test_the_reference_client_outlives_a_server_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'd.sqlite3'}"
    s = Server(url, "--bot-limits", "moves=2000")  # a game against the computer goes faster than a person's
    client = None
    try:
        b = bot_account(s, "Phoenix", tmp_path)
        client = run_client([s], b["file"], "greedy", tmp_path / "games", "--games", "1")
        made = httpx.post(f"{s.base}/api/bot/computer", json={"level": "greedy", "rated": False,
                                                              "options": {"target": 61}},
                          headers=auth(b["token"]), timeout=10).json()
        tid = made["table"]
        deadline = time.monotonic() + 120
        while httpx.get(f"{s.base}/api/tables/{tid}", timeout=10).json()["ply"] < 6:
            assert time.monotonic() < deadline, "the client never played"
            time.sleep(0.05)
        s.kill()
        s = Server(url, "--bot-limits", "moves=2000", port=s.port)  # the same address: the client comes back
        out, _ = client.communicate(timeout=240)
        assert client.returncode == 0, out
        assert f"game {tid} over" in out
    finally:
        if client is not None and client.poll() is None:
            client.kill()
        s.stop()
    _, states = positions(url, tid)
    assert states[-1].is_over
    msgs = transcript(tmp_path / "games", tid)
    fulls = [m for m in msgs if m["type"] == "gameFull"]
    assert len(fulls) >= 2 and fulls[-1]["state"]["ply"] >= 6  # resumed from the game as it was
    check_bot_stream(msgs, made["seat"], states)


def test_a_bot_is_under_the_tables_clock_and_away_rules(server: tuple[Server, str], tmp_path: Path) -> None:
    s, _ = server
    b = bot_account(s, "Chronos", tmp_path)
    ann = person(s, "Cleo")
    made = httpx.post(f"{s.base}/api/challenge/Chronos", json={"rated": False, "clock": {"move": 5, "reserve": 0}},
                      headers=auth(ann["key"]), timeout=10).json()
    got = httpx.post(f"{s.base}/api/challenge/{made['challenge']['id']}/accept", headers=auth(b["token"]),
                     timeout=10).json()
    tid, mine = got["table"], got["seat"]
    ws = hello(s, tid, made["token"])
    try:
        st = recv(ws, "state", ply=0)
        if st["your_turn"]:  # the person moves first: now it is the bot's turn, and its clock runs
            ws.send(json.dumps({"type": "move", "move": st["legal"][0]["move"], "ply": 0}))
            recv(ws, "state", ply=1)
        out = recv(ws, "timeout", timeout=30)  # the bot never moved: its clock ran out, as a person's does
        assert out["seat"] == mine
        table = httpx.get(f"{s.base}/api/tables/{tid}", timeout=10).json()
        assert table["seats"][mine]["away"] and table["seats"][mine]["bot"]
        back = Lines(s, f"/api/bot/game/stream/{tid}", b["token"])  # a stream takes the seat back, as a page does
        full = back.next()
        assert full is not None and full["type"] == "gameFull"
        assert not httpx.get(f"{s.base}/api/tables/{tid}", timeout=10).json()["seats"][mine]["away"]
        back.close()
    finally:
        ws.close()


def test_streams_a_token_may_hold_open(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'd.sqlite3'}", "--bot-limits", "streams=2")
    try:
        b = bot_account(s, "Argus", tmp_path)
        held = [Lines(s, "/api/stream/event", b["token"]) for _ in range(2)]
        assert [x.status for x in held] == [200, 200]
        r = httpx.get(f"{s.base}/api/stream/event", headers=auth(b["token"]), timeout=10)
        assert r.status_code == 429 and r.json()["code"] == "too_many_streams" and r.headers["Retry-After"]
        held[0].close()
        deadline = time.monotonic() + 30  # the server notices the closed stream at its next line (a keep-alive)
        while (again := Lines(s, "/api/stream/event", b["token"])).status != 200:
            again.close()
            assert time.monotonic() < deadline
            time.sleep(0.5)
        again.close()
        held[1].close()
    finally:
        s.stop()
