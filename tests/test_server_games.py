"""Tables of Diloti's parent games, Xeri and Kontsina, through the server: creating them, whole games with
hidden information checked in every message, computer seats, hints, spectators, restart, resign, rematch,
records and replays."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from diloti.formats.games import read_any_record
from diloti.games.onecard.formats import HandsRecord
from diloti.server.messages import SERVER_MESSAGE
from diloti.server.tables import LiveTable
from test_server import cards_in, contextlib_exit_stack, hello, live, make_client, new_table, until

pytestmark = pytest.mark.timeout(120)


def hidden_from(table: LiveTable, seat: int | None) -> set[str]:
    """Cards this seat (None: a spectator) may not know now: the other hands and the stock."""
    st = table.game.state
    return {str(c) for s, h in enumerate(st.hands) if s != seat for c in h} | {str(c) for c in st.remaining_stock}


@pytest.mark.parametrize(("body", "code"), [
    ({"game": "pishti"}, "bad_game"),
    ({"game": 3}, "bad_game"),
    ({"game": "xeri", "players": 3}, "bad_players"),
    ({"game": "diloti", "players": 3}, "bad_players"),
    ({"game": "kontsina", "players": 5}, "bad_players"),
    ({"game": "xeri", "options": {"soy": True}}, "bad_options"),
    ({"game": "xeri", "options": {"hands": 0}}, "bad_options"),
    ({"game": "xeri", "players": 4}, "bad_options"),  # four play Xeri only in partnerships
    ({"game": "kontsina", "players": 3, "options": {"partnerships": True}}, "bad_options"),
    ({"game": "kontsina", "options": {"target": "21"}}, "bad_options"),
    ({"game": "kontsina", "options": {"target": 211}}, "bad_options"),  # past ten standard games (21 points)
    ({"game": "diloti", "options": {"target": 10_000}}, "bad_options"),
    ({"game": "xeri", "options": {"hands": 101}}, "bad_options"),
    ({"game": "xeri", "options": {"game_by_points": True, "target": 1011}}, "bad_options"),
    ({"game": "xeri", "rated": True}, "bad_request"),
    ({"game": "kontsina", "players": 3, "seats": [{"kind": "human"}, {"kind": "bot", "level": "expert"}]},
     "bad_seats"),
])
def test_a_new_table_checks_the_game_its_players_and_options(tmp_path: Path, body: dict[str, Any],
                                                            code: str) -> None:
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"name": "Ann", **body})
        assert r.status_code == 400 and r.json()["code"] == code, r.text
        assert str(next(iter(body.values())))[:4] in r.json()["message"] or code != "bad_game"
        assert client.get("/api/tables").json()["tables"] == []


def test_a_tables_bounds_are_the_forms_and_the_longest_game_is_taken(tmp_path: Path) -> None:
    """/api/info's ranges (the page's form reads them) are what POST /api/tables takes: the greatest is taken,
    one more is refused naming the option and the bound, in every game."""
    with make_client(tmp_path) as client:
        games = client.get("/api/info").json()["games"]
        assert games["diloti"]["ranges"] == {"target": [1, 610]}
        assert games["kontsina"]["ranges"] == {"target": [1, 210]}
        assert games["xeri"]["ranges"] == {"target": [1, 1010], "hands": [1, 100]}
        for game, entry in games.items():
            for name, (_, hi) in entry["ranges"].items():
                extra = {"game_by_points": True} if name == "target" and "game_by_points" in entry["options"] else {}
                ok = client.post("/api/tables", json={"name": "Ann", "game": game, "options": {name: hi, **extra}})
                assert ok.status_code == 201, ok.text
                r = client.post("/api/tables", json={"name": "Ann", "game": game, "options": {name: hi + 1, **extra}})
                assert r.status_code == 400 and r.json()["code"] == "bad_options", r.text
                assert f"options.{name} {hi + 1}" in r.json()["message"] and f"at most {hi}" in r.json()["message"]


def test_info_lists_the_games_and_the_lobby_shows_each_tables_game(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        games = client.get("/api/info").json()["games"]
        assert games["kontsina"]["players"] == [2, 3, 4] and games["xeri"]["options"]["hands"] == 10
        new_table(client, game="kontsina", players=3, options={"target": 31})
        new_table(client, game="xeri", options={"xeri_jack_double": True})
        new_table(client)
        lobby = client.get("/api/tables").json()["tables"]
        assert sorted((t["game"], t["players"], t["sides"]) for t in lobby) == [
            ("diloti", 2, 2), ("kontsina", 3, 3), ("xeri", 2, 2)]
        k = next(t for t in lobby if t["game"] == "kontsina")
        assert k["options"] == {"target": 31} and k["target"] == 31 and not k["rated"]
        x = next(t for t in lobby if t["game"] == "xeri")
        assert x["target"] is None and x["scores"] == [0, 0] and x["series_score"] == [0, 0]


def play_all_humans(client: TestClient, game: str, players: int, options: dict[str, Any], seed: int,
                    rng: random.Random, watch: bool = True) -> dict[str, Any]:
    """A whole game of human seats, each seat's messages and a spectator's checked for hidden cards and
    against the protocol's models."""
    created = new_table(client, game=game, players=players, options=options, seed=seed)
    tid = created["table"]
    tokens = [created["token"]] + [client.post(f"/api/tables/{tid}/join", json={"name": f"P{i}"}).json()["token"]
                                   for i in range(1, players)]
    table = live(client, tid)
    with contextlib_exit_stack() as stack:
        socks = [stack(client.websocket_connect("/ws")) for _ in range(players + watch)]
        states: list[dict[str, Any]] = []
        for seat, ws in enumerate(socks):
            if seat < players:
                msgs = hello(ws, tid, tokens[seat]) + until(ws, "state")
            else:
                ws.send_json({"type": "watch", "table": tid})
                msgs = until(ws, "state")
            for m in msgs:
                SERVER_MESSAGE.validate_json(json.dumps(m))
                assert not cards_in(m) & hidden_from(table, seat if seat < players else None), m
            states.append(msgs[-1])
        moves, over = 0, None
        while over is None:
            turn = states[0]["turn"]
            st = states[turn]
            assert st["your_turn"] and st["game"] == game and st["sides"] == table.sides
            assert {m["move"] for m in st["legal"]} == {str(m) for m in table.game.state.legal_moves()}
            choice = rng.choice(st["legal"])
            socks[turn].send_json({"type": "move", "move": choice["move"], "ply": st["ply"]})
            moves += 1
            for seat, ws in enumerate(socks):
                msgs = until(ws, "state", ply=moves)
                viewer = seat if seat < players else None
                for m in msgs:
                    SERVER_MESSAGE.validate_json(json.dumps(m))
                    if m["type"] == "state":
                        assert not cards_in({**m, "last": None}) & hidden_from(table, viewer)
                        assert m["hand"] == ([] if viewer is None else [str(c) for c in table.game.state.hands[seat]])
                        assert m["legal"] == [] or (m["your_turn"] and viewer is not None)
                    elif m["type"] == "round_over":
                        assert len(m["score"]) == table.sides
                        assert sum(m["totals"]) == sum(s["total"] for s in m["score"])
                    elif m["type"] == "game_over":
                        over = m
                states[seat] = msgs[-1]
        assert table.game.is_over and over["winner"] == table.game.winner
        assert over["scores"] == list(table.game.scores)
        return {"table": tid, "tokens": tokens, "moves": moves, "states": states}


