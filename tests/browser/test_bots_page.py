"""Bot accounts on the page (docs/BOTS.md): a new player makes their account a bot and a token (shown once),
revokes it; a person opens a table that welcomes bots, a bot takes its seat and is marked as one at the table and
in the lobby; the profile and the leaderboard's own Bots list mark it. English, then Greek."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from browser.conftest import UI

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def become(page: Any, server: str, name: str) -> None:
    page.goto(server + "/?pace=0")
    UI.set_name(page, name)
    page.click("#become-btn")
    page.wait_for_selector("#recovery-code")
    page.click("#recovery-done")
    page.wait_for_selector("#player-panel #player-name")


def test_a_bot_account_its_token_and_its_marks(server: str, new_page: Any, ui: Any, screenshot: Any,
                                              kept_name: Any) -> None:
    page = new_page()
    talos = kept_name("Talos")
    become(page, server, talos)
    UI.open_identity(page)
    page.click("#settings-btn")
    page.click("#bot-btn")
    page.wait_for_selector("#make-bot")
    page.click("#make-bot")
    page.wait_for_selector("#new-bot-token")
    page.fill("#bot-token-label", "laptop")
    page.click("#new-bot-token")
    page.wait_for_selector("#bot-token")
    token = page.inner_text("#bot-token")
    assert token.startswith("dlb_")
    screenshot(page, "60-bot-token")
    page.click("text=I have written it down")
    page.wait_for_selector("#bot-tokens li")
    assert "laptop" in page.inner_text("#bot-tokens")
    me = httpx.get(f"{server}/api/bot/account", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    # A person welcomes bots at a new table; the bot takes the free seat and is marked as one.
    person = new_page()
    person.goto(server + "/?pace=0")
    person.wait_for_selector("#new-table #seat-1")
    ui.set_name(person, "Nefeli")
    person.select_option("#seat-1", "human")
    person.check("#bots")
    person.click("#create")
    person.wait_for_selector("#game, #waiting")
    table = person.evaluate("new URLSearchParams(location.search).get('table')")
    got = httpx.post(f"{server}/api/bot/tables/{table}/join", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert got.status_code == 200, got.text
    person.wait_for_function("bot => document.body.innerText.includes(bot)", arg=f"{talos} (bot)")
    screenshot(person, "61-bot-at-table")
    page.goto(server + f"/?player={me['player']}")
    page.wait_for_selector("#profile #bot-badge")
    page.goto(server + "/?leaders=overall&bots=1")
    page.wait_for_selector("#leaders #bots-tab.primary")
    # Greek: the same marks in the page's other language.
    page.evaluate("() => localStorage.setItem('diloti.lang', 'el')")
    page.goto(server + "/?pace=0")
    page.wait_for_selector("#new-table #bots", state="attached")
    assert "Δεκτά τα bots" in page.text_content("#new-table")
    # Revoke: the token stops.
    page.evaluate("() => localStorage.setItem('diloti.lang', 'en')")
    page.goto(server + "/?pace=0")
    UI.open_identity(page)
    page.click("#settings-btn")
    page.click("#bot-btn")
    page.wait_for_selector("#bot-tokens li button")
    page.click("#bot-tokens li button")
    page.wait_for_function("() => document.querySelector('#bot-tokens')?.innerText.includes('revoked')")
    gone = httpx.get(f"{server}/api/bot/account", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert gone.status_code == 401
