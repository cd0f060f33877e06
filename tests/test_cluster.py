"""Several real ``diloti serve`` processes on one real PostgreSQL act as one service.

Each test starts its own processes on a fresh database: the same lobby everywhere, any
process serves any table, moves reach the players of the other process, ``kill -9`` of a
process loses nothing (its computer seats go on playing elsewhere, no ply is stored twice),
and one process's idle sweeper never closes a table played through another.
"""

from __future__ import annotations

import json
import time

import httpx
import pytest

from diloti.core.moves import Move
from diloti.core.seeds import derive_seed
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options
from diloti.match.workers import choose_move
from diloti.server.live import LiveTable
from diloti.store.db import Store
from servers import Server, hello, my_turn, pg, recv, server_pg, servers

__all__ = ["pg", "server_pg", "servers"]  # fixtures
pytestmark = [pytest.mark.slow,
              pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")]


def in_lobby(server: Server, table: str) -> None:
    """Wait until a table created through another process is in this one's lobby."""
    deadline = time.monotonic() + 30
    while table not in [x["id"] for x in server.get("/api/tables")["tables"]]:
        assert time.monotonic() < deadline, f"table {table} never reached the lobby of {server.base}"
        time.sleep(0.05)


def test_one_lobby_any_process_any_table_and_moves_cross_over(servers: list[Server]) -> None:
    a, b = servers
    t = a.post("/api/tables", {"name": "Ann", "seed": 11})
    in_lobby(b, t["table"])
    j = b.post(f"/api/tables/{t['table']}/join", {"name": "Bob"})
    # Each player talks to the process that did not seat them: no stale seat cache anywhere.
    ann, bob = hello(b, t["table"], t["token"]), hello(a, t["table"], j["token"])
    try:
        states = [recv(ann, "state", ply=0), recv(bob, "state", ply=0)]
        for ply in range(12):
            mover = 0 if states[0]["your_turn"] else 1
            ws, other = (ann, bob) if mover == 0 else (bob, ann)
            ws.send(json.dumps({"type": "move", "move": states[mover]["legal"][0]["move"], "ply": ply}))
            recv(other, "played", ply=ply + 1)  # stored by one process, told by the other
            states = [recv(ann, "state", ply=ply + 1), recv(bob, "state", ply=ply + 1)]
        for s in (a, b):
            summary = s.get(f"/api/tables/{t['table']}")
            assert summary["ply"] == 12 and summary["status"] == "playing"
    finally:
        ann.close()
        bob.close()


def replay_checks(url: str, table: str) -> list[tuple[int, str]]:
    """The stored game replays legally, and every computer move is the one its seed gives."""
    store = Store(url, migrate=False)
    try:
        data = store.load(table)
    finally:
        store.close()
    assert data is not None
    LiveTable(data)  # replays every stored move, refusing an illegal or out-of-turn one
    game = Game(data.players, Options.from_dict(data.options), data.seed, data.first_dealer)
    for ply, (seat, move) in enumerate(data.moves):
        spec = data.seats[seat]
        if spec.kind == "bot":
            assert spec.level is not None
            want = choose_move(spec.level, derive_seed("diloti-bot", data.seed, seat, ply), game.view(seat))
            assert str(want) == move, f"ply {ply}: seat {seat} played {move}, its seed gives {want}"
        game.push(Move.parse(move))
    return data.moves


def test_kill_9_loses_nothing_and_computer_seats_play_on(servers: list[Server], pg: str) -> None:
    a, b = servers
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "greedy"}] * 3
    t = a.post("/api/tables", {"name": "Ann", "players": 4, "seats": seats, "seed": 5})  # A runs the bots
    ws = hello(b, t["table"], t["token"])
    try:
        for _ in range(3):
            state = my_turn(ws)
            ws.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "ply": state["ply"]}))
        state = my_turn(ws)
        a.kill()  # mid-game: the computer seats' runner is gone
        ws.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "ply": state["ply"]}))
        t0 = time.monotonic()
        state = my_turn(ws)  # B notices, takes the table's lock and plays the three computer seats
        took = time.monotonic() - t0
        assert state["ply"] >= 8 and took < 15
        for _ in range(4):
            ws.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "ply": state["ply"]}))
            state = my_turn(ws)
    finally:
        ws.close()
    moves = replay_checks(pg, t["table"])
    assert len(moves) == state["ply"] >= 20
    # The operator sees the takeover: counted in B's metrics, and the log line docs/DEPLOY.md names.
    assert "diloti_takeovers_total 1.0" in httpx.get(f"{b.base}/metrics", timeout=10).text
    b.stop()
    assert f"takeover: running the computer seats of {t['table']}" in b.log


