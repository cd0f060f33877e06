"""The database layer on SQLite, and the server on a real PostgreSQL (started by scripts/install-postgres)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from diloti.server import create_app
from diloti.store import Store, StoreError
from diloti.store.db import SeatData, TableData
from servers import drop_tables

pytestmark = pytest.mark.timeout(120)
ROOT = Path(__file__).resolve().parent.parent


def sample(tid: str = "t1", status: str = "waiting") -> TableData:
    return TableData(tid, 2, {"target": 61}, 2**63 - 1, 0, False, status,
                     seats=[SeatData(0, "human", None, "Ann", "a" * 64), SeatData(1, "human")])


def exercise(store: Store) -> None:
    store.create_table(sample())
    assert store.active_ids() == ["t1"]
    assert store.claim_seat("t1", 1, "Bob", "b" * 64) == (1, "playing")  # the last free seat: the game starts
    assert store.claim_seat("t1", 1, "Eve", "e" * 64) is None  # taken meanwhile
    assert store.claim_seat("t1", 0, "Eve", "e" * 64) is None
    assert store.claim_seat("t1", None, "Eve", "e" * 64) is None  # no seat free
    assert store.claim_seat("nope", 0, "Eve", "e" * 64) is None
    store.add_move("t1", 0, 1, "7H")
    store.add_move("t1", 1, 0, "7D x 7H")
    with pytest.raises(StoreError, match="already stored"):
        store.add_move("t1", 1, 0, "8D")
    t = store.load("t1")
    assert t is not None
    assert t.moves == [(1, "7H"), (0, "7D x 7H")] and t.status == "playing" and t.seed == 2**63 - 1
    assert [s.name for s in t.seats] == ["Ann", "Bob"] and t.seats[1].token_hash == "b" * 64
    assert t.created.tzinfo is not None
    first = store.add_chat("t1", 0, "Ann", "Καλή τύχη")
    for i in range(55):
        store.add_chat("t1", 1, "Bob", f"line {i}")
    lines = store.chat_lines("t1")
    assert len(lines) == 50 and lines[0].text == "line 5" and lines[-1].text == "line 54"
    assert [c.id for c in lines] == sorted(c.id for c in lines) and first.id < lines[0].id
    assert store.load("t1").chat == lines  # type: ignore[union-attr]
    assert store.chat_lines("t1", 1)[0].created.tzinfo is not None
    store.set_status("t1", "over", 1)
    assert store.active_ids() == [] and store.recent_ids("over") == ["t1"]
    assert store.load("t1").winner == 1  # type: ignore[union-attr]
    assert store.load("nope") is None
    store.delete_table("t1")
    # A table stored with the moves it starts from (a retried position): they come back with it, and the next
    # move's ply follows them.
    t3 = sample("t3", "playing")
    t3.moves = [(1, "7H"), (0, "7D x 7H")]
    store.create_table(t3)
    assert store.load("t3").moves == [(1, "7H"), (0, "7D x 7H")]  # type: ignore[union-attr]
    with pytest.raises(StoreError, match="already stored"):
        store.add_move("t3", 1, 0, "8D")
    store.add_move("t3", 2, 1, "8D")
    store.delete_table("t3")
    # Leaving, away seats, moves the computer made for an away player, a resignation.
    t2 = sample("t2", "playing")
    t2.clock = (30, 90)
    store.create_table(t2)
    assert store.claim_seat("t2", None, "Bob", "b" * 64) == (1, "playing")
    assert not store.leave_seat("t2", 1, "x" * 64, True)  # not that seat's token
    assert store.leave_seat("t2", 1, "b" * 64, True)
    t = store.load("t2")
    assert t is not None and (t.seats[1].name, t.seats[1].token_hash, t.seats[1].away) == ("Bob", None, True)
    store.add_moves([("t2", 0, 1, "7H", "heuristic", None), ("t2", 1, 0, "7D x 7H", None, 41500)])
    assert store.moves_since("t2", 0) == [(0, 1, "7H", "heuristic", None), (1, 0, "7D x 7H", None, 41500)]
    assert store.claim_seat("t2", 1, "Cleo", "c" * 64) == (1, "playing")  # taken over: no longer away
    store.set_away("t2", 0, True)
    t = store.load("t2")
    assert t is not None and t.by == {0: "heuristic"} and [s.away for s in t.seats] == [True, False]
    assert t.seats[1].name == "Cleo" and t.end_reason is None and t.left == {1: 41500}
    assert t.clock == (30, 90)
    # A clock runs out only if no move for that ply is stored and the seat is held and not away already.
    assert not store.time_out("t2", 1, 1)  # ply 1 is stored: the player moved in time
    assert not store.time_out("t2", 0, 2)  # seat 0 is away already
    assert store.time_out("t2", 1, 2) and not store.time_out("t2", 1, 2)
    t = store.load("t2")
    assert t is not None and [s.away for s in t.seats] == [True, True]
    assert store.end_game("t2", 0, "resigned:1")
    assert not store.end_game("t2", 1, "resigned:0")  # over already
    t = store.load("t2")
    assert t is not None and (t.status, t.winner, t.end_reason) == ("over", 0, "resigned:1")
    store.delete_table("t2")
    assert store.load("t1") is None


def test_sqlite_migrations_and_round_trip(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    store = Store(url)
    store.migrate()  # idempotent
    eng = create_engine(url)
    assert {"tables", "seats", "moves", "chat", "reviews", "alembic_version"} <= set(inspect(eng).get_table_names())
    with eng.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0013"
    eng.dispose()
    exercise(store)
    store.close()


def test_bad_database_urls_are_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot"):
        Store("nosuchdb://x")
    with pytest.raises(StoreError, match="cannot open database"):
        Store("postgresql://nobody@127.0.0.1:1/none")
    bad = tmp_path / "not-a-db.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError):
        Store(f"sqlite:///{bad}")


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    url = os.environ.get("DILOTI_TEST_POSTGRES_URL")
    if not url:
        try:
            out = subprocess.run(["bash", str(ROOT / "scripts" / "install-postgres")], capture_output=True,
                                 text=True, timeout=90, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            pytest.skip(f"PostgreSQL could not be started: {exc}")
        if out.returncode != 0:
            pytest.skip(f"PostgreSQL could not be started: {out.stderr.strip()[-300:]}")
        url = out.stdout.strip().splitlines()[-1]
    eng = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with eng.begin() as conn:
        drop_tables(conn)
    eng.dispose()
    yield url


def test_postgres_store(postgres_url: str) -> None:
    store = Store(postgres_url)
    try:
        exercise(store)
    finally:
        store.close()


def test_postgres_server_game_survives_restart(postgres_url: str) -> None:
    body = {"name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}], "seed": 4}
    with TestClient(create_app(postgres_url, allow_seed=True)) as client:
        t = client.post("/api/tables", json=body).json()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": t["table"], "token": t["token"]})
            for _ in range(3):
                while (m := ws.receive_json())["type"] != "state" or not m["your_turn"]:
                    pass
                ws.send_json({"type": "move", "move": m["legal"][0]["move"], "ply": m["ply"]})
            while (m := ws.receive_json())["type"] != "state" or not m["your_turn"]:
                pass
        ply, hand = m["ply"], m["hand"]
    with TestClient(create_app(postgres_url)) as client, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": t["table"], "token": t["token"]})
        while (m := ws.receive_json())["type"] != "state":
            pass
        assert m["ply"] == ply >= 6 and m["hand"] == hand and m["your_turn"]


def old_rows(eng: Any) -> None:
    """A table, its seats and a move, written as the first schema has them."""
    with eng.begin() as conn:
        conn.execute(text("INSERT INTO tables (id, players, options, seed, first_dealer, private, status, winner, "
                          "created, updated) VALUES ('t1', 2, '{\"target\": 61}', 5, 0, 0, 'playing', NULL, "
                          "'2026-11-22 02:40:00', '2026-11-22 02:40:00')"))
        conn.execute(text("INSERT INTO seats (table_id, seat, kind, level, name, token_hash) VALUES "
                          "('t1', 0, 'human', NULL, 'Ann', :h), ('t1', 1, 'human', NULL, 'Bob', :g)"),
                     {"h": "a" * 64, "g": "b" * 64})
        conn.execute(text("INSERT INTO moves (table_id, ply, seat, move, created) VALUES "
                          "('t1', 0, 1, '7H', '2026-11-22 02:41:00')"))


def test_a_database_of_the_first_schema_gains_the_chat_table(tmp_path: Path) -> None:
    from importlib import resources

    from alembic import command
    from alembic.config import Config

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    eng = create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("diloti.store") / "migrations"))
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    assert "chat" not in inspect(eng).get_table_names()
    old_rows(eng)
    eng.dispose()
    store = Store(url)  # migrated to the newest schema; the game is still there
    t = store.load("t1")
    assert t is not None and t.moves == [(1, "7H")] and t.chat == []
    assert t.end_reason is None and t.away_level is None and t.grace is None and not t.seats[0].away
    store.add_chat("t1", 0, "Ann", "hi")
    assert [c.text for c in store.chat_lines("t1")] == ["hi"]
    store.close()


def test_names_alike_across_alphabets_become_one_name_when_the_database_is_migrated(tmp_path: Path) -> None:
    from importlib import resources

    from alembic import command
    from alembic.config import Config

    from diloti.store.players import name_key

    url = f"sqlite:///{tmp_path / 'names.sqlite3'}"
    eng = create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("diloti.store") / "migrations"))
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0008")
        # Under the old rule "ΑΝΝΑ" (Greek) and "ANNA" (Latin) were two names.
        for pid, name, key, at in (("p1", "ΑΝΝΑ", "αννα", "2026-11-20"), ("p2", "ANNA", "anna", "2026-11-21"),
                                   ("p3", "Ελένη", "ελένη", "2026-11-22")):
            conn.execute(text("INSERT INTO players (id, name, name_key, recovery_hash, created, seen) "
                              "VALUES (:i, :n, :k, :i, :c, :c)"), {"i": pid, "n": name, "k": key, "c": at})
    eng.dispose()
    store = Store(url)  # migrated to the newest schema
    eng = create_engine(url)
    with eng.connect() as conn:
        keys: dict[str, str] = dict(conn.execute(text("SELECT id, name_key FROM players ORDER BY id")).all())
        names: dict[str, str] = dict(conn.execute(text("SELECT id, name FROM players ORDER BY id")).all())
    eng.dispose()
    # Both keep their names; the earlier player has the key, the later one's key is marked with its id.
    assert names == {"p1": "ΑΝΝΑ", "p2": "ANNA", "p3": "Ελένη"}
    assert keys == {"p1": "anna", "p2": "anna#p2", "p3": name_key("Ελένη")} and keys["p3"] == name_key("ΕΛΕΝΗ")
    store.close()
