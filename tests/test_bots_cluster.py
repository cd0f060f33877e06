"""Outside bots through two server processes on one PostgreSQL (docs/BOTS.md): two bots, each the reference
client ``diloti bot`` in a process of its own, play each other and a scripted person on the websocket; the
process holding one bot's streams is killed with ``kill -9`` mid-game, the client reconnects to the other one,
and the games go on with nothing lost. Every message of the bots' game streams is checked for hidden cards.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import httpx
import pytest

from bot_helpers import auth, bot_account, check_bot_stream, person, positions, run_client, transcript
from servers import Server, hello, pg, recv, server_pg, servers

__all__ = ["pg", "server_pg", "servers"]  # fixtures
pytestmark = [pytest.mark.slow,
              pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")]


def accepted(server: Server, key: str, cid: str) -> str:
    """Wait until a challenge is accepted (through any process); its table."""
    deadline = time.monotonic() + 60
    while True:
        c = httpx.get(f"{server.base}/api/challenge/{cid}", headers=auth(key), timeout=10).json()
        if c["status"] == "accepted":
            return str(c["table"])
        assert c["status"] == "open" and time.monotonic() < deadline, c
        time.sleep(0.1)


def test_two_bots_and_a_person_through_two_processes_and_a_kill(servers: list[Server], pg: str,
                                                                 tmp_path: Path) -> None:
    a, b = servers
    hermes = bot_account(a, "Hermes", tmp_path)
    athena = bot_account(b, "Athena", tmp_path)
    ann = person(b, "Ann")
    logs = tmp_path / "games"
    # Hermes's streams go to process a first, Athena's to b; each client knows both processes.
    one = run_client([a, b], hermes["file"], "heuristic", logs / "hermes", "--verbose", "--games", "2",
                     "--challenge", "Athena",
                     "--challenge-body", json.dumps({"rated": True, "options": {"target": 21}}))
    two = run_client([b, a], athena["file"], "greedy", logs / "athena", "--verbose", "--games", "1",
                     "--accept-from", "bots")
    try:
        made = httpx.post(f"{b.base}/api/challenge/Hermes", json={"rated": True, "seat": 0, "options": {"target": 21}},
                          headers=auth(ann["key"]), timeout=10).json()
        tid = accepted(b, ann["key"], made["challenge"]["id"])
        ws = hello(b, tid, made["token"])
        rng = random.Random(5)
        mine = 0
        sent, last = -1, 0.0
        try:
            while True:
                try:
                    msg = recv(ws, "state", timeout=90)
                except (TimeoutError, AssertionError) as exc:  # a stall or an error: what the clients and b said
                    for p in (one, two):
                        p.kill()
                    b.stop()
                    raise AssertionError(f"no state ({exc}): hermes said {one.communicate()[0][-3000:]!r}; athena "
                                         f"said {two.communicate()[0][-3000:]!r}; process b logged "
                                         f"{b.log[-3000:]!r}") from exc
                if msg["phase"] == "over":
                    break
                # One move a ply: after the kill the surviving process may tell the same position again.
                if msg["your_turn"] and msg["ply"] != sent:
                    # A person's pace: the bot answers in milliseconds, and a socket may send 20 messages a second.
                    time.sleep(max(0.0, last + 0.08 - time.monotonic()))
                    last = time.monotonic()
                    ws.send(json.dumps({"type": "move", "move": rng.choice(msg["legal"])["move"], "ply": msg["ply"]}))
                    sent = msg["ply"]
                    mine += 1
                    if mine == 3:
                        a.kill()  # the process holding Hermes's streams (and running the table it made)
        finally:
            ws.close()
        assert a.proc.returncode is not None  # killed mid-game: the game went on through b
        out_one, _ = one.communicate(timeout=240)
        out_two, _ = two.communicate(timeout=240)
        assert one.returncode == 0 and two.returncode == 0, (out_one, out_two)
    finally:
        for p in (one, two):
            if p.poll() is None:
                p.kill()
    games = {f.stem for f in (logs / "hermes").glob("*.ndjson")}
    assert tid in games and len(games) == 2, (games, out_one)
    bots_game = (games - {tid}).pop()
    assert {f.stem for f in (logs / "athena").glob("*.ndjson")} == {bots_game}
    for table in (tid, bots_game):
        data, states = positions(pg, table)  # every stored move replays legally: none lost, none twice
        assert states[-1].is_over and data.status == "over", table
        for who in ("hermes", "athena"):
            path = logs / who / f"{table}.ndjson"
            if path.exists():
                msgs = transcript(logs / who, table)
                seat = msgs[0]["seat"]
                assert check_bot_stream(msgs, seat, states) >= {"gameFull", "state", "played"}
    # Hermes's stream of the person's game was cut by the kill and started again from the game as it was.
    fulls = [m for m in transcript(logs / "hermes", tid) if m["type"] == "gameFull"]
    assert len(fulls) >= 2 and fulls[1]["state"]["ply"] > 0
    ratings = httpx.get(f"{b.base}/api/leaderboard?bots=true", timeout=10).json()
    assert {p["name"] for p in ratings["players"]} == {"Hermes", "Athena"}
    people = httpx.get(f"{b.base}/api/leaderboard", timeout=10).json()
    assert [p["name"] for p in people["players"]] == ["Ann"]
