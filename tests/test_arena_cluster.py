"""An arena through two server processes on one PostgreSQL (issue 50 item 6): eight players play a real arena
of three minutes (its minute set to 8 s with ``--arena-minute``, so that the test takes half a minute of play),
half of them through each process. Every player is paired again each time they are free, within the arena's wait;
the scores are the games' results under lichess's scoring; the standings read from either process are the same;
one process is killed with SIGKILL mid-arena and its players go on through the other (its tables taken over):
no game and no score is lost, and a process started afterwards reads the same final standings."""

from __future__ import annotations

import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from servers import Server, pg, recv, server_pg

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from arena import ArenaPlayer, expected_scores, join, late_pairings, open_arena, signed_up

__all__ = ["pg", "server_pg"]  # fixtures
pytestmark = [pytest.mark.slow, pytest.mark.timeout(300),
              pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")]

MINUTE = 8.0  # seconds an arena minute lasts here: the arena's 3 minutes are 24 s
WAIT = 5
FLAGS = ("--arena-minute", str(MINUTE), "--arena-tick", "0.3", "--limit", "players=1000/hour")


def arena_doc(base: str, arena: str) -> dict[str, Any]:
    """The arena's document; a refusal (the reads' limit per address, which the test shares with its players) is
    waited out as its Retry-After says, as a client does."""
    deadline = time.monotonic() + 60
    while True:
        r = httpx.get(f"{base}/api/arenas/{arena}", timeout=30)
        if r.status_code == 200:
            doc: dict[str, Any] = r.json()
            return doc
        assert r.status_code in (429, 503) and time.monotonic() < deadline, (r.status_code, r.text)
        time.sleep(min(5.0, float(r.headers.get("Retry-After", "1"))))


def standings(base: str, arena: str) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = arena_doc(base, arena)["standings"]
    return lines


def same_from_both(a: str, b: str, arena: str) -> list[dict[str, Any]]:
    """The standings read from both processes while nothing changes in between (read a, b, a: a unchanged)."""
    for _ in range(50):
        first, other, again = standings(a, arena), standings(b, arena), standings(a, arena)
        if first == again:
            assert other == first
            return first
    raise AssertionError("the standings never stood still for three reads")


def test_eight_players_through_two_processes_with_one_killed_mid_arena(pg: str) -> None:
    a = Server(pg, *FLAGS)
    b = Server(pg, *FLAGS)
    later: Server | None = None
    try:
        bases = [a.base, b.base]
        accounts = [signed_up(bases[i % 2], f"Player{i}") for i in range(8)]
        # Started in 10 s: time for the joins, all at once (a loaded machine took more than the arena's 26 s for
        # eight in a row).
        arena = open_arena(a.base, accounts[0][1], minutes=3, starts_in=10, wait=WAIT, options={"target": 11},
                           clock={"move": 10, "reserve": 30})
        aid = arena["id"]
        homes = [[bases[i % 2], bases[1 - i % 2]] for i in range(8)]  # half through each process; the other if it dies
        with ThreadPoolExecutor(8) as pool:
            secrets = list(pool.map(lambda i: join(homes[i][0], accounts[i][1], aid), range(8)))
        players = [ArenaPlayer(homes[i], key, pid, aid, secrets[i], random.Random(i), poll=0.3)
                   for i, (pid, key) in enumerate(accounts)]
        for p in players:
            p.start()
        deadline = time.monotonic() + 120
        # Half-way through, by the arena's own clock (the joins before it started take long on a loaded machine).
        while (doc := arena_doc(a.base, aid))["status"] == "upcoming" or \
                doc["ends_in"] > 3 * MINUTE / 2:
            assert time.monotonic() < deadline and doc["status"] in ("upcoming", "running"), doc["status"]
            time.sleep(0.3)
        mid = same_from_both(a.base, b.base, aid)
        assert sum(ln["games"] for ln in mid) > 0 and any(ln["table"] for ln in mid)
        on_b = [p for p in players if p.thread is not None and p.thread.is_alive() and p.base == b.base]
        b.kill()
        for p in players:
            assert p.thread is not None
            p.thread.join(240)
            assert not p.thread.is_alive()
        deadline = time.monotonic() + 120
        while arena_doc(a.base, aid)["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.5)
        later = Server(pg, *FLAGS)
        final = same_from_both(a.base, later.base, aid)
        assert {ln["player"]: ln["score"] for ln in final} == expected_scores(players)
        assert {ln["player"]: ln["games"] for ln in final} == {p.player: len(p.games) for p in players}
        # Each player of the killed process still in the arena then went on through the other.
        stayed = [p.player for p in on_b if p.base != a.base or not p.failovers]
        assert on_b and not stayed, f"players of the killed process did not go on through the other: {stayed}"
        # Paired every time free while the arena ran, through the kill too (from the arena's record: how many games
        # fit in its 24 s depends on the machine's load, the pairing does not), and never twice at once.
        late, waits = late_pairings(pg, aid, WAIT + 6)
        assert not late, late
        assert len(waits) > len(players)  # the first pairing of each, and pairings after games
        for p in players:
            assert p.games, (p.player, p.errors)
            assert p.base == a.base, f"{p.player} is not on the live process: {p.errors}"
        # Every pairing made once: no player ever had two games at once, and the arena's games are its tables.
        tables = [g.table for p in players for g in p.games]
        humans = {t for t in tables if tables.count(t) == 2}
        assert all(tables.count(t) in (1, 2) for t in tables) and humans
        for p in players:
            r = httpx.get(f"{later.base}/api/players/{p.player}/arenas", timeout=30).json()["arenas"]
            assert r[0]["arena"] == aid
    finally:
        for s in (a, b, later):
            if s is not None:
                s.stop()


def test_a_pairing_reaches_a_player_connected_to_the_other_process(pg: str) -> None:
    """Ann follows the arena (with her secret) on one process, Bob on the other, neither polling: whichever process
    pairs them, each is told the game on their own connection (the pairing's PostgreSQL notice)."""
    import json

    a = Server(pg, *FLAGS)
    b = Server(pg, *FLAGS)
    conns = []
    try:
        (_, ann_key), (_, bob_key) = signed_up(a.base, "Ann"), signed_up(b.base, "Bob")
        arena = open_arena(a.base, ann_key, minutes=3, starts_in=1, wait=60, options={"target": 11})
        for server, key in ((a, ann_key), (b, bob_key)):
            ws = server.ws()
            conns.append(ws)
            ws.send(json.dumps({"type": "arena", "arena": arena["id"], "secret": join(server.base, key, arena["id"])}))
        games = [recv(ws, "arena_game", timeout=60) for ws in conns]
        assert games[0]["table"] == games[1]["table"] and {g["seat"] for g in games} == {0, 1}
        seats = b.get(f"/api/tables/{games[0]['table']}")["seats"]
        assert {s["name"] for s in seats} == {"Ann", "Bob"}
    finally:
        for ws in conns:
            ws.close()
        a.stop()
        b.stop()


def test_a_pairing_tells_its_players_before_its_tables_are_created(pg: str) -> None:
    """The notices of one pairing: every player's ``arena_game`` before any table's ``created``. Another process
    handles a table's notices in order and loads a created table from the database first: with a hundred loads
    queued, the players' notices sent after their tables' reached their pages seconds late (they found their games
    through /me first)."""
    import json
    from datetime import timedelta
    from typing import cast

    import psycopg
    from sqlalchemy import update

    from diloti.server.arena import ArenaDesk
    from diloti.store.arena import GAME_NOTICE, ArenaStore
    from diloti.store.db import CHANNEL, Store, now
    from diloti.store.models import ArenaRow

    server = Server(pg, *FLAGS)
    try:  # four players join an arena that starts in 10 minutes: the server pairs nobody
        accounts = [signed_up(server.base, f"Player{i}") for i in range(4)]
        aid = open_arena(server.base, accounts[0][1], minutes=3, starts_in=600, wait=60)["id"]
        for _, key in accounts:
            join(server.base, key, aid)
    finally:
        server.stop()
    store = Store(pg, origin="this-test")
    listener = psycopg.connect(pg, autocommit=True)
    try:
        with store.session.begin() as s:  # started now: this test's pass pairs them
            s.execute(update(ArenaRow).where(ArenaRow.id == aid).values(starts=now() - timedelta(seconds=1)))
        listener.execute(f"LISTEN {CHANNEL}")
        made = ArenaStore(store).pair(aid, now(), 20.0, lambda rating: "heuristic",
                                      lambda *a: ArenaDesk._table(cast(Any, None), *a))
        assert len(made) == 2
        kinds = [json.loads(n.payload)["k"] for n in listener.notifies(timeout=10, stop_after=6)]
        assert sorted(kinds) == sorted([GAME_NOTICE] * 4 + ["created"] * 2), kinds
        assert kinds[:4] == [GAME_NOTICE] * 4, kinds
    finally:
        listener.close()
        store.close()
