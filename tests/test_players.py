"""Players who come back: identities (create, recover, rename, delete, password login), bad inputs and limits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from diloti.server import create_app
from diloti.server.limits import Limits
from diloti.server.player_models import Identity, Me

pytestmark = pytest.mark.timeout(120)
OPEN = Limits(players="1000/minute", recover="1000/minute", login="1000/minute", login_name="1000/minute",
              login_pair="1000/minute", rename="1000/minute")


def make_client(path: Path, **kw: Any) -> TestClient:
    kw.setdefault("allow_seed", True)
    kw.setdefault("limits", OPEN)
    return TestClient(create_app(f"sqlite:///{path / 'd.sqlite3'}", **kw))


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def player(client: TestClient, name: str) -> dict[str, Any]:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    Identity.model_validate(r.json())
    out: dict[str, Any] = r.json()
    return out


def test_a_player_is_made_with_a_name_and_known_by_the_key(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        ann = player(client, "  Ann  ")
        assert ann["name"] == "Ann" and len(ann["key"]) >= 40 and len(ann["recovery"]) == 24
        me = client.get("/api/me", headers=auth(ann["key"]))
        assert me.status_code == 200 and Me.model_validate(me.json()).name == "Ann"
        assert me.json()["password"] is False
        assert client.get("/api/players", params={"name": "ANN"}).json() == {"player": ann["player"], "name": "Ann"}
        # The key and the code are stored only as hashes.
    eng = create_engine(f"sqlite:///{tmp_path / 'd.sqlite3'}")
    with eng.connect() as conn:
        dump = "\n".join(str(row) for t in ("players", "player_keys")
                         for row in conn.execute(text(f"SELECT * FROM {t}")))
    eng.dispose()
    assert ann["key"] not in dump and ann["recovery"] not in dump and ann["recovery"].replace("-", "") not in dump


@pytest.mark.parametrize(("body", "code", "words"), [
    ({"name": ""}, "bad_name", "empty"),
    ({"name": "   "}, "bad_name", "empty"),
    ({"name": "x" * 25}, "bad_name", "longer than 24"),
    ({"name": "a\u202eb"}, "bad_name", "control characters"),
    ({"name": 5}, "bad_name", "name 5"),
    ({"name": "Expert"}, "bad_name", "computer level"),
    ({"name": "computer (random)"}, "bad_name", "computer level"),
    ({}, "bad_name", "needs a 'name'"),
    ({"name": "Ann", "admin": True}, "bad_request", "unknown field 'admin'"),
])
def test_bad_names_are_refused_and_change_nothing(tmp_path: Path, body: dict[str, Any], code: str,
                                                  words: str) -> None:
    with make_client(tmp_path) as client:
        r = client.post("/api/players", json=body)
        assert r.status_code == 400 and r.json()["code"] == code and words in r.json()["message"], r.json()
        assert client.get("/api/leaderboard").json()["total"] == 0
        assert client.get("/api/players", params={"name": "Ann"}).status_code == 404


def test_names_are_unique_whatever_the_case(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        ann = player(client, "Ann")
        for name in ("ann", "ANN", " Ann ", "Ａｎｎ"):  # full-width letters too
            r = client.post("/api/players", json={"name": name})
            assert r.status_code == 409 and r.json()["code"] == "name_taken", (name, r.json())
        # Names that look the same are one name: Greek or Cyrillic letters like Latin ones, accents.
        player(client, "Ελένη")
        for name in ("ΕΛΕΝΗ", "Ελενη", "EΛEΝH", "Аnn"):  # Latin E and H; Cyrillic A
            r = client.post("/api/players", json={"name": name})
            assert r.status_code == 409 and r.json()["code"] == "name_taken", (name, r.json())
        assert client.post("/api/players", json={"name": "Eleni"}).status_code == 201  # a different name
        bob = player(client, "Bob")
        r = client.patch("/api/me", json={"name": "aNN"}, headers=auth(bob["key"]))
        assert r.status_code == 409 and r.json()["code"] == "name_taken"
        # A guest may not sit under a player's name; the player sits under their own.
        r = client.post("/api/tables", json={"name": "ann"})
        assert r.status_code == 409 and r.json()["code"] == "name_taken"
        t = client.post("/api/tables", json={"name": "whatever"}, headers=auth(ann["key"]))
        assert t.status_code == 201
        seat = client.get(f"/api/tables/{t.json()['table']}").json()["seats"][0]
        assert (seat["name"], seat["player"]) == ("Ann", ann["player"])
        r = client.post(f"/api/tables/{t.json()['table']}/join", json={"name": "Bob"})
        assert r.status_code == 409 and r.json()["code"] == "name_taken"
        r = client.post(f"/api/tables/{t.json()['table']}/join", json={"name": "B"}, headers=auth(bob["key"]))
        assert r.status_code == 200
        seat = client.get(f"/api/tables/{t.json()['table']}").json()["seats"][1]
        assert (seat["name"], seat["player"]) == ("Bob", bob["player"])


def test_keys_are_checked(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        for headers in ({}, {"Authorization": "Bearer"}, {"Authorization": "Basic abc"},
                        {"Authorization": "Bearer nope"}):
            r = client.get("/api/me", headers=headers)
            assert r.status_code == 401 and r.json()["code"] in ("no_key", "bad_key"), (headers, r.json())
        r = client.post("/api/tables", json={"name": "Ann"}, headers={"Authorization": "Bearer nope"})
        assert r.status_code == 401 and r.json()["code"] == "bad_key"  # never seated as a guest by mistake
        assert client.get("/api/tables").json()["tables"] == []


def test_recovery_moves_the_player_and_the_old_key_stops(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        ann = player(client, "Ann")
        r = client.post("/api/players/recover", json={"recovery": ann["recovery"].lower().replace("-", " ")})
        assert r.status_code == 200, r.text
        moved = r.json()
        assert moved["player"] == ann["player"] and moved["key"] != ann["key"] and moved["recovery"] != ann["recovery"]
        assert client.get("/api/me", headers=auth(ann["key"])).json()["code"] == "bad_key"
        assert client.get("/api/me", headers=auth(moved["key"])).json()["name"] == "Ann"
        # The code is used up; so is a wrong one.
        for code in (ann["recovery"], "AAAA-BBBB-CCCC-DDDD-EEEE"):
            r = client.post("/api/players/recover", json={"recovery": code})
            assert r.status_code == 401 and r.json()["code"] == "bad_recovery"
        fresh = client.post("/api/me/recovery", headers=auth(moved["key"])).json()["recovery"]
        assert client.post("/api/players/recover", json={"recovery": moved["recovery"]}).status_code == 401
        assert client.post("/api/players/recover", json={"recovery": fresh}).status_code == 200


def test_rename_and_password_login(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        ann = player(client, "Ann")
        key = auth(ann["key"])
        r = client.patch("/api/me", json={"name": "Anna"}, headers=key)
        assert r.status_code == 200 and r.json()["name"] == "Anna"
        assert client.get("/api/players", params={"name": "ann"}).status_code == 404
        for body, code in (({"password": "short"}, "bad_password"), ({"password": "anna"}, "bad_password"),
                           ({"password": " " * 10}, "bad_password"), ({"password": "x" * 129}, "bad_password"),
                           ({"password": 12345678}, "bad_password"), ({"pass": "x"}, "bad_request")):
            r = client.put("/api/me/password", json=body, headers=key)
            assert r.status_code == 400 and r.json()["code"] == code, (body, r.json())
        assert client.put("/api/me/password", json={"password": "correct horse"}, headers=key).json() == {"ok": True}
        assert client.get("/api/me", headers=key).json()["password"] is True
        # Changing it needs the current one.
        r = client.put("/api/me/password", json={"password": "battery staple"}, headers=key)
        assert r.status_code == 400 and "current" in r.json()["message"]
        r = client.put("/api/me/password", json={"password": "battery staple", "current": "nope"}, headers=key)
        assert r.status_code == 401 and r.json()["code"] == "wrong_password"
        # A wrong name or a wrong password: the same answer.
        wrong = [client.post("/api/login", json=b) for b in ({"name": "Anna", "password": "nope nope"},
                                                               {"name": "Nobody", "password": "correct horse"},
                                                               {"name": "Bob", "password": "correct horse"})]
        assert {(r.status_code, r.json()["code"], r.json()["message"]) for r in wrong} == {
            (401, "wrong_password", "wrong name or password")}
        r = client.post("/api/login", json={"name": "ANNA", "password": "correct horse"})
        assert r.status_code == 200 and r.json()["player"] == ann["player"] and r.json()["recovery"] is None
        other = auth(r.json()["key"])
        assert client.get("/api/me", headers=key).status_code == 200  # both devices stay signed in
        assert client.post("/api/logout", headers=other).json() == {"ok": True}
        assert client.get("/api/me", headers=other).status_code == 401
    # The password is stored as an argon2id hash only.
    eng = create_engine(f"sqlite:///{tmp_path / 'd.sqlite3'}")
    with eng.connect() as conn:
        stored = conn.execute(text("SELECT password_hash FROM players")).scalar()
    eng.dispose()
    assert str(stored).startswith("$argon2id$") and "correct horse" not in str(stored)


def test_limits_on_new_players_logins_and_recovery(tmp_path: Path) -> None:
    limits = Limits(players="2/minute", login="100/minute", login_pair="3/minute", recover="2/minute")
    with make_client(tmp_path, limits=limits) as client:
        player(client, "Ann")
        assert client.post("/api/players", json={"name": ""}).status_code == 400  # bad input: not counted
        player(client, "Bob")
        r = client.post("/api/players", json={"name": "Cleo"})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited" and int(r.headers["Retry-After"]) > 0
        assert client.get("/api/players", params={"name": "Cleo"}).status_code == 404
        for _ in range(3):
            assert client.post("/api/login", json={"name": "Ann", "password": "guess guess"}).status_code == 401
        r = client.post("/api/login", json={"name": "ann", "password": "guess guess"})
        assert r.status_code == 429 and "for this name" in r.json()["message"]
        assert client.post("/api/login", json={"name": "Bob", "password": "guess guess"}).status_code == 401
        for _ in range(2):
            assert client.post("/api/players/recover", json={"recovery": "x"}).status_code == 401
        assert client.post("/api/players/recover", json={"recovery": "x"}).status_code == 429


def test_delete_removes_personal_data_and_keeps_the_games(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        ann = player(client, "Ann")
        key = auth(ann["key"])
        client.put("/api/me/password", json={"password": "correct horse"}, headers=key)
        t = client.post("/api/tables", json={"name": "Ann", "seats": [{"kind": "human"},
                                                                     {"kind": "bot", "level": "random"}]},
                        headers=key).json()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": t["table"], "token": t["token"]})
            ws.send_json({"type": "chat", "text": "my phone is 555"})
            ws.send_json({"type": "resign"})
            while ws.receive_json()["type"] != "game_over":
                pass
        assert client.get(f"/api/players/{ann['player']}").json()["stats"][0]["games"] == 1
        assert client.delete("/api/me", headers=key).json() == {"ok": True}
        assert client.get("/api/me", headers=key).status_code == 401
        assert client.get(f"/api/players/{ann['player']}").status_code == 404
        assert client.get("/api/leaderboard").json()["total"] == 0
        assert client.post("/api/login", json={"name": "Ann", "password": "correct horse"}).status_code == 401
        assert client.get(f"/api/tables/{t['table']}").json()["seats"][0]["name"] is None
        assert client.get(f"/api/tables/{t['table']}/record").status_code == 200
        player(client, "Ann")  # the name is free again
    eng = create_engine(f"sqlite:///{tmp_path / 'd.sqlite3'}")
    with eng.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM results WHERE table_id = :t"), {"t": t["table"]}).scalar() == 2
        assert conn.execute(text("SELECT count(*) FROM chat")).scalar() == 0
        row = conn.execute(text("SELECT name, name_key, password_hash, recovery_hash FROM players WHERE id = :p"),
                           {"p": ann["player"]}).one()
        assert tuple(row) == (None, None, None, None)
        assert conn.execute(text("SELECT name FROM seats WHERE table_id = :t AND seat = 0"),
                            {"t": t["table"]}).scalar() is None
    eng.dispose()
