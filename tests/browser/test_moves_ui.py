"""Choosing among several legal moves, the keyboard, typed moves, hints, escaped names.

The tables here are dealt from a fixed seed (the test server allows seeds) so that the
first position is known: with seed 60 seat 1 leads holding 2H 2S 4C 5S 6H 7C over a table
of 2D 3C 8H JC, and 2H on 2D fits three moves: a capture, a plain 4 and a group of 2s.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from diloti.core.moves import MoveKind
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options

pytestmark = [pytest.mark.browser, pytest.mark.timeout(60)]

SEED = 60
CHOICES = {"2H x 2D", "2H + 2D = 4", "2H + 2D = 2G"}


def test_the_seeded_position_is_as_described() -> None:
    # The engine's side of the claim in the module docstring (the server deals Game(2, options, seed, 0)).
    st = Game(2, Options(), SEED, 0).state
    assert st.turn == 1
    assert [str(c) for c in st.hands[1]] == ["2H", "2S", "4C", "5S", "6H", "7C"]
    assert [str(c) for c in st.table] == ["2D", "3C", "8H", "JC"]
    fits = defaultdict(set)
    for m in st.legal_moves():
        fits[(str(m.card), m.mask)].add(str(m))
    assert CHOICES in fits.values()
    assert {m.kind for m in st.legal_moves() if str(m) in CHOICES} == {MoveKind.CAPTURE, MoveKind.PLAIN, MoveKind.GROUP}


def open_seeded(page: Any, server: str, seats: list[dict[str, str]], name: str = "Eleni", seed: int = SEED,
                options: dict[str, Any] | None = None) -> str:
    """A table dealt from ``seed`` with me at seat 1; the page opens it with the seat's token."""
    resp = page.request.post(server + "/api/tables", data={
        "players": 2, "seats": seats, "seat": 1, "name": name, "seed": seed, "options": options or {}})
    assert resp.status == 201, resp.text()
    data = resp.json()
    page.goto(server + "/?pace=0")
    page.evaluate("([t, k]) => localStorage.setItem('diloti.token.' + t, k)", [data["table"], data["token"]])
    page.goto(f"{server}/?pace=0&table={data['table']}")
    page.wait_for_selector("#game, #waiting")
    table: str = data["table"]
    return table


def first_history_entry(page: Any) -> str:
    page.click("#history-btn")
    text: str = page.locator("#dlg[open] ol.history li").first.inner_text()
    page.click("#dlg-foot button")
    return text


EVIL = "<img src=x onerror=f()>"  # 23 characters: names are at most 24


def test_chooser_when_several_moves_fit_and_escaped_names(server: str, new_page: Any, ui: Any,
                                                           screenshot: Any) -> None:
    me = new_page()
    table = open_seeded(me, server, [{"kind": "human"}, {"kind": "human"}], name="Dimitra")
    me.wait_for_selector("#waiting")
    # The opponent joins through the invitation with a name full of markup.
    opp = new_page()
    opp.goto(f"{server}/?pace=0&join={table}")
    for page in (me, opp):
        # A function, so that Playwright defines f rather than calling what the expression returns.
        page.evaluate("() => { window.f = () => { window.__xss = 1; }; }")
    opp.fill("#join-name", EVIL)
    opp.click("#join button[data-seat='0']")
    ui.wait_status(me, ("turn",))
    assert EVIL in me.inner_text("#seats")
    assert me.locator("#seats img, #seats script").count() == 0
    assert ui.hand(me) == ["2H", "2S", "4C", "5S", "6H", "7C"]

    # Only cards with a legal move can be chosen; choosing 2H leaves only table cards it can use.
    me.click("#hand button[data-card='2H']")
    assert me.get_attribute("#hand button[data-card='2H']", "aria-pressed") == "true"
    enabled = me.eval_on_selector_all("#felt button:not([disabled])", "els => els.map(e => e.dataset.unit)")
    assert "c:2D" in enabled and "c:JC" not in enabled and "c:8H" not in enabled
    me.click("#felt button[data-unit='c:2D']")
    moves = me.eval_on_selector_all("#choices button[data-move]", "els => els.map(e => e.dataset.move)")
    assert set(moves) == CHOICES
    assert me.inner_text("#prompt") == "Which move?"
    labels = me.inner_text("#choices")
    assert "plain 4" in labels and "group of 2s" in labels
    screenshot(me, "11-chooser")
    me.click("#choices button[data-move='2H + 2D = 2G']")

    # Both players see the pile with its value, kind and owner.
    me.wait_for_selector("#felt .pile[data-owner='1']")
    assert me.inner_text("#felt .pile .badge") == "2 group of 2s · You"
    opp.wait_for_selector("#felt .pile[data-owner='1']")
    assert opp.inner_text("#felt .pile .badge") == "2 group of 2s · Dimitra"
    assert opp.inner_text("#lastmove") == "Dimitra: 2♥ + 2♦ = 2G"
    assert EVIL in opp.inner_text("#scorebar") or opp.inner_text("#turn") == "Your turn"
    screenshot(opp, "12-pile-opponent-view")
    for page in (me, opp):
        assert page.evaluate("window.__xss") is None
        assert page.locator("img").count() == 0


