"""The new table on screen: phone and desktop, 2 and 4 players, English and Greek, light and dark, a card
chosen (its choices lit, the rest dimmed) and a capture caught in flight. Each screen is checked for what
must be there (taken piles, stock, the last move, nothing wider than the screen); with
DILOTI_SCREENSHOTS=docs/screenshots it is also saved there (docs/screenshots/README.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1100, "height": 860}}
LANDSCAPE = {"viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True}  # a phone on its side
SMALL_LANDSCAPE = {"viewport": {"width": 667, "height": 375}, "is_mobile": True, "has_touch": True}


def open_table(page: Any, server: str, players: int, lang: str, seed: int) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    resp = page.request.post(server + "/api/tables", data={
        "players": players, "seats": seats, "seat": 0, "name": "Ελένη" if lang == "el" else "Eleni", "seed": seed,
        "options": {}})
    assert resp.status == 201, resp.text()
    data = resp.json()
    page.goto(f"{server}/?pace=0&lang={lang}")
    page.evaluate("([t, k]) => localStorage.setItem('diloti.token.' + t, k)", [data["table"], data["token"]])
    page.goto(f"{server}/?pace=0&lang={lang}&table={data['table']}")
    page.wait_for_selector("#game")


def play_some(page: Any, ui: Any, n: int, rng: random.Random) -> None:
    for _ in range(n):
        ui.wait_status(page, ("turn",))
        ui.play_turn(page, rng)
    ui.wait_status(page, ("turn",))


WORDS_BROKEN = """() => {
  // Each word of each seat's name: on more than one line if its rectangles are at different heights.
  const broken = [];
  for (const el of document.querySelectorAll('#seats .seatbox .name')) {
    const node = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!node) continue;
    const text = node.textContent;
    let at = 0;
    for (const word of text.split(/\\s+/).filter(Boolean)) {
      const start = text.indexOf(word, at);
      at = start + word.length;
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, at);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(word);
    }
  }
  return broken;
}"""

SCREENS = [
    ("40-table-desktop", DESKTOP, 2, "en", "light"),
    ("41-table-desktop-4-greek-dark", DESKTOP, 4, "el", "dark"),
    ("42-table-phone-greek-dark", PHONE, 2, "el", "dark"),
    ("43-table-phone-4-greek-dark", PHONE, 4, "el", "dark"),
    ("44-table-phone-4", PHONE, 4, "en", "light"),
    ("46-table-landscape-phone-greek", LANDSCAPE, 2, "el", "light"),
    ("47-table-landscape-phone-4-dark", LANDSCAPE, 4, "en", "dark"),
    ("48-table-landscape-small-phone-4-greek", SMALL_LANDSCAPE, 4, "el", "light"),
]


@pytest.mark.parametrize(("name", "device", "players", "lang", "scheme"), SCREENS)
def test_table_screens(server: str, new_page: Any, ui: Any, screenshot: Any, name: str, device: dict[str, Any],
                       players: int, lang: str, scheme: str) -> None:
    page = new_page(**device, color_scheme=scheme)
    open_table(page, server, players, lang, seed=11)
    play_some(page, ui, 3, random.Random(4))
    assert page.locator("#seats .takenpile").count() == players
    assert page.locator("#stock").count() == 1 and page.locator("#lasttrick .card").count() >= 1
    assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"]
    # A seat's name may take two lines but never breaks inside a word ("Υπολογιστή / ς 4").
    assert page.evaluate(WORDS_BROKEN) == []
    # A card chosen (by its key: a tap on a card with one legal move plays it): what it can take or build on is lit,
    # each saying so, the rest dimmed.
    page.keyboard.press(page.get_attribute("#hand button.card:not([disabled])", "data-key"))
    sideways = device in (LANDSCAPE, SMALL_LANDSCAPE)
    if sideways:
        # On its side a phone is 390 px high: the felt, the play button and the whole hand show without scrolling.
        # (from the page's top: choosing the card scrolled it into view)
        bottoms = page.evaluate("['#felt', '#choices', '#hand'].map((q) => document.querySelector(q)"
                                ".getBoundingClientRect().bottom + window.scrollY)")
        assert max(bottoms) <= device["viewport"]["height"], bottoms
        assert page.locator("#choices .btn[data-move]").count() == 1  # play it (or, with table cards lit, lay it)
        page.evaluate("window.scrollTo(0, 0)")  # the screen as the player holds it (Playwright's click scrolled)
    screenshot(page, name, full=not sideways)


def test_a_capture_in_flight(server: str, new_page: Any, screenshot: Any) -> None:
    page = new_page(**PHONE, color_scheme="dark", reduced_motion="no-preference")
    resp = page.request.post(server + "/api/tables", data={
        "players": 2, "seats": [{"kind": "bot", "level": "random"}, {"kind": "human"}], "seat": 1, "name": "Ελένη",
        "seed": 1, "options": {}})
    data = resp.json()
    page.goto(f"{server}/?pace=0&lang=el")
    page.evaluate("([t, k]) => localStorage.setItem('diloti.token.' + t, k)", [data["table"], data["token"]])
    page.goto(f"{server}/?pace=0&lang=el&table={data['table']}")
    page.wait_for_selector("#turn.mine")
    page.tap("#hand button[data-card='10H']")
    page.tap("#felt button[data-unit='c:5C']")
    page.tap("#felt button[data-unit='c:5H']")
    page.tap("#choices button[data-move='10H x 5C 5H']")
    page.wait_for_function("""() => {
      const a = document.getAnimations().filter((x) => String(x.id).startsWith('capture:'));
      if (!a.length) return false;
      a.forEach((x) => { x.pause(); x.currentTime = 150; });
      return true;
    }""")
    assert page.locator("#fx .ghost").count() == 3
    screenshot(page, "45-capture-in-flight-phone")
    page.evaluate("() => document.getAnimations().forEach((a) => a.finish())")
    page.wait_for_function("() => !document.querySelector('#fx .ghost')")
