"""Play again: a short game against the computer to the end, the end dialog shows the series score and
"Play again", which opens the rematch (same seat, same token, the next dealer first)."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def test_play_a_short_game_to_the_end_and_play_again(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    t = post(f"{server}/api/tables", {"name": "Anna", "seed": 5, "options": {"target": 1},
                                      "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})
    table = t["table"]
    page = new_page()
    page.goto(f"{server}/?pace=0")
    page.evaluate("([id, tok]) => localStorage.setItem('diloti.token.' + id, tok)", [table, t["token"]])
    page.goto(f"{server}/?pace=0&table={table}")
    page.wait_for_selector("#game")
    rng = random.Random(2)
    while True:
        st = ui.wait_status(page, ("turn", "dialog"), timeout=30.0)
        if st == "dialog:game-over":
            break
        if st == "dialog:round-over":
            page.click("#round-continue")
            continue
        ui.play_turn(page, rng)
    page.wait_for_function("() => /Series: .* [01] – [01] /.test(document.querySelector('#end-series').textContent)")
    series = page.inner_text("#end-series")
    screenshot(page, "01-game-over-series")
    page.click("#end-again")
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('table') !== '{table}'")
    new = page.evaluate("new URLSearchParams(location.search).get('table')")
    page.wait_for_selector("#game")
    assert page.evaluate(f"localStorage.getItem('diloti.token.{new}')") == t["token"]
    with urllib.request.urlopen(f"{server}/api/tables/{new}", timeout=10) as r:
        s = json.loads(r.read())
    assert s["series"] == table and s["status"] == "playing" and sum(s["series_score"]) == 1
    assert str(s["series_score"][0]) in series
    screenshot(page, "02-rematch")
