"""Rematches and series through the framework's test client: 'play again' makes one new table with the
same seats (tokens, computer levels, options, settings), the deal rotates, the series score counts the
finished games, every game keeps its record and replay, and a restart keeps it all (docs/PROTOCOL.md,
Rematch and series)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

from diloti.server.messages import SERVER_MESSAGE
from diloti.store.db import SeatData, Store, TableData
from test_leave_resign import error
from test_server import hello, live, make_client, new_table, until

pytestmark = pytest.mark.timeout(120)


def play_out(ann: WebSocketTestSession, bob: WebSocketTestSession) -> dict[str, Any]:
    """Both players play their first legal move until the game is over; returns the last state of seat 0."""
    states = [until(ann, "state")[-1], until(bob, "state")[-1]]
    while states[0]["phase"] != "over":
        mover = next(i for i in (0, 1) if states[i]["your_turn"])
        ws = (ann, bob)[mover]
        ws.send_json({"type": "move", "move": states[mover]["legal"][0]["move"], "ply": states[mover]["ply"]})
        states = [until(ann, "state")[-1], until(bob, "state")[-1]]
    return states[0]


def test_play_again_keeps_the_seats_rotates_the_deal_and_counts_the_series(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        t = new_table(client, seed=7, options={"target": 1}, grace=5, away_level="greedy")
        first = t["table"]
        j = client.post(f"/api/tables/{first}/join", json={"name": "Bob"}).json()
        tokens = [t["token"], j["token"]]
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob, \
                client.websocket_connect("/ws") as spec:
            hello(ann, first, tokens[0])
            hello(bob, first, tokens[1])
            spec.send_json({"type": "watch", "table": first})
            until(spec, "state")
            assert until(ann, "state")[-1]["dealer"] == 0
            assert error(ann, {"type": "rematch"})["code"] == "game_not_over"  # nothing is made
            assert error(spec, {"type": "rematch"})["code"] == "spectator"
            assert error(ann, {"type": "rematch", "x": 1})["code"] == "bad_message"
            ann.send_json({"type": "sync"})
            over = play_out(ann, bob)
            winner = live(client, first).winner
            assert winner in (0, 1) and over["phase"] == "over"
            assert live(client, first).next_table is None
            ann.send_json({"type": "rematch"})  # an offer: Bob sees it, nothing is made yet
            offer = until(bob, "table")[-1]["table"]["rematch_offer"]
            while offer is None:
                offer = until(bob, "table")[-1]["table"]["rematch_offer"]
            assert offer["seats"] == [0] and 0 < offer["expires_in"] <= 60
            assert live(client, first).next_table is None
            bob.send_json({"type": "rematch"})  # accepted: one table
            got = []
            for ws in (ann, bob, spec):
                msgs = until(ws, "rematch")
                for m in msgs:
                    SERVER_MESSAGE.validate_json(json.dumps(m))
                got.append(msgs[-1]["table"])
            new = got[0]
            assert set(got) == {new} and new != first
            ann.send_json({"type": "rematch"})
            assert until(ann, "rematch")[-1]["table"] == new  # asked again: the same table
            score = [int(winner == 0), int(winner == 1)]
            old = client.get(f"/api/tables/{first}").json()
            assert (old["series"], old["next_table"], old["series_score"]) == (first, new, score)
        s = client.get(f"/api/tables/{new}").json()
        assert s["status"] == "playing" and s["series"] == first and s["series_score"] == score
        assert [x["name"] for x in s["seats"]] == ["Ann", "Bob"] and s["options"]["target"] == 1
        assert (s["away_level"], s["grace"], s["next_table"], s["ply"]) == ("greedy", 5, None, 0)
        assert live(client, new).seed != live(client, first).seed
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
            hello(ann, new, tokens[0])  # the same tokens hold the same seats
            hello(bob, new, tokens[1])
            state = until(ann, "state")[-1]
            assert state["dealer"] == 1 and state["seat"] == 0  # the deal moved on by one seat
            bob.send_json({"type": "resign"})
            until(ann, "game_over")
            summary = until(ann, "table")[-1]["table"]
            assert summary["series_score"] == [score[0] + 1, score[1]]
            ann.send_json({"type": "rematch"})
            bob.send_json({"type": "rematch"})
            third = until(ann, "rematch")[-1]["table"]
        s3 = client.get(f"/api/tables/{third}").json()
        assert s3["series"] == first and s3["series_score"] == [score[0] + 1, score[1]]
        assert live(client, third).first_dealer == 0
        for tid in (first, new):  # every game of the series keeps its record and replay
            assert client.get(f"/api/tables/{tid}/record").status_code == 200
            assert client.get(f"/api/tables/{tid}/replay").status_code == 200
    with make_client(tmp_path) as client:  # a restart keeps the series and the links between games
        old = client.get(f"/api/tables/{first}").json()
        assert (old["series"], old["next_table"], old["series_score"]) == (first, new, score)
        s = client.get(f"/api/tables/{new}").json()
        assert (s["next_table"], s["series_score"]) == (third, [score[0] + 1, score[1]])
        assert client.get(f"/api/tables/{third}").json()["series_score"] == [score[0] + 1, score[1]]
        with client.websocket_connect("/ws") as ann:
            hello(ann, new, tokens[0])
            ann.send_json({"type": "rematch"})
            assert until(ann, "rematch")[-1]["table"] == third  # still the same rematch
        with client.websocket_connect("/ws") as ann:
            hello(ann, third, tokens[0])
            assert until(ann, "state")[-1]["seat"] == 0


def test_rematch_against_the_computer_and_a_left_seat(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        t = new_table(client, players=4, seed=3, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"},
                                                        {"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        tid = t["table"]
        j = client.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
            hello(ann, tid, t["token"])
            hello(bob, tid, j["token"])
            bob.send_json({"type": "leave"})
            until(bob, "left")
            ann.send_json({"type": "resign"})
            until(ann, "game_over")
            ann.send_json({"type": "rematch"})
            new = until(ann, "rematch")[-1]["table"]
        s = client.get(f"/api/tables/{new}").json()
        assert [(x["kind"], x["level"], x["taken"]) for x in s["seats"]] == [
            ("human", None, True), ("bot", "random", True), ("human", None, False), ("bot", "greedy", True)]
        assert s["status"] == "waiting" and s["free"] == [2] and s["series_score"] == [0, 1]
        assert live(client, new).first_dealer == 1
        assert client.post(f"/api/tables/{new}/join", json={"name": "Cleo"}).json()["seat"] == 2
        assert client.get(f"/api/tables/{new}").json()["status"] == "playing"


def test_the_database_makes_one_rematch_however_many_ask(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.sqlite3'}")
    seats = [SeatData(0, "human", None, "Ann", "h" * 64), SeatData(1, "bot", "random")]
    store.create_table(TableData("t1", 2, {"target": 1}, 7, 0, False, "playing", seats=seats))
    with pytest.raises(Exception, match="not a finished game"):
        store.create_rematch("t1", TableData("early", 2, {}, 1, 1, False, "playing", seats=seats, series="t1"))
    assert store.load("early") is None
    store.set_status("t1", "over", 1)
    made: list[str] = []
    go = threading.Barrier(6)

    def ask(i: int) -> None:
        go.wait()
        made.append(store.create_rematch("t1", TableData(f"r{i}", 2, {}, i, 1, False, "playing",
                                                         seats=seats, series="t1")))

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(set(made)) == 1 and len(made) == 6
    assert sum(store.load(f"r{i}") is not None for i in range(6)) == 1
    old = store.load("t1")
    assert old is not None and (old.next_table, old.series) == (made[0], "t1")
    again = store.load(made[0])
    assert again is not None and again.series_before == [0, 1]
    store.close()
