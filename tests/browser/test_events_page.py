"""The daily deal and the arenas in the page, on a phone: on the start page's first screen with their
countdowns; today's deal started from it opens its table (and the start page then offers to go back to it);
an arena's page shows its live standings, joins and withdraws; in Greek too."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}


def test_the_daily_deal_on_the_start_page_of_a_phone(server: str, new_page: Any, ui: Any) -> None:
    # A busy evening: twelve tables wait for a player (with the other tests' tables, on this shared server). The
    # phone's start page lists one of them and keeps the rest behind "more": the daily deal stays on the first screen.
    for i in range(12):
        seats = [{"kind": "human"}, {"kind": "human"}]
        r = httpx.post(f"{server}/api/tables", json={"name": f"Stamatis {i}", "seats": seats}, timeout=30)
        assert r.status_code == 201, r.text
    page = new_page(**PHONE)
    page.goto(server + "/")
    page.wait_for_selector("#daily-play")
    # Measured once the open tables are listed (they come above the deal, after it), in one call: the lobby draws
    # itself again as its lists arrive, and an element found in one call may be replaced before the next measures it.
    page.wait_for_selector("#open-more li", state="attached")
    box = page.evaluate("() => { const r = document.querySelector('#daily').getBoundingClientRect(); "
                        "return {x: r.x, y: r.y, width: r.width}; }")
    assert box is not None and box["y"] < 667 and box["x"] >= 0 and box["x"] + box["width"] <= 375
    assert page.locator("#open-tables > ul li").count() == 1  # a phone: one, the rest behind "more"
    hidden = page.locator("#open-more li").count()
    assert hidden >= 11 and not page.locator("#open-more li").first.is_visible()
    assert page.inner_text("#open-more summary") == f"{hidden} more open tables"
    page.click("#open-more summary")
    page.locator("#open-more li").last.wait_for()  # every open table is one tap away
    first = page.inner_text("#daily-countdown")
    assert re.search(r"\d+:\d\d(:\d\d)?", first)  # h:mm:ss, or m:ss in the last hour before the next deal
    page.wait_for_function(f"() => document.querySelector('#daily-countdown').textContent !== {first!r}")
    assert page.locator("#arenas").count() == 1
    ui.set_name(page, "Dora")
    page.click("#daily-play")
    page.wait_for_selector("#game")
    table = page.evaluate("new URLSearchParams(location.search).get('table')")
    summary = httpx.get(f"{server}/api/tables/{table}", timeout=10).json()
    assert summary["event"].startswith("daily:") and not summary["hints"]
    assert summary["seats"][0]["name"] == "Dora"
    page.goto(server + "/?lang=el")
    page.wait_for_selector("#daily-resume")
    assert page.inner_text("#daily h2") == "Η μοιρασιά της ημέρας"
    page.click("#daily-resume")
    page.wait_for_selector("#game")
    assert page.evaluate("new URLSearchParams(location.search).get('table')") == table


def test_an_arena_page_on_a_phone_joins_and_shows_the_standings_live(server: str, new_page: Any,
                                                                     kept_name: Any) -> None:
    made = httpx.post(f"{server}/api/players", json={"name": kept_name("Arete")}, timeout=10).json()
    key = made["key"]
    arena = httpx.post(f"{server}/api/arenas", json={"name": "Phone cup", "starts_in": 600},
                       headers={"Authorization": f"Bearer {key}"}, timeout=10).json()
    page = new_page(**PHONE)
    page.goto(server + "/")
    page.evaluate(f"localStorage.setItem('diloti.player', {key!r})")
    page.goto(server + "/")
    page.wait_for_selector(f"#arenas li[data-arena='{arena['id']}']")
    page.goto(f"{server}/?arena={arena['id']}")
    page.wait_for_selector("#arena-join")
    assert "Phone cup" in page.inner_text("#arena h2")
    assert re.search(r"\d+:\d\d", page.inner_text("#arena-countdown"))
    page.click("#arena-join")
    page.wait_for_selector("#arena-withdraw")
    # The standings come over the websocket: the player's line appears without a reload.
    page.wait_for_selector(f"#arena-standings tr[data-player='{made['player']}']")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375 + 1, width
    page.click("#arena-withdraw")
    page.wait_for_selector("#arena-join")
    page.goto(f"{server}/?arena={arena['id']}&lang=el")
    page.wait_for_selector("#arena-join")
    assert "Κατάταξη" in page.inner_text("#arena")


def test_an_arena_game_is_pushed_to_the_phone_and_its_replay_listed_once_over(server: str, new_page: Any,
                                                                              kept_name: Any) -> None:
    """Areti joins on her phone's arena page, Vasos through the websocket alone: the pass pairs them and the page
    opens the game (pushed as arena_game, or found by its presence poll); Vasos resigns; the arena page lists the
    finished game with its replay, which opens."""
    import json

    from websockets.sync.client import connect

    arete = httpx.post(f"{server}/api/players", json={"name": kept_name("Areti")}, timeout=10).json()
    bob = httpx.post(f"{server}/api/players", json={"name": kept_name("Vasos")}, timeout=10).json()
    arena = httpx.post(f"{server}/api/arenas", json={"name": "Replay cup", "starts_in": 0, "wait": 600},
                       headers={"Authorization": f"Bearer {arete['key']}"}, timeout=10).json()
    page = new_page(**PHONE)
    page.goto(server + "/")
    page.evaluate(f"localStorage.setItem('diloti.player', {arete['key']!r})")
    page.goto(f"{server}/?arena={arena['id']}")
    page.click("#arena-join")
    secret = httpx.post(f"{server}/api/arenas/{arena['id']}/join", json={},
                        headers={"Authorization": f"Bearer {bob['key']}"}, timeout=10).json()["secret"]
    with connect(server.replace("http", "ws", 1) + "/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "arena", "arena": arena["id"], "secret": secret}))
        while (msg := json.loads(ws.recv(timeout=60)))["type"] != "arena_game":
            assert msg["type"] == "arena", msg
        table = msg["table"]
        page.wait_for_function(f"() => new URLSearchParams(location.search).get('table') === {table!r}")
        page.wait_for_selector("#game")
        with connect(server.replace("http", "ws", 1) + "/ws", open_timeout=10) as game:
            game.send(json.dumps({"type": "hello", "table": table, "token": secret}))
            game.send(json.dumps({"type": "resign"}))
            while (msg := json.loads(game.recv(timeout=30)))["type"] != "game_over":
                assert msg["type"] != "error", msg
    page.goto(f"{server}/?arena={arena['id']}")
    row = page.wait_for_selector(f"#arena-played li[data-table='{table}']")
    assert row is not None and "🏆" in row.inner_text() and arete["name"] in row.inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375 + 1, width
    page.click(f"#arena-played li[data-table='{table}'] a")
    page.wait_for_selector("#replay-step")
    assert page.evaluate("new URLSearchParams(location.search).get('replay')") == table
