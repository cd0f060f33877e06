"""Players who come back, in a real browser: keep a name (no password), see the recovery code once, play
a rated game, find it on the profile (rating with its uncertainty, the plot, the game's replay and
record) and on the leaderboard; rename; move to another browser with the recovery code; sign in with a
password; delete. English on a desktop, Greek on a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser.conftest import UI

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}


def become(page: Any, server: str, name: str) -> str:
    """Keep a name from the lobby (in the identity control); returns the recovery code the page showed."""
    page.goto(server + "/?pace=0")
    UI.set_name(page, name)
    page.click("#become-btn")
    page.wait_for_selector("#recovery-code")
    code: str = page.inner_text("#recovery-code")
    assert re.fullmatch(r"[0-9A-Z]{4}(-[0-9A-Z]{4}){4}", code), code
    page.click("#recovery-done")
    page.wait_for_selector("#player-panel #player-name")
    return code


def resigned_game(page: Any, ui: Any, server: str, name: str) -> str:
    """A rated game against the computer that ends at once: the player resigns."""
    table: str = ui.create_table(page, server, name, ["greedy"])
    page.wait_for_selector("#resign-btn")
    page.click("#resign-btn")
    page.click("#confirm-resign")
    page.wait_for_selector("#end-again")
    return table


def test_a_player_keeps_a_name_plays_rated_and_finds_it_on_the_profile_and_leaderboard(
        server: str, new_page: Any, ui: Any, screenshot: Any, kept_name: Any) -> None:
    # A wrong password and a replaced key are 401s the browser logs: expected here.
    page = new_page(http_errors_expected=True)
    name, renamed = kept_name("Elpida"), kept_name("Elpida K")
    code = become(page, server, name)
    assert page.inner_text("#player-name") == name
    table = resigned_game(page, ui, server, name)
    page.goto(server + "/?pace=0")
    UI.open_identity(page)
    page.click("#profile-link")
    page.wait_for_selector("#profile #profile-ratings")
    assert page.inner_text("#profile-name") == name
    rating = page.inner_text("#profile-ratings tr[data-mode='2p'] .rating")
    assert re.fullmatch(r"\d+ ± \d+ \?", rating), rating  # a newcomer's rating: provisional
    assert page.locator("#rating-plot circle").count() == 1
    assert "greedy" in page.inner_text("#profile-opponents")
    row = page.locator(f"#profile-games li[data-table='{table}']")
    assert row.locator(".tag.side1").first.inner_text() == "lost"  # the game's result, not the column's "lost"
    assert row.locator(f"a[href='/?replay={table}']").count() == 1
    assert row.locator(f"a[href='/api/tables/{table}/record']").count() == 1
    screenshot(page, "24-profile", full=True)
    page.click("text=Leaderboard")
    page.wait_for_selector("#leaders-table")
    assert name in page.inner_text("#leaders-table")
    # Rename, then another browser takes the player over with the recovery code (the old key stops).
    page.goto(server + "/?pace=0")
    UI.open_identity(page)
    page.click("#settings-btn")
    page.click("#rename-btn")
    page.fill("#rename-name", renamed)
    page.click("#rename-submit")
    page.wait_for_function("n => document.querySelector('#player-name')?.textContent === n", arg=renamed)
    other = new_page(http_errors_expected=True)
    other.goto(server + "/?pace=0")
    UI.open_identity(other)
    other.click("#recover-btn")
    other.fill("#recover-code", code.lower().replace("-", " "))
    other.click("#recover-submit")
    other.wait_for_selector("#recovery-code")  # a new code: the old one is used up
    other.click("#recovery-done")
    other.wait_for_function("n => document.querySelector('#player-name')?.textContent === n", arg=renamed)
    page.reload()
    UI.open_identity(page)
    page.wait_for_selector("#player-panel #become-btn")  # this browser's key was replaced: a guest again
    # A password, then sign in with it here; then delete.
    UI.open_identity(other)
    other.click("#settings-btn")
    other.click("#password-btn")
    other.fill("#password-new", "correct horse battery")
    other.click("#password-submit")
    other.wait_for_selector("#password-new", state="hidden")  # stored (the dialog closes): then sign in with it
    page.click("#login-btn")
    page.fill("#login-name", renamed)
    page.fill("#login-password", "wrong password!")
    page.click("#login-submit")
    page.wait_for_function("() => document.querySelector('#login-error')?.textContent"
                           ".includes('wrong name or password')")
    page.fill("#login-password", "correct horse battery")
    page.click("#login-submit")
    page.wait_for_function("n => document.querySelector('#player-name')?.textContent === n", arg=renamed)
    UI.open_identity(page)
    page.click("#settings-btn")
    page.click("#delete-btn")
    page.click("#confirm-delete")
    UI.open_identity(page)
    page.wait_for_selector("#player-panel #become-btn")
    page.goto(server + "/?pace=0&leaders=overall")
    page.wait_for_selector("#leaders")
    assert name not in page.inner_text("#leaders") and renamed not in page.inner_text("#leaders")


def test_profile_and_leaderboard_in_greek_on_a_phone(server: str, new_page: Any, ui: Any, screenshot: Any,
                                                    kept_name: Any) -> None:
    page = new_page(**PHONE)
    page.goto(server + "/?pace=0")
    page.evaluate("localStorage.setItem('diloti.lang', 'el')")
    name = kept_name("Μαρία")
    become(page, server, name)
    assert "Παίζετε ως" in page.inner_text("#player-panel")
    # Another device asks for the same name: the server's English "the name '…' is taken" in Greek.
    other = new_page(**PHONE, http_errors_expected=True)  # the 409 is the point
    other.goto(server + "/?pace=0&lang=el")
    UI.set_name(other, name)
    other.click("#become-btn")
    other.wait_for_function("() => document.querySelector('#player-error').textContent !== ''")
    assert other.inner_text("#player-error") == "Αυτό το όνομα το έχει ήδη άλλος παίκτης· διαλέξτε άλλο."
    resigned_game(page, ui, server, name)
    page.goto(server + "/?pace=0")
    UI.open_identity(page)
    page.click("#profile-link")
    page.wait_for_selector("#profile #rating-plot")
    assert "Βαθμολογία" in page.inner_text("#profile") and "Συχνότεροι αντίπαλοι" in page.inner_text("#profile")
    assert page.locator("#profile-games .tag.side1").first.inner_text() == "ήττα"  # a game lost, not "losses"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # Both tables fit without scrolling sideways, and no header word is split across lines (after a dash is
    # a word's end: "(νίκες–" "ήττες)" may wrap).
    assert page.evaluate("[...document.querySelectorAll('#profile .scroll-x')]"
                         ".map((d) => d.scrollWidth - d.clientWidth)") == [0, 0]
    split = page.evaluate("""() => [...document.querySelectorAll('#profile th')].flatMap((th) => {
        const text = th.firstChild, out = [];
        for (const m of text.textContent.matchAll(/[^\\s–-]+/g)) {
          const r = document.createRange(); r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
          if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) out.push(m[0]);
        }
        return out; })""")
    assert split == []
    screenshot(page, "25-phone-profile-greek", full=True)
    page.goto(server + "/?pace=0&leaders=2p")
    page.wait_for_selector("#leaders-table")
    assert name in page.inner_text("#leaders-table") and "Κατάταξη" in page.inner_text("#leaders")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_play_now_pairs_two_browsers_and_offers_the_computer_to_one_alone(server: str, new_page: Any) -> None:
    pages = []
    for name in ("Anna", "Nikos"):
        page = new_page()
        page.goto(server + "/?pace=0")
        page.wait_for_selector("#play-first #quick-play")
        UI.set_name(page, name)
        page.select_option("#clock", "60+300")  # a setting nobody else in this server's tests waits with
        page.click("#quick-play")
        page.wait_for_selector("#quickplay, #game")
        pages.append(page)
    for page in pages:  # the second ticket is seated at once, the first on its next poll
        page.wait_for_selector("#game", timeout=15_000)
    tables = {p.evaluate("new URLSearchParams(location.search).get('table')") for p in pages}
    assert len(tables) == 1
    assert {p.get_attribute("#game", "data-seat") for p in pages} == {"0", "1"}
    # Alone in the queue: after 20 s the computer is offered.
    alone = new_page()
    alone.goto(server + "/?pace=0")
    alone.wait_for_selector("#play-first #quick-play")
    UI.set_name(alone, "Eleni")
    alone.check("input[name=players][value='4']")
    alone.click("#quick-play")
    alone.wait_for_selector("#quickplay #quick-status")
    alone.wait_for_selector("#quick-computer", timeout=40_000)
    alone.click("#quick-computer")
    alone.wait_for_selector("#game")
    assert alone.locator("#seats .seatbox").count() == 4


def test_typing_a_name_while_the_lobby_loads_keeps_every_letter(server: str, new_page: Any) -> None:
    """The lobby renders again when its lists arrive; a player typing then keeps the focus and the letters
    (it once lost them, and "Keep my name" then asked for a name)."""
    held: list[Any] = []
    page = new_page()
    page.route("**/api/tables?status=over", lambda route: held.append(route))  # held until the player has typed
    with page.expect_request("**/api/tables?status=over"):
        page.goto(server + "/?pace=0")
    UI.open_identity(page)
    page.wait_for_selector("#player-panel #become-btn")
    page.click("#name")
    page.keyboard.type("Elef")
    page.evaluate("document.querySelector('#name').dataset.before = '1'")
    while not held:  # the route's handler runs as Playwright dispatches its events
        page.wait_for_timeout(10)
    held[0].continue_()
    page.wait_for_selector("#name:not([data-before])")  # rendered again
    assert page.evaluate("document.activeElement.id") == "name"
    page.keyboard.type("theria")
    assert page.input_value("#name") == "Eleftheria"
