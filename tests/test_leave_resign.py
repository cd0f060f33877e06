"""Resigning, leaving and away seats through the framework's test client: the game ends or goes on as
docs/PROTOCOL.md says, the computer plays for absent players (seeded like computer seats), everything
is stored (a restart keeps it) and every bad request gets a clear error and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

from diloti.core.seeds import derive_seed
from diloti.games.diloti.formats.record import read_record
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options
from diloti.match.workers import choose_move
from diloti.server.messages import SERVER_MESSAGE
from test_server import hello, live, make_client, manager, new_table, until

pytestmark = pytest.mark.timeout(90)


def two(client: Any, **body: Any) -> tuple[str, list[str]]:
    t = new_table(client, seed=7, **body)
    j = client.post(f"/api/tables/{t['table']}/join", json={"name": "Bob"}).json()
    return t["table"], [t["token"], j["token"]]


def error(ws: WebSocketTestSession, msg: dict[str, Any]) -> dict[str, Any]:
    ws.send_json(msg)
    got = until(ws, "error")[-1]
    SERVER_MESSAGE.validate_python(got)
    return got


#: The answer to an own hand-over that the server's own hand-over (at the absent player's turn) got to first.
AWAY = ("seat_away",)


def wait_for(ws: WebSocketTestSession, kind: str, ok: Callable[[dict[str, Any]], bool] = lambda m: True, *,
             allow: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The messages up to the first of ``kind`` that satisfies ``ok``: a wait on a condition, not on the order of
    events. An error fails it, unless its code is in ``allow`` (an answer that may come at any point)."""
    out = []
    while True:
        msg = ws.receive_json()
        out.append(msg)
        if msg["type"] == "error" and kind != "error":
            assert msg["code"] in allow, f"unexpected error while waiting for {kind!r}: {msg}"
        elif msg["type"] == kind and ok(msg):
            return out


