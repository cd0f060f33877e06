"""Fair play at rated tables, played as a hostile player would through the protocol (docs/PROTOCOL.md,
"Rematch and series" and "Abandoned games"): a rematch is rated only when every human of the game accepted it,
an absent player's seat never gives that player a rated result the computer played, the one who stayed may
claim the game (or it is aborted if the absent player never played), rated tables keep the pool's conditions,
and a table never stalls at an absent player's turn."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from test_ratings import auth, join, make_client, player, ratings, resign, sqlite, table

pytestmark = pytest.mark.timeout(120)


def hello(ws: WebSocketTestSession, claimed: dict[str, Any]) -> None:
    ws.send_json({"type": "hello", "table": claimed["table"], "token": claimed["token"]})
    while (m := ws.receive_json())["type"] != "welcome":
        assert m["type"] != "error", m


def until(ws: WebSocketTestSession, kind: str, **match: Any) -> dict[str, Any]:
    while True:
        m = ws.receive_json()
        if m["type"] == "error" and kind != "error":
            raise AssertionError(m)
        if m["type"] == kind and all(m.get(k) == v for k, v in match.items()):
            out: dict[str, Any] = m
            return out


def offer_seen(ws: WebSocketTestSession) -> dict[str, Any]:
    """The rematch offer of the next ``table`` message that shows one."""
    while (offer := until(ws, "table")["table"]["rematch_offer"]) is None:
        pass
    out: dict[str, Any] = offer
    return out


def summary(client: TestClient, tid: str) -> dict[str, Any]:
    out: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
    return out


def mgr_table(client: TestClient, tid: str) -> Any:
    return client.app.state.manager.tables[tid]  # type: ignore[attr-defined]


def rated_pair(client: TestClient) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Ann and Bob, players who come back, at a new rated table: (ann, bob, ann's seat, bob's seat)."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    a = table(client, ann, options={"target": 1})
    b = join(client, a["table"], bob)
    assert summary(client, a["table"])["rated"]
    return ann, bob, a, b


def play_one_each(ann: WebSocketTestSession, bob: WebSocketTestSession) -> dict[str, Any]:
    """Both players make a move of their own; returns Ann's last state."""
    moved: set[int] = set()
    states = {0: until(ann, "state"), 1: until(bob, "state")}
    while moved != {0, 1}:
        who = next(i for i in (0, 1) if states[i]["your_turn"])
        ws = (ann, bob)[who]
        ws.send_json({"type": "move", "move": states[who]["legal"][0]["move"], "ply": states[who]["ply"]})
        moved.add(who)
        ply = states[who]["ply"] + 1
        states = {0: until(ann, "state", ply=ply), 1: until(bob, "state", ply=ply)}
    return states[0]


