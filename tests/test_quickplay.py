"""Quick play through the framework's test client: two waiting players with the same settings are seated
at one new table (the ticket's secret is the seat's token), other settings or far ratings do not meet,
the computer is offered after a wait, and every bad request gets a clear error and changes nothing."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from diloti.server.quickplay import level_near, width
from diloti.store.db import SeatData, TableData, now
from diloti.store.models import QueueRow
from diloti.store.quickplay import QueueStore, Ticket
from test_server import hello, live, make_client, manager, until

pytestmark = pytest.mark.timeout(60)


def ticket(client: Any, status: int = 201, headers: dict[str, str] | None = None, **body: Any) -> dict[str, Any]:
    r = client.post("/api/quickplay", json=body, headers=headers or {})
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def test_two_players_with_the_same_settings_meet_at_a_new_table(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        clock = {"move": 30, "reserve": 60}
        a = ticket(client, name="Ann", clock=clock)
        assert (a["status"], a["table"], a["computer"]) == ("waiting", None, False) and a["secret"]
        other = ticket(client, name="Zoe", players=4, clock=clock)  # another game: never meets Ann
        b = ticket(client, name="Bob", clock=clock)
        assert b["status"] == "seated" and b["seat"] == 1 and b["secret"]
        polled = client.post(f"/api/quickplay/{a['ticket']}/poll", json={"secret": a["secret"]}).json()
        assert (polled["status"], polled["table"], polled["seat"], polled["secret"]) == ("seated", b["table"], 0, None)
        assert client.post(f"/api/quickplay/{other['ticket']}/poll",
                           json={"secret": other["secret"]}).json()["status"] == "waiting"
        table = client.get(f"/api/tables/{b['table']}").json()
        assert table["status"] == "playing" and table["private"] and table["clock"] == clock
        assert [s["name"] for s in table["seats"]] == ["Ann", "Bob"]
        assert b["table"] not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        # Each secret is its seat's token.
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
            assert hello(ann, b["table"], a["secret"])[0]["seat"] == 0
            assert hello(bob, b["table"], b["secret"])[0]["seat"] == 1
            assert until(ann, "state")[-1]["players"] == 2
        r = client.post(f"/api/quickplay/{a['ticket']}/cancel", json={"secret": a["secret"]})
        assert r.status_code == 409 and r.json()["code"] == "seated"


def test_ratings_far_apart_meet_only_after_a_wait(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        q = QueueStore(manager(client).store)
        t0 = now()

        def table(tickets: list[Ticket]) -> TableData:
            return TableData(f"t{len(tickets)}", 2, {}, 1, 0, True, "playing",
                             seats=[SeatData(i, "human", None, t.name, t.secret_hash) for i, t in enumerate(tickets)])
        q.enqueue(Ticket("low", "a" * 64, "k", 2, "{}", 1500.0, "Ann", None), t0)
        q.enqueue(Ticket("high", "b" * 64, "k", 2, "{}", 1900.0, "Bob", None), t0 + timedelta(seconds=1))
        assert width(0) < 400 < width(30)
        assert q.pair("high", width, table, t0 + timedelta(seconds=1)) is None  # 400 apart: not yet
        q.status("low", "a" * 64, t0 + timedelta(seconds=30))  # both still polling
        q.status("high", "b" * 64, t0 + timedelta(seconds=30))
        assert q.pair("high", width, table, t0 + timedelta(seconds=31)) == ("t2", 1)
        assert q.status("low", "a" * 64, t0 + timedelta(seconds=31)).seat == 0  # type: ignore[union-attr]


def test_the_computer_after_a_wait_at_the_level_nearest_the_players_rating(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        me = client.post("/api/players", json={"name": "Eleni"}).json()
        auth = {"Authorization": "Bearer " + me["key"]}
        a = ticket(client, headers=auth)  # a player: their own name, no name needed
        store = manager(client).store
        with store.session.begin() as s:  # as if she had waited half a minute
            s.execute(update(QueueRow).where(QueueRow.id == a["ticket"]).values(created=now() - timedelta(seconds=30)))
        polled = client.post(f"/api/quickplay/{a['ticket']}/poll", json={"secret": a["secret"]}).json()
        assert polled["computer"] and polled["waited"] >= 29
        seated = client.post(f"/api/quickplay/{a['ticket']}/computer", json={"secret": a["secret"]}).json()
        assert seated["status"] == "seated" and seated["seat"] == 0
        table = live(client, seated["table"])
        assert table.seats[0].name == "Eleni" and table.seats[0].player == me["player"]
        assert (table.seats[1].kind, table.seats[1].level) == ("bot", level_near(1500))
        with client.websocket_connect("/ws") as ws:
            hello(ws, seated["table"], a["secret"])
            assert until(ws, "state")[-1]["seat"] == 0


@pytest.mark.parametrize(("body", "code"), [
    ({"name": "Ann", "players": 3}, "bad_players"),
    ({"name": "Ann", "clock": {"move": 1}}, "bad_clock"),
    ({"name": "Ann", "options": {"target": 0}}, "bad_options"),
    ({}, "bad_name"),
    ({"name": "Ann", "colour": "red"}, "bad_request"),
])
def test_bad_quick_play_requests(tmp_path: Path, body: dict[str, Any], code: str) -> None:
    with make_client(tmp_path) as client:
        r = client.post("/api/quickplay", json=body)
        assert r.status_code == 400 and r.json()["code"] == code, r.json()
        assert r.json()["message"]


def test_wrong_secrets_cancel_and_bad_levels(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        a = ticket(client, name="Ann")
        for path in ("poll", "computer", "cancel"):
            r = client.post(f"/api/quickplay/{a['ticket']}/{path}", json={"secret": "nope"})
            assert r.status_code == 404 and r.json()["code"] == "unknown_ticket"
        r = client.post(f"/api/quickplay/{a['ticket']}/computer", json={"secret": a["secret"], "level": "god"})
        assert r.status_code == 400 and r.json()["code"] == "bad_level"
        r = client.post(f"/api/quickplay/{a['ticket']}/poll", content=json.dumps({"secret": 5}),
                        headers={"Content-Type": "application/json"})
        assert r.status_code == 400
        assert client.post(f"/api/quickplay/{a['ticket']}/cancel", json={"secret": a["secret"]}).json() == {"ok": True}
        r = client.post(f"/api/quickplay/{a['ticket']}/poll", json={"secret": a["secret"]})
        assert r.status_code == 404  # cancelled: gone
        b = ticket(client, name="Bob")
        assert b["status"] == "waiting"  # Ann left the queue: nobody to meet