def _table_locks(pg: str) -> list[tuple[int, int]]:
    """The table locks held in the test's database: (the holding session's pid, the table's key) each."""
    from sqlalchemy import create_engine, text

    eng = create_engine(pg.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with eng.begin() as conn:
            return [(int(pid), int(key)) for pid, key in conn.execute(text(
                "SELECT pid, objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2 "
                "AND classid::bigint = (hashtext('diloti-table')::bigint + 4294967296) % 4294967296 "
                "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"))]
    finally:
        eng.dispose()


def test_tables_are_owned_from_their_creation_and_change_hands_only_when_their_process_dies(
        servers: list[Server], pg: str) -> None:
    """The false takeover of issue 47: a table another process loaded before its creator locked it looked
    abandoned. Now every unfinished table is locked by its creator before it is stored, whoever plays it."""
    a, b = servers
    bot_first = [{"kind": "bot", "level": "random"}, {"kind": "human"}]
    made = [a.post("/api/tables", {"name": f"P{i}", "seats": bot_first, "seat": 1, "seed": 40 + i})["table"]
            for i in range(8)]
    made.append(a.post("/api/tables", {"name": "Ann", "seed": 3})["table"])  # two humans: no computer seat yet
    for tid in made:
        assert b.get(f"/api/tables/{tid}")["status"] == "playing" if tid != made[-1] else True  # B holds a copy
    locks = _table_locks(pg)
    assert len(locks) == len(made) and len({pid for pid, _ in locks}) == 1  # all of them, all A's
    # B holds copies of them all and its watcher looks for free locks every second: it finds none.
    end = time.monotonic() + 3.0
    while time.monotonic() < end:
        for server in (a, b):
            assert "diloti_takeovers_total 0.0" in httpx.get(f"{server.base}/metrics", timeout=10).text
        time.sleep(0.2)
    a.kill()  # now their process is gone: B takes over the unfinished ones, each counted
    deadline = time.monotonic() + 20
    while len(_table_locks(pg)) < len(made):
        assert time.monotonic() < deadline, "B never took the tables over"
        time.sleep(0.1)
    # Each is counted once its copy, brought up to date from the database, is still under way: a database call
    # a table after the locks are taken (on a loaded host the count may lag the locks): waited for, bounded.
    counted = f"diloti_takeovers_total {float(len(made))}"
    while counted not in (text := httpx.get(f"{b.base}/metrics", timeout=10).text):
        assert time.monotonic() < deadline, [line for line in text.splitlines() if "takeovers_total" in line]
        time.sleep(0.1)


def test_a_player_whose_process_dies_reconnects_through_another(servers: list[Server], pg: str) -> None:
    a, b = servers
    t = a.post("/api/tables", {"name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
                               "seed": 9})
    ws = hello(a, t["table"], t["token"])
    state = my_turn(ws)
    for _ in range(3):
        ws.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "ply": state["ply"]}))
        state = my_turn(ws)
    a.kill()
    ws.close()
    ws = hello(b, t["table"], t["token"])  # the page reconnects through the proxy to a live process
    try:
        again = my_turn(ws)
        assert again["ply"] == state["ply"] and again["hand"] == state["hand"]
        for _ in range(3):
            ws.send(json.dumps({"type": "move", "move": again["legal"][0]["move"], "ply": again["ply"]}))
            again = my_turn(ws)
    finally:
        ws.close()
    assert len(replay_checks(pg, t["table"])) == again["ply"]


