"""Retry this position (POST /api/tables/{id}/retry): a new casual table from a finished game's decision, the cards
as they were, the player in the decision's seat against the master; refused before the game is over and for a
move that was not the seat's; the seat sees only its own hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from diloti.games import find_game
from test_server_review import finished_table, make_client

pytestmark = pytest.mark.timeout(120)


def replay_state(client: TestClient, tid: str, ply: int) -> dict[str, Any]:
    """The finished game's frame before move ``ply`` (every hand shown)."""
    data = client.get(f"/api/tables/{tid}/replay").json()
    found = [fr for rd in data["rounds"] for fr in rd["frames"] if fr["ply"] == ply]
    assert found, f"no frame at ply {ply}"
    out: dict[str, Any] = found[-1]  # at a round's start: its first frame, not the last round's last
    return out


def hello(client: TestClient, table: str, token: str) -> dict[str, Any]:
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": table, "token": token})
        while True:
            m = ws.receive_json()
            if m["type"] == "state":
                out: dict[str, Any] = m
                return out


@pytest.mark.parametrize("game", ["diloti", "xeri"])
def test_a_retried_position_is_the_same_deal_in_the_seat_that_decided(tmp_path: Path, game: str) -> None:
    with make_client(tmp_path) as client:
        tid = finished_table(client, seed=5, game=game)
        moves = client.get(f"/api/tables/{tid}/replay").json()
        plies = [(fr["ply"] - 1, fr["seat"]) for rd in moves["rounds"] for fr in rd["frames"] if fr.get("move")]
        ply = next(p for p, s in plies if s == 0 and p >= 7)  # a decision of seat 0 well into the first round
        r = client.post(f"/api/tables/{tid}/retry", json={"seat": 0, "ply": ply, "name": "Bea"})
        assert r.status_code == 201, r.json()
        new = r.json()
        assert new["seat"] == 0 and new["table"] != tid
        summary = client.get(f"/api/tables/{new['table']}").json()
        assert summary["rated"] is False
        assert [s["kind"] for s in summary["seats"]] == ["human", "bot"]
        assert summary["seats"][1]["level"] == "master"
        # The position is the finished game's before that move: the seat's hand and the table as they were.
        before = replay_state(client, tid, ply)
        state = hello(client, new["table"], new["token"])
        assert state["your_turn"] and state["ply"] == ply
        assert sorted(state["hand"]) == sorted(before["hands"][0])
        assert sorted(state["table"]) == sorted(before["table"])
        # Only the seat's own hand: no card of the other hand is in what the seat is sent.
        sent = json.dumps(state)
        assert before["hands"][1] and not [c for c in before["hands"][1] if f'"{c}"' in sent]
        assert find_game(game).name == summary.get("game", game)


def test_retry_refuses_what_is_not_a_finished_decision_of_the_seat(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        live = client.post("/api/tables", json={"name": "Ann", "seats": [{"kind": "human"},
                                                                          {"kind": "bot", "level": "random"}]}).json()
        got = client.post(f"/api/tables/{live['table']}/retry", json={"seat": 0, "ply": 0, "name": "Bea"})
        assert got.status_code == 409 and got.json()["code"] == "game_not_over"
        assert client.post("/api/tables/nosuch/retry", json={"seat": 0, "ply": 0, "name": "Bea"}).status_code == 404
        tid = finished_table(client)
        replay = client.get(f"/api/tables/{tid}/replay").json()
        other = next(fr["ply"] - 1 for rd in replay["rounds"] for fr in rd["frames"]
                     if fr.get("move") and fr["seat"] == 1)
        for body, words in (({"seat": 0, "ply": other, "name": "Bea"}, "not seat 0's"),
                            ({"seat": 0, "ply": 10_000, "name": "Bea"}, "invalid ply"),
                            ({"seat": 3, "ply": 0, "name": "Bea"}, "invalid seat"),
                            ({"seat": 0, "ply": -1, "name": "Bea"}, "invalid ply")):
            got = client.post(f"/api/tables/{tid}/retry", json=body)
            assert got.status_code == 400 and words in got.json()["message"], (body, got.json())
        for body in ({"seat": 0, "ply": "1", "name": "Bea"}, {"seat": 0, "name": "Bea"},
                     {"seat": 0, "ply": 1, "name": "Bea", "rated": True}, {"seat": 0, "ply": 1, "name": ""}):
            got = client.post(f"/api/tables/{tid}/retry", json=body)
            assert got.status_code == 400 and got.json()["type"] == "error", body


def test_the_retry_is_in_the_openapi_document(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        doc = client.get("/openapi.json").json()
    op = doc["paths"]["/api/tables/{table_id}/retry"]["post"]
    assert op["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/RetryRequest")
    assert op["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].endswith("/Claimed")
    assert doc["components"]["schemas"]["RetryRequest"]["additionalProperties"] is False