def check_record_and_replay(client: TestClient, tid: str, moves: int) -> None:
    table = live(client, tid)
    text = client.get(f"/api/tables/{tid}/record").text
    rec = read_any_record(text)
    assert isinstance(rec, HandsRecord) and rec.errors == [] and rec.game == table.kind
    assert list(rec.scores) == list(table.game.scores)
    rep = client.get(f"/api/tables/{tid}/replay").json()
    assert rep["game"] == table.kind and rep["sides"] == table.sides
    assert sum(len(r["frames"]) - 1 for r in rep["rounds"]) == moves
    assert rep["rounds"][-1]["scores"] == list(table.game.scores)
    over = client.get("/api/tables?status=over").json()["tables"]
    assert [(t["id"], t["game"]) for t in over] == [(tid, table.kind)]


def test_a_game_of_xeri_between_two_people_to_the_end(tmp_path: Path) -> None:
    with make_client(tmp_path, rate=1e6, burst=1e6) as client:
        out = play_all_humans(client, "xeri", 2, {"hands": 2}, seed=5, rng=random.Random(1))
        last = out["states"][0]
        assert last["phase"] == "over" and last["target"] is None and last["hands"] == 2
        assert sum(last["hands_won"]) <= 2 and len(last["rounds"]) == 2
        check_record_and_replay(client, out["table"], out["moves"])


def test_a_game_of_kontsina_for_three_to_the_end(tmp_path: Path) -> None:
    with make_client(tmp_path, rate=1e6, burst=1e6) as client:
        out = play_all_humans(client, "kontsina", 3, {"target": 5}, seed=8, rng=random.Random(2))
        last = out["states"][3]  # the spectator's
        assert last["seat"] is None and last["phase"] == "over" and len(last["scores"]) == 3
        summary = client.get(f"/api/tables/{out['table']}").json()
        assert [s["side"] for s in summary["seats"]] == [0, 1, 2] and summary["winner"] is not None
        check_record_and_replay(client, out["table"], out["moves"])


