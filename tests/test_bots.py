"""Bot accounts and the Bot API in one process (docs/BOTS.md): accounts made once and for good, tokens hashed,
scoped and revocable, bots marked everywhere and kept out of people's tables and lists unless the people chose
them, challenges, and every limit with its clear refusal. The streams and the reference client run against
real server processes in test_bots_live.py and test_bots_cluster.py.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from diloti.server import create_app
from diloti.server.bots import BotLimits

LIMITS = BotLimits(moves=3, requests=40, games=2, bot_games=2, challenges=5)


def make(path: Path, limits: BotLimits = LIMITS) -> TestClient:
    return TestClient(create_app(f"sqlite:///{path / 'd.sqlite3'}", allow_seed=True, bot_limits=limits))


def auth(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def player(client: TestClient, name: str) -> dict[str, Any]:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    return dict(r.json())


def bot(client: TestClient, name: str, scopes: list[str] | None = None) -> dict[str, Any]:
    """A new bot account and one token of it."""
    p = player(client, name)
    r = client.post("/api/me/bot", headers=auth(p["key"]))
    assert r.status_code == 200 and r.json()["bot"] is True, r.text
    r = client.post("/api/me/bot/tokens", json={"label": "test", **({"scopes": scopes} if scopes else {})},
                    headers=auth(p["key"]))
    assert r.status_code == 201, r.text
    return {**p, "token": r.json()["token"], "token_id": r.json()["id"]}


def refused(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status and r.json()["code"] == code, (r.status_code, r.text)
    body = dict(r.json())
    assert body["type"] == "error" and body["message"]
    return body


def test_a_new_account_becomes_a_bot_for_good_and_its_tokens_are_stored_hashed(tmp_path: Path) -> None:
    with make(tmp_path) as client:
        b = bot(client, "Robo")
        assert b["token"].startswith("dlb_") and len(b["token"]) > 40
        refused(client.post("/api/me/bot", headers=auth(b["key"])), 409, "not_allowed")  # once, for good
        listed = client.get("/api/me/bot/tokens", headers=auth(b["key"])).json()
        assert listed["bot"] and [t["id"] for t in listed["tokens"]] == [b["token_id"]]
        assert "token" not in listed["tokens"][0]  # shown once, never again
        me = client.get("/api/bot/account", headers=auth(b["token"])).json()
        assert me == {"player": b["player"], "name": "Robo", "bot": True}
        # An account with a game behind it stays a person's.
        ann = player(client, "Ann")
        client.post("/api/tables", json={"name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot",
                                                                                      "level": "random"}]},
                    headers=auth(ann["key"]))
        refused(client.post("/api/me/bot", headers=auth(ann["key"])), 409, "not_allowed")
        refused(client.post("/api/me/bot/tokens", json={}, headers=auth(ann["key"])), 409, "not_a_bot")
        refused(client.get("/api/bot/account", headers=auth(ann["key"])), 401, "bad_token")  # a key is no token
    rows = sqlite3.connect(tmp_path / "d.sqlite3").execute("SELECT token_hash FROM bot_tokens").fetchall()
    assert rows == [(hashlib.sha256(b["token"].encode()).hexdigest(),)]
    assert b["token"].encode() not in (tmp_path / "d.sqlite3").read_bytes()


def test_scopes_and_revocation(tmp_path: Path) -> None:
    with make(tmp_path) as client:
        player(client, "Ann")
        b = bot(client, "Robo", scopes=["play"])
        refused(client.post("/api/challenge/Ann", json={}, headers=auth(b["token"])), 403, "missing_scope")
        refused(client.post("/api/me/bot/tokens", json={"scopes": ["admin"]}, headers=auth(b["key"])), 400,
                "bad_request")
        assert client.get("/api/bot/account", headers=auth(b["token"])).status_code == 200
        assert client.delete(f"/api/me/bot/tokens/{b['token_id']}", headers=auth(b["key"])).json() == {"ok": True}
        refused(client.get("/api/bot/account", headers=auth(b["token"])), 401, "bad_token")
        refused(client.delete(f"/api/me/bot/tokens/{b['token_id']}", headers=auth(b["key"])), 404, "unknown_token")
        refused(client.get("/api/bot/account", headers=auth("dlb_" + "x" * 43)), 401, "bad_token")
        refused(client.get("/api/bot/account"), 401, "no_key")


def test_bots_sit_only_where_people_welcome_them_and_are_marked_everywhere(tmp_path: Path) -> None:
    with make(tmp_path) as client:
        ann = player(client, "Ann")
        b = bot(client, "Robo")
        people = client.post("/api/tables", json={"name": "Ann"}, headers=auth(ann["key"])).json()["table"]
        refused(client.post(f"/api/bot/tables/{people}/join", headers=auth(b["token"])), 403, "bots_not_welcome")
        # Nor through the people's door with the account's own key.
        refused(client.post(f"/api/tables/{people}/join", json={"name": "Robo"}, headers=auth(b["key"])), 403,
                "bots_not_welcome")
        refused(client.post("/api/tables", json={"name": "Robo"}, headers=auth(b["key"])), 403, "bot_account")
        vs = client.post("/api/bot/computer", json={"level": "random"}, headers=auth(b["token"])).json()
        assert vs["seat"] == 0 and client.get(f"/api/tables/{vs['table']}").json()["status"] == "playing"
        open_ = client.post("/api/tables", json={"name": "Ann", "bots": True}, headers=auth(ann["key"])).json()
        lobby = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert lobby[open_["table"]]["bots"] is True and lobby[people]["bots"] is False
        assert client.post(f"/api/bot/tables/{open_['table']}/join", headers=auth(b["token"])).json() == {
            "table": open_["table"], "seat": 1}
        seats = client.get(f"/api/tables/{open_['table']}").json()["seats"]
        assert [(s["name"], s["bot"]) for s in seats] == [("Ann", False), ("Robo", True)]
        assert client.get(f"/api/players/{b['player']}").json()["bot"] is True
        assert client.get(f"/api/players/{ann['player']}").json()["bot"] is False


def test_challenges_are_answered_once(tmp_path: Path) -> None:
    with make(tmp_path) as client:
        ann = player(client, "Ann")
        b = bot(client, "Robo")
        refused(client.post("/api/challenge/Nobody", json={}, headers=auth(b["token"])), 404, "unknown_player")
        refused(client.post("/api/challenge/Robo", json={}, headers=auth(b["token"])), 400, "bad_request")
        refused(client.post("/api/challenge/Ann", json={"game": "pishti"}, headers=auth(b["token"])), 400, "bad_game")
        refused(client.post("/api/challenge/Ann", json={"speed": 1}, headers=auth(b["token"])), 400, "bad_request")
        # A person challenges the bot: their seat token is made now, to play on the websocket once accepted.
        made = client.post("/api/challenge/Robo", json={"rated": False, "seat": 0}, headers=auth(ann["key"])).json()
        c = made["challenge"]
        assert c["from"] == {"id": ann["player"], "name": "Ann", "bot": False} and c["to"]["bot"] is True
        refused(client.post(f"/api/challenge/{c['id']}/accept", headers=auth(ann["key"])), 404, "unknown_challenge")
        got = client.post(f"/api/challenge/{c['id']}/accept", headers=auth(b["token"])).json()
        assert got["seat"] == 1
        refused(client.post(f"/api/challenge/{c['id']}/accept", headers=auth(b["token"])), 409, "challenge_closed")
        refused(client.post(f"/api/challenge/{c['id']}/decline", headers=auth(b["token"])), 409, "challenge_closed")
        shown = client.get(f"/api/challenge/{c['id']}", headers=auth(ann["key"])).json()
        assert shown["status"] == "accepted" and shown["table"] == got["table"]
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": got["table"], "token": made["token"]})
            assert ws.receive_json() == {"type": "welcome", "table": got["table"], "seat": 0, "name": "Ann"}
        # Declined and cancelled challenges make no table.
        c2 = client.post("/api/challenge/Robo", json={}, headers=auth(ann["key"])).json()["challenge"]["id"]
        assert client.post(f"/api/challenge/{c2}/decline", headers=auth(b["token"])).json() == {"ok": True}
        c3 = client.post("/api/challenge/Robo", json={}, headers=auth(ann["key"])).json()["challenge"]["id"]
        refused(client.post(f"/api/challenge/{c3}/cancel", headers=auth(b["token"])), 404, "unknown_challenge")
        assert client.post(f"/api/challenge/{c3}/cancel", headers=auth(ann["key"])).json() == {"ok": True}
        assert client.get(f"/api/challenge/{c3}", headers=auth(ann["key"])).json()["status"] == "canceled"


def test_bot_moves_are_checked_as_a_persons_and_limited(tmp_path: Path) -> None:
    with make(tmp_path) as client:
        ann = player(client, "Ann")
        b = bot(client, "Robo")
        made = client.post("/api/challenge/Robo", json={"rated": False, "seat": 1}, headers=auth(ann["key"])).json()
        tid = client.post(f"/api/challenge/{made['challenge']['id']}/accept", headers=auth(b["token"])).json()["table"]
        table = client.app.state.manager.tables[tid]  # type: ignore[attr-defined]
        mover = table.game.state.turn
        assert table.seats[mover].player in (ann["player"], b["player"])
        if table.seats[mover].player == ann["player"]:
            refused(client.post(f"/api/bot/game/{tid}/move", json={"move": "keep"}, headers=auth(b["token"])), 400,
                    "not_your_turn")
        else:
            refused(client.post(f"/api/bot/game/{tid}/move", json={"move": "hello"}, headers=auth(b["token"])),
                    400, "invalid_move")
            refused(client.post(f"/api/bot/game/{tid}/move", json={"move": "QS x QH"}, headers=auth(b["token"])),
                    400, "illegal_move")
        refused(client.post(f"/api/bot/game/{tid}/move", json={"move": "keep", "ply": 7},
                            headers=auth(b["token"])), 400, "not_your_turn" if table.seats[mover].player ==
                ann["player"] else "stale")
        while (r := client.post(f"/api/bot/game/{tid}/move", json={"move": "QS x QH"},
                                headers=auth(b["token"]))).status_code != 429:
            assert r.status_code == 400
        body = refused(r, 429, "rate_limited")
        assert int(r.headers["Retry-After"]) >= 1 and "moves a minute" in body["message"]
        assert table.ply == 0  # nothing refused was played
        refused(client.post(f"/api/bot/game/{tid}/move", json={"move": 3}, headers=auth(b["token"])), 400,
                "bad_request")
        refused(client.post("/api/bot/game/nope/move", json={"move": "keep"}, headers=auth(b["token"])), 404,
                "unknown_table")


def test_games_at_once_bot_games_and_challenges_a_day(tmp_path: Path) -> None:
    with make(tmp_path) as client:
        a, b, c = bot(client, "RoboA"), bot(client, "RoboB"), bot(client, "RoboC")
        ids = []
        for _ in range(2):
            ch = client.post("/api/challenge/RoboB", json={}, headers=auth(a["token"])).json()["challenge"]["id"]
            ids.append(ch)
            assert client.post(f"/api/challenge/{ch}/accept", headers=auth(b["token"])).status_code == 200
        # Two games at once is this server's cap: a third waits (and two bot games a day are spent anyway).
        ch = client.post("/api/challenge/RoboC", json={}, headers=auth(a["token"]))
        refused(ch, 429, "daily_limit")
        assert int(ch.headers["Retry-After"]) > 80_000  # the first of the day's games leaves the window then
        ch3 = client.post("/api/challenge/RoboA", json={}, headers=auth(c["token"])).json()["challenge"]["id"]
        r = client.post(f"/api/challenge/{ch3}/accept", headers=auth(a["token"]))
        refused(r, 429, "too_many_games")
        assert r.headers["Retry-After"]
        # Challenges a day (5): people too are counted.
        ann = player(client, "Ann")
        for _ in range(5):
            assert client.post("/api/challenge/RoboC", json={}, headers=auth(ann["key"])).status_code == 200
        refused(client.post("/api/challenge/RoboC", json={}, headers=auth(ann["key"])), 429, "daily_limit")


def test_requests_a_minute_per_token(tmp_path: Path) -> None:
    with make(tmp_path, BotLimits(requests=5)) as client:
        b = bot(client, "Robo")
        for _ in range(5):
            assert client.get("/api/bot/account", headers=auth(b["token"])).status_code == 200
        r = client.get("/api/bot/account", headers=auth(b["token"]))
        body = refused(r, 429, "rate_limited")
        assert "requests a minute" in body["message"] and int(r.headers["Retry-After"]) >= 1


def test_the_leaderboards_keep_bots_apart(tmp_path: Path) -> None:
    with make(tmp_path) as client:
        ann = player(client, "Ann")
        b = bot(client, "Robo")
        for key, name in ((ann["key"], "Ann"),):
            made = client.post("/api/challenge/Robo", json={}, headers=auth(key)).json()
            tid = client.post(f"/api/challenge/{made['challenge']['id']}/accept",
                              headers=auth(b["token"])).json()["table"]
            assert client.post(f"/api/bot/game/{tid}/resign", headers=auth(b["token"])).json() == {"ok": True}
            assert client.get(f"/api/tables/{tid}").json()["end_reason"].startswith("resigned:")
            assert name
        people = client.get("/api/leaderboard").json()
        bots = client.get("/api/leaderboard?bots=true").json()
        assert [p["name"] for p in people["players"]] == ["Ann"] and not people["bots"]
        assert [p["name"] for p in bots["players"]] == ["Robo"] and bots["bots"]
        seats = client.get(f"/api/players/{ann['player']}").json()["games"]["games"][0]["seats"]
        assert sorted((x["name"], x["bot"]) for x in seats) == [("Ann", False), ("Robo", True)]


def test_the_quick_start_bot_plays_whole_games_through_the_views_json(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/BOTS.md's ten-line bot, as written there, plays whole games from the views the streams carry."""
    import re
    import sys

    from diloti.ai import make_player
    from diloti.formats.views import view_from_dict, view_to_dict
    from diloti.games import new_game

    doc = (Path(__file__).resolve().parents[1] / "docs" / "BOTS.md").read_text(encoding="utf-8")
    code = re.findall(r"```python\n(.*?)```", doc, re.S)[0]
    assert len([line for line in code.splitlines() if line.strip() and not line.startswith("#")]) <= 10
    (tmp_path / "grabber.py").write_text(code, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("grabber", None)
    for game_name, seed in (("diloti", 1), ("xeri", 2), ("kontsina", 3)):
        game = new_game(game_name, 2, None, seed, 0)
        players = [make_player("grabber:Grabber", seed=0, outside=True), make_player("greedy", seed=0)]
        while not game.is_over:
            seat = game.state.turn
            view = game.view(seat)
            move = players[seat].choose(view_from_dict(view_to_dict(view)) if seat == 0 else view)
            assert move in view.legal
            game.push(move)


def test_quick_play_pairs_a_bot_only_with_people_who_welcome_bots(tmp_path: Path) -> None:
    with make(tmp_path) as client:
        ann, bea = player(client, "Ann"), player(client, "Bea")
        b = bot(client, "Robo")
        refused(client.post("/api/quickplay", json={}, headers=auth(b["key"])), 403, "bot_account")
        people = client.post("/api/quickplay", json={}, headers=auth(ann["key"])).json()
        assert people["status"] == "waiting"
        mine = client.post("/api/bot/quickplay", json={}, headers=auth(b["token"]))
        assert mine.status_code == 201 and mine.json()["status"] == "waiting", mine.text  # Ann did not welcome bots
        welcome = client.post("/api/quickplay", json={"bots": True}, headers=auth(bea["key"])).json()
        assert welcome["status"] == "seated"
        seated = client.post(f"/api/quickplay/{mine.json()['ticket']}/poll",
                             json={"secret": mine.json()["secret"]}).json()
        assert seated["status"] == "seated" and seated["table"] == welcome["table"]
        table = client.get(f"/api/tables/{welcome['table']}").json()
        assert table["bots"] is True and sorted((s["name"], s["bot"]) for s in table["seats"]) == [
            ("Bea", False), ("Robo", True)]
        again = client.post(f"/api/quickplay/{people['ticket']}/poll", json={"secret": people["secret"]}).json()
        assert again["status"] == "waiting"


def test_a_bot_keeps_out_of_the_arenas_and_the_daily_leaderboard(tmp_path: Path) -> None:
    # Arenas pair people, rated, and the day's leaderboard ranks people: a bot account joins neither, with its
    # clear refusal; it may play the daily deal unranked.
    with make(tmp_path) as client:
        ann = player(client, "Ann")
        made = client.post("/api/arenas", json={"starts_in": 0, "minutes": 3}, headers=auth(ann["key"]))
        assert made.status_code == 201, made.text
        b = bot(client, "Robo")
        body = refused(client.post(f"/api/arenas/{made.json()['id']}/join", json={}, headers=auth(b["key"])),
                       403, "bot_account")
        assert "arena" in body["message"]
        refused(client.post("/api/daily", json={}, headers=auth(b["key"])), 403, "bot_account")
        r = client.post("/api/daily", json={"ranked": False}, headers=auth(b["key"]))
        assert r.status_code == 201, r.text
        assert client.post(f"/api/arenas/{made.json()['id']}/join", json={}, headers=auth(ann["key"])).status_code \
            == 200
