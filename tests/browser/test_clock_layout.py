"""Turn clocks, the table laid out as players sit, hint marks and leaving the waiting room, in a real
browser: English and Greek, phone and desktop."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}


def post(server: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(server + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def greek_page(new_page: Any, server: str, **ctx: Any) -> Any:
    page = new_page(**ctx)
    page.goto(server + "/?pace=0")
    page.evaluate("localStorage.setItem('diloti.lang', 'el')")
    return page


def open_seat(page: Any, server: str, table: str, token: str, until: str = "#game") -> None:
    page.evaluate(f"localStorage.setItem('diloti.token.{table}', {json.dumps(token)})")
    page.goto(f"{server}/?pace=0&table={table}")
    page.wait_for_selector(until)


def test_the_clock_runs_out_in_greek_on_a_phone_and_the_player_takes_the_seat_back(
        server: str, new_page: Any, screenshot: Any) -> None:
    # A 5-second clock with no reserve (the shortest the server allows): the test waits it out for real.
    made = post(server, "/api/tables", {"name": "Άννα", "seed": 11, "clock": {"move": 5, "reserve": 0},
                                        "away_level": "random"})
    table = made["table"]
    pages = {s: greek_page(new_page, server, **PHONE) for s in (0, 1)}
    # The first player waits at the table and the second sits from the join page, so that the five seconds,
    # which start with the game, are not spent opening pages (a slow machine took more than five to open both).
    open_seat(pages[0], server, table, made["token"], until="#waiting")
    pages[1].goto(f"{server}/?pace=0&join={table}")
    pages[1].fill("#join-name", "Νίκος")
    pages[1].click("#join button[data-seat='1']")
    for page in pages.values():
        page.wait_for_selector("#game")
    mover = int(pages[1].get_attribute("#game", "data-turn"))
    late, other = pages[mover], pages[1 - mover]
    # Both see both clocks; the mover's runs (its last moment reads "απόθεμα 0:00": no reserve left).
    for page in pages.values():
        page.wait_for_selector(f"#seats [data-clock-seat='{mover}'].running")
        assert re.fullmatch(r"\+0:00", page.inner_text(f"#seats [data-clock-seat='{1 - mover}']"))
        assert re.fullmatch(r"(απόθεμα )?0:0[0-5]", page.inner_text(f"#seats [data-clock-seat='{mover}']"))
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
    screenshot(late, "20-phone-clock-greek")
    # Nobody moves: five seconds later the computer plays for the late player, who is told so in Greek.
    late.wait_for_selector("#away-note #back-btn", timeout=15_000)
    assert late.inner_text("#back-btn") == "Επέστρεψα"
    assert "Τελείωσε ο χρόνος σας" in late.inner_text("#away-note")
    other.wait_for_selector(f"#seats .seatbox[data-seat='{mover}'][data-away='1']")
    assert "τέλος χρόνου" in other.inner_text(f"#seats .seatbox[data-seat='{mover}']")
    other.wait_for_function("() => Number(document.querySelector('#game').dataset.ply) >= 1")
    assert other.inner_text(f"#seats [data-seat-last='{mover}']").strip()  # the computer's move, shown at the seat
    screenshot(late, "21-phone-timed-out-greek")
    late.click("#back-btn")
    late.wait_for_selector("#away-note", state="detached")
    other.wait_for_selector(f"#seats .seatbox[data-seat='{mover}'][data-away='0']")


def test_a_new_table_chooses_its_clock_and_the_four_seats_sit_around_it_on_a_phone_in_greek(
        server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    page = greek_page(new_page, server, **PHONE)
    page.goto(server + "/?pace=0")
    page.wait_for_selector("#new-table #clock")
    assert "Χωρίς χρόνο" in page.inner_text("#clock")
    ui.set_name(page, "Μαρία")
    page.check("input[name=players][value='4']")
    page.wait_for_selector("#seat-3")
    for i in (1, 2, 3):
        page.select_option(f"#seat-{i}", "random")
    page.select_option("#clock", "30+120")
    page.click("#create")
    page.wait_for_selector("#game")
    table = page.evaluate("new URLSearchParams(location.search).get('table')")
    with urllib.request.urlopen(f"{server}/api/tables/{table}", timeout=10) as r:
        assert json.loads(r.read())["clock"] == {"move": 30, "reserve": 120}
    ui.check_sitting(page, 375)
    assert "συμπαίκτης" in page.inner_text("#seats .seatbox[data-seat='2']")
    # Only my own clock runs: the computers play without one.
    page.wait_for_selector("#seats [data-clock-seat='0'].running")
    assert page.locator("#seats .clock.running").count() == 1
    # Every seat's last move stays at that seat.
    page.wait_for_function("() => document.querySelector('#game').dataset.turn === '0'")
    screenshot(page, "22-phone-four-seats-greek", full=True)


def test_a_hint_marks_the_move_it_suggests(server: str, new_page: Any, ui: Any) -> None:
    page = new_page()
    ui.create_table(page, server, "Eleni", ["greedy"])
    ui.wait_status(page, ("turn",))
    page.click("#hint-btn")
    page.wait_for_selector("#hand .card.hinted")
    assert page.locator("#hand .card.hinted").count() == 1
    hinted = page.get_attribute("#hand .card.hinted", "data-card")
    assert page.get_attribute("#hand .card.selected", "data-card") == hinted  # selected too: one press plays it
    assert "The expert suggests" in page.inner_text("#hintline")


def test_leaving_the_waiting_room(server: str, new_page: Any, ui: Any) -> None:
    page = new_page()
    table = ui.create_table(page, server, "Eleni", ["human"])
    page.wait_for_selector("#waiting #leave-btn")
    page.click("#leave-btn")
    page.click("#confirm-leave")
    page.wait_for_selector("#new-table")
    with urllib.request.urlopen(f"{server}/api/tables/{table}", timeout=10) as r:
        assert json.loads(r.read())["free"] == [0, 1]