def test_kontsina_in_partnerships_for_four(tmp_path: Path) -> None:
    with make_client(tmp_path, rate=1e6, burst=1e6) as client:
        out = play_all_humans(client, "kontsina", 4, {"target": 4, "partnerships": True}, seed=3,
                              rng=random.Random(3), watch=False)
        assert out["states"][0]["sides"] == 2 and len(out["states"][0]["scores"]) == 2


def test_xeri_against_the_computer_with_hints_and_a_card_alone_as_the_move(tmp_path: Path) -> None:
    with make_client(tmp_path, rate=1e6, burst=1e6) as client:
        t = new_table(client, game="xeri", options={"hands": 1}, seed=4,
                      seats=[{"kind": "human"}, {"kind": "bot", "level": "heuristic"}])
        tid = t["table"]
        table = live(client, tid)
        rng = random.Random(5)
        hinted = False
        with client.websocket_connect("/ws") as ws:
            hello(ws, tid, t["token"])
            while True:
                msgs = []
                while True:
                    m = ws.receive_json()
                    assert m["type"] != "error", m
                    msgs.append(m)
                    if m["type"] == "state" and (m["your_turn"] or m["phase"] == "over"):
                        break
                if any(m["type"] == "game_over" for m in msgs):
                    break
                st = msgs[-1]
                if not hinted:
                    ws.send_json({"type": "hint"})
                    h = ws.receive_json()
                    assert h["type"] == "hint" and {m["move"] for m in h["moves"]} <= {m["move"] for m in st["legal"]}
                    assert all(m["win"] is None for m in h["moves"])  # the chance to win is Diloti's only
                    hinted = True
                choice = rng.choice(st["legal"])
                ws.send_json({"type": "move", "move": choice["card"], "ply": st["ply"]})  # the card names it
                played = until(ws, "played", ply=st["ply"] + 1)[-1]
                assert played["move"] == choice["move"]
            assert table.game.is_over and hinted
            ws.send_json({"type": "move", "move": "7H"})
            assert ws.receive_json()["code"] == "game_over"


def test_a_table_of_kontsina_survives_a_restart(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        t = new_table(client, game="kontsina", players=3, seed=6,
                      seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "greedy"}])
        tid = t["table"]
        table = live(client, tid)
        with client.websocket_connect("/ws") as ws:
            hello(ws, tid, t["token"])
            for _ in range(3):
                st = until(ws, "state", your_turn=True)[-1]
                ws.send_json({"type": "move", "move": st["legal"][-1]["move"], "ply": st["ply"]})
                until(ws, "played", seat=0)
        deadline = time.monotonic() + 30
        while table.game.state.turn != 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        before, ply = table.game.state.key(), table.ply
    with make_client(tmp_path) as client:
        again = live(client, tid)
        assert again.kind == "kontsina" and again.ply == ply and again.game.state.key() == before
        with client.websocket_connect("/ws") as ws:
            hello(ws, tid, t["token"])
            st = until(ws, "state")[-1]
            assert st["your_turn"] and st["game"] == "kontsina" and st["ply"] == ply


def test_resigning_in_kontsina_for_three_gives_the_game_to_the_leader_and_a_rematch_keeps_the_game(
        tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        t = new_table(client, game="kontsina", players=3, seed=9, seats=[{"kind": "human"}] * 3)
        tid = t["table"]
        tokens = [t["token"]] + [client.post(f"/api/tables/{tid}/join", json={"name": n}).json()["token"]
                                 for n in ("Bo", "Cy")]
        table = live(client, tid)
        table.game.scores[:] = [3, 1, 3]  # as if after some hands: seats 0 and 2 lead
        with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as w0, \
                client.websocket_connect("/ws") as w2:
            hello(ws, tid, tokens[1])
            ws.send_json({"type": "resign"})
            over = until(ws, "game_over")[-1]
            assert over["winner"] == 2 and over["end_reason"] == "resigned:1"  # seat 2 plays after seat 1
            hello(w0, tid, tokens[0])
            hello(w2, tid, tokens[2])
            for w in (ws, w0, w2):  # an offer every seated player accepts
                w.send_json({"type": "rematch"})
            nxt = until(ws, "rematch")[-1]["table"]
        again = client.get(f"/api/tables/{nxt}").json()
        assert again["game"] == "kontsina" and again["players"] == 3 and again["series_score"] == [0, 0, 1]
