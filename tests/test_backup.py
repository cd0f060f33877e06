"""The backup and restore docs/DEPLOY.md gives, run as written: ``pg_dump`` of the whole database, restored
with ``pg_restore`` into a new database, where a game and a player's profile are found intact."""

from __future__ import annotations

import glob
import shutil
import subprocess
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from diloti.store.db import SeatData, Store, TableData
from diloti.store.players import PlayerStore
from servers import pg, server_pg

__all__ = ["pg", "server_pg"]  # fixtures
pytestmark = [pytest.mark.slow]


def tool(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))), None)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


def counts(url: str) -> dict[str, int]:
    eng = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with eng.connect() as conn:
            return {t: int(conn.execute(text(f'SELECT count(*) FROM "{t}"')).scalar_one())
                    for t in inspect(conn).get_table_names()}
    finally:
        eng.dispose()


def test_dump_and_restore_keep_games_and_players(pg: str, tmp_path: Path) -> None:
    store = Store(pg)
    players = PlayerStore(store)
    try:
        players.create_player("p1", "Ann", "ann", "k" * 64, "r" * 64)
        store.create_table(TableData("t1", 2, {"target": 61}, 7, 0, False, "waiting", seats=[
            SeatData(0, "human", None, "Ann", "a" * 64, player_id="p1"), SeatData(1, "bot", "greedy")]))
        store.add_moves([("t1", 0, 1, "7H", None, None), ("t1", 1, 0, "7D x 7H", None, None)])
        store.add_chat("t1", 0, "Ann", "Καλή τύχη")
        before = store.load("t1")
    finally:
        store.close()
    dump = tmp_path / "diloti.dump"
    base, _, _ = pg.rpartition("/")
    restored = f"{base}/diloti_restored"
    admin = create_engine(pg.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text("DROP DATABASE IF EXISTS diloti_restored WITH (FORCE)"))
    admin.dispose()
    # As docs/DEPLOY.md says (section "Backups").
    subprocess.run([tool("pg_dump"), "--format=custom", "--no-owner", f"--file={dump}", pg], check=True, timeout=60)
    subprocess.run([tool("createdb"), f"--maintenance-db={pg}", "diloti_restored"], check=True, timeout=60)
    subprocess.run([tool("pg_restore"), "--no-owner", f"--dbname={restored}", str(dump)], check=True, timeout=60)
    assert counts(restored) == counts(pg) and counts(pg)["players"] == 1 and len(counts(pg)) >= 10
    again = Store(restored)  # the restored schema is current: nothing to migrate
    try:
        after = again.load("t1")
        assert after is not None and before is not None
        assert (after.moves, after.seats, after.chat, after.seed) == (before.moves, before.seats, before.chat, 7)
        ann = PlayerStore(again).by_key("k" * 64)
        assert ann is not None and (ann.id, ann.name) == ("p1", "Ann")
        again.create_table(TableData("t2", 2, {}, 8, 0, False, "waiting", seats=[SeatData(0, "human"),
                                                                                  SeatData(1, "human")]))
    finally:
        again.close()
