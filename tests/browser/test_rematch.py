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
            ui.continue_round(page)
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


def test_two_friends_on_phones_in_greek_resign_and_play_again(server: str, new_page: Any, screenshot: Any) -> None:
    """A series between two people on phones, in Greek: one resigns, the other offers a rematch, the first sees
    the offer and accepts it, and both pages move to the new table (the same seats), where the series score
    counts the first game."""
    phone = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}
    made = post(f"{server}/api/tables", {"name": "Άννα", "seed": 8, "clock": {"move": 60, "reserve": 60}})
    table = made["table"]
    joined = post(f"{server}/api/tables/{table}/join", {"name": "Νίκος"})
    pages = []
    for token in (made["token"], joined["token"]):
        page = new_page(**phone)
        page.goto(f"{server}/?pace=0")
        page.evaluate("([id, tok]) => { localStorage.setItem('diloti.token.' + id, tok);"
                      " localStorage.setItem('diloti.lang', 'el'); }", [table, token])
        page.goto(f"{server}/?pace=0&table={table}")
        page.wait_for_selector("#game")
        pages.append(page)
    anna, nikos = pages
    assert anna.inner_text("#resign-btn") == "Παραίτηση"
    anna.click("#resign-btn")
    anna.click("#confirm-resign")
    for page in pages:
        page.wait_for_selector("#end-again")
        assert "Σειρά:" in page.inner_text("#end-series")
    assert "Άννα: παραίτηση." in nikos.inner_text("#end-reason")
    assert nikos.inner_text("#end-again") == "Ξανά"
    screenshot(nikos, "23-phone-series-greek")
    nikos.click("#end-again")  # an offer: Anna's page shows it, and nothing moves until she accepts
    anna.wait_for_function("() => document.querySelector('#end-again').textContent === 'Αποδοχή ρεβάνς'")
    assert "Νίκος: πρόταση για ρεβάνς" in anna.inner_text("#rematch-offer")
    assert "Νίκος: πρόταση για ρεβάνς" in anna.inner_text("#end-offer")  # in the end dialog too
    nikos.wait_for_selector("#rematch-offer")
    assert "αναμονή για τους άλλους" in nikos.inner_text("#rematch-offer")
    screenshot(anna, "24-phone-rematch-offer-greek")
    anna.click("#end-again")
    for page in pages:  # both move to the rematch, each in their own seat
        page.wait_for_function(f"() => new URLSearchParams(location.search).get('table') !== '{table}'")
        page.wait_for_selector("#game")
    new = anna.evaluate("new URLSearchParams(location.search).get('table')")
    assert nikos.evaluate("new URLSearchParams(location.search).get('table')") == new
    assert anna.get_attribute("#game", "data-seat") == "0" and nikos.get_attribute("#game", "data-seat") == "1"
    with urllib.request.urlopen(f"{server}/api/tables/{new}", timeout=10) as r:
        s = json.loads(r.read())
    assert s["series"] == table and s["series_score"] == [0, 1] and s["clock"] == {"move": 60, "reserve": 60}
    for page in pages:
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
