"""The lobby in pages (``GET /api/tables?page=P&per_page=N``), newest first."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from diloti.server import create_app


def test_the_lobby_pages_through_the_waiting_tables_newest_first(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path}/d.sqlite3")) as client:
        made = [client.post("/api/tables", json={"name": f"P{i}"}).json()["table"] for i in range(7)]
        client.post("/api/tables", json={"name": "Secret", "private": True})
        first = client.get("/api/tables").json()
        assert (first["page"], first["pages"], first["total"]) == (1, 1, 7)
        pages = [client.get(f"/api/tables?per_page=3&page={p}").json() for p in (1, 2, 3, 4)]
        assert [p["pages"] for p in pages] == [3] * 4 and [len(p["tables"]) for p in pages] == [3, 3, 1, 0]
        ids = [t["id"] for p in pages for t in p["tables"]]
        assert sorted(ids) == sorted(made) and [t["id"] for t in first["tables"]] == ids
        for bad in ("per_page=0", "per_page=101", "page=0", "page=x"):
            r = client.get(f"/api/tables?{bad}")
            assert r.status_code == 400 and r.json()["code"] == "bad_request", (bad, r.text)