def test_no_process_closes_a_table_another_is_playing(pg: str) -> None:
    sweeper = Server(pg, "--idle-minutes", "0.04")  # 2.4 s: it sweeps every 0.6 s
    player = Server(pg)
    try:
        t = player.post("/api/tables", {"name": "Ann", "seed": 3})
        j = player.post(f"/api/tables/{t['table']}/join", {"name": "Bob"})
        ann, bob = hello(player, t["table"], t["token"]), hello(player, t["table"], j["token"])
        states = [recv(ann, "state", ply=0), recv(bob, "state", ply=0)]
        end, ply = time.monotonic() + 5.0, 0  # twice the sweeper's idle limit, played through the other process
        while time.monotonic() < end:
            mover = 0 if states[0]["your_turn"] else 1
            (ann, bob)[mover].send(json.dumps({"type": "move", "move": states[mover]["legal"][0]["move"],
                                               "ply": ply}))
            ply += 1
            states = [recv(ann, "state", ply=ply), recv(bob, "state", ply=ply)]
            time.sleep(0.3)
        assert sweeper.get(f"/api/tables/{t['table']}")["status"] == "playing"
        # Left alone, it is closed after all: by the sweeper, and the players of the other process hear it.
        closed = recv(ann, "table", timeout=15)
        while closed["table"]["status"] != "closed":
            closed = recv(ann, "table", timeout=15)
        assert player.get(f"/api/tables/{t['table']}")["status"] == "closed"
        ann.close()
        bob.close()
    finally:
        sweeper.stop()
        player.stop()


def test_a_lost_lock_connection_hands_the_computer_seats_over(servers: list[Server], pg: str) -> None:
    from sqlalchemy import create_engine, text

    a, b = servers
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    t = a.post("/api/tables", {"name": "Ann", "seats": seats, "seed": 8})
    ws = hello(b, t["table"], t["token"])
    try:
        state = my_turn(ws)
        # The network between A and the database drops A's lock connection (A itself lives on).
        eng = create_engine(pg.replace("postgresql://", "postgresql+psycopg://", 1))
        with eng.begin() as conn:
            killed = conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_locks "
                                       "WHERE locktype = 'advisory' AND granted")).fetchall()
        eng.dispose()
        assert killed
        for _ in range(5):
            ws.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "ply": state["ply"]}))
            state = my_turn(ws)
    finally:
        ws.close()
    assert len(replay_checks(pg, t["table"])) == state["ply"]


def test_chat_and_spectators_cross_over(servers: list[Server], pg: str) -> None:
    """A chat line said through A reaches the players and spectators of B (and back); a spectator of B
    sees the moves played through A; a process started later hands the stored lines to whoever connects."""
    a, b = servers
    t = a.post("/api/tables", {"name": "Ann", "seed": 5})
    in_lobby(b, t["table"])
    j = b.post(f"/api/tables/{t['table']}/join", {"name": "Bob"})
    ann, bob = hello(a, t["table"], t["token"]), hello(b, t["table"], j["token"])
    spec = b.ws()
    try:
        states = [recv(ann, "state", ply=0), recv(bob, "state", ply=0)]
        spec.send(json.dumps({"type": "watch", "table": t["table"]}))
        assert recv(spec, "welcome")["seat"] is None
        st = recv(spec, "state", ply=0)
        assert st["hand"] == [] and st["seat"] is None
        ann.send(json.dumps({"type": "chat", "text": "Καλή τύχη"}))
        for ws in (bob, spec, ann):
            line = recv(ws, "chat")
            assert (line["seat"], line["name"], line["text"]) == (0, "Ann", "Καλή τύχη")
        bob.send(json.dumps({"type": "chat", "text": "Thanks"}))
        assert recv(ann, "chat")["text"] == "Thanks"
        spec.send(json.dumps({"type": "chat", "text": "psst"}))
        assert recv(spec, "error")["code"] == "spectator"
        mover = 0 if states[0]["your_turn"] else 1
        [ann, bob][mover].send(json.dumps({"type": "move", "move": states[mover]["legal"][0]["move"], "ply": 0}))
        played = recv(spec, "played", ply=1)  # stored through one process, watched through the other
        assert played["seat"] == mover
        assert recv(spec, "state", ply=1)["hand"] == []
    finally:
        for ws in (ann, bob, spec):
            ws.close()
    c = Server(pg)
    try:
        ws = c.ws()
        ws.send(json.dumps({"type": "watch", "table": t["table"]}))
        assert [recv(ws, "chat")["text"] for _ in range(2)] == ["Καλή τύχη", "Thanks"]
        ws.close()
    finally:
        c.stop()


