"""The daily deal through the framework's test client: every player gets the same cards and meets the same
computer replies when they play the same moves; the deal is sealed (record, replay, review, watching, the field)
until the player finished it; one ranked attempt a day per player, address and device; the leaderboard, the
field and the history once it is played."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from diloti.server.daily import streak_of
from diloti.server.events import today
from diloti.store.daily import Attempt, DailyStore, DailyTaken
from diloti.store.db import SeatData, Store, TableData
from test_server import hello, make_client, manager, until

pytestmark = pytest.mark.timeout(120)

LEVEL = "master:iterations=20,seconds=none"  # a small playout budget: the same replies, quickly


def client_of(path: Path) -> TestClient:
    return make_client(path, daily_level=LEVEL, rate=1000.0, burst=1000.0)


def start(client: TestClient, status: int = 201, headers: dict[str, str] | None = None, **body: Any) -> dict[str, Any]:
    r = client.post("/api/daily", json=body, headers=headers or {})
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def play_first_legal(client: TestClient, table: str, token: str, pick: int = 0) -> list[dict[str, Any]]:
    """Play the game out, each time the ``pick``-th legal move (or the last); the states the player saw."""
    seen: list[dict[str, Any]] = []
    sent = -1
    with client.websocket_connect("/ws") as ws:
        hello(ws, table, token)
        while True:
            state = until(ws, "state")[-1]
            seen.append(state)
            if state["phase"] == "over":
                return seen
            if state["your_turn"] and state["ply"] > sent:
                legal = state["legal"]
                sent = state["ply"]
                ws.send_json({"type": "move", "move": legal[min(pick, len(legal) - 1)]["move"], "ply": sent})


def moves_of(client: TestClient, table: str) -> list[tuple[int, str]]:
    data = manager(client).store.load(table)
    assert data is not None
    return data.moves


def key(client: TestClient, name: str) -> dict[str, str]:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['key']}"}


def test_the_same_moves_meet_the_same_replies_and_the_deal_is_sealed_until_finished(tmp_path: Path) -> None:
    with client_of(tmp_path) as client:
        info = client.get("/api/daily").json()
        assert info["day"] == today() and info["opponent"] == LEVEL and info["players"] == 2
        assert "seed" not in str(info) and info["options"]["target"] == 61
        a = start(client, name="Ann")
        b = start(client, name="Bob")
        assert not a["ranked"] and not b["ranked"] and a["table"] != b["table"]
        summary = client.get(f"/api/tables/{a['table']}").json()
        assert summary["event"] == f"daily:{today()}" and summary["private"] and not summary["hints"]
        assert a["table"] not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        # Before finishing: the field, the record, the replay and watching are refused.
        r = client.post("/api/daily/field", json={"table": a["table"], "token": a["token"]})
        assert r.status_code == 409 and r.json()["code"] == "game_not_over"
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "watch", "table": a["table"]})
            assert ws.receive_json()["code"] == "sealed"
        ann = play_first_legal(client, a["table"], a["token"])
        for path in ("record", "replay"):  # finished, but the day is not over: sealed for everyone
            r = client.get(f"/api/tables/{a['table']}/{path}")
            assert r.status_code == 403 and r.json()["code"] == "sealed"
        r = client.post(f"/api/tables/{a['table']}/review", json={"seat": 0})
        assert r.status_code == 403 and r.json()["code"] == "sealed"
        bob = play_first_legal(client, b["table"], b["token"])
        # The same cards, the same replies: the two games are one.
        by_ply = [{st["ply"]: (st["hand"], st["table"]) for st in seen} for seen in (ann, bob)]
        common = set(by_ply[0]) & set(by_ply[1])
        assert len(common) > 10 and all(by_ply[0][p] == by_ply[1][p] for p in common)
        assert moves_of(client, a["table"]) == moves_of(client, b["table"])
        assert ann[-1]["scores"] == bob[-1]["scores"]
        # Another line of play meets other replies, still to the same first deal.
        c = start(client, name="Cleo")
        cleo = play_first_legal(client, c["table"], c["token"], pick=99)
        first = min(st["ply"] for st in cleo)
        assert first in by_ply[0] and {st["ply"]: st["hand"] for st in cleo}[first] == by_ply[0][first][0]
        assert moves_of(client, c["table"]) != moves_of(client, a["table"])
        # The field: wrong tokens refused; each decision reached by the three games first, then by two.
        r = client.post("/api/daily/field", json={"table": a["table"], "token": b["token"]})
        assert r.status_code == 404 and r.json()["code"] == "bad_token"
        r = client.post("/api/daily/field", json={"table": a["table"], "token": 5})
        assert r.status_code == 400 and r.json()["code"] == "bad_token"
        field = client.post("/api/daily/field", json={"table": b["table"], "token": b["token"]}).json()
        decisions = field["decisions"]
        mine = [m for s, m in moves_of(client, b["table"]) if s == 0]
        assert [d["move"] for d in decisions] == mine
        assert decisions[0]["reached"] == 3 and decisions[-1]["reached"] == 2
        assert all(d["same"] <= d["reached"] for d in decisions)
        assert field["diff"] == ann[-1]["scores"][0] - ann[-1]["scores"][1] and field["rank"] is None
        assert field["review"]["status"] in ("queued", "running", "done")


def test_one_ranked_attempt_a_day_per_player_and_address(tmp_path: Path) -> None:
    with client_of(tmp_path) as client:
        ann, bob = key(client, "Ann"), key(client, "Bob")
        a = start(client, headers=ann, device="device-one")
        assert a["ranked"]
        r = client.post("/api/daily", json={}, headers=ann)
        assert r.status_code == 409 and r.json()["code"] == "daily_played"
        # A new name from the same address gets no second ranked attempt; unranked it may play.
        r = client.post("/api/daily", json={"device": "device-two"}, headers=bob)
        assert r.status_code == 409 and r.json()["code"] == "daily_played" and "address" in r.json()["message"]
        assert not start(client, headers=bob, ranked=False)["ranked"]
        for bad, code in (({"device": "x"}, "bad_device"), ({"ranked": "yes"}, "bad_ranked"),
                          ({"z": 1}, "bad_request")):
            r = client.post("/api/daily", json=bad, headers=bob)
            assert r.status_code == 400 and r.json()["code"] == code, r.text
        assert client.get("/api/daily", headers=ann).json()["mine"]["status"] == "playing"
        play_first_legal(client, a["table"], a["token"])
        board = client.get("/api/daily/leaderboard").json()
        assert board["total"] == 1 and board["entries"][0]["name"] == "Ann"
        assert board["entries"][0]["table"] is None  # not to a caller who has not finished
        assert client.get("/api/daily/leaderboard", headers=ann).json()["entries"][0]["table"] == a["table"]
        me = client.get("/api/daily", headers=ann).json()
        assert me["mine"]["rank"] == 1 and me["streak"] == 1 and me["finished"] == 1
        pid = client.get("/api/me", headers=ann).json()["player"]
        history = client.get(f"/api/players/{pid}/daily").json()
        assert history["streak"] == 1 and history["days"][0]["day"] == today()
        assert history["days"][0]["diff"] == board["entries"][0]["diff"]
        field = client.post("/api/daily/field", json={"table": a["table"], "token": a["token"]}).json()
        assert field["rank"] == 1 and field["best"]["table"] == a["table"] and field["replay"]["id"] == a["table"]
        r = client.get("/api/daily/leaderboard", params={"day": "yesterday"})
        assert r.status_code == 400 and r.json()["code"] == "bad_request"


def test_a_device_gets_one_ranked_attempt_a_day_whatever_its_address() -> None:
    store = Store(f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'd.sqlite3')}")
    daily = DailyStore(store)

    def table(tid: str) -> TableData:
        return TableData(tid, 2, {}, 1, 0, True, "playing", seats=[SeatData(0, "human"), SeatData(1, "bot", "greedy")])

    daily.start(Attempt("t1", "2026-11-29", None, "Ann", True, None, "a1", "d1"), table("t1"))
    with pytest.raises(DailyTaken) as taken:
        daily.start(Attempt("t2", "2026-11-29", None, "Bob", True, None, "a2", "d1"), table("t2"))
    assert taken.value.what == "device"
    daily.start(Attempt("t3", "2026-11-30", None, "Bob", True, None, "a2", "d1"), table("t3"))  # the next day
    daily.start(Attempt("t4", "2026-11-29", None, "Bob", False, None, "a2", "d1"), table("t4"))  # unranked
    assert daily.attempt("t2") is None and daily.attempt("t4") is not None


def test_streaks() -> None:
    assert streak_of([], "2026-11-29") == (0, 0)
    assert streak_of(["2026-11-29", "2026-11-28", "2026-11-27", "2026-11-20"], "2026-11-29") == (3, 3)


def test_a_day_stored_under_the_old_default_keeps_the_master_it_was_made_with(tmp_path: Path) -> None:
    # "master:iterations=800,seconds=none" was the default before the master's model became the learned one where
    # numpy is installed: a day stored with it is played by the master of then, on any server.
    from diloti.server.daily import DAILY_LEVEL

    with make_client(tmp_path, daily_level="master:iterations=800,seconds=none", rate=1000.0, burst=1000.0) as client:
        info = client.get("/api/daily").json()
        assert info["opponent"] == DAILY_LEVEL == "master:iterations=800,seconds=none,model=play"
        made = start(client, name="Ann")
        seats = manager(client).store.load(made["table"]).seats  # type: ignore[union-attr]
        assert [s.level for s in seats if s.kind == "bot"] == [DAILY_LEVEL]
