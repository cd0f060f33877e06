"""Who sits at a table, tried as a hostile player would through the HTTP API: one player identity sits at most
once at a table (quick play, join, rematch), a guest cannot take a registered player's name (names alike count)
through any door, two seats never show the same name, and the computer's names are reserved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from test_ratings import auth, join, make_client, player, sqlite, table

pytestmark = pytest.mark.timeout(60)


def quick(client: Any, status: int = 201, headers: dict[str, str] | None = None, **body: Any) -> dict[str, Any]:
    r = client.post("/api/quickplay", json=body, headers=headers or {})
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def poll(client: Any, t: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = client.post(f"/api/quickplay/{t['ticket']}/poll", json={"secret": t["secret"]}).json()
    return out


def test_quick_play_never_seats_a_player_against_themselves(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        first = quick(client, headers=auth(ann))
        second = quick(client, headers=auth(ann))  # a second tab, a double click
        assert first["status"] == second["status"] == "waiting"
        assert poll(client, first)["status"] == poll(client, second)["status"] == "waiting"
        b = quick(client, headers=auth(bob))
        assert b["status"] == "seated"
        seats = client.get(f"/api/tables/{b['table']}").json()["seats"]
        assert sorted(s["player"] for s in seats) == sorted([ann["player"], bob["player"]])
        assert poll(client, second)["status"] == "waiting"  # Ann's other tab still waits: never Ann v Ann


def test_quick_play_never_seats_two_guests_of_one_name(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        a = quick(client, name="Zoe")
        b = quick(client, name="ZOË")  # alike: the table could not tell them apart
        assert poll(client, a)["status"] == poll(client, b)["status"] == "waiting"
        c = quick(client, name="Nikos")
        assert c["status"] == "seated"
        names = sorted(s["name"] for s in client.get(f"/api/tables/{c['table']}").json()["seats"])
        assert names == ["Nikos", "Zoe"]


@pytest.mark.parametrize("name", ["Ann", "ANN", "Αnn", "  ann "])  # the third with a Greek capital alpha
def test_a_guest_cannot_borrow_a_players_name_through_any_door(tmp_path: Path, name: str) -> None:
    with make_client(sqlite(tmp_path)) as client:
        player(client, "Ann")
        r = client.post("/api/quickplay", json={"name": name})
        assert r.status_code == 409 and r.json()["code"] == "name_taken", r.text
        r = client.post("/api/tables", json={"name": name})
        assert r.status_code == 409 and r.json()["code"] == "name_taken", r.text
        t = table(client, None)
        r = client.post(f"/api/tables/{t['table']}/join", json={"name": name})
        assert r.status_code == 409 and r.json()["code"] == "name_taken", r.text


@pytest.mark.parametrize("name", ["expert", "Computer (expert)", "MASTER", "master:seconds=2", "υπολογιστής",
                                  "bot", "computer"])
def test_the_computers_names_are_reserved(tmp_path: Path, name: str) -> None:
    with make_client(sqlite(tmp_path)) as client:
        for path in ("/api/quickplay", "/api/tables", "/api/players"):
            r = client.post(path, json={"name": name})
            assert r.status_code == 400 and r.json()["code"] == "bad_name", (path, r.text)
        t = table(client, None)
        r = client.post(f"/api/tables/{t['table']}/join", json={"name": name})
        assert r.status_code == 400 and r.json()["code"] == "bad_name", r.text


def test_two_seats_of_one_table_never_show_one_name(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        t = table(client, None, players=4)  # seat 0: "Guest"
        for name in ("Guest", "GUEST", "guest "):
            r = client.post(f"/api/tables/{t['table']}/join", json={"name": name})
            assert r.status_code == 409 and r.json()["code"] == "name_taken", r.text
        join(client, t["table"], None)  # "Guest2"
        ann = player(client, "Ann")
        a = join(client, t["table"], ann)
        r = client.post(f"/api/tables/{t['table']}/join", json={"name": "x"}, headers=auth(ann))
        assert r.status_code == 409 and r.json()["code"] == "already_seated", r.text
        names = [s["name"] for s in client.get(f"/api/tables/{t['table']}").json()["seats"]]
        assert names[:3] == ["Guest", "Guest2", "Ann"] and a["seat"] == 2
