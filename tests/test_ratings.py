"""Ratings, results, profiles and the leaderboard: anchors stay fixed, 2-player and 2-versus-2 updates, once per
game, resignations count, casual games do not, everything survives a restart; on PostgreSQL, two stores finishing
one game at once, and two server processes sharing players and a game."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, text

from diloti.server import create_app
from diloti.server.limits import Limits
from diloti.server.player_models import GamePage, Leaderboard, Profile
from diloti.server.ratings import ANCHORS, MODEL, rate_seats, shown
from diloti.server.tables import TableManager
from diloti.store.db import SeatData, Store, TableData
from diloti.store.models import PlayerRow, RatingRow
from diloti.store.players import GameResult, PlayerStore, SeatResult
from servers import Server, drop_tables, hello, my_turn

pytestmark = pytest.mark.timeout(180)
ROOT = Path(__file__).resolve().parents[1]
OPEN = Limits(players="1000/minute", join="1000/minute", create="1000/minute")
VS_RANDOM = [{"kind": "human"}, {"kind": "bot", "level": "random"}]


def make_client(url: str) -> TestClient:
    return TestClient(create_app(url, allow_seed=True, limits=OPEN, rate=1e6, burst=1e6))


def sqlite(path: Path) -> str:
    return f"sqlite:///{path / 'd.sqlite3'}"


def auth(p: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {p['key']}"}


def player(client: TestClient, name: str) -> dict[str, Any]:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def table(client: TestClient, who: dict[str, Any] | None, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"name": "Guest", **body}, headers=auth(who) if who else {})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def join(client: TestClient, tid: str, who: dict[str, Any] | None, seat: int | None = None) -> dict[str, Any]:
    r = client.post(f"/api/tables/{tid}/join", json={"name": "Guest2", "seat": seat}, headers=auth(who) if who else {})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def resign(client: TestClient, claimed: dict[str, Any]) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": claimed["table"], "token": claimed["token"]})
        ws.send_json({"type": "resign"})
        while (m := ws.receive_json())["type"] != "game_over":
            assert m["type"] != "error", m


def play_out(client: TestClient, claimed: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal move at every turn until the game is over; the game_over message."""
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": claimed["table"], "token": claimed["token"]})
        m: dict[str, Any]
        while (m := ws.receive_json())["type"] != "game_over":
            assert m["type"] != "error", m
            if m["type"] == "state" and m["your_turn"]:
                ws.send_json({"type": "move", "move": m["legal"][0]["move"], "ply": m["ply"]})
        return m


def stored_games(client: TestClient, p: dict[str, Any], games: int, timeout: float = 30.0) -> dict[str, Any]:
    """The player's profile once it counts ``games`` finished games (ends are stored after game_over is sent).

    Both in its list of games and in its totals (one snapshot, so they agree: the tests below check that)."""
    deadline = time.monotonic() + timeout
    while True:
        prof: dict[str, Any] = client.get(f"/api/players/{p['player']}").json()
        counted = next(row["games"] for row in prof["stats"] if row["mode"] == "all")
        if (prof["games"]["total"] >= games and counted >= games) or time.monotonic() > deadline:
            return prof
        time.sleep(0.05)


def ratings(client: TestClient, p: dict[str, Any]) -> dict[str, dict[str, Any]]:
    r = client.get(f"/api/players/{p['player']}")
    assert r.status_code == 200, r.text
    Profile.model_validate(r.json())
    return {x["mode"]: x for x in r.json()["ratings"]}


def manager(client: TestClient) -> TableManager:
    m: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    return m


