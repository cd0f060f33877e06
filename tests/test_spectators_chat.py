"""Spectators and chat through the framework's test client: a spectator collects every message of whole
games and never sees a hand or the stock; chat is checked, rate-limited, stored and survives a restart;
every bad input gets a clear error and changes nothing."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options
from diloti.server.limits import Limits
from diloti.server.messages import SERVER_MESSAGE
from test_server import cards_in, hello, hidden_from, live, make_client, manager, new_table, until

pytestmark = pytest.mark.timeout(90)
BOT = {"kind": "bot", "level": "random"}


def watch(ws: WebSocketTestSession, table: str) -> list[dict[str, Any]]:
    ws.send_json({"type": "watch", "table": table})
    first = ws.receive_json()
    assert first["type"] == "welcome" and first["seat"] is None and first["name"] is None, first
    return [first, *until(ws, "table")]


# ------------------------------------------------------------------ spectators over whole games
def play_to_the_end(ws: WebSocketTestSession, rng: random.Random, on_move: Any = None) -> int:
    """Play the one human seat (random legal moves) until the game is over; returns its moves."""
    moves = 0
    while True:
        m = ws.receive_json()
        assert m["type"] != "error", m
        if m["type"] == "state" and m["phase"] == "over":
            return moves
        if m["type"] == "state" and m["your_turn"]:
            ws.send_json({"type": "move", "move": rng.choice(m["legal"])["move"], "ply": m["ply"]})
            moves += 1
            if on_move is not None:
                on_move(moves)


def positions(client: TestClient, tid: str) -> tuple[list[tuple[int, str]], list[set[str]], list[list[int]]]:
    """The stored moves, and after each ply the cards nobody outside may know (every hand and the stock)
    and the hands' sizes, from the game replayed afresh."""
    table = live(client, tid)
    data = manager(client).store.load(tid)
    assert data is not None
    game = Game(data.players, Options.from_dict(data.options), data.seed, data.first_dealer)
    view = SimpleNamespace(game=game)
    hidden = [hidden_from(view, -1)]  # type: ignore[arg-type]
    sizes = [[len(h) for h in game.state.hands]]
    for _, text in data.moves:
        game.play(text)
        hidden.append(hidden_from(view, -1))  # type: ignore[arg-type]
        sizes.append([len(h) for h in game.state.hands])
    assert game.is_over and table.game.is_over and game.scores == table.game.scores
    return data.moves, hidden, sizes


def check_spectator(msgs: list[dict[str, Any]], moves: list[tuple[int, str]], hidden: list[set[str]],
                    sizes: list[list[int]]) -> set[str]:
    """Every message a spectator got, against the position at that moment; returns the types seen."""
    seen: set[str] = set()
    played: dict[str, Any] | None = None
    for m in msgs:
        SERVER_MESSAGE.validate_json(json.dumps(m))  # it fits its model
        seen.add(m["type"])
        kind = m["type"]
        if kind == "state":
            p = m["ply"]
            assert m["seat"] is None and m["hand"] == [] and m["legal"] == [] and not m["your_turn"], m
            assert m["bottom"] is None and m["hand_sizes"] == sizes[p]
            assert not cards_in({**m, "last": None}) & hidden[p], (p, cards_in(m) & hidden[p])
            if p:
                assert m["last"]["move"] == moves[p - 1][1]  # public: the move just made
        elif kind == "played":
            p = m["ply"]
            assert (m["seat"], m["move"]) == moves[p - 1], m
            # The card played came from a hand; every other card named was on the table.
            assert cards_in(m) & hidden[p - 1] <= {m["card"]}, m
            played = m
        elif kind == "round_over":
            assert played is not None
            # Swept cards lay on the table (the last card played among them, maybe).
            assert not cards_in(m) & (hidden[played["ply"] - 1] - {played["card"]}), m
        else:
            assert kind in ("welcome", "table", "game_over", "chat"), m
            assert not cards_in(m), m
    return seen


