"""A whole round against the computer, played by clicking the rendered cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_create_table_and_play_a_round_by_clicking(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    page = new_page()
    page.goto(server + "/?pace=0")
    page.wait_for_selector("#new-table")
    screenshot(page, "01-new-table", full=True)
    ui.create_table(page, server, "Anna", ["random"])
    # Against a computer the game starts at once.
    page.wait_for_selector("#game")
    assert page.inner_text("#scorebar").count("0") >= 2
    rng = random.Random(4)
    moves = 0
    shot_taken = False
    while True:
        st = ui.wait_status(page, ("turn", "dialog"))
        if st.startswith("dialog"):
            break
        if moves == 6 and not shot_taken:
            screenshot(page, "02-table")
            shot_taken = True
        ui.play_turn(page, rng)
        moves += 1
    assert st == "dialog:round-over", st
    # 2 players: 48 cards reach the hands, 24 each.
    assert moves == 24
    rows = page.eval_on_selector_all(
        "#dlg table.breakdown tr", "rs => rs.map(r => [...r.children].map(c => c.textContent))")
    head, *body = rows
    assert head[1:] == ["Us", "Them"]
    labels = [r[0] for r in body]
    assert labels == ["Cards", "Most cards", "Aces", "10♦", "2♣", "Xeri", "Round", "Game"]
    cards = [int(x) for x in body[0][1:]]
    assert sum(cards) == 52
    aces = [int(x) for x in body[2][1:]]
    assert sum(aces) == 4
    totals = [int(x) for x in body[6][1:]]
    game = [int(x) for x in body[7][1:]]
    assert totals == game  # the first round: the game totals are the round's
    xeris = [int(x.split()[0]) for x in body[5][1:]]
    most = 4 if cards[0] != cards[1] else 0
    assert sum(totals) == most + 4 + 2 + 1 + 10 * sum(xeris)  # RULES.md: 11 a round plus xeris
    screenshot(page, "03-round-summary")
    page.click("#round-continue")
    # The score bar shows the totals; the score sheet lists the round.
    ui.wait_status(page, ("turn", "other"))
    assert page.inner_text("#scorebar .score.side0 .pts") == str(game[0])
    page.click("#sheet-btn")
    page.wait_for_selector("#dlg[open] #sheet tr[data-round='1']")
    page.click("#dlg-foot button")
    # The move history holds the whole first round: 48 moves.
    page.click("#history-btn")
    page.wait_for_selector("#dlg[open] ol.history")
    assert page.locator("#dlg ol.history").first.locator("li").count() == 48
    page.click("#dlg-foot button")


def test_rule_options_and_target_reach_the_table(server: str, new_page: Any, ui: Any) -> None:
    page = new_page()
    page.goto(server + "/?pace=0")
    page.wait_for_selector("#new-table #seat-1")
    ui.set_name(page, "Giorgos")
    page.fill("#target", "121")
    ui.open_rule_options(page)
    # Every option of RULES.md is offered.
    for name in ("dealer_sees_bottom", "three_faces_stay", "any_rank_redeal", "forced_capture", "liberal_groups",
                 "liberal_raise", "liberal_capture", "soy", "self_raise", "no_xeri_last_card", "xeri_first_card"):
        assert page.locator(f"#opt-{name}[type=checkbox]").count() == 1, name
    page.check("#opt-forced_capture")
    page.check("#opt-soy")
    page.select_option("#opt-face_card_redeal", "any_deal")
    page.check("#private")
    page.click("#create")
    page.wait_for_selector("#game")
    table = page.evaluate("new URLSearchParams(location.search).get('table')")
    info = page.request.get(f"{server}/api/tables/{table}").json()
    opts = info["options"]
    assert opts["target"] == 121 and opts["forced_capture"] and opts["soy"] and not opts["self_raise"]
    assert opts["face_card_redeal"] == "any_deal"
    assert info["private"] is True
    assert "to 121" in page.inner_text("#scorebar")


def test_moves_are_shown_one_at_a_time(server: str, new_page: Any, ui: Any) -> None:
    # With the display pace on (as for people), my move stays on screen before the computer's.
    page = new_page()
    page.goto(server + "/?pace=1200")
    page.wait_for_selector("#new-table #seat-1")
    ui.set_name(page, "Petros")
    page.select_option("#seat-1", "random")
    page.click("#create")
    page.wait_for_selector("#game")
    rng = random.Random(1)
    for _ in range(2):
        ui.wait_status(page, ("turn",))
        ui.play_turn(page, rng)
        page.wait_for_function("() => document.querySelector('#lastmove').textContent.startsWith('You: ')")
        page.wait_for_function("() => document.querySelector('#lastmove').textContent.startsWith('Computer: ')")