def test_keyboard_moves(server: str, new_page: Any, ui: Any) -> None:
    page = new_page()
    open_seeded(page, server, [{"kind": "bot", "level": "random"}, {"kind": "human"}])
    ui.wait_status(page, ("turn",))
    page.keyboard.press("1")  # the first hand card, 2H
    assert page.get_attribute("#hand button[data-card='2H']", "aria-pressed") == "true"
    page.keyboard.press("Escape")
    assert page.get_attribute("#hand button[data-card='2H']", "aria-pressed") == "false"
    page.keyboard.press("1")
    assert page.get_attribute("#felt button[data-unit='c:2D']", "data-key") == "a"
    page.keyboard.press("a")  # the first table card, 2D
    assert page.get_attribute("#felt button[data-unit='c:2D']", "aria-pressed") == "true"
    page.keyboard.press("Enter")  # several fit: Enter moves to the choices
    focused = page.evaluate("document.activeElement.dataset.move")
    assert focused in CHOICES
    page.keyboard.press("ArrowRight")
    chosen = page.evaluate("document.activeElement.dataset.move")
    assert chosen in CHOICES and chosen != focused
    page.keyboard.press("Enter")
    page.wait_for_function("() => Number(document.querySelector('#game').dataset.ply) >= 1")
    assert first_history_entry(page).endswith(chosen.replace("2H", "2♥").replace("2D", "2♦").replace(" x ", " × "))


def test_typed_moves(server: str, new_page: Any, ui: Any) -> None:
    page = new_page()
    open_seeded(page, server, [{"kind": "bot", "level": "random"}, {"kind": "human"}])
    ui.wait_status(page, ("turn",))
    # The notation box sits behind its control ("Type a move"); open, it takes the focus.
    assert not page.is_visible("#typed")
    page.click("#type-btn")
    assert page.evaluate("document.activeElement.id") == "typed"
    page.fill("#typed", "zz top")
    page.press("#typed", "Enter")
    assert page.inner_text("#msg") == "Cannot read that move: zz top"
    page.fill("#typed", "9C x 2D")
    page.press("#typed", "Enter")
    assert page.inner_text("#msg") == "Not a legal move now: 9C x 2D"
    assert ui.ply(page) == 0
    # Any case and spacing, as the engine's notation reader takes it.
    page.fill("#typed", "2h+2d=4")
    page.press("#typed", "Enter")
    page.wait_for_function("() => Number(document.querySelector('#game').dataset.ply) >= 1")
    assert first_history_entry(page) == "You: 2♥ + 2♦ = 4"


