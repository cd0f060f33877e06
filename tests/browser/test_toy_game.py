"""A game the page has never heard of: *Pairs*, the toy game of tests/toy_game.py, registered in the server only.

The page has no script, no words and no rules of its own for it: it draws it from what ``/api/info`` and the state
say (its seats, its options with the server's words, its target, a table of loose cards, no declarations). It is
offered in the form, a table of it waits for a second player (the join page names it), and a whole game against
the computer is played by clicking, on a phone, to the round's breakdown, the end of the game and the replay.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from browser.conftest import UI

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def open_form(page: Any, base: str, name: str) -> None:
    page.goto(base + "/?pace=0")
    page.wait_for_selector("#new-table #seat-1")
    UI.set_name(page, name)
    page.check("input[name=game][value='pairs']")
    page.wait_for_selector("#opt-no_sweeps", state="attached")


def test_the_toy_game_is_offered_and_waits_for_a_second_player(toy_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(toy_server + "/?pace=0")
    page.wait_for_selector("#new-table #seat-1")
    games = page.eval_on_selector_all("#game-choice label", "ls => ls.map(l => l.textContent.trim())")
    assert games == ["Diloti", "Xeri", "Kontsina", "Pairs"]  # the server's title: the page has no name for it
    open_form(page, toy_server, "Anna")
    # Its seats, its target (from its defaults and bounds) and its option, in the server's words.
    assert page.eval_on_selector_all("input[name=players]", "els => els.map(e => e.value)") == ["2"]
    # The server's bound for a table (seating.table_ranges: ten games of its default, under its own maximum).
    assert page.input_value("#target") == "11" and page.get_attribute("#target", "max") == "110"
    assert not page.is_visible("#hands")
    label = page.text_content("label:has(#opt-no_sweeps)") or ""  # in the closed rule options
    assert "a capture that clears the table scores nothing extra" in label
    assert page.is_visible("#casual-note") and "Pairs" in page.inner_text("#casual-note")
    assert not page.is_visible("#rated") and not page.is_visible("#quick-play")
    page.select_option("#seat-1", "human")
    page.click("#create")
    page.wait_for_selector("#waiting")
    assert page.inner_text("#wait-game") == "Pairs"
    link = page.input_value("#invite-link")
    guest = new_page()
    guest.goto(link.replace("/?", "/?pace=0&"))
    guest.wait_for_selector("#join")
    assert guest.inner_text("#join-game") == "Pairs · 2 players"
    # The lobby lists the open table under the game's name.
    guest.goto(toy_server + "/?pace=0")
    guest.wait_for_selector("#open-tables li[data-game='pairs']")
    assert guest.inner_text("#open-tables li[data-game='pairs'] span").startswith("Pairs · 2 players")


def test_a_whole_game_of_the_toy_game_by_clicking_on_a_phone(toy_server: str, new_page: Any, ui: Any,
                                                             screenshot: Any) -> None:
    page = new_page(**PHONE)
    open_form(page, toy_server, "Anna")
    page.fill("#target", "40")  # two hands, mostly: a hand's 52 cards rarely give one side 40
    ui.open_rule_options(page)
    page.check("#opt-no_sweeps")
    page.select_option("#seat-1", "heuristic")
    page.click("#create")
    page.wait_for_selector("#game")
    assert page.inner_text("#game-name") == "Pairs"
    assert "to 40" in page.inner_text("#scorebar")
    assert page.locator("#felt .xeripile").count() == 0  # loose cards, each its own button
    page.click("#rules-btn")  # no summary of its rules on the page: it says so
    page.wait_for_selector("#dlg[open] #rules-none")
    assert "Pairs" in page.inner_text("#dlg-title") and "Pairs" in page.inner_text("#rules-none")
    page.click("#dlg-foot .btn")
    rng = random.Random(5)
    moves = rounds = 0
    while True:
        st = ui.wait_status(page, ("turn", "dialog"), timeout=30)
        if st == "dialog:game-over":
            break
        if st == "dialog:round-over":
            rows = page.eval_on_selector_all("#dlg table.breakdown tr", "rs => rs.map(r => r.children[0].textContent)")
            # Its score's fields as the server sends them (the page has words for "cards", not for "sweeps"), then
            # the hand's total and the game's.
            assert rows[1:] == ["Cards", "Sweeps", "Round", "Game"], rows
            rounds += 1
            ui.continue_round(page)
            continue
        assert st == "turn", st
        if moves == 3:
            screenshot(page, "40-toy-game-phone")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        ui.play_turn(page, rng)
        moves += 1
        assert moves < 300
    assert moves and moves % 24 == 0  # 2 players: 24 cards each a hand
    assert rounds or moves == 24  # every hand but the last closed with its breakdown
    # Every move was said to screen readers, in the words of its kind.
    said = page.text_content("#announcer") or ""
    assert "laid" in said or "took" in said
    rows = page.eval_on_selector_all("#dlg table.breakdown tr",
                                     "rs => rs.map(r => [...r.children].map(c => c.textContent))")
    assert [r[1:] for r in rows if r[0] == "Sweeps"] == [["0", "0"]]  # the option turned them off
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#end-replay")
    page.wait_for_selector("#replay")
    assert page.inner_text("#replay h2").startswith("Pairs · Replay")