def test_a_rematch_the_other_player_never_accepted_is_never_made_or_rated(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("diloti.server.rematch.REMATCH_OFFER", 1)
    with make_client(sqlite(tmp_path)) as client:
        _ann, bob, a, b = rated_pair(client)
        resign(client, b)  # a rated game: Bob lost, then went away
        before = ratings(client, bob)["2p"]
        with client.websocket_connect("/ws") as ws:
            hello(ws, a)
            ws.send_json({"type": "rematch"})  # Ann alone asks: an offer, shown, nothing made
            assert offer_seen(ws) == {"seats": [0], "expires_in": 1}
            assert summary(client, a["table"])["next_table"] is None
            lapsed = until(ws, "table")["table"]  # the offer lapses unaccepted: everyone is told
            assert lapsed["rematch_offer"] is None and lapsed["next_table"] is None
            ws.send_json({"type": "rematch"})  # asking again is a new offer, still Bob's to accept
            assert offer_seen(ws)["seats"] == [0]
        assert summary(client, a["table"])["next_table"] is None
        assert ratings(client, bob)["2p"] == before  # no game Bob never joined moved his rating


def test_a_rematch_after_a_player_left_is_made_casual_with_the_seat_free(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        a = table(client, ann, players=4, seats=[{"kind": "human"}, {"kind": "bot", "level": "greedy"},
                                                 {"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        b = join(client, a["table"], bob)
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
            hello(wa, a)
            hello(wb, b)
            wb.send_json({"type": "leave"})
            until(wb, "left")
            wa.send_json({"type": "resign"})
            until(wa, "game_over")
            wa.send_json({"type": "rematch"})  # the only human still seated: made at once
            new = until(wa, "rematch")["table"]
        s = summary(client, new)
        assert not s["rated"] and s["free"] == [2] and s["status"] == "waiting"  # Bob did not accept: casual


def test_both_accept_a_rated_rematch(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        _ann, _bob, a, b = rated_pair(client)
        resign(client, b)
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
            hello(wa, a)
            hello(wb, b)
            wa.send_json({"type": "rematch"})
            assert offer_seen(wb)["seats"] == [0]  # shown on Bob's page
            wb.send_json({"type": "rematch"})
            new = until(wa, "rematch")["table"]
            assert until(wb, "rematch")["table"] == new
        assert summary(client, new)["rated"]


def test_rated_tables_keep_the_rated_pools_conditions(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann = player(client, "Ann")
        for bad in ({"grace": 0}, {"away_level": "random"}, {"grace": 5, "away_level": "expert"}):
            r = client.post("/api/tables", json={"name": "x", "rated": True, **bad}, headers=auth(ann))
            assert r.status_code == 400 and "rated pool" in r.json()["message"], r.text
            casual = table(client, ann, **bad)  # the same conditions without asking: a casual table, shown so
            assert not summary(client, casual["table"])["rated"]
        s = summary(client, table(client, ann)["table"])
        assert (s["rated"], s["grace"], s["away_level"]) == (True, 60, "heuristic")


def test_claiming_the_game_from_an_absent_player_who_had_played(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann, bob, a, b = rated_pair(client)
        before = (ratings(client, ann), ratings(client, bob))
        assert before == ({}, {})
        with client.websocket_connect("/ws") as wa:
            hello(wa, a)
            with client.websocket_connect("/ws") as wb:
                hello(wb, b)
                play_one_each(wa, wb)
                err = None
                wa.send_json({"type": "claim"})  # Bob is here: nothing to claim
                err = until(wa, "error")
                assert err["code"] == "nothing_to_claim"
            mgr_table(client, a["table"]).grace = 0  # Bob is gone, and the grace period over at once
            # No clock: at Bob's turn the table does not wait; his seat goes to the computer by itself.
            while not until(wa, "table")["table"]["seats"][1]["away"]:
                pass
            wa.send_json({"type": "claim"})
            over = until(wa, "game_over")
            assert (over["winner"], over["end_reason"]) == (0, "abandoned:1")
        games = client.get(f"/api/players/{bob['player']}/games").json()["games"]
        assert games[0]["rated"] and games[0]["result"] == "lost"
        assert ratings(client, bob)["2p"]["losses"] == 1 and ratings(client, ann)["2p"]["wins"] == 1


def test_a_game_abandoned_before_the_absent_player_played_is_aborted(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann, bob, a, b = rated_pair(client)
        tb = mgr_table(client, a["table"])
        tb.grace = 0
        first = tb.game.state.turn  # whoever is to move first leaves before moving
        gone, stays = (b, a) if first == 1 else (a, b)
        with client.websocket_connect("/ws") as ws:
            hello(ws, stays)
            with client.websocket_connect("/ws") as wg:
                hello(wg, gone)
            over = until(ws, "game_over")  # by itself, after the grace period: nobody's rating moves
            assert (over["winner"], over["end_reason"]) == (None, f"aborted:{first}")
        assert ratings(client, ann) == {} and ratings(client, bob) == {}
        assert client.get(f"/api/players/{ann['player']}/games").json()["total"] == 0


def test_a_game_the_computer_played_for_an_absent_player_is_casual(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann, bob, a, b = rated_pair(client)
        with client.websocket_connect("/ws") as wa:
            hello(wa, a)
            with client.websocket_connect("/ws") as wb:
                hello(wb, b)
                st = play_one_each(wa, wb)
            mgr_table(client, a["table"]).grace = 0
            while st["phase"] != "over":  # Ann plays on against the computer playing for Bob: no claim
                m = wa.receive_json()
                assert m["type"] != "error", m
                if m["type"] == "state":
                    st = m
                    if m["your_turn"]:
                        wa.send_json({"type": "move", "move": m["legal"][0]["move"], "ply": m["ply"]})
        # The end is stored just after the last state is sent (CI once asked before it was): wait for it.
        deadline = time.monotonic() + 30
        while not (games := client.get(f"/api/players/{bob['player']}/games").json()["games"]):
            assert time.monotonic() < deadline, "the finished game never reached Bob's games"
            time.sleep(0.05)
        assert len(games) == 1 and not games[0]["rated"]
        assert ratings(client, bob) == {} and ratings(client, ann) == {}


def test_a_four_player_table_without_a_clock_never_stalls_at_a_dropped_player(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        a = table(client, None, players=4, options={"target": 1})
        others = [client.post(f"/api/tables/{a['table']}/join", json={"name": name}).json()
                  for name in ("Bob", "Cleo", "Dimitra")]
        tb = mgr_table(client, a["table"])
        tb.grace = 1
        with client.websocket_connect("/ws") as ws:
            hello(ws, a)
            for o in others:  # each connects once, then drops
                with client.websocket_connect("/ws") as w:
                    hello(w, o)
            t0 = time.monotonic()
            while True:  # nobody hands anything over: the server does, and the game plays on to its end
                m = ws.receive_json()
                assert m["type"] != "error", m
                if m["type"] == "state" and m["your_turn"]:
                    ws.send_json({"type": "move", "move": m["legal"][0]["move"], "ply": m["ply"]})
                if m["type"] == "game_over":
                    break
            assert time.monotonic() - t0 < 100
        assert summary(client, a["table"])["status"] == "over"


def test_a_table_left_empty_before_the_start_leaves_the_lobby_at_once(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        a = table(client, None)
        assert a["table"] in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        with client.websocket_connect("/ws") as ws:
            hello(ws, a)
            ws.send_json({"type": "leave"})
            until(ws, "left")
        assert a["table"] not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        assert summary(client, a["table"])["status"] == "closed"
