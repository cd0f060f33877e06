"""Xeri and Kontsina in the page: the form chooses the game, the pile and the ring are drawn for it, whole hands
are played by clicking against the computer and between people, in Greek on a phone and in English on a
desktop, with a reload in the middle, the end of the game, the score sheet and the replay."""

from __future__ import annotations

import random
from typing import Any

import pytest

from browser.conftest import UI

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}


def choose_game(page: Any, base: str, name: str, game: str, players: int = 2) -> None:
    page.goto(base + "/?pace=0")
    page.wait_for_selector("#new-table #seat-1")
    UI.set_name(page, name)
    page.check(f"input[name=game][value='{game}']")
    if players != 2:
        page.check(f"input[name=players][value='{players}']")
        page.wait_for_selector(f"#seat-{players - 1}")


def play_to_a_dialog(page: Any, ui: Any, rng: random.Random, limit: int = 200) -> tuple[str, int]:
    """Click moves until a dialog opens (the hand's or the game's end); returns it and the moves made."""
    moves = 0
    while True:
        st = ui.wait_status(page, ("turn", "dialog"), timeout=30)
        if st.startswith("dialog"):
            return st, moves
        ui.play_turn(page, rng)
        moves += 1
        assert moves < limit


def test_xeri_against_the_computer_in_greek_on_a_phone(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    page = new_page(**PHONE)
    page.goto(server + "/?pace=0")
    page.evaluate("localStorage.setItem('diloti.lang', 'el')")
    choose_game(page, server, "Ελένη", "xeri")
    assert page.is_visible("#hands") and not page.is_visible("#target")  # a game of hands won
    assert page.is_visible("#casual-note") and not page.is_visible("#rated") and not page.is_visible("#quick-play")
    page.fill("#hands", "1")
    page.select_option("#seat-1", "heuristic")
    screenshot(page, "30-new-xeri-phone", full=True)
    page.click("#create")
    page.wait_for_selector("#game")
    assert page.inner_text("#game-name") == "Ξερή"
    assert "1 γύρος" in page.inner_text("#scorebar")
    rng = random.Random(7)
    moves = 0
    reloaded = False
    pile_seen = False
    while True:
        st = ui.wait_status(page, ("turn", "dialog"), timeout=30)
        if st == "dialog:game-over":
            break
        if st == "dialog:round-over":  # a drawn hand: another is played (and the game's end may follow at once)
            ui.continue_round(page)
            continue
        assert st == "turn", st
        if page.locator("#felt .xeripile").count():
            pile_seen = True
            label = page.get_attribute("#felt .xeripile", "aria-label")
            assert "στοίβα" in label
        if moves >= 5 and pile_seen and not reloaded:
            # Reconnecting: the page comes back to the same seat and position.
            before = (ui.ply(page), ui.hand(page))
            screenshot(page, "31-xeri-phone")
            page.reload()
            page.wait_for_selector("#game")
            ui.wait_status(page, ("turn",))
            assert (ui.ply(page), ui.hand(page)) == before
            reloaded = True
        # In Xeri one tap plays: a card has one move (it takes the pile, or is laid on it).
        cards = page.eval_on_selector_all("#hand button.card:not([disabled])", "els => els.map(e => e.dataset.card)")
        assert len(cards) == len(ui.hand(page)), "in Xeri every card in hand can be played"
        ply = ui.ply(page)
        page.click(f"#hand button[data-card='{rng.choice(cards)}']")
        page.wait_for_function(f"() => Number(document.querySelector('#game').dataset.ply) > {ply}")
        moves += 1
    assert pile_seen and reloaded and moves and moves % 24 == 0  # 2 players: 24 cards each a hand
    rows = page.eval_on_selector_all("#dlg table.breakdown tr",
                                     "rs => rs.map(r => [...r.children].map(c => c.textContent))")
    head, *body = rows
    assert head[1:] == ["Εμείς", "Αυτοί"]
    assert [r[0] for r in body][:6] == ["Φύλλα", "Τα περισσότερα", "Α, Ρ, Ν, Β, 10", "10♦", "2♣", "Ξερές"]
    cards = [int(x) for x in body[0][1:]]
    honours = [int(x) for x in body[2][1:]]
    assert sum(cards) == 52 and sum(honours) == 20  # RULES-XERI.md section 8
    assert page.is_visible("#end-hands")
    screenshot(page, "32-xeri-game-over-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.click("#end-replay")
    page.wait_for_selector("#replay")
    assert page.inner_text("#replay h2").startswith("Ξερή")


def test_kontsina_for_three_two_people_and_the_computer(server: str, new_page: Any, ui: Any,
                                                        screenshot: Any) -> None:
    host = new_page()
    choose_game(host, server, "Anna", "kontsina", players=3)
    assert host.inner_text("label:has(input[name=players][value='3'])").strip() == "3 players (each alone)"
    host.select_option("#seat-1", "human")
    host.select_option("#seat-2", "greedy")
    host.fill("#target", "1")
    ui.open_rule_options(host)
    host.check("#opt-forced_capture")
    host.click("#create")
    host.wait_for_selector("#waiting")
    assert host.inner_text("#wait-game") == "Kontsina"
    link = host.input_value("#invite-link")
    guest = new_page(**PHONE)  # the guest plays on a phone: three seats round the table must fit
    guest.goto(link.replace("/?", "/?pace=0&"))
    guest.wait_for_selector("#join")
    assert "Kontsina" in guest.inner_text("#join-game")
    guest.fill("#join-name", "Bob")
    guest.click("#join button[data-seat='1']")
    for page in (host, guest):
        page.wait_for_selector("#game")
        places = {k: v["place"] for k, v in ui.seat_places(page).items()}
        me = page.get_attribute("#game", "data-seat")
        # Three round the table: me at the bottom, the next player on my right, the one before on my left.
        assert places[me] == "bottom" and places[str((int(me) + 1) % 3)] == "right"
        assert places[str((int(me) + 2) % 3)] == "left"
        assert page.locator("#scorebar .score").count() == 3
    assert guest.evaluate("document.documentElement.scrollWidth") <= 375
    seats, felt = ui.settled_layout(guest)  # one reading of both: the computer's moves change the felt
    for seat, box in seats.items():
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375, (seat, box)
        if box["place"] in ("left", "right"):  # beside the table, not over it
            assert box["x"] + box["width"] <= felt["x"] + 1 or box["x"] >= felt["x"] + felt["width"] - 1
    screenshot(host, "33-kontsina-three")
    screenshot(guest, "35-kontsina-three-phone")
    guest.set_viewport_size({"width": 667, "height": 375})  # the phone turned on its side: three seats still fit
    assert guest.evaluate("document.documentElement.scrollWidth") <= 667
    seats, _ = ui.settled_layout(guest)
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= 667 for box in seats.values()), seats
    guest.set_viewport_size({"width": 390, "height": 844})
    rng = random.Random(3)
    moves = waited = 0
    heads: list[list[str]] = []
    while not any(ui.status(p) == "dialog:game-over" for p in (host, guest)):
        for page in (host, guest):
            if ui.status(page) == "dialog:round-over":  # a hand ended with the top shared: play on
                heads.append(page.eval_on_selector_all("#dlg table.breakdown tr:first-child th",
                                                       "ths => ths.map(t => t.textContent)"))
                ui.continue_round(page)
        mover = next((p for p in (host, guest) if ui.status(p) == "turn"), None)
        if mover is None:
            host.wait_for_timeout(40)
            waited += 1
            assert waited < 3000, "neither page's turn for two minutes"
            continue
        waited = 0
        ui.play_turn(mover, rng)
        moves += 1
        assert moves < 320
    for page in (host, guest):
        ui.wait_status(page, ("dialog:game-over",), timeout=60)
        assert len(page.inner_text("#end-scores").split(" · ")) == 3
        head = page.eval_on_selector_all("#dlg table.breakdown tr:first-child th", "ths => ths.map(t => t.textContent)")
        assert "You" in head and len(head) == 4  # the last hand's breakdown: one column a player
    assert all("You" in h and len(h) == 4 for h in heads)
    assert moves and moves % 32 == 0  # 2 people's 16 cards each a hand of 3 (the computer's 16 are its own)
    screenshot(host, "34-kontsina-game-over")
    old = host.url.split("table=")[1].split("&")[0]
    host.click("#end-again")  # an offer: the guest's page shows it, and the guest accepts
    guest.wait_for_function("() => document.querySelector('#end-again').textContent === 'Accept the rematch'")
    guest.click("#end-again")
    # Both pages follow to the rematch: the same new table (a navigation each, waited for as one).
    host.wait_for_url(lambda url: "table=" in url and f"table={old}" not in url, timeout=30_000)
    new = host.url.split("table=")[1].split("&")[0]
    guest.wait_for_url(lambda url: f"table={new}" in url, timeout=30_000)
    for page in (host, guest):
        page.wait_for_selector("#game, #waiting")


def test_a_table_of_xeri_survives_a_server_restart(tmp_path: Any, browser: Any, ui: Any) -> None:
    from browser.test_chat_watch import _port, running

    db, port = tmp_path / "d.sqlite3", _port()
    context = browser.new_context(viewport={"width": 1000, "height": 820}, reduced_motion="reduce")
    context.set_default_timeout(10_000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        with running(db, port) as base:
            choose_game(page, base, "Eleni", "xeri")
            page.select_option("#seat-1", "random")
            page.click("#create")
            page.wait_for_selector("#game")
            rng = random.Random(9)
            for _ in range(3):
                ui.wait_status(page, ("turn",), timeout=30)
                ui.play_turn(page, rng)
            ply, hand = ui.ply(page), ui.hand(page)
        # The page stays open while the server is down, then reconnects by itself to the same position.
        with running(db, port):
            page.wait_for_function("() => document.querySelector('#banner').hidden", timeout=20_000)
            ui.wait_status(page, ("turn",), timeout=30)
            assert ui.ply(page) >= ply and page.inner_text("#game-name") == "Xeri"
            assert set(ui.hand(page)) <= set(hand)
            ui.play_turn(page, rng)
    finally:
        context.close()
    assert not errors, errors