def test_hint_from_the_expert(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    page = new_page()
    open_seeded(page, server, [{"kind": "bot", "level": "random"}, {"kind": "human"}])
    ui.wait_status(page, ("turn",))
    page.click("#hint-btn")
    page.wait_for_function("() => document.querySelector('#hintline').textContent.startsWith('The expert suggests: ')")
    # The suggestion is selected: one press of its button plays it.
    moves = page.eval_on_selector_all("#choices button[data-move]", "els => els.map(e => e.dataset.move)")
    assert moves
    screenshot(page, "14-hint")
    page.click("#choices button[data-move]")
    page.wait_for_function("() => Number(document.querySelector('#game').dataset.ply) >= 1")


REDEAL_SEED = 813  # with the face-card redeal option seat 1 is dealt 7C JC JD JH JS QH


def test_face_card_redeal_question(server: str, new_page: Any, ui: Any) -> None:
    options = {"face_card_redeal": "first_deal"}
    st = Game(2, Options.from_dict(options), REDEAL_SEED, 0).state
    assert (st.turn, [str(m) for m in st.legal_moves()]) == (1, ["keep", "redeal"])
    page = new_page()
    open_seeded(page, server, [{"kind": "bot", "level": "random"}, {"kind": "human"}], seed=REDEAL_SEED,
                options=options)
    ui.wait_status(page, ("turn",))
    assert page.get_attribute("#game", "data-phase") == "decide"
    assert ui.hand(page) == ["7C", "JC", "JD", "JH", "JS", "QH"]
    assert page.inner_text("#action .prompt") == "You were dealt 5 or more face cards."
    assert page.locator("#hand button:not([disabled])").count() == 0
    page.click("#action button[data-move='redeal']")
    page.wait_for_function("() => document.querySelector('#game').dataset.phase !== 'decide'")
    assert ui.hand(page) != ["7C", "JC", "JD", "JH", "JS", "QH"]
    assert first_history_entry(page) == "You: redeal"


XERI_SEED = 1  # seat 1 takes 5C 5H with 10H, then seat 0 clears the table with 7D x 3S 4H


def click_move(page: Any, card: str, table: list[str], move: str) -> None:
    page.click(f"#hand button[data-card='{card}']")
    for c in table:
        page.click(f"#felt button[data-unit='c:{c}']")
    ply = int(page.get_attribute("#game", "data-ply"))
    page.click(f"#choices button[data-move='{move}']")
    page.wait_for_function(f"() => Number(document.querySelector('#game').dataset.ply) > {ply}")


def test_xeri_is_marked(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    st = Game(2, Options(), XERI_SEED, 0).state
    st.play("10H x 5C 5H")
    st.play("7D x 3S 4H")
    assert st.sweeps == [1, 0] and not st.table
    me = new_page()
    table = open_seeded(me, server, [{"kind": "human"}, {"kind": "human"}], seed=XERI_SEED)
    opp = new_page()
    opp.goto(f"{server}/?pace=0&join={table}")
    opp.fill("#join-name", "Opp")
    opp.click("#join button[data-seat='0']")
    ui.wait_status(me, ("turn",))
    click_move(me, "10H", ["5C", "5H"], "10H x 5C 5H")
    assert me.locator("#xeri").count() == 0  # a capture that leaves cards is no xeri
    ui.wait_status(opp, ("turn",))
    click_move(opp, "7D", ["3S", "4H"], "7D x 3S 4H")
    for page, side in ((opp, "0"), (me, "0")):
        page.wait_for_selector("#xeri")
        assert page.inner_text("#xeri") == "Xeri!"
        assert page.get_attribute(f"#scorebar .score[data-side='{side}'] .xeris", "data-xeri") == "1"
        assert page.inner_text("#felt .empty") == "The table is empty"
        assert page.locator("#felt [data-unit]").count() == 0
    assert opp.inner_text("#scorebar .score[data-side='0']").startswith("Us 0")
    screenshot(opp, "13-xeri")