@pytest.mark.parametrize(("players", "seats", "options", "seed"), [
    (2, [{"kind": "human"}, BOT], {"target": 11, "dealer_sees_bottom": True}, 31),
    (4, [{"kind": "human"}, BOT, BOT, BOT],
     {"target": 21, "dealer_sees_bottom": True, "face_card_redeal": "any_deal", "liberal_raise": True}, 5),
])
def test_a_spectator_sees_whole_games_but_never_a_hand_or_the_stock(
        tmp_path: Path, players: int, seats: list[dict[str, Any]], options: dict[str, Any], seed: int) -> None:
    with make_client(tmp_path, rate=1e6, burst=1e6) as client:
        t = new_table(client, players=players, seats=seats, options=options, seed=seed, private=True)
        tid = t["table"]
        with client.websocket_connect("/ws") as early, client.websocket_connect("/ws") as late, \
                client.websocket_connect("/ws") as player:
            early_msgs = watch(early, tid)  # a private table too: its id is the invitation
            hello(player, tid, t["token"])
            joined: list[list[dict[str, Any]]] = []

            def on_move(n: int) -> None:
                if n == 5:  # a second spectator comes in mid-game
                    joined.append(watch(late, tid))

            assert play_to_the_end(player, random.Random(seed), on_move) > 5
            early_msgs += until(early, "game_over")
            early_msgs += until(early, "state")
            late_msgs = joined[0] + until(late, "game_over")
            late_msgs += until(late, "state")
            assert client.get(f"/api/tables/{tid}").json()["spectators"] == 2
        moves, hidden, sizes = positions(client, tid)
        seen = check_spectator(early_msgs, moves, hidden, sizes)
        assert seen >= {"welcome", "table", "state", "played", "round_over", "game_over"}, seen
        assert sum(m["type"] == "played" for m in early_msgs) == len(moves)  # every move, each once
        late_seen = check_spectator(late_msgs, moves, hidden, sizes)
        assert "state" in late_seen and late_msgs[2]["type"] == "state" and late_msgs[2]["ply"] > 0
        deadline = time.monotonic() + 30
        while client.get(f"/api/tables/{tid}").json()["spectators"] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert client.get(f"/api/tables/{tid}").json()["spectators"] == 0


