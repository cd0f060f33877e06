"""Arena tournaments on one ``diloti serve`` process on SQLite (the default: one process does it all): three
players play a real arena of one minute (its minute set to 12 s with ``--arena-minute``, so that the test is
short): each is paired again as soon as their game ends, never twice in a row with the same opponent, the odd one
out plays the computer after the arena's wait, the standings are the games' results under lichess's scoring,
the final standings are stored and on the profiles; bad requests are refused with the field named."""

from __future__ import annotations

import contextlib
import random
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import itertools

from arena import ArenaPlayer, Serve, expected_scores, join, late_pairings, open_arena, signed_up

pytestmark = pytest.mark.timeout(240)

WAIT = 5  # seconds alone before the computer
PASSES = 3.0  # seconds beyond the wait within which a free player is paired (passes every 0.3 s, a loaded machine)
FLAGS = ("--workers", "1", "--arena-minute", "12", "--arena-tick", "0.3")


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def seats_of(base: str, table: str) -> list[str | None]:
    summary = httpx.get(f"{base}/api/tables/{table}", timeout=10).json()
    return [s["player"] for s in summary["seats"]]


def test_three_players_play_an_arena_on_sqlite(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    server = Serve(db, *FLAGS, logdir=tmp_path)
    try:
        base = server.base
        accounts = [signed_up(base, name) for name in ("Ann", "Bob", "Cleo")]
        arena = open_arena(base, accounts[0][1], minutes=1, starts_in=1, wait=WAIT, options={"target": 11},
                           clock={"move": 10, "reserve": 30})
        assert arena["status"] == "upcoming" and arena["seconds"] == 12
        assert arena["clock"] == {"move": 10, "reserve": 30}
        listed = httpx.get(f"{base}/api/arenas", timeout=10).json()["arenas"]
        assert arena["id"] in [a["id"] for a in listed]
        players = [ArenaPlayer([base], key, pid, arena["id"], join(base, key, arena["id"]), random.Random(i))
                   for i, (pid, key) in enumerate(accounts)]
        for p in players:
            p.start()
        for p in players:
            assert p.thread is not None
            p.thread.join(200)
            assert not p.thread.is_alive()
        deadline = time.monotonic() + 60
        while (final := httpx.get(f"{base}/api/arenas/{arena['id']}", timeout=10).json())["status"] != "over":
            assert time.monotonic() < deadline, final["status"]
            time.sleep(0.3)
        scores = {ln["player"]: ln["score"] for ln in final["standings"]}
        assert scores == expected_scores(players)
        assert next(ln["rank"] for ln in final["standings"]) == 1
        # Every finished game listed, newest first, with its winner and its replay.
        played = {g["table"]: g for g in final["played"]}
        assert set(played) == {g.table for p in players for g in p.games}
        for p in players:
            for g in p.games:
                assert played[g.table]["winner"] == (None if g.won is None else g.seat if g.won else 1 - g.seat)
                assert played[g.table]["replay"] == f"/?replay={g.table}"
        replay = httpx.get(f"{base}/api/tables/{final['played'][0]['table']}/replay", timeout=10)
        assert replay.status_code == 200 and replay.json()["rounds"]
        # Paired every time free while the arena ran (from the arena's record: how many games fit in its 12 s
        # depends on the machine's load, the pairing does not), and never twice at once.
        late, waits = late_pairings(db, arena["id"], WAIT + PASSES)
        assert not late, late
        assert len(waits) >= len(players)  # the first pairing of each (more if games fit: not on a loaded machine)
        for p in players:
            assert p.games, p.errors
            opponents = []
            for g in p.games:
                seats = seats_of(base, g.table)
                opponents.append(seats[1 - g.seat])
            for a, b in itertools.pairwise(opponents):
                assert a is None or a != b, f"{p.player} met {a} twice in a row"
        for p in players:
            mine = httpx.get(f"{base}/api/players/{p.player}/arenas", timeout=10).json()["arenas"]
            assert mine[0]["arena"] == arena["id"] and mine[0]["score"] == scores[p.player]
        # Over: nobody joins any more.
        r = httpx.post(f"{base}/api/arenas/{arena['id']}/join", json={}, headers=auth(accounts[1][1]), timeout=10)
        assert r.status_code == 409 and r.json()["code"] == "arena_over"
    finally:
        server.stop()


def test_a_player_alone_plays_the_computer_of_the_nearest_level_after_the_wait(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from diloti.server import create_app
    from diloti.server.arena import ArenaConfig

    app = create_app(f"sqlite:///{tmp_path / 'd.sqlite3'}", arenas=ArenaConfig(tick=0.2, minute=10.0))
    with TestClient(app) as client:
        key = client.post("/api/players", json={"name": "Ann"}).json()["key"]
        made = client.post("/api/arenas", json={"starts_in": 0, "wait": 5, "minutes": 3}, headers=auth(key)).json()
        secret = client.post(f"/api/arenas/{made['id']}/join", json={}, headers=auth(key)).json()["secret"]
        t0 = time.monotonic()
        while (me := client.get(f"/api/arenas/{made['id']}/me", headers=auth(key)).json())["table"] is None:
            assert time.monotonic() - t0 < 30, me
            time.sleep(0.2)
        assert time.monotonic() - t0 >= 4  # not before the arena's wait (less the pass's period)
        summary = client.get(f"/api/tables/{me['table']}").json()
        bot = summary["seats"][1 - me["seat"]]
        assert bot["kind"] == "bot" and bot["level"] == "heuristic"  # a newcomer's 1500 is nearest the heuristic
        assert summary["rated"] and summary["event"] == f"arena:{made['id']}" and not summary["hints"]
        with client.websocket_connect("/ws") as ws:  # the arena secret is the seat's token
            ws.send_json({"type": "hello", "table": me["table"], "token": secret})
            assert ws.receive_json()["seat"] == me["seat"]
        with client.websocket_connect("/ws") as ws:  # the standings to whoever follows the arena
            ws.send_json({"type": "arena", "arena": made["id"]})
            doc = ws.receive_json()
            assert doc["type"] == "arena" and doc["arena"]["playing"][0]["table"] == me["table"]
            assert doc["arena"]["standings"][0]["table"] == me["table"]
            ws.send_json({"type": "arena", "arena": "nope"})
            assert ws.receive_json()["code"] == "unknown_arena"


@pytest.mark.parametrize(("body", "code"), [
    ({"minutes": 0}, "bad_minutes"), ({"minutes": "3"}, "bad_minutes"), ({"wait": 1}, "bad_wait"),
    ({"starts_in": -5}, "bad_start"), ({"game": "chess"}, "bad_game"), ({"options": {"target": 0}}, "bad_options"),
    ({"clock": {"move": 1}}, "bad_clock"), ({"x": 1}, "bad_request"), ({"name": "\u0007x"}, "bad_name"),
])
def test_bad_arena_bodies(tmp_path: Path, body: dict[str, Any], code: str) -> None:
    from fastapi.testclient import TestClient

    from diloti.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'd.sqlite3'}")) as client:
        key = client.post("/api/players", json={"name": "Ann"}).json()["key"]
        r = client.post("/api/arenas", json=body, headers=auth(key))
        assert r.status_code == 400 and r.json()["code"] == code, r.text
        r = client.post("/api/arenas", json={})
        assert r.status_code == 401 and r.json()["code"] == "no_key"
        r = client.get("/api/arenas/nope")
        assert r.status_code == 404 and r.json()["code"] == "unknown_arena"
        made = client.post("/api/arenas", json={"starts_in": 600}, headers=auth(key)).json()
        r = client.post(f"/api/arenas/{made['id']}/withdraw", json={}, headers=auth(key))
        assert r.status_code == 409 and r.json()["code"] == "not_joined"
        assert client.post(f"/api/arenas/{made['id']}/join", json={}, headers=auth(key)).status_code == 200
        me = client.get(f"/api/arenas/{made['id']}/me", headers=auth(key)).json()
        assert me["joined"] and me["table"] is None and me["status"] == "upcoming"
        assert client.post(f"/api/arenas/{made['id']}/withdraw", json={}, headers=auth(key)).json() == {"ok": True}
        assert not client.get(f"/api/arenas/{made['id']}/me", headers=auth(key)).json()["joined"]


def test_scheduled_arenas_are_made_once_and_creation_is_limited(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from diloti.server import create_app
    from diloti.server.arena import ArenaConfig, parse_schedule
    from diloti.server.limits import Limits
    from diloti.store.db import now

    config = ArenaConfig(schedules=[parse_schedule("hourly:minutes=30"), parse_schedule("daily:at=18:00,minutes=60")],
                         tick=0.2)
    app = create_app(f"sqlite:///{tmp_path / 'd.sqlite3'}", arenas=config,
                     limits=Limits(arena_create="2/hour", poll="1000/minute"))
    with TestClient(app) as client:
        desk = client.app.state.arenas  # type: ignore[attr-defined]
        assert client.portal is not None
        for _ in range(3):  # made by the first pass, never again (unique by schedule and start)
            client.portal.call(desk._schedule, now())
        listed = client.get("/api/arenas").json()["arenas"]
        hourly = [a for a in listed if a["schedule"] == "hourly"]
        assert 1 <= len(hourly) <= 2 and len({a["starts"] for a in hourly}) == len(hourly)
        assert all(a["seconds"] == 1800 and a["clock"] == {"move": 20, "reserve": 120} for a in hourly)
        key = client.post("/api/players", json={"name": "Ann"}).json()["key"]
        for _ in range(2):
            assert client.post("/api/arenas", json={}, headers=auth(key)).status_code == 201
        r = client.post("/api/arenas", json={}, headers=auth(key))
        assert r.status_code == 429 and r.json()["code"] == "rate_limited" and r.headers["retry-after"]


def bob_plays_two_moves_and_leaves(base: str, arena: str, key: str, secret: str) -> str:
    """Bob's page: opens his game, plays two moves, closes (mid-game: a game he never moved in is aborted)."""
    import json

    from websockets.sync.client import connect

    deadline = time.monotonic() + 60
    while (me := httpx.get(f"{base}/api/arenas/{arena}/me", headers=auth(key), timeout=10).json())["table"] is None:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    moved = 0
    with connect(f"{base.replace('http', 'ws', 1)}/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "table": me["table"], "token": secret}))
        while moved < 2:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] == "state" and msg["your_turn"] and msg["ply"] >= 2 * moved:
                ws.send(json.dumps({"type": "move", "move": msg["legal"][0]["move"], "ply": msg["ply"]}))
                moved += 1
    return str(me["table"])


def test_a_player_who_closes_the_tab_keeps_the_game_and_may_come_back(tmp_path: Path) -> None:
    """Bob's page closes mid-game: the game goes on under the table's away rules (his clock runs out, the computer
    plays for him) and counts; he is not paired while away, and is again once his page polls."""
    server = Serve(f"sqlite:///{tmp_path / 'a.sqlite3'}", *FLAGS, logdir=tmp_path)
    try:
        base = server.base
        (ann_id, ann_key), (bob_id, bob_key) = signed_up(base, "Ann"), signed_up(base, "Bob")
        arena = open_arena(base, ann_key, minutes=8, starts_in=1, wait=WAIT, options={"target": 11},
                           clock={"move": 5, "reserve": 0})
        aid = arena["id"]
        ann = ArenaPlayer([base], ann_key, ann_id, aid, join(base, ann_key, aid), random.Random(1))
        bob_secret = join(base, bob_key, aid)
        ann.start()
        first = bob_plays_two_moves_and_leaves(base, aid, bob_key, bob_secret)
        left = time.monotonic()
        deadline = left + 120
        # The first goes on without Bob; then Ann plays the computer. Bob counts as present for 20 s after his last
        # poll: a game paired for him meanwhile, which he never moves in, is aborted (it counts for nobody).
        while len(ann.games) < 2 or time.monotonic() - left < 20 + WAIT + 10:
            assert time.monotonic() < deadline, ann.errors
            time.sleep(0.2)
        assert ann.games[0].table == first and set(seats_of(base, first)) == {ann_id, bob_id}
        assert None in seats_of(base, ann.games[1].table)
        lines = {ln["player"]: ln for ln in httpx.get(f"{base}/api/arenas/{aid}", timeout=10).json()["standings"]}
        assert lines[bob_id]["games"] == 1 and lines[bob_id]["table"] is None  # his game counted; not paired
        assert lines[bob_id]["score"] + lines[ann_id]["sheet"][0] == 2  # one won it (or a draw: 1 + 1)
        # Bob comes back: his page polls again, and he is paired again.
        while (me := httpx.get(f"{base}/api/arenas/{aid}/me", headers=auth(bob_key), timeout=10).json())[
                "table"] is None:
            assert time.monotonic() < deadline + 30
            time.sleep(0.3)
        assert me["table"] != first
        assert httpx.post(f"{base}/api/arenas/{aid}/withdraw", json={}, headers=auth(ann_key),
                          timeout=10).json() == {"ok": True}
    finally:
        server.stop()


def test_a_player_following_with_the_secret_is_kept_present_and_told_each_game(tmp_path: Path) -> None:
    """Two players who only follow the arena on the websocket with their secrets (no /me): present through it,
    each told the same new game (arena_game); a connection opened again mid-game is told the game at once; a
    wrong secret is refused."""
    from fastapi.testclient import TestClient

    from diloti.server import create_app
    from diloti.server.arena import ArenaConfig

    # Present for 1 s after being seen: the joins' own marks are stale by the start, so only the websockets'
    # presence can get them paired.
    app = create_app(f"sqlite:///{tmp_path / 'd.sqlite3'}", arenas=ArenaConfig(tick=0.2, minute=10.0, present=1.0))
    with TestClient(app) as client:
        keys = [client.post("/api/players", json={"name": n}).json()["key"] for n in ("Ann", "Bob")]
        made = client.post("/api/arenas", json={"starts_in": 3, "wait": 60, "minutes": 3}, headers=auth(keys[0])).json()
        secrets = [client.post(f"/api/arenas/{made['id']}/join", json={}, headers=auth(k)).json()["secret"]
                   for k in keys]
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
            games = []
            for ws, secret in ((ann, secrets[0]), (bob, secrets[1])):
                ws.send_json({"type": "arena", "arena": made["id"], "secret": secret})
                assert ws.receive_json()["arena"]["status"] == "upcoming"
            for ws in (ann, bob):
                while (msg := ws.receive_json())["type"] != "arena_game":
                    assert msg["type"] == "arena", msg  # the standings, as they change
                games.append(msg)
            assert games[0]["table"] == games[1]["table"] and {g["seat"] for g in games} == {0, 1}
            assert all(g["arena"] == made["id"] for g in games)
            with client.websocket_connect("/ws") as again:  # the page opened again: its game at once
                again.send_json({"type": "arena", "arena": made["id"], "secret": secrets[0]})
                assert again.receive_json()["type"] == "arena"
                # The game at once, from what the server holds; a standings document broadcast to every follower
                # by a pass that ends meanwhile (every 0.2 s here) may come first, as in the loop above.
                while (msg := again.receive_json())["type"] != "arena_game":
                    assert msg["type"] == "arena", msg
                assert msg == games[0]
            with client.websocket_connect("/ws") as wrong:
                wrong.send_json({"type": "arena", "arena": made["id"], "secret": "not-a-secret"})
                assert wrong.receive_json()["code"] == "bad_token"


def test_every_player_of_a_pass_is_told_at_once_not_after_the_tables_load(tmp_path: Path) -> None:
    """A pass that pairs two games tells all four players before any of its tables is loaded: not each game's
    players after the previous game's table was claimed and loaded (round trips behind the moves' commits on a busy
    database: the last games' players waited for them, and their pages found the games through /me first).
    Loading a table here waits until the test has heard all four pushes (or a minute, which fails the test): an
    order of events, not a time, so a loaded machine cannot fail it."""
    import asyncio
    import threading

    from fastapi.testclient import TestClient

    from diloti.server import create_app
    from diloti.server.arena import ArenaConfig

    app = create_app(f"sqlite:///{tmp_path / 'd.sqlite3'}", arenas=ArenaConfig(tick=0.2, minute=10.0))
    heard, early = threading.Event(), threading.Event()
    with TestClient(app) as client:
        mgr = app.state.arenas.manager()
        loaded = mgr.get

        async def held_get(table_id: str) -> Any:
            deadline = time.monotonic() + 60
            while not heard.is_set():
                if time.monotonic() > deadline:  # a push that waits for a load would wait for ever: fail instead
                    early.set()
                    break
                await asyncio.sleep(0.05)
            return await loaded(table_id)

        mgr.get = held_get
        keys = [client.post("/api/players", json={"name": n}).json()["key"] for n in ("Ann", "Bob", "Cleo", "Dora")]
        made = client.post("/api/arenas", json={"starts_in": 2, "wait": 60, "minutes": 3}, headers=auth(keys[0])).json()
        secrets = [client.post(f"/api/arenas/{made['id']}/join", json={}, headers=auth(k)).json()["secret"]
                   for k in keys]
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(client.websocket_connect("/ws")) for _ in keys]
            for ws, secret in zip(sockets, secrets, strict=True):
                ws.send_json({"type": "arena", "arena": made["id"], "secret": secret})
            told: list[dict[str, Any]] = []
            for ws in sockets:
                while (msg := ws.receive_json())["type"] != "arena_game":
                    assert msg["type"] == "arena", msg
                told.append(msg)
            heard.set()
        assert not early.is_set(), "a table was loaded before its players were told (a load waited a minute)"
        doc = client.get(f"/api/arenas/{made['id']}").json()
        assert len({m["table"] for m in told}) == 2  # two games, made by one pass
        assert {g["table"] for g in doc["playing"]} == {m["table"] for m in told}