# ------------------------------------------------------------------ the rules
def test_anchors_are_fixed_and_results_move_humans_by_the_surprise() -> None:
    assert ANCHORS["random"][0] < ANCHORS["greedy"][0] < ANCHORS["heuristic"][0] == MODEL.mu < ANCHORS["expert"][0]
    assert ANCHORS["expert"][0] < ANCHORS["master"][0]
    newcomer = None
    beat = {lv: rate_seats([(0, newcomer, None), (1, None, lv)], 0)[0] for lv in ANCHORS}
    lost = {lv: rate_seats([(0, newcomer, None), (1, None, lv)], 1)[0] for lv in ANCHORS}
    assert all(v is not None for v in (*beat.values(), *lost.values()))
    gain = {lv: beat[lv][0] - MODEL.mu for lv in ANCHORS}  # type: ignore[index]
    loss = {lv: MODEL.mu - lost[lv][0] for lv in ANCHORS}  # type: ignore[index]
    assert gain["random"] < gain["greedy"] < gain["heuristic"] < gain["expert"] < gain["master"]
    assert loss["random"] > loss["greedy"] > loss["heuristic"] > loss["expert"] > loss["master"] > 0
    assert rate_seats([(0, None, None), (1, None, "expert")], 0)[1] is None  # a computer is never rated
    # 2 versus 2: partners move together; a computer partner is an anchor too.
    new = rate_seats([(0, (30.0, 4.0), None), (1, None, "greedy"), (0, (30.0, 4.0), None), (1, None, "greedy")], 1)
    assert new[0] == new[2] and new[0] is not None and new[0][0] < 30 and new[1] is None and new[3] is None
    assert shown(25.0, 25 / 3)["rating"] == 1500 and shown(30.0, 2.0) == {
        "rating": 1700, "deviation": 80, "conservative": 1460, "provisional": False}