def test_spectators_of_a_waiting_table_see_it_start(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        t = new_table(client, seed=3)
        tid = t["table"]
        with client.websocket_connect("/ws") as spec:
            msgs = watch(spec, tid)
            assert msgs[-1]["table"]["status"] == "waiting" and msgs[-1]["table"]["spectators"] == 1
            j = client.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
            st = until(spec, "state")[-1]
            assert st["seat"] is None and st["hand"] == [] and st["hand_sizes"] == [6, 6]
            table = live(client, tid)
            assert not cards_in(st) & hidden_from(table, -1)
            spec.send_json({"type": "sync"})
            got = until(spec, "state")
            assert [m["type"] for m in got] == ["table", "state"] and got[1]["hand"] == []
            with client.websocket_connect("/ws") as ws:
                hello(ws, tid, j["token"])
                until(spec, "table")  # Bob connected


# ------------------------------------------------------------------ spectators' bad input
def test_spectators_may_only_look(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        t = new_table(client, seed=7)
        tid = t["table"]
        j = client.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
        table = live(client, tid)
        with client.websocket_connect("/ws") as spec, client.websocket_connect("/ws") as other:
            other.send_json({"type": "watch", "table": "no-such-table"})
            assert other.receive_json()["code"] == "unknown_table"
            for bad in ({"type": "watch"}, {"type": "watch", "table": 5},
                        {"type": "watch", "table": tid, "token": "x"}):
                other.send_json(bad)
                assert other.receive_json()["code"] == "bad_message"
            other.send_json({"type": "chat", "text": "hi"})
            assert other.receive_json()["code"] == "not_joined"
            watch(spec, tid)
            until(spec, "state")
            turn = table.game.state.turn
            forged = [({"type": "move", "move": str(table.game.state.legal_moves()[0]), "ply": 0}, "spectator"),
                      ({"type": "hint"}, "spectator"),
                      ({"type": "chat", "text": "I can see everything"}, "spectator"),
                      ({"type": "watch", "table": tid}, "already_joined"),
                      ({"type": "hello", "table": tid, "token": [t, j][turn]["token"]}, "already_joined")]
            for msg, code in forged:
                spec.send_json(msg)
                reply = spec.receive_json()
                assert reply["type"] == "error" and reply["code"] == code and reply["message"], (msg, reply)
            assert table.ply == 0 and table.chat == [] and manager(client).store.chat_lines(tid) == []
            assert table.seats[turn].conns == set() and len(table.watchers) == 1
            spec.send_json({"type": "ping", "id": 9})
            assert spec.receive_json() == {"type": "pong", "id": 9}
            # A player's hello on its own connection is unaffected.
            with client.websocket_connect("/ws") as ws:
                hello(ws, tid, t["token"])
                assert until(ws, "state")[-1]["hand"]


def test_watching_a_closed_table_is_refused_and_closing_disconnects_spectators(tmp_path: Path) -> None:
    with make_client(tmp_path, idle_minutes=0.005) as client:  # 0.3 s
        t = new_table(client, seed=2)
        tid = t["table"]
        with client.websocket_connect("/ws") as spec:
            watch(spec, tid)
            msg = spec.receive_json()  # watching does not keep the table open, and spectators get no warning
            assert msg["type"] == "table" and msg["table"]["status"] == "closed", msg
            with pytest.raises(WebSocketDisconnect):
                spec.receive_json()
        with client.websocket_connect("/ws") as spec:
            spec.send_json({"type": "watch", "table": tid})
            assert spec.receive_json()["code"] == "table_closed"


# ------------------------------------------------------------------ chat
def two_players(client: TestClient) -> tuple[str, list[str]]:
    t = new_table(client, seed=7)
    j = client.post(f"/api/tables/{t['table']}/join", json={"name": "Νίκος"}).json()
    return t["table"], [t["token"], j["token"]]


def test_chat_reaches_players_and_spectators_and_survives_a_restart(tmp_path: Path) -> None:
    raw = '<img src=x onerror="alert(1)"> & <b>bold</b>'
    with make_client(tmp_path) as client:
        tid, tokens = two_players(client)
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b, \
                client.websocket_connect("/ws") as spec:
            hello(a, tid, tokens[0])
            until(a, "state")
            hello(b, tid, tokens[1])
            until(b, "state")
            watch(spec, tid)
            until(spec, "state")
            a.send_json({"type": "chat", "text": "  Good luck  "})
            b.send_json({"type": "chat", "text": raw})
            b.send_json({"type": "chat", "text": "Καλή τύχη 👨‍👩‍👧"})  # joiners inside emoji are fine
            for ws in (a, b, spec):
                got = [until(ws, "chat")[-1] for _ in range(3)]
                assert [(m["seat"], m["name"], m["text"]) for m in got] == [
                    (0, "Ann", "Good luck"), (1, "Νίκος", raw), (1, "Νίκος", "Καλή τύχη 👨‍👩‍👧")]
                assert got[0]["id"] < got[1]["id"] < got[2]["id"]
                assert all(m["at"].endswith("Z") for m in got)
                for m in got:
                    SERVER_MESSAGE.validate_json(json.dumps(m))
    # A new server on the same database.
    with make_client(tmp_path) as client, client.websocket_connect("/ws") as a, \
            client.websocket_connect("/ws") as spec:
        hello(a, tid, tokens[0])
        until(a, "state")
        lines = [until(a, "chat")[-1]["text"] for _ in range(3)]
        assert lines == ["Good luck", raw, "Καλή τύχη 👨‍👩‍👧"]
        watch(spec, tid)
        until(spec, "state")
        assert [until(spec, "chat")[-1]["text"] for _ in range(3)] == lines


def test_only_the_last_50_lines_are_sent(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        tid, tokens = two_players(client)
        store = manager(client).store
        for i in range(60):
            store.add_chat(tid, i % 2, "x", f"line {i}")
    with make_client(tmp_path) as client, client.websocket_connect("/ws") as a:
        hello(a, tid, tokens[0])
        until(a, "state")
        a.send_json({"type": "ping", "id": 1})
        got = []
        while (m := a.receive_json())["type"] != "pong":
            got.append(m)
        assert [m["text"] for m in got if m["type"] == "chat"] == [f"line {i}" for i in range(10, 60)]


@pytest.mark.parametrize(("text", "words"), [
    ("", "empty"),
    ("   \t ", "empty"),
    ("x" * 201, "201 characters"),
    (" " * 50 + "x" * 201, "201 characters"),
    ("x" * 401, "too long"),
    ("two\nlines", "control"),
    ("\u202eesrever", "control"),
    ("bell\x07", "control"),
])
def test_bad_chat_lines_are_refused_and_stored_nowhere(tmp_path: Path, text: str, words: str) -> None:
    with make_client(tmp_path) as client:
        tid, tokens = two_players(client)
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            hello(a, tid, tokens[0])
            until(a, "state")
            hello(b, tid, tokens[1])
            until(b, "state")
            until(a, "table")
            a.send_json({"type": "chat", "text": text})
            m = a.receive_json()
            assert m["type"] == "error" and m["code"] == "bad_chat" and words in m["message"], m
            a.send_json({"type": "chat", "text": 5})
            assert a.receive_json()["code"] == "bad_message"
            # Nothing was stored or told: b's next message is the good line.
            a.send_json({"type": "chat", "text": " " * 100 + "x" * 200 + " " * 90})  # 200 once trimmed
            assert b.receive_json()["text"] == "x" * 200
            assert [c.text for c in manager(client).store.chat_lines(tid)] == ["x" * 200]


def test_chat_floods_are_limited_per_seat_not_per_connection(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(chat="5/10 seconds")) as client:
        info = client.get("/api/info").json()["limits"]
        assert (info["chat_max"], info["chat_lines"], info["chat_seconds"]) == (200, 5, 10.0)
        tid, tokens = two_players(client)
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as a2, \
                client.websocket_connect("/ws") as b:
            hello(a, tid, tokens[0])
            until(a, "state")
            hello(a2, tid, tokens[0])  # a second tab of the same seat shares the seat's allowance
            until(a2, "state")
            hello(b, tid, tokens[1])
            until(b, "state")
            until(a, "table")
            until(a2, "table")
            for i in range(8):
                a.send_json({"type": "chat", "text": f"spam {i}"})
            replies: list[dict[str, Any]] = []
            while len([r for r in replies if r["type"] == "error" or r["type"] == "chat"]) < 8:
                replies.append(a.receive_json())
            said = [r["text"] for r in replies if r["type"] == "chat"]
            limited = [r for r in replies if r["type"] == "error"]
            assert said == [f"spam {i}" for i in range(5)]
            assert len(limited) == 3 and all(r["code"] == "rate_limited" and "chat" in r["message"] for r in limited)
            a2.send_json({"type": "chat", "text": "from the other tab"})
            assert until(a2, "error")[-1]["code"] == "rate_limited"  # more tabs do not say more
            b.send_json({"type": "chat", "text": "still here"})  # the other seat has its own allowance
            assert until(a, "chat", text="still here")
            # The game goes on for the flooder: the message bucket is not the chat window.
            a.send_json({"type": "ping", "id": 1})
            until(a, "pong")
        assert len(manager(client).store.chat_lines(tid)) == 6


def test_ten_connections_of_one_seat_cannot_flood_the_history(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(chat="5/10 seconds")) as client:
        tid, tokens = two_players(client)
        with client.websocket_connect("/ws") as b:
            hello(b, tid, tokens[1])
            b.send_json({"type": "chat", "text": "an earlier line"})
            until(b, "chat", text="an earlier line")
            tabs = []
            try:
                for _ in range(10):  # ten connections of seat 0, each with a full allowance if it were theirs
                    ws = client.websocket_connect("/ws")
                    tabs.append(ws.__enter__())
                    hello(tabs[-1], tid, tokens[0])
                for ws in tabs:
                    for i in range(5):
                        ws.send_json({"type": "chat", "text": f"spam {i}"})
                for ws in tabs:  # every line answered: said to the table, or refused
                    ws.send_json({"type": "ping", "id": 9})
                    while (m := ws.receive_json())["type"] != "pong":
                        assert m["type"] != "error" or m["code"] == "rate_limited", m
            finally:
                for ws in tabs:
                    ws.__exit__(None, None, None)
        lines = [c.text for c in manager(client).store.chat_lines(tid)]
        assert len(lines) == 6 and lines[0] == "an earlier line"  # 5 from the seat: the history keeps the rest


def test_a_players_chat_allowance_spans_their_tables(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(chat="5/10 seconds")) as client:
        key = client.post("/api/players", json={"name": "Ann"}).json()["key"]
        auth = {"Authorization": f"Bearer {key}"}
        bots = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
        t1, t2 = (client.post("/api/tables", json={"name": "Ann", "seats": bots}, headers=auth).json()
                  for _ in range(2))
        with client.websocket_connect("/ws") as w1, client.websocket_connect("/ws") as w2:
            hello(w1, t1["table"], t1["token"])
            hello(w2, t2["table"], t2["token"])
            for i in range(5):
                w1.send_json({"type": "chat", "text": f"line {i}"})
                until(w1, "chat", text=f"line {i}")
            w2.send_json({"type": "chat", "text": "and here"})
            assert until(w2, "error")[-1]["code"] == "rate_limited"
