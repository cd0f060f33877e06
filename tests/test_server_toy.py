"""The server takes any registered game through the games' interface: *Pairs*, defined only in tests/toy_game.py
and registered for each test, is served like the built-in games (a table over HTTP, a whole game on the
websocket against the computer, hints, a spectator, the record, the replay and a restart), with no change
outside tests/toy_game.py."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

from diloti.formats.games import read_any_record
from diloti.games import GAMES, GameInfo
from diloti.server.messages import SERVER_MESSAGE
from test_server import cards_in, hello, live, make_client, manager, new_table, until
from toy_game import NAME, registered_pairs

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def pairs() -> Iterator[GameInfo]:
    with registered_pairs() as info:
        yield info
    assert NAME not in GAMES


def to_move_or_over(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """Messages up to the next state in which this seat is to move, or the game is over."""
    out = []
    while True:
        m = ws.receive_json()
        assert m["type"] != "error", m
        out.append(m)
        if m["type"] == "state" and (m["your_turn"] or m["phase"] == "over"):
            return out


@pytest.mark.parametrize(("body", "code", "says"), [
    ({"players": 4}, "bad_players", "expected 2"),
    ({"options": {"target": 0}}, "bad_options", "1..10000"),
    ({"options": {"soy": True}}, "bad_options", "no_sweeps, target"),
    ({"rated": True}, "bad_request", "is casual"),
])
def test_a_new_table_of_a_registered_game_is_checked_by_its_own_rules(
        tmp_path: Path, pairs: GameInfo, body: dict[str, Any], code: str, says: str) -> None:
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"name": "Ann", "game": NAME, **body})
        assert r.status_code == 400 and r.json()["code"] == code and says in r.json()["message"], r.text
        r = client.post("/api/tables", json={"name": "Ann", "game": "pishti"})
        assert r.json()["message"] == "invalid game 'pishti': expected 'diloti', 'xeri', 'kontsina' or 'pairs'"


def test_a_registered_game_is_served_played_against_the_computer_and_replayed(tmp_path: Path,
                                                                             pairs: GameInfo) -> None:
    with make_client(tmp_path, rate=1e6, burst=1e6) as client:
        info = client.get("/api/info").json()["games"][NAME]  # what the page draws it by (docs/PROTOCOL.md)
        assert {k: info[k] for k in ("players", "options", "title", "named", "rated", "pile", "declarations")} == {
            "players": [2], "options": {"target": 11, "no_sweeps": False}, "title": "Pairs", "named": True,
            "rated": False, "pile": False, "declarations": False}
        assert (info["goal"], info["ranges"], info["seating"]) == ("target", {"target": [1, 110]},
                                                                   [{"players": 2, "sides": 2, "options": {}}])
        t = new_table(client, game=NAME, options={"target": 5}, seed=3,
                      seats=[{"kind": "human"}, {"kind": "bot", "level": "heuristic"}])
        tid = t["table"]
        table = live(client, tid)
        summary = client.get(f"/api/tables/{tid}").json()
        assert (summary["game"], summary["target"], summary["rated"], summary["hints"]) == (NAME, 5, False, True)
        assert summary["hint_level"] == "expert" and summary["options"] == {"target": 5, "no_sweeps": False}
        rng = random.Random(7)
        moves = 0
        with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as watcher:
            hello(ws, tid, t["token"])
            watcher.send_json({"type": "watch", "table": tid})
            hinted = False
            while True:
                msgs = to_move_or_over(ws)
                for m in msgs:
                    SERVER_MESSAGE.validate_json(json.dumps(m))  # the built-in games' shapes, field by field
                    if m["type"] == "state":
                        st = table.game.state
                        hidden = {str(c) for c in st.hands[1]} | {str(c) for c in st.remaining_stock}
                        assert not cards_in({**m, "last": None}) & hidden, m
                        assert (m["game"], m["seat"], m["sides"], m["target"]) == (NAME, 0, 2, 5)
                        assert m["hands"] is None and m["hands_won"] is None and m["declarations"] == []
                state = msgs[-1]
                if any(m["type"] == "game_over" for m in msgs):
                    break
                assert {m["move"] for m in state["legal"]} == {str(m) for m in table.game.state.legal_moves()}
                if not hinted:
                    ws.send_json({"type": "hint"})
                    h = until(ws, "hint")[-1]
                    assert {m["move"] for m in h["moves"]} <= {m["move"] for m in state["legal"]}
                    hinted = True
                choice = rng.choice(state["legal"])
                ws.send_json({"type": "move", "move": choice["move"], "ply": state["ply"]})
                played = until(ws, "played", ply=state["ply"] + 1)[-1]
                assert played["move"] == choice["move"] and played["seat"] == 0
                moves += 1
            assert table.game.is_over and hinted and moves > 0
            assert manager(client).computers.errors == 0  # the computer played the game itself (no fallback move)
            assert state["phase"] == "over" and state["scores"] == list(table.game.scores)
            assert max(table.game.scores) >= 5 and len(state["rounds"]) == len(table.game.rounds)
            seen = until(watcher, "game_over")
            public = [m for m in seen if m["type"] == "state"]
            assert public and all(m["seat"] is None and m["hand"] == [] and m["legal"] == [] for m in public)

        record = client.get(f"/api/tables/{tid}/record").text
        rec = read_any_record(record)
        assert rec.errors == [] and rec.game == NAME and list(rec.scores) == list(table.game.scores)
        replay = client.get(f"/api/tables/{tid}/replay").json()
        assert replay["game"] == NAME and replay["winner"] == table.game.winner
        plies = [f["ply"] for r in replay["rounds"] for f in r["frames"][1:]]
        assert plies == list(range(1, table.ply + 1))
        for r, played_round in zip(replay["rounds"], table.game.rounds, strict=True):
            assert [f["move"] for f in r["frames"][1:]] == [str(m) for _, m in played_round.moves]
            assert r["frames"][-1]["hands"] == [[], []] and r["totals"] == list(played_round.points)
        assert replay["rounds"][-1]["scores"] == list(table.game.scores)
        over = client.get("/api/tables?status=over").json()["tables"]
        assert [(x["id"], x["game"]) for x in over] == [(tid, NAME)]
        scores, ply = list(table.game.scores), table.ply
    with make_client(tmp_path) as client:  # a restarted server replays the stored moves of the game
        summary = client.get(f"/api/tables/{tid}").json()
        assert (summary["game"], summary["ply"], summary["scores"], summary["status"]) == (NAME, ply, scores, "over")
        assert client.get(f"/api/tables/{tid}/replay").json() == replay
        assert client.get(f"/api/tables/{tid}/record").text == record


def test_a_server_without_the_game_of_a_stored_table_still_starts(tmp_path: Path) -> None:
    with registered_pairs(), make_client(tmp_path) as client:
        t = new_table(client, game=NAME, seed=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
        assert client.get(f"/api/tables/{t['table']}").json()["status"] == "playing"
    with make_client(tmp_path) as client:  # the game is not registered here: its table cannot be resumed
        assert client.get("/api/info").status_code == 200 and NAME not in client.get("/api/info").json()["games"]
        assert client.get("/api/tables").json()["tables"] == []
