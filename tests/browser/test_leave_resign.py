"""Leaving, handing an absent player's seat to the computer, taking it back, and resigning, in real
browsers: a desktop player in English and a phone player in Greek; a newcomer takes a left seat from
the invitation link; the end dialog and the record say who resigned."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def away(page: Any, seat: int) -> str:
    value: str = page.get_attribute(f"#seats .seatbox[data-seat='{seat}']", "data-away")
    return value


def test_hand_over_take_back_leave_join_and_resign(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    # A table whose absent players may be handed over at once (grace 0), created by Anna.
    t = post(f"{server}/api/tables", {"name": "Anna", "grace": 0, "seed": 21, "away_level": "greedy"})
    table = t["table"]
    anna = new_page()
    anna.goto(f"{server}/?pace=0")
    anna.evaluate("([id, tok]) => localStorage.setItem('diloti.token.' + id, tok)", [table, t["token"]])
    anna.goto(f"{server}/?pace=0&table={table}")
    anna.wait_for_selector("#waiting")

    # Nikos joins on a phone, in Greek.
    nikos = new_page(**PHONE)
    nikos.goto(f"{server}/?pace=0&join={table}")
    nikos.click("#lang-btn")
    nikos.wait_for_selector("#join button[data-seat='1']")
    nikos.fill("#join-name", "Νίκος")
    nikos.click("#join button[data-seat='1']")
    for page in (anna, nikos):
        page.wait_for_selector("#game")
    assert "Αποχώρηση" in nikos.inner_text("#leave-btn") and "Παραίτηση" in nikos.inner_text("#resign-btn")

    # Nikos's phone goes away: Anna hands his seat to the computer, which plays his turns.
    nikos.goto("about:blank")
    # (Without a clock the server also hands it over by itself at his turn once the grace is over: whichever
    # comes first, the seat goes to the computer.)
    anna.wait_for_selector("#seats .handover-btn[data-seat='1'], #seats .seatbox[data-seat='1'][data-away='1']")
    anna.evaluate("() => { const b = document.querySelector(\"#seats .handover-btn[data-seat='1']\");"
                  " if (b) b.click(); }")
    anna.wait_for_selector("#seats .seatbox[data-seat='1'][data-away='1']")
    assert "the computer plays" in anna.inner_text("#seats .seatbox[data-seat='1']")
    rng = random.Random(5)
    start = ui.ply(anna)
    for _ in range(2):
        ui.wait_status(anna, ("turn",))
        ui.play_turn(anna, rng)
    anna.wait_for_function(f"() => Number(document.querySelector('#game').dataset.ply) >= {start + 3}")
    screenshot(anna, "20-away-seat")

    # Nikos comes back: the seat is his again, for everyone.
    nikos.goto(f"{server}/?pace=0&table={table}")
    nikos.wait_for_selector("#game")
    anna.wait_for_selector("#seats .seatbox[data-seat='1'][data-away='0']")
    assert anna.locator("#seats .handover-btn").count() == 0

    # Nikos leaves (confirmed in a dialog): back to the start page, his seat open to the invitation link.
    nikos.click("#leave-btn")
    nikos.wait_for_selector("#dlg[open] #confirm-leave")
    screenshot(nikos, "21-leave-confirm-phone-el")
    nikos.click("#confirm-leave")
    nikos.wait_for_selector("#new-table")
    assert nikos.evaluate(f"() => localStorage.getItem('diloti.token.{table}')") is None
    anna.wait_for_selector("#seats .seatbox[data-seat='1'][data-away='1']")
    assert "until someone joins" in anna.inner_text("#seats .seatbox[data-seat='1']")

    # Eleni takes the left seat from the invitation link while the game goes on.
    eleni = new_page()
    eleni.goto(f"{server}/?pace=0&join={table}")
    eleni.wait_for_selector("#join button[data-seat='1']")
    eleni.fill("#join-name", "Eleni")
    eleni.click("#join button[data-seat='1']")
    eleni.wait_for_selector("#game")
    anna.wait_for_selector("#seats .seatbox[data-seat='1'][data-away='0']")
    assert "Eleni" in anna.inner_text("#seats")

    # Anna resigns (confirmed): Eleni's side wins, and everyone is told who resigned.
    anna.click("#resign-btn")
    anna.click("#dlg[open] #confirm-resign")
    for page, words in ((anna, "You lost."), (eleni, "You won")):
        page.wait_for_selector("#dlg[open] #end-reason")
        assert words in page.inner_text("#end-headline")
    assert eleni.inner_text("#end-reason") == "Anna resigned."
    screenshot(eleni, "22-resigned")
    anna.click("#dlg-foot button.primary")
    assert anna.locator("#resign-btn").count() == 0 and anna.locator("#leave-btn").count() == 0
    with urllib.request.urlopen(f"{server}/api/tables/{table}/record", timeout=10) as r:
        text = r.read().decode()
    assert '[Termination "seat 0 resigned"]' in text and '[Result "0-1"]' in text
    assert "computer (greedy) for the absent player" in text