def test_resign_ends_the_game_for_everyone_and_the_record_says_so(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        tid, tokens = two(client)
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob, \
                client.websocket_connect("/ws") as spec:
            hello(ann, tid, tokens[0])
            hello(bob, tid, tokens[1])
            spec.send_json({"type": "watch", "table": tid})
            until(spec, "state")
            assert error(spec, {"type": "resign"})["code"] == "spectator"
            # Refused before the end: the record would reveal the cards.
            assert client.get(f"/api/tables/{tid}/record").status_code == 409
            bob.send_json({"type": "resign"})  # not his turn: resigning needs none
            for ws in (ann, bob, spec):
                over = until(ws, "game_over")[-1]
                msgs = until(ws, "state")
                assert (over["winner"], over["end_reason"]) == (0, "resigned:1")
                summary = next(m for m in msgs if m["type"] == "table")["table"]
                assert (summary["status"], summary["winner"], summary["end_reason"]) == ("over", 0, "resigned:1")
                assert msgs[-1]["phase"] == "over" and msgs[-1]["legal"] == [] and not msgs[-1]["your_turn"]
                for m in msgs:
                    SERVER_MESSAGE.validate_python(m)
            for ws, code in ((ann, "game_over"), (bob, "game_over")):
                assert error(ws, {"type": "resign"})["code"] == code
                assert error(ws, {"type": "leave"})["code"] == code
                assert error(ws, {"type": "move", "move": "7H"})["code"] == code
        text = client.get(f"/api/tables/{tid}/record").text
        assert '[Termination "seat 1 resigned"]' in text and '[Result "1-0"]' in text
        assert read_record(text).errors == []
        replay = client.get(f"/api/tables/{tid}/replay").json()
        assert (replay["winner"], replay["end_reason"]) == (0, "resigned:1")
        assert tid in [t["id"] for t in client.get("/api/tables?status=over").json()["tables"]]
    with make_client(tmp_path) as client:  # a restart keeps the ending
        s = client.get(f"/api/tables/{tid}").json()
        assert (s["status"], s["winner"], s["end_reason"]) == ("over", 0, "resigned:1")
        assert '[Termination "seat 1 resigned"]' in client.get(f"/api/tables/{tid}/record").text


def test_resign_before_the_start_and_from_a_left_connection_are_refused(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        t = new_table(client)
        with client.websocket_connect("/ws") as ann:
            hello(ann, t["table"], t["token"])
            assert error(ann, {"type": "resign"})["code"] == "not_started"
            assert error(ann, {"type": "hand_over", "seat": 1})["code"] == "not_started"
            for bad in ({"type": "resign", "x": 1}, {"type": "hand_over"}, {"type": "hand_over", "seat": "1"},
                        {"type": "hand_over", "seat": 9}, {"type": "hand_over", "seat": True}):
                assert error(ann, bad)["code"] == "bad_message", bad
            ann.send_json({"type": "leave"})  # before the start: the seat is simply free again
            assert until(ann, "left")[-1] == {"type": "left", "table": t["table"], "seat": 0}
        s = client.get(f"/api/tables/{t['table']}").json()
        assert s["free"] == [0, 1] and s["seats"][0]["name"] is None and not s["seats"][0]["away"]
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": t["table"], "token": t["token"]})
            assert ws.receive_json()["code"] == "bad_token"  # the old token holds nothing now
        with client.websocket_connect("/ws") as ws:
            assert error(ws, {"type": "leave"})["code"] == "not_joined"


def test_leave_reopens_the_seat_the_computer_plays_it_and_a_joiner_takes_it_over(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        tid, tokens = two(client, away_level="greedy")
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob, \
                client.websocket_connect("/ws") as bob2:
            hello(ann, tid, tokens[0])
            hello(bob, tid, tokens[1])
            hello(bob2, tid, tokens[1])  # a second tab of the same seat
            bob.send_json({"type": "leave"})
            for ws in (bob, bob2):
                assert until(ws, "left")[-1]["seat"] == 1
            summary = until(ann, "table", )[-1]["table"]
            while summary["seats"][1]["taken"]:
                summary = until(ann, "table")[-1]["table"]
            seat = summary["seats"][1]
            assert (seat["name"], seat["away"], summary["free"], summary["status"]) == ("Bob", True, [1], "playing")
            # The computer plays Bob's turns: Ann plays on and the game never waits.
            state = until(ann, "state")[-1]
            plies = 0
            played = []
            while plies < 6:
                if state["your_turn"]:
                    ann.send_json({"type": "move", "move": state["legal"][0]["move"], "ply": state["ply"]})
                    plies += 1
                msgs = until(ann, "state")
                played += [m for m in msgs if m["type"] == "played"]
                state = msgs[-1]
            assert len(live(client, tid).by) >= 5
            # Every move says who made it: the computer for Bob's seat, Ann herself for hers.
            assert {(m["seat"], m["by"]) for m in played} == {(0, None), (1, "greedy")}
            assert state["last"]["by"] == ("greedy" if state["last"]["seat"] == 1 else None)
        # Cleo takes the seat from the invitation link and plays from the next move on.
        j = client.post(f"/api/tables/{tid}/join", json={"name": "Cleo"})
        assert j.status_code == 200 and j.json()["seat"] == 1
        s = client.get(f"/api/tables/{tid}").json()
        assert s["status"] == "playing" and s["free"] == [] and s["seats"][1]["name"] == "Cleo"
        assert not s["seats"][1]["away"]
        data = manager(client).store.load(tid)
        assert data is not None
        game = Game(data.players, Options.from_dict(data.options), data.seed, data.first_dealer)
        for ply, (seat_no, move) in enumerate(data.moves):
            if ply in data.by:  # the away player's moves: the seeded choice of the table's away level
                assert data.by[ply] == "greedy" and seat_no == 1
                want = choose_move("greedy", derive_seed("diloti-bot", data.seed, 1, ply), game.view(1))
                assert str(want) == move
            game.play(move)
        with client.websocket_connect("/ws") as cleo:
            hello(cleo, tid, j.json()["token"])


def test_hand_over_after_the_grace_period_and_take_the_seat_back(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        # A long grace period, ended below by hand: the refusal within it does not depend on the test's speed.
        tid, tokens = two(client, grace=60)
        assert live(client, tid).game.state.turn == 1  # Bob's turn (seed 7): the server hands it over by itself too
        with client.websocket_connect("/ws") as ann:
            hello(ann, tid, tokens[0])
            with client.websocket_connect("/ws") as bob:
                hello(bob, tid, tokens[1])
                assert error(ann, {"type": "hand_over", "seat": 1})["code"] == "seat_connected"
            gone = wait_for(ann, "table", lambda m: not m["table"]["seats"][1]["connected"])[-1]  # Bob went away
            # The summary says when the hand-over is allowed (the page counts it down): within the grace period.
            assert 55 <= gone["table"]["seats"][1]["hand_over_in"] <= 60
            assert gone["table"]["seats"][0]["hand_over_in"] is None  # Ann is here
            assert error(ann, {"type": "hand_over", "seat": 0})["code"] == "own_seat"
            assert error(ann, {"type": "hand_over", "seat": 2})["code"] == "bad_seat"
            refused = error(ann, {"type": "hand_over", "seat": 1})
            # Seats named as the page names them: seat 1 of the message is the page's "Seat 2".
            assert refused["code"] == "grace_period" and "the player of Seat 2 keeps the seat for" in refused["message"]
            assert not live(client, tid).seats[1].away
            live(client, tid).grace = 0  # the grace period over at once
            ann.send_json({"type": "hand_over", "seat": 1})
            # At Bob's turn the server hands his seat over by itself too (no clock: the game never stalls), and
            # either may come first: Ann's request is then refused with seat_away, at any point from here on (it
            # is no reply to a promised place in the stream), so every wait below lets that error by. What holds
            # either way: the seat is away, and stays so.
            summary = wait_for(ann, "table", lambda m: m["table"]["seats"][1]["away"], allow=AWAY)[-1]["table"]
            assert summary["seats"][1]["away"] and summary["seats"][1]["taken"]
            assert live(client, tid).seats[1].away
            # Asked again: refused (this answer, or a late one to the request above: seat_away both).
            assert error(ann, {"type": "hand_over", "seat": 1})["code"] == "seat_away"
            # Ann's turn, read from a state sent now: the states before it may have gone by in the waits above.
            # Once a state says it is her turn it is the position now (nobody else moves until she does).
            ann.send_json({"type": "sync"})
            state = wait_for(ann, "state", lambda m: m["your_turn"], allow=AWAY)[-1]
            ann.send_json({"type": "move", "move": state["legal"][0]["move"], "ply": state["ply"]})
            answer = wait_for(ann, "state", lambda m: m["ply"] == state["ply"] + 2, allow=AWAY)[-1]
            assert (answer["last"]["seat"], answer["last"]["by"]) == (1, summary["away_level"])  # for Bob
        with make_client(tmp_path) as client2:  # a restart keeps the seat away
            assert client2.get(f"/api/tables/{tid}").json()["seats"][1]["away"]
            with client2.websocket_connect("/ws") as bob:
                msgs = hello(bob, tid, tokens[1])  # Bob is back: the seat is his again
                assert not msgs[-1]["table"]["seats"][1]["away"]
            assert not manager(client2).tables[tid].seats[1].away
            assert not manager(client2).store.load(tid).seats[1].away  # type: ignore[union-attr]


def test_hand_over_refuses_computer_seats_and_spectators(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        t = new_table(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}], grace=0)
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as spec:
            hello(ann, t["table"], t["token"])
            assert error(ann, {"type": "hand_over", "seat": 1})["code"] == "bot_seat"
            spec.send_json({"type": "watch", "table": t["table"]})
            until(spec, "table")
            for msg in ({"type": "hand_over", "seat": 0}, {"type": "leave"}, {"type": "resign"}):
                assert error(spec, msg)["code"] == "spectator"
            assert client.get(f"/api/tables/{t['table']}").json()["status"] == "playing"


@pytest.mark.parametrize(("body", "code"), [({"away_level": "godlike"}, "bad_level"), ({"away_level": 3}, "bad_level"),
                                            ({"grace": -1}, "bad_grace"), ({"grace": 3601}, "bad_grace"),
                                            ({"grace": "60"}, "bad_grace"), ({"grace": 1.5}, "bad_grace")])
def test_new_table_settings_are_checked(tmp_path: Path, body: dict[str, Any], code: str) -> None:
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"name": "Ann", **body})
        assert r.status_code == 400 and r.json()["code"] == code, r.text
        ok = new_table(client, away_level="expert", grace=5)
        s = client.get(f"/api/tables/{ok['table']}").json()
        assert (s["away_level"], s["grace"]) == ("expert", 5)


def test_a_resignation_the_store_cannot_take_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        tid, tokens = two(client)
        storage = manager(client).storage
        stored = storage.store_end

        async def broken(*args: Any, **kwargs: Any) -> bool:
            raise OSError("disk gone")

        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
            hello(ann, tid, tokens[0])
            hello(bob, tid, tokens[1])
            storage.store_end = broken  # type: ignore[method-assign]
            got = error(bob, {"type": "resign"})
            assert (got["code"], got["message"]) == (
                "server_error", "could not store the resignation (OSError); the game is unchanged")
            assert client.get(f"/api/tables/{tid}").json()["status"] == "playing"
            storage.store_end = stored  # type: ignore[method-assign]
            bob.send_json({"type": "resign"})
            over = until(ann, "game_over")[-1]
            assert (over["winner"], over["end_reason"]) == (0, "resigned:1")