# ------------------------------------------------------------------ through the server
def test_a_played_out_game_against_the_computer_is_rated_and_profiled(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann = player(client, "Ann")
        t = table(client, ann, seats=VS_RANDOM, options={"target": 15}, seed=3)
        over = play_out(client, t)
        r = ratings(client, ann)
        assert set(r) == {"overall", "2p"} and r["2p"]["games"] == 1 and r["2p"]["rank"] == 1
        assert r["2p"]["mu"] == r["overall"]["mu"] != MODEL.mu and r["2p"]["provisional"]
        assert (r["2p"]["wins"], r["2p"]["losses"]) == ((1, 0) if over["winner"] == 0 else (0, 1))
        prof = client.get(f"/api/players/{ann['player']}").json()
        live = manager(client).tables[t["table"]]
        rounds = len([x for x in live.game.rounds if x.score is not None])
        stats = {s["mode"]: s for s in prof["stats"]}
        assert stats["all"] == {**stats["2p"], "mode": "all"} and stats["4p"]["games"] == 0
        assert stats["2p"]["games"] == 1 and stats["2p"]["xeris"] == live.xeris[0]
        assert stats["2p"]["points_per_round"] == round(over["scores"][0] / rounds, 2)
        assert prof["opponents"] == [{"player": None, "name": "random", "level": "random", "games": 1,
                                      "won": r["2p"]["wins"], "lost": r["2p"]["losses"]}]
        assert [h["mode"] for h in prof["history"]] == ["overall", "2p"]
        assert prof["history"][1]["points"][0]["rating"] == r["2p"]["rating"]
        game = prof["games"]["games"][0]
        assert game["table"] == t["table"] and game["replay"] == f"/?replay={t['table']}"
        assert client.get(game["record"]).status_code == 200 and game["rated"] and game["rounds"] == rounds
        assert [(s["kind"], s["name"]) for s in game["seats"]] == [("human", "Ann"), ("bot", "random")]
        board = client.get("/api/leaderboard", params={"mode": "2p"}).json()
        assert board["total"] == 1 and board["players"][0]["player"] == ann["player"]
        assert client.get("/api/leaderboard", params={"mode": "4p"}).json()["total"] == 0


def test_two_players_and_two_partnerships(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann, bob, cleo, dan = (player(client, n) for n in ("Ann", "Bob", "Cleo", "Dan"))
        t = table(client, ann)
        join(client, t["table"], bob)
        resign(client, t)  # Ann resigns: Bob wins
        ra, rb = ratings(client, ann), ratings(client, bob)
        assert ra["2p"]["mu"] < MODEL.mu < rb["2p"]["mu"] and ra["2p"]["losses"] == rb["2p"]["wins"] == 1
        assert ra["2p"]["sigma"] == rb["2p"]["sigma"] < MODEL.sigma
        # Ann and Cleo (seats 0 and 2) against Bob and Dan; Dan resigns.
        t4 = table(client, ann, players=4)
        join(client, t4["table"], bob, 1)
        join(client, t4["table"], cleo, 2)
        d = join(client, t4["table"], dan, 3)
        resign(client, d)
        ra, rb, rc, rd = (ratings(client, p) for p in (ann, bob, cleo, dan))
        assert ra["4p"]["wins"] == rc["4p"]["wins"] == rb["4p"]["losses"] == rd["4p"]["losses"] == 1
        assert rc["4p"]["mu"] > MODEL.mu > rd["4p"]["mu"] and rb["4p"]["mu"] < rb["2p"]["mu"] + 10
        assert ra["overall"]["games"] == 2 and rc["overall"]["games"] == 1
        # The overall rating went on from the 2-player game: Ann's moved from where that game left it.
        assert ra["overall"]["mu"] > ra["2p"]["mu"]
        prof = client.get(f"/api/players/{ann['player']}").json()
        assert {o["name"]: (o["games"], o["won"], o["lost"]) for o in prof["opponents"]} == {
            "Bob": (2, 1, 1), "Dan": (1, 1, 0)}
        assert [g["mode"] for g in prof["games"]["games"]] == ["4p", "2p"]
        assert prof["games"]["games"][0]["end_reason"] == "resigned:3"
        board = client.get("/api/leaderboard", params={"mode": "overall", "per_page": 2}).json()
        Leaderboard.model_validate(board)
        assert (board["total"], board["pages"], len(board["players"])) == (4, 2, 2)
        second = client.get("/api/leaderboard", params={"page": 2, "per_page": 2}).json()["players"]
        rows = board["players"] + second
        assert [r["rank"] for r in rows] == [1, 2, 3, 4]
        assert [r["conservative"] for r in rows] == sorted((r["conservative"] for r in rows), reverse=True)


def test_casual_games_are_recorded_but_not_rated(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann = player(client, "Ann")
        t = table(client, ann)  # against a guest
        join(client, t["table"], None)
        resign(client, t)
        t = table(client, ann, seats=VS_RANDOM, rated=False)
        assert client.get(f"/api/tables/{t['table']}").json()["rated"] is False
        resign(client, t)
        t = table(client, ann)  # one seat a player
        r = client.post(f"/api/tables/{t['table']}/join", json={"name": "Ann"}, headers=auth(ann))
        assert r.status_code == 409 and r.json()["code"] == "already_seated"
        prof = client.get(f"/api/players/{ann['player']}").json()
        assert prof["ratings"] == [] and prof["history"] == []
        assert prof["stats"][0]["games"] == 2 and prof["stats"][0]["lost"] == 2
        assert [g["rated"] for g in prof["games"]["games"]] == [False] * 2
        assert prof["games"]["games"][1]["seats"][1] == {"seat": 1, "kind": "human", "player": None,
                                                         "name": "Guest2", "bot": False}
        assert client.get("/api/leaderboard").json()["total"] == 0
        r = client.post("/api/tables", json={"name": "A", "rated": "yes"})
        assert r.status_code == 400 and r.json()["code"] == "bad_request"


def test_the_end_is_scored_once_and_the_players_of_a_rematch_stay(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        t = table(client, ann)
        b = join(client, t["table"], bob)
        resign(client, b)
        m = manager(client)
        live = m.tables[t["table"]]
        before = ratings(client, ann)

        async def again() -> None:
            await m.storage.store_end(live)

        client.portal.call(again)  # type: ignore[union-attr]
        assert ratings(client, ann) == before and ratings(client, ann)["2p"]["games"] == 1
        with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as ws2:
            ws.send_json({"type": "hello", "table": t["table"], "token": t["token"]})
            ws2.send_json({"type": "hello", "table": t["table"], "token": b["token"]})
            ws.send_json({"type": "rematch"})
            ws2.send_json({"type": "rematch"})  # both accept: the rematch is made
            while (msg := ws.receive_json())["type"] != "rematch":
                pass
        assert client.get(f"/api/tables/{msg['table']}").json()["rated"]
        seats = client.get(f"/api/tables/{msg['table']}").json()["seats"]
        assert [s["player"] for s in seats] == [ann["player"], bob["player"]]


def test_a_failed_end_store_is_logged_once_awaited_or_not(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann = player(client, "Ann")
        t = table(client, ann, seats=VS_RANDOM, options={"target": 10}, seed=5)
        play_out(client, t)
        stored_games(client, ann, 1)
        m = manager(client)
        live = m.tables[t["table"]]
        gate = threading.Event()

        def broken(*args: Any, **kwargs: Any) -> bool:
            gate.wait(10)
            raise RuntimeError("disk gone")

        m.players.finish = broken  # type: ignore[method-assign]

        async def awaited() -> None:
            gate.set()
            with pytest.raises(RuntimeError):
                await m.storage.store_end(live)

        async def abandoned() -> None:
            # The awaiting handler is cancelled (its connection closed) while the store runs on.
            gate.clear()
            waiter = asyncio.ensure_future(m.storage.store_end(live))
            await asyncio.sleep(0)
            waiter.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiter
            gate.set()
            await asyncio.gather(*m.background.tasks, return_exceptions=True)
            await asyncio.sleep(0)  # the done callbacks run

        caplog.set_level(logging.ERROR, logger="diloti.server")
        client.portal.call(awaited)  # type: ignore[union-attr]
        assert not [r for r in caplog.records if "disk gone" in r.getMessage()]  # the caller logs it, not the pool
        client.portal.call(abandoned)  # type: ignore[union-attr]
        assert [r.getMessage() for r in caplog.records if "disk gone" in r.getMessage()] == [
            "background task failed: RuntimeError('disk gone')"]


def test_everything_survives_a_restart_and_a_lost_end_is_stored_on_load(tmp_path: Path) -> None:
    url = sqlite(tmp_path)
    with make_client(url) as client:
        ann = player(client, "Ann")
        t = table(client, ann, seats=VS_RANDOM, options={"target": 10}, seed=5)
        play_out(client, t)
        t2 = table(client, ann, seats=VS_RANDOM, options={"target": 10}, seed=6)
        play_out(client, t2)
        # The game_over message goes out before the end is stored (the writer commits it): wait for it.
        prof = stored_games(client, ann, 2)
        board = client.get("/api/leaderboard").json()
    # As if the process had stopped between the last move of t2 and storing its end.
    eng = create_engine(url)
    with eng.begin() as conn:
        won, xeris, points, rounds = conn.execute(text("SELECT won, xeris, points, rounds FROM results WHERE "
                                                       "table_id = :t AND seat = 0"), {"t": t2["table"]}).one()
        conn.execute(text("UPDATE player_stats SET games = games - 1, won = won - :w, lost = lost - :lo, "
                          "xeris = xeris - :x, points = points - :p, rounds = rounds - :r"),
                     {"w": int(won), "lo": 1 - int(won), "x": xeris, "p": points, "r": rounds})
        conn.execute(text("DELETE FROM results WHERE table_id = :t"), {"t": t2["table"]})
        conn.execute(text("UPDATE tables SET status = 'playing', winner = NULL, scored = false WHERE id = :t"),
                     {"t": t2["table"]})
        conn.execute(text("UPDATE ratings SET games = games - 1"))  # undone by hand: the end is stored again
    eng.dispose()
    with make_client(url) as client:
        assert client.get("/api/me", headers=auth(ann)).json()["name"] == "Ann"
        again = client.get(f"/api/players/{ann['player']}").json()
        assert again["stats"] == prof["stats"] and again["games"]["total"] == 2
        assert client.get(f"/api/tables/{t2['table']}").json()["status"] == "over"
        assert client.get("/api/leaderboard").json()["players"][0]["games"] == board["players"][0]["games"] == 2


def test_pages_and_modes_are_checked(tmp_path: Path) -> None:
    with make_client(sqlite(tmp_path)) as client:
        ann = player(client, "Ann")
        for path, params, code in (("/api/leaderboard", {"mode": "3p"}, "bad_mode"),
                                   ("/api/leaderboard", {"page": 0}, "bad_page"),
                                   ("/api/leaderboard", {"per_page": 101}, "bad_page"),
                                   ("/api/leaderboard", {"page": "x"}, "bad_request"),
                                   (f"/api/players/{ann['player']}/games", {"per_page": 0}, "bad_page")):
            r = client.get(path, params=params)
            assert r.status_code == 400 and r.json()["code"] == code, (path, params, r.json())
        for path in ("/api/players/nobody", "/api/players/nobody/games", "/api/players/" + "x" * 40):
            r = client.get(path)
            assert r.status_code == 404 and r.json()["code"] == "unknown_player"
        page = client.get(f"/api/players/{ann['player']}/games").json()
        assert GamePage.model_validate(page).total == 0 and page["pages"] == 1


def test_the_leaderboard_orders_by_the_conservative_rating_with_stable_ties(tmp_path: Path) -> None:
    store = Store(sqlite(tmp_path))
    stamp = datetime.now(UTC)
    rows = [(f"p{i:02d}", 20.0 + (i % 7), 2.0 + (i % 3)) for i in range(30)]
    with store.engine.begin() as conn:
        conn.execute(insert(PlayerRow), [{"id": pid, "name": pid.upper(), "name_key": pid, "created": stamp,
                                          "seen": stamp} for pid, _, _ in rows])
        conn.execute(insert(RatingRow), [{"player_id": pid, "mode": "overall", "mu": mu, "sigma": sg,
                                          "score": mu - 3 * sg, "games": 1, "wins": 1, "losses": 0,
                                          "updated": stamp} for pid, mu, sg in rows])
    ps = PlayerStore(store)
    want = [pid for pid, mu, sg in sorted(rows, key=lambda r: (r[1] - 3 * r[2], r[0]), reverse=True)]
    got = [pid for page in range(3) for pid, _, _ in ps.leaderboard("overall", page * 10, 10)[1]]
    assert got == want and ps.leaderboard("overall", 0, 10)[0] == 30
    assert [r.rank for r in ps.ratings(want[17], ranks=True)] == [18]
    ps.RANKED = 10  # ranks are counted only so far
    ps._cuts.clear()
    assert [r.rank for r in ps.ratings(want[9], ranks=True)] == [10]
    assert [r.rank for r in ps.ratings(want[10], ranks=True)] == [None]
    store.close()


# ------------------------------------------------------------------ PostgreSQL
@pytest.fixture(scope="module")
def players_pg() -> Iterator[str]:
    """A fresh database of its own on the project's private PostgreSQL server."""
    url = os.environ.get("DILOTI_TEST_POSTGRES_URL")
    if not url:
        out = subprocess.run(["bash", str(ROOT / "scripts" / "install-postgres")], capture_output=True, text=True,
                             timeout=120, check=False)
        if out.returncode != 0:
            pytest.skip(f"PostgreSQL could not be started: {out.stderr.strip()[-300:]}")
        url = out.stdout.strip().splitlines()[-1]
    base = url.rpartition("/")[0]
    admin = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text("DROP DATABASE IF EXISTS diloti_players WITH (FORCE)"))
        conn.execute(text("CREATE DATABASE diloti_players"))
    admin.dispose()
    yield f"{base}/diloti_players"


def empty(url: str) -> Any:
    """An engine on the database, its diloti tables dropped (the tests of this file share it)."""
    eng = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with eng.begin() as conn:
        drop_tables(conn)
    return eng


def test_on_postgres_ratings_are_written_once_whoever_sees_the_end(players_pg: str) -> None:
    empty(players_pg).dispose()
    with make_client(players_pg) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        t = table(client, ann)
        join(client, t["table"], bob)
        resign(client, t)
        assert ratings(client, bob)["2p"]["wins"] == 1
    # Two processes' stores finishing the same game at once: one writes its results, the other nothing.
    stores = [Store(players_pg), Store(players_pg)]
    try:
        seats = [SeatData(0, "human", None, "Ann", "a" * 64, player_id=ann["player"]),
                 SeatData(1, "human", None, "Bob", "b" * 64, player_id=bob["player"])]
        stores[0].create_table(TableData("race", 2, {}, 1, 0, False, "playing", seats=seats))
        result = GameResult("race", "2p", 0, None, True, [SeatResult(0, "human", None, ann["player"], 0, 61, 30, 4, 1),
                                                          SeatResult(1, "human", None, bob["player"], 1, 30, 61, 4, 0)])
        barrier = threading.Barrier(2)

        def finish(st: Store) -> None:
            barrier.wait()
            PlayerStore(st).finish(result, rate_seats)

        threads = [threading.Thread(target=finish, args=(st,)) for st in stores]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        ps = PlayerStore(stores[0])
        assert {r.mode: r.games for r in ps.ratings(ann["player"])} == {"2p": 2, "overall": 2}
        assert ps.games(ann["player"], 0, 10)[0] == 2
    finally:
        for st in stores:
            st.close()


@pytest.mark.slow
def test_two_processes_share_players_and_score_a_game_once(players_pg: str) -> None:
    """Players made through either process; a game between them played through both (each process sees the
    last move: one stored it, the other took it from the database): one result a seat, one rating update."""
    eng = empty(players_pg)
    servers = [Server(players_pg), Server(players_pg)]
    try:
        a, b = servers
        ann = a.post("/api/players", {"name": "Ann"})
        bob = b.post("/api/players", {"name": "Bob"})
        assert httpx.get(f"{b.base}/api/me", headers=auth(ann)).json()["name"] == "Ann"  # a key works anywhere
        t = httpx.post(f"{a.base}/api/tables", json={"name": "Ann", "options": {"target": 5}, "seed": 11},
                       headers=auth(ann)).json()
        j = httpx.post(f"{b.base}/api/tables/{t['table']}/join", json={"name": "Bob"}, headers=auth(bob)).json()
        errors: list[BaseException] = []

        def play(server: Server, claimed: dict[str, Any]) -> None:
            try:
                ws = hello(server, claimed["table"], claimed["token"])
                while (m := my_turn(ws, 60))["phase"] != "over":
                    ws.send(json.dumps({"type": "move", "move": m["legal"][0]["move"], "ply": m["ply"]}))
                ws.close()
            except BaseException as exc:  # handed to the test's thread
                errors.append(exc)

        threads = [threading.Thread(target=play, args=args) for args in ((a, t), (b, j))]
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
        assert not errors, errors
        time.sleep(1.0)  # the other process stores the end too (a no-op): let it finish
        for server in servers:
            board = server.get("/api/leaderboard?mode=2p")
            assert board["total"] == 2 and {p["games"] for p in board["players"]} == {1}
            assert server.get(f"/api/players/{bob['player']}")["stats"][0]["games"] == 1
        with eng.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM results")).scalar() == 2
            assert conn.execute(text("SELECT status FROM tables WHERE id = :t"), {"t": t["table"]}).scalar() == "over"
    finally:
        for server in servers:
            server.stop()
        eng.dispose()


def _finished_games_seen_in_one_snapshot(url: str) -> tuple[int, int, int]:
    """Games counted in a snapshot before and after another connection commits a game's end, and then outside."""
    stores = [Store(url), Store(url)]
    try:
        ps, other = PlayerStore(stores[0]), PlayerStore(stores[1])
        ps.create_player("p1", "Ann", "ann", "k" * 64, "r" * 64)

        def game(tid: str) -> GameResult:
            stores[0].create_table(TableData(tid, 2, {}, 7, 0, False, "playing", seats=[
                SeatData(0, "human", None, "Ann", "h" * 64, player_id="p1"), SeatData(1, "bot", "greedy")]))
            return GameResult(tid, "2p", 0, None, True, [SeatResult(0, "human", None, "p1", 0, 61, 40, 5, 2),
                                                        SeatResult(1, "bot", "greedy", None, 1, 40, 61, 5, 0)])

        ps.finish(game("t1"), rate_seats)
        second = game("t2")
        with ps.snapshot() as s:
            before = ps._totals(s, "p1")["2p"]["games"]
            other.finish(second, rate_seats)  # committed by another connection meanwhile
            after = ps._games(s, "p1", 0, 10)[0]
        return before, after, ps.games("p1", 0, 10)[0]
    finally:
        for st in stores:
            st.close()


def test_a_profile_is_read_as_of_one_moment_on_sqlite(tmp_path: Path) -> None:
    assert _finished_games_seen_in_one_snapshot(f"sqlite:///{tmp_path / 'p.sqlite3'}") == (1, 1, 2)


def test_a_profile_is_read_as_of_one_moment_on_postgres(players_pg: str) -> None:
    empty(players_pg).dispose()
    assert _finished_games_seen_in_one_snapshot(players_pg) == (1, 1, 2)
