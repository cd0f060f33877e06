"""Two browser contexts play a 2-player game against each other to the end."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def test_two_browsers_play_to_the_end(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    anna = new_page()
    table = ui.create_table(anna, server, "Anna", ["human"], target=1)
    # Not full yet: the waiting room shows the invitation link and the seats.
    anna.wait_for_selector("#waiting")
    link = anna.input_value("#invite-link")
    assert link == f"{server}/?join={table}"
    assert "Anna" in anna.inner_text("#waiting .seatlist")
    screenshot(anna, "04-waiting-room")

    # The start page of someone else lists the open table.
    visitor = new_page()
    visitor.goto(server + "/?pace=0")
    visitor.wait_for_selector(f"#open-tables a[href='/?join={table}']")
    assert "Anna" in visitor.inner_text("#open-tables")

    # The second player follows the link in another context (own storage, own seat).
    nikos = new_page()
    nikos.goto(link.replace("?join=", "?pace=0&join="))
    nikos.wait_for_selector("#join button[data-seat='1']")
    nikos.fill("#join-name", "Νίκος")
    nikos.click("#join button[data-seat='1']")
    for page in (anna, nikos):
        page.wait_for_selector("#game")
    # Each sees the other's name on the seat box.
    assert "Νίκος" in anna.inner_text("#seats")
    assert "Anna" in nikos.inner_text("#seats")

    rng = random.Random(11)
    done: set[int] = set()
    moves = 0
    deadline = time.monotonic() + 150
    pages = (anna, nikos)
    while len(done) < 2:
        assert time.monotonic() < deadline, "the game did not end in time"
        progressed = False
        for i, page in enumerate(pages):
            if i in done:
                continue
            st = ui.status(page)
            if st == "dialog:game-over":
                done.add(i)
            elif st == "dialog:round-over":
                ui.continue_round(page)
            elif st == "turn":
                # Only one of the two may be to move at a time.
                assert ui.status(pages[1 - i]) != "turn"
                ui.play_turn(page, rng)
                moves += 1
                progressed = True
        if not progressed:
            anna.wait_for_timeout(30)
    assert moves >= 48  # at least one full round

    headlines = {anna.inner_text("#end-headline"), nikos.inner_text("#end-headline")}
    assert headlines == {"You won!", "You lost."}
    screenshot(anna, "05-game-over")

    # The record downloads once the game is over.
    href = anna.get_attribute("#end-download", "href")
    resp = anna.request.get(server + href)
    assert resp.status == 200
    assert "attachment" in resp.headers["content-disposition"]
    assert len(resp.text()) > 100

    # The replay viewer steps through the finished game.
    anna.click("#end-replay")
    anna.wait_for_selector("#replay #replay-step")
    assert anna.inner_text("#replay-move") == "Start of the round"
    assert anna.locator(".replay-hand").count() == 2
    assert anna.locator(".replay-hand").nth(0).locator(".card").count() == 6
    anna.click("#replay-next")
    first = anna.inner_text("#replay-move")
    assert ":" in first
    anna.keyboard.press("ArrowRight")
    assert anna.inner_text("#replay-move") != first
    for _ in range(18):
        anna.keyboard.press("ArrowRight")
    assert anna.inner_text("#replay-step") == "Move 20 of 48"
    screenshot(anna, "06-replay", full=True)
    anna.click("#replay-last")
    anna.wait_for_selector("#replay table.breakdown")

    # The start page lists the finished game with a link to its replay.
    anna.goto(server + "/")
    anna.wait_for_selector(f"#finished-games a[href='/?replay={table}']")