def test_leave_and_resign_through_one_process_while_the_other_runs_the_computer(servers: list[Server],
                                                                              pg: str) -> None:
    """Bob leaves through B while A runs the table's computer seats: A plays his seat too (seeded, marked as
    the computer's), Cleo takes it through B, and Ann's resignation through A reaches Cleo on B."""
    a, b = servers
    bot = {"kind": "bot", "level": "greedy"}
    t = a.post("/api/tables", {"name": "Ann", "players": 4, "seed": 4, "away_level": "random",
                               "seats": [{"kind": "human"}, bot, {"kind": "human"}, bot]})  # A runs the bots
    j = b.post(f"/api/tables/{t['table']}/join", {"name": "Bob"})
    ann, bob = hello(a, t["table"], t["token"]), hello(b, t["table"], j["token"])
    try:
        state = recv(bob, "state")
        bob.send(json.dumps({"type": "leave"}))
        assert recv(bob, "left")["seat"] == 2
        seen = recv(ann, "table")["table"]
        while not seen["seats"][2]["away"]:  # told to A by B's notice
            seen = recv(ann, "table")["table"]
        assert not seen["seats"][2]["taken"] and seen["free"] == [2] and seen["status"] == "playing"
        for _ in range(4):  # Ann plays on; the computer answers for Bob's seat through A
            state = my_turn(ann)
            ann.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "ply": state["ply"]}))
        state = my_turn(ann)
        assert b.get(f"/api/tables/{t['table']}")["seats"][2]["away"]
        c = b.post(f"/api/tables/{t['table']}/join", {"name": "Cleo"})
        assert c["seat"] == 2
        cleo = hello(b, t["table"], c["token"])
        ann.send(json.dumps({"type": "resign"}))
        over = recv(cleo, "game_over")
        assert (over["winner"], over["end_reason"]) == (1, "resigned:0")
        cleo.close()
    finally:
        ann.close()
        bob.close()
    for s in (a, b):
        summary = s.get(f"/api/tables/{t['table']}")
        assert (summary["status"], summary["end_reason"], summary["seats"][2]["name"]) == ("over", "resigned:0", "Cleo")
    store = Store(pg, migrate=False)
    try:
        data = store.load(t["table"])
    finally:
        store.close()
    assert data is not None and data.by and set(data.by.values()) == {"random"}
    game = Game(data.players, Options.from_dict(data.options), data.seed, data.first_dealer)
    for ply, (seat, move) in enumerate(data.moves):
        level = data.by.get(ply) or data.seats[seat].level
        if level is not None:  # a computer seat, or the computer playing for Bob's left seat
            assert ply not in data.by or seat == 2
            want = choose_move(level, derive_seed("diloti-bot", data.seed, seat, ply), game.view(seat))
            assert str(want) == move, f"ply {ply}: seat {seat} played {move}, its seed gives {want}"
        game.push(Move.parse(move))


