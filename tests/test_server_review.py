"""Game review through the HTTP API: refused before the game is over, run in the worker pool with its
progress, stored once (the second request reads the database), and bounded (one per player, a queue)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from diloti.ai.review import VERSION, decision_points, review_record
from diloti.games.diloti.formats.record import read_record
from diloti.server import create_app
from diloti.server.reviews import ReviewDesk
from diloti.store.models import ReviewRow

pytestmark = pytest.mark.timeout(120)


def make_client(path: Path, **kw: Any) -> TestClient:
    return TestClient(create_app(f"sqlite:///{path / 'd.sqlite3'}", allow_seed=True, rate=1e6, burst=1e6,
                                 review_worlds=1, **kw))


def finished_table(client: TestClient, seed: int = 3, target: int = 11, game: str = "diloti") -> str:
    """A game of a person (random moves) against the random computer, played to its end."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    options = {"target": target} if game == "diloti" else {"hands": 1}
    r = client.post("/api/tables", json={"name": "Ann", "seats": seats, "options": options, "seed": seed, "game": game})
    t = r.json()
    rng = random.Random(seed)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": t["table"], "token": t["token"]})
        while True:
            m = ws.receive_json()
            if m["type"] == "game_over":
                break
            if m["type"] == "state" and m["your_turn"]:
                ws.send_json({"type": "move", "move": rng.choice(m["legal"])["move"], "ply": m["ply"]})
    tid: str = t["table"]
    return tid


def desk(client: TestClient) -> ReviewDesk:
    d: ReviewDesk = client.app.state.reviews  # type: ignore[attr-defined]
    return d


def wait_done(client: TestClient, tid: str, seat: int, timeout: float = 90.0) -> dict[str, Any]:
    """Poll the status as the page does until the review is done; every status on the way is checked."""
    deadline = time.monotonic() + timeout
    last = -1
    while time.monotonic() < deadline:
        s = client.get(f"/api/tables/{tid}/review", params={"seat": seat}).json()
        assert s["status"] in ("queued", "running", "done"), s
        if s["status"] == "done":
            out: dict[str, Any] = s
            return out
        assert s["done"] >= last and (s["total"] == 0 or s["done"] <= s["total"])
        last = s["done"]
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


def test_review_runs_in_the_pool_and_is_stored_once(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"name": "Ann", "seats": [{"kind": "human"},
                                                                      {"kind": "bot", "level": "random"}]})
        live = r.json()["table"]
        assert client.post(f"/api/tables/{live}/review", json={"seat": 0}).json()["code"] == "game_not_over"
        assert client.post("/api/tables/nosuch/review", json={"seat": 0}).status_code == 404
        tid = finished_table(client)
        assert client.get(f"/api/tables/{tid}/review", params={"seat": 0}).json()["status"] == "none"
        for bad, code in (({"seat": 5}, "bad_request"), ({"seat": "0"}, None), ({}, None), ({"seat": 0, "x": 1}, None)):
            got = client.post(f"/api/tables/{tid}/review", json=bad)
            assert got.status_code == 400 and got.json()["type"] == "error"
            assert code is None or got.json()["code"] == code
        assert client.post(f"/api/tables/{tid}/review", json={"seat": 2}).json()["code"] == "bad_request"
        for seat in (5, 2, -1):  # POST and GET refuse a seat alike, naming this table's seats
            posted = client.post(f"/api/tables/{tid}/review", json={"seat": seat}).json()["message"]
            got = client.get(f"/api/tables/{tid}/review", params={"seat": seat}).json()["message"]
            assert posted == got == f"invalid seat {seat}: expected a seat 0..1 of this table"
        huge = client.post(f"/api/tables/{tid}/review", json={"seat": 10 ** 300}).json()
        assert huge["code"] == "bad_request" and len(huge["message"]) < 100
        first = client.post(f"/api/tables/{tid}/review", json={"seat": 0})
        assert first.status_code == 202 and first.json()["status"] in ("queued", "running")
        done = wait_done(client, tid, 0)
        review = done["review"]
        rec = read_record(client.get(f"/api/tables/{tid}/record").text)
        assert [d["ply"] for d in review["decisions"]] == [p.ply for p in decision_points(rec, [0])]
        assert review["seats"] == [0] and review["worlds"] == 1 and 0 <= review["accuracy"]["0"] <= 100
        assert all(d["seat"] == 0 and d["lost"] >= 0 for d in review["decisions"])
        # The same review as `diloti review RECORD --seat 0` at the server's budget and seed 0 (the defaults).
        assert review == json.loads(json.dumps(review_record(rec, [0], worlds=1, seed=0).to_dict()))
        again = client.post(f"/api/tables/{tid}/review", json={"seat": 0})
        assert again.status_code == 200 and again.json()["review"] == review
        with client.app.state.manager.store.session() as s:  # type: ignore[attr-defined]
            rows = s.query(ReviewRow).all()
        assert [(r.table_id, r.seat, r.version) for r in rows] == [(tid, 0, VERSION)]
    # Stored: a restarted server answers at once, without a new job.
    with make_client(tmp_path) as client:
        got = client.post(f"/api/tables/{tid}/review", json={"seat": 0})
        assert got.status_code == 200 and got.json()["review"] == review and not desk(client).jobs


