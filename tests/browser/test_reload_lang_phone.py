"""Reconnecting after a reload, the Greek interface, a phone-sized screen, four players."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_reload_in_mid_game_reconnects_to_the_seat(server: str, new_page: Any, ui: Any) -> None:
    page = new_page()
    table = ui.create_table(page, server, "Eleni", ["random"])
    rng = random.Random(2)
    for _ in range(3):
        ui.wait_status(page, ("turn",))
        ui.play_turn(page, rng)
    ui.wait_status(page, ("turn",))
    before = (ui.ply(page), ui.hand(page), page.get_attribute("#game", "data-seat"),
              page.inner_text("#felt"), page.inner_text("#scorebar"))
    page.reload()
    page.wait_for_selector("#game")
    ui.wait_status(page, ("turn",))
    after = (ui.ply(page), ui.hand(page), page.get_attribute("#game", "data-seat"),
             page.inner_text("#felt"), page.inner_text("#scorebar"))
    assert after == before
    assert page.evaluate("new URLSearchParams(location.search).get('table')") == table
    # This round's moves are still in the history after the reload.
    page.click("#history-btn")
    assert page.locator("#dlg[open] ol.history li").count() == before[0]
    page.click("#dlg-foot button")
    # And the seat still plays.
    ui.play_turn(page, rng)
    # A second tab on the same seat sees the same position.
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_selector("#game")
    other.wait_for_function(f"() => Number(document.querySelector('#game').dataset.ply) >= {ui.ply(page)}")
    assert other.get_attribute("#game", "data-seat") == before[2]
    other.close()


def test_greek_interface(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    page = new_page()
    page.goto(server + "/?pace=0")
    page.wait_for_selector("#new-table")
    page.click("#lang-btn")
    assert page.inner_text("#new-table h2") == "Νέο τραπέζι"
    assert page.inner_text("#lang-btn") == "English"
    assert page.evaluate("document.documentElement.lang") == "el"
    ui.set_name(page, "Ελένη")
    page.select_option("#seat-1", "random")
    page.click("#create")
    page.wait_for_selector("#game")
    rng = random.Random(8)
    for _ in range(4):
        ui.wait_status(page, ("turn",))
        ui.play_turn(page, rng)
    ui.wait_status(page, ("turn",))
    assert page.inner_text("#turn") == "Σειρά σας"
    assert "Εμείς" in page.inner_text("#scorebar")
    assert "Γύρος 1" in page.inner_text("#scorebar")
    assert page.inner_text("#history-btn") == "Κινήσεις"
    screenshot(page, "07-greek")
    page.click("#rules-btn")
    assert page.inner_text("#dlg-title") == "Κανόνες"
    assert "Ξερή" in page.inner_text("#dlg-body")
    page.click("#dlg-foot button")
    # The choice survives a reload.
    page.reload()
    page.wait_for_selector("#game")
    assert page.inner_text("#history-btn") == "Κινήσεις"
    # And switches back.
    page.click("#lang-btn")
    assert page.inner_text("#history-btn") == "Moves"


def test_phone_sized_viewport(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    page = new_page(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    page.goto(server + "/?pace=0")
    page.wait_for_selector("#new-table")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    screenshot(page, "08-phone-new-table", full=True)
    ui.create_table(page, server, "Kostas", ["random"])
    rng = random.Random(5)
    for i in range(8):
        ui.wait_status(page, ("turn",))
        if i == 5:
            screenshot(page, "09-phone-table", full=True)
        # Nothing sticks out sideways, and the whole hand is on screen, large enough to tap.
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        boxes = [page.locator("#hand .card").nth(k).bounding_box() for k in range(page.locator("#hand .card").count())]
        for b in boxes:
            assert b["x"] >= 0 and b["x"] + b["width"] <= 375, b
            assert b["width"] >= 44 and b["height"] >= 60, b
        for el in page.locator("#felt .card, #felt .pile").all():
            b = el.bounding_box()
            assert b["x"] >= 0 and b["x"] + b["width"] <= 375, b
        ui.play_turn(page, rng)


def test_four_players_with_partner(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    page = new_page()
    ui.create_table(page, server, "Maria", ["random", "greedy", "random"], players=4)
    page.wait_for_selector("#game")
    boxes = page.locator("#seats .seatbox")
    assert boxes.count() == 4
    ui.check_sitting(page, 1000)
    assert "partner" in page.inner_text("#seats .seatbox[data-seat='2']")
    assert "partner" not in page.inner_text("#seats .seatbox[data-seat='1']")
    assert "You" in page.inner_text("#seats .seatbox[data-seat='0']")
    rng = random.Random(3)
    moves = 0
    while True:
        st = ui.wait_status(page, ("turn", "dialog"))
        if st.startswith("dialog"):
            break
        if moves == 4:
            screenshot(page, "10-four-players")
        ui.play_turn(page, rng)
        moves += 1
    assert st == "dialog:round-over"
    assert moves == 12  # 4 players: 48 cards dealt, 12 each


def test_a_stale_token_leads_back_to_the_invitation(server: str, new_page: Any) -> None:
    page = new_page()
    resp = page.request.post(server + "/api/tables", data={"name": "Host", "seats": [{"kind": "human"}] * 2})
    assert resp.status == 201
    table = resp.json()["table"]
    page.goto(server + "/?pace=0")
    page.evaluate("t => localStorage.setItem('diloti.token.' + t, 'not-a-token')", table)
    page.goto(f"{server}/?pace=0&table={table}")
    page.wait_for_selector("#view .error")
    assert "token" in page.inner_text("#view .error")
    page.click(f"a[href='/?join={table}']")
    page.wait_for_selector("#join button[data-seat='1']")