def test_processes_started_together_on_a_new_database_all_come_up(pg: str) -> None:
    """Both migrate at once: one does it under a database lock, the other waits and finds it done."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(3) as start:
        started = list(start.map(lambda _: Server(pg), range(3)))
    try:
        t = started[0].post("/api/tables", {"name": "Ann"})
        assert all(s.get(f"/api/tables/{t['table']}")["status"] == "waiting" for s in started)
    finally:
        for s in started:
            s.stop()


def test_a_clock_runs_out_across_processes_and_a_rematch_asked_through_both_is_made_once(
        servers: list[Server], pg: str) -> None:
    """Ann on A, Bob on B, a 5 s clock: Bob moves in time through B (his reserve stored with the move);
    when Ann's clock runs out, one process puts her away, the computer plays for her, and Bob on B sees it
    all; she takes her seat back with 'back'. After Bob resigns, both ask for a rematch at once through
    their own processes: one new table, with the same clock, that both are told of."""
    a, b = servers
    t = a.post("/api/tables", {"name": "Ann", "seed": 9, "clock": {"move": 5, "reserve": 3}, "away_level": "random"})
    in_lobby(b, t["table"])
    j = b.post(f"/api/tables/{t['table']}/join", {"name": "Bob"})
    ann, bob = hello(a, t["table"], t["token"]), hello(b, t["table"], j["token"])
    try:
        states = [recv(ann, "state", ply=0), recv(bob, "state", ply=0)]
        if states[1]["your_turn"]:  # Bob moves in time, through B
            bob.send(json.dumps({"type": "move", "move": states[1]["legal"][0]["move"], "ply": 0}))
            st = recv(ann, "state", ply=1)
            assert st["clock"]["running"] == 0 and st["clock"]["reserves"][1] == 3000
        ply = 1 if states[1]["your_turn"] else 0
        # Ann does nothing: within 5 + 3 s her seat goes away and the computer moves for her.
        out = recv(bob, "timeout", timeout=30)
        assert (out["seat"], out["ply"], out["reason"]) == (0, ply, "clock")
        played = recv(bob, "played", ply=ply + 1, timeout=30)
        assert played["seat"] == 0
        assert b.get(f"/api/tables/{t['table']}")["seats"][0]["away"]
        ann.send(json.dumps({"type": "back"}))
        deadline = time.monotonic() + 30
        while b.get(f"/api/tables/{t['table']}")["seats"][0]["away"]:
            assert time.monotonic() < deadline, "B never saw Ann come back"
            time.sleep(0.1)
        bob.send(json.dumps({"type": "resign"}))
        recv(ann, "game_over")
        recv(bob, "game_over")
        ann.send(json.dumps({"type": "rematch"}))
        bob.send(json.dumps({"type": "rematch"}))
        new = {recv(ann, "rematch")["table"], recv(bob, "rematch")["table"]}
        assert len(new) == 1
        (nid,) = new
        for s in (a, b):
            summary = s.get(f"/api/tables/{nid}")
            assert summary["clock"] == {"move": 5, "reserve": 3} and summary["series"] == t["table"]
    finally:
        ann.close()
        bob.close()


def test_quick_play_pairs_players_waiting_on_different_processes(servers: list[Server]) -> None:
    """Ann waits through A, Bob asks through B: the shared queue seats them at one table, which each then
    plays through their own process."""
    a, b = servers
    ann_t = a.post("/api/quickplay", {"name": "Ann"})
    assert ann_t["status"] == "waiting"
    bob_t = b.post("/api/quickplay", {"name": "Bob"})
    assert bob_t["status"] == "seated" and bob_t["seat"] == 1
    polled = a.post(f"/api/quickplay/{ann_t['ticket']}/poll", {"secret": ann_t["secret"]})
    assert (polled["status"], polled["table"], polled["seat"]) == ("seated", bob_t["table"], 0)
    ann, bob = hello(a, bob_t["table"], ann_t["secret"]), hello(b, bob_t["table"], bob_t["secret"])
    try:
        states = [recv(ann, "state", ply=0), recv(bob, "state", ply=0)]
        mover = 0 if states[0]["your_turn"] else 1
        [ann, bob][mover].send(json.dumps({"type": "move", "move": states[mover]["legal"][0]["move"], "ply": 0}))
        recv([ann, bob][1 - mover], "played", ply=1)
    finally:
        ann.close()
        bob.close()


def test_simultaneous_joins_through_two_processes_start_every_table(servers: list[Server], pg: str) -> None:
    # 20 four-player tables; their 60 free seats claimed at once, alternately through each process.
    # Whichever process takes a table's last seat, the table starts, on both processes and in the database.
    from concurrent.futures import ThreadPoolExecutor

    tables = [servers[i % 2].post("/api/tables", {"name": f"C{i}", "players": 4})["table"] for i in range(20)]
    jobs = [(servers[(i + k) % 2], t, k) for i, t in enumerate(tables) for k in range(3)]

    def join(job: tuple[Server, str, int]) -> int:
        server, table, k = job
        return httpx.post(f"{server.base}/api/tables/{table}/join", json={"name": f"J{k}"}, timeout=20).status_code

    with ThreadPoolExecutor(24) as pool:
        codes = list(pool.map(join, jobs))
    assert codes == [200] * 60
    store = Store(pg, migrate=False)
    try:
        assert {store.load(t).status for t in tables} == {"playing"}  # type: ignore[union-attr]
    finally:
        store.close()
    deadline = time.monotonic() + 30
    for server in servers:
        for t in tables:
            while (got := server.get(f"/api/tables/{t}"))["status"] != "playing":
                assert time.monotonic() < deadline, f"table {t} is {got['status']} on {server.base}: {got}"
                time.sleep(0.05)