def test_a_xeri_table_is_reviewed_through_the_same_calls(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        tid = finished_table(client, game="xeri")
        assert client.post(f"/api/tables/{tid}/review", json={"seat": 1}).status_code == 202
        review = wait_done(client, tid, 1)["review"]
        assert review["decisions"] and all(d["seat"] == 1 and d["win_before"] is None for d in review["decisions"])


def test_one_review_at_a_time_per_player_and_a_bounded_queue(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        tid = finished_table(client)
        d = desk(client)
        d.queue_max = 2
        client.portal.call(d.gate().acquire)  # type: ignore[union-attr]  # the pool's turn is held: jobs wait
        a = client.post(f"/api/tables/{tid}/review", json={"seat": 0})
        assert a.status_code == 202 and a.json()["status"] == "queued"
        # The same review asked again is the same job, whoever asks.
        assert client.post(f"/api/tables/{tid}/review", json={"seat": 0}).status_code == 202
        busy = client.post(f"/api/tables/{tid}/review", json={"seat": 1})
        assert busy.status_code == 429 and busy.json()["code"] == "review_busy"
        assert "one at a time" in busy.json()["message"] and busy.headers["retry-after"]
        bob = client.post("/api/players", json={"name": "Bob"}).json()["key"]
        b = client.post(f"/api/tables/{tid}/review", json={"seat": 1}, headers={"Authorization": f"Bearer {bob}"})
        assert b.status_code == 202 and b.json()["position"] == 1
        other = finished_table(client, seed=5)
        cy = client.post("/api/players", json={"name": "Cy"}).json()["key"]
        full = client.post(f"/api/tables/{other}/review", json={"seat": 0}, headers={"Authorization": f"Bearer {cy}"})
        assert full.status_code == 503 and full.json()["code"] == "busy" and "busy" in full.json()["message"]
        client.portal.call(d.gate().release)  # type: ignore[union-attr]
        assert wait_done(client, tid, 0)["review"]["seats"] == [0]
        assert wait_done(client, tid, 1)["review"]["seats"] == [1]
        assert not d.jobs


@pytest.fixture(scope="module")
def postgres_url() -> Any:
    import os
    import subprocess

    from sqlalchemy import create_engine

    from servers import drop_tables

    url = os.environ.get("DILOTI_TEST_POSTGRES_URL")
    if not url:
        script = Path(__file__).resolve().parents[1] / "scripts" / "install-postgres"
        try:
            out = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=90, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            pytest.skip(f"PostgreSQL could not be started: {exc}")
        if out.returncode != 0:
            pytest.skip(f"PostgreSQL could not be started: {out.stderr.strip()[-300:]}")
        url = out.stdout.strip().splitlines()[-1]
    eng = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with eng.begin() as conn:
        drop_tables(conn)
    eng.dispose()
    return url


def test_reviews_are_stored_once_on_postgresql(postgres_url: str) -> None:
    with TestClient(create_app(postgres_url, allow_seed=True, rate=1e6, burst=1e6, review_worlds=1)) as client:
        tid = finished_table(client, seed=8)
        assert client.post(f"/api/tables/{tid}/review", json={"seat": 1}).status_code == 202
        review = wait_done(client, tid, 1)["review"]
        assert review["seats"] == [1] and review["decisions"]
    # A second process (here: a restarted server) finds it stored: no job, the same review.
    with TestClient(create_app(postgres_url, review_worlds=1)) as client:
        got = client.post(f"/api/tables/{tid}/review", json={"seat": 1})
        assert got.status_code == 200 and got.json()["review"] == review and not desk(client).jobs
        from diloti.store.reviews import ReviewStore

        store = client.app.state.manager.store  # type: ignore[attr-defined]
        assert ReviewStore(store).put(tid, 1, VERSION, 1, {"x": 1}) is False  # the first one is kept
        assert ReviewStore(store).get(tid, 1, VERSION) == review
        assert ReviewStore(store).get(tid, 1, VERSION + 1) is None  # another method's version: made again


def test_a_failed_review_says_so_and_is_made_when_asked_again(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import diloti.server.reviews as reviews

    real = decision_points  # the reviews module's, imported from diloti.ai.review

    def broken(*_: Any) -> Any:
        raise RuntimeError("disk on fire")

    with make_client(tmp_path) as client:
        tid = finished_table(client)
        monkeypatch.setattr(reviews, "decision_points", broken)
        assert client.post(f"/api/tables/{tid}/review", json={"seat": 0}).status_code == 202
        deadline = time.monotonic() + 30
        while (s := client.get(f"/api/tables/{tid}/review", params={"seat": 0}).json())["status"] != "failed":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert "could not be made" in s["message"] and "disk on fire" not in s["message"]  # no internals shown
        monkeypatch.setattr(reviews, "decision_points", real)
        assert client.post(f"/api/tables/{tid}/review", json={"seat": 0}).status_code == 202
        assert wait_done(client, tid, 0)["review"]["seats"] == [0]
