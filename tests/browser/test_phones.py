"""Phones (issue 49 items 4 and 5), in the real Chromium with a touch screen: names cut with an ellipsis and no
element wider than the screen at 320, 390 and 844 px (the start page, tables of 2 and 4, a spectator, the profile,
the review); four players with long names and declarations on the felt keep the hand, the turn and every seat on
one screen, upright (390x844) and on its side (844x390), the declarations side by side; every control at least
44x44 px; the end of a game fits a phone with its actions in reach. And the smaller items: the hand-over to the
computer offered only when the server takes it, after a live countdown, seats numbered as the page numbers them;
the form's bounds the server's; Greek everywhere (levels, marks); the profile's plot readable and its games
reviewed in one tap. Diloti, Xeri and Kontsina; English and Greek. With DILOTI_SCREENSHOTS set, the screens are
saved (docs/screenshots/README.md)."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from websockets.sync.client import connect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

UPRIGHT: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SIDEWAYS: dict[str, Any] = {"viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True}
NARROW: dict[str, Any] = {"viewport": {"width": 320, "height": 640}, "is_mobile": True, "has_touch": True}
NAMES = ["Αλεξάνδρα Κωνσταντινίδου", "Νικόλαος Παπαδόπουλος", "Χαραλαμπία Γεωργίου", "Παναγιώτης Αλεξανδρόπουλ"]

# Visible elements past the screen's sides that nothing clips (an ancestor that hides its overflow and lies within
# the screen keeps them from widening the page), and any element wider than the screen.
PAST_THE_EDGE = """(w) => {
  const clipped = (el) => { for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== 'visible') {
        const r = a.getBoundingClientRect();
        return r.left >= -0.5 && r.right <= w + 0.5;
      } }
    return false; };
  return [...document.querySelectorAll('body *')].filter((el) => {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).position === 'fixed' || el.closest('.sr-only, #fx')) return false;
    if (r.width > w + 0.5) return true;
    return (r.right > w + 0.5 || r.left < -0.5) && !clipped(el);
  }).map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className} ${Math.round(el.getBoundingClientRect().left)}..`
    + Math.round(el.getBoundingClientRect().right)).slice(0, 10);
}"""

# Every control a finger may tap, with its box (a checkbox or radio button by its label, which takes the tap too);
# links inside a sentence are exempt (WCAG 2.5.5).
SMALL_TARGETS = """() => {
  const out = [];
  const seen = new Set();
  const controls = 'button, a[href], select, input:not([type=hidden]), summary, [role=button]';
  for (let el of document.querySelectorAll(controls)) {
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) el = el.closest('label');
    if (el.matches('a:not(.btn)') && el.closest('p')) continue;
    if (seen.has(el) || el.closest('.sr-only')) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (r.width < 43.5 || r.height < 43.5) {
      out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className} ${Math.round(r.width)}x${Math.round(r.height)} `
        + (el.textContent || '').trim().slice(0, 24));
    }
  }
  return out;
}"""


def post(url: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def ws_url(server: str) -> str:
    return server.replace("http://", "ws://") + "/ws"


def open_seat(page: Any, server: str, table: str, token: str, lang: str) -> None:
    page.goto(f"{server}/?pace=0&lang={lang}")
    page.evaluate("([id, tok]) => localStorage.setItem('diloti.token.' + id, tok)", [table, token])
    page.goto(f"{server}/?pace=0&lang={lang}&table={table}")
    page.wait_for_selector("#game")


def check_fits(page: Any, where: str) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, where
    past = page.evaluate(PAST_THE_EDGE, width)
    assert not past, f"{where}: wider than {width} px: {past}"


def crowded_table(server: str, game: str = "diloti", declarations: int = 2) -> dict[str, Any]:
    """Four players with long names (the three others seated but away: the computer plays their turns), a round
    played until this seat's turn finds ``declarations`` declarations on the felt (Diloti: builds made whenever
    allowed); the table's id and this seat's token."""
    options = {"partnerships": True} if game == "xeri" else {}
    for seed in range(40):
        made = post(f"{server}/api/tables", {"name": NAMES[0], "game": game, "players": 4, "grace": 0, "seed": seed,
                                             "away_level": "random", "rated": False, "options": options})
        for name in NAMES[1:]:
            post(f"{server}/api/tables/{made['table']}/join", {"name": name})
        rng = random.Random(seed)
        with connect(ws_url(server), open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "table": made["table"], "token": made["token"]}))
            for _ in range(12):  # this seat's turns
                while True:
                    msg = json.loads(ws.recv(timeout=60))
                    if msg["type"] == "state" and msg["your_turn"]:
                        break
                if len(msg.get("declarations") or []) >= declarations:
                    return made
                builds = [m for m in msg["legal"] if m["kind"] in ("plain", "group")]
                move = builds[0] if builds else rng.choice(msg["legal"])
                ws.send(json.dumps({"type": "move", "move": move["move"], "ply": msg["ply"]}))
    raise AssertionError(f"no deal of 40 put {declarations} declarations on the felt")


def game_over_page(server: str, new_page: Any, device: dict[str, Any], game: str, players: int, lang: str) -> Any:
    """A page at the end of a short game (the player's moves random, over a websocket of its own), its end shown."""
    options = {"diloti": {"target": 21}, "xeri": {"hands": 2}, "kontsina": {"target": 5}}[game]
    if game == "xeri" and players == 4:
        options["partnerships"] = True
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    made = post(f"{server}/api/tables", {"name": NAMES[0], "game": game, "players": players, "seats": seats,
                                         "seed": 5, "rated": False, "options": options})
    page = new_page(**device)
    open_seat(page, server, made["table"], made["token"], lang)
    rng = random.Random(1)
    with connect(ws_url(server), open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "table": made["table"], "token": made["token"]}))
        while True:
            msg = json.loads(ws.recv(timeout=90))
            if msg["type"] == "game_over":
                break
            if msg["type"] == "error" and msg["code"] == "rate_limited":
                time.sleep(1)
                ws.send(json.dumps({"type": "sync"}))
            if msg["type"] == "state" and msg["your_turn"]:
                ws.send(json.dumps({"type": "move", "move": rng.choice(msg["legal"])["move"], "ply": msg["ply"]}))
    page.wait_for_selector("#dlg[open][data-name='game-over'] #end-again")
    return page


# ---------------------------------------------------------------------------------------------------------------
# Item 4: names, widths, four seats on a phone, tap targets, the end of a game


@pytest.mark.parametrize("device", [NARROW, UPRIGHT, SIDEWAYS], ids=["320", "390", "844"])
def test_no_element_is_wider_than_a_phone(server: str, new_page: Any, kept_name: Any, device: dict[str, Any]) -> None:
    """Every page with 24-letter Greek names in it, at 320, 390 and 844 px: nothing past the screen's sides."""
    crowded = crowded_table(server)
    two = post(f"{server}/api/tables", {"name": NAMES[0], "grace": 3600, "rated": False, "seed": 3})
    post(f"{server}/api/tables/{two['table']}/join", {"name": NAMES[3]})
    me = post(f"{server}/api/players", {"name": kept_name("Κυριακή Ευαγγελοπούλου")})  # 24 letters
    t = post(f"{server}/api/tables", {"name": "x", "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                                      "options": {"target": 11}, "seed": 2}, key=me["key"])
    with connect(ws_url(server), open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["token"]}))
        ws.send(json.dumps({"type": "resign"}))
        while json.loads(ws.recv(timeout=30))["type"] != "game_over":
            pass
    page = new_page(**device)
    page.goto(f"{server}/?pace=0&lang=el")
    page.wait_for_selector("#lang-btn")
    page.wait_for_function("() => !document.querySelector('#view').textContent.includes('Loading')")
    check_fits(page, "the start page")
    open_seat(page, server, crowded["table"], crowded["token"], "el")
    check_fits(page, "a table of four")
    open_seat(page, server, two["table"], two["token"], "en")
    check_fits(page, "a table of two")
    page.goto(f"{server}/?pace=0&lang=el&watch={two['table']}")
    page.wait_for_selector("#game #watching")
    check_fits(page, "a spectator of a table of two")
    page.goto(f"{server}/?pace=0&lang=el&watch={crowded['table']}")
    page.wait_for_selector("#game #watching")
    check_fits(page, "a spectator of a table of four")
    page.goto(f"{server}/?pace=0&lang=el&player={me['player']}")
    page.wait_for_selector("#profile #profile-games li")
    check_fits(page, "the profile")
    page.goto(f"{server}/?pace=0&lang=el&replay={t['table']}&review=0")
    page.wait_for_selector("#replay")
    check_fits(page, "the replay and review")


FOUR = [("diloti", "el", UPRIGHT), ("diloti", "en", SIDEWAYS), ("kontsina", "en", UPRIGHT), ("xeri", "el", SIDEWAYS)]


@pytest.mark.parametrize(("game", "lang", "device"), FOUR,
                         ids=[f"{g}-{lang}-{d['viewport']['width']}" for g, lang, d in FOUR])
def test_four_players_keep_the_hand_the_turn_and_every_seat_on_one_screen(
        server: str, new_page: Any, screenshot: Any, game: str, lang: str, device: dict[str, Any]) -> None:
    made = crowded_table(server, game, declarations=2 if game == "diloti" else 0)
    page = new_page(**device, color_scheme="dark" if lang == "el" else "light")
    open_seat(page, server, made["table"], made["token"], lang)
    page.wait_for_selector("#turn.mine")
    page.wait_for_timeout(300)  # the seats' last moves drawn
    width, height = device["viewport"]["width"], device["viewport"]["height"]
    screenshot(page, f"49-table-{'phone' if width < 500 else 'landscape'}-4-{game}-{lang}")
    boxes = page.evaluate("""() => Object.fromEntries(['#hand', '#turn', '#seats .at-left', '#seats .at-top',
        '#seats .at-right', '#seats .at-bottom'].map((q) => {
          const r = document.querySelector(q).getBoundingClientRect();
          return [q, {top: r.top, bottom: r.bottom, left: r.left, right: r.right}]; }))""")
    for what, box in boxes.items():  # whole, without scrolling
        assert box["top"] >= 0 and box["bottom"] <= height + 0.5, (what, box)
        assert box["left"] >= 0 and box["right"] <= width + 0.5, (what, box)
    check_fits(page, f"a table of four ({game})")
    names = page.eval_on_selector_all("#seats .seatbox .name", "els => els.map((e) => e.scrollWidth <= "
                                      "e.clientWidth + 1 || getComputedStyle(e).textOverflow === 'ellipsis')")
    assert all(names), names  # a long name cut with an ellipsis, or whole
    if game == "diloti":
        piles = page.eval_on_selector_all("#felt .pile", "els => els.map((e) => e.getBoundingClientRect().top)")
        assert len(piles) >= 2 and len({round(p) for p in piles}) < len(piles), piles  # side by side


@pytest.mark.parametrize("lang", ["el", "en"])
def test_every_control_is_a_thumbs_width_on_a_touch_screen(server: str, new_page: Any, lang: str) -> None:
    made = crowded_table(server, "kontsina" if lang == "en" else "diloti", declarations=0)
    page = new_page(**UPRIGHT)
    page.goto(f"{server}/?pace=0&lang={lang}")
    page.wait_for_selector("#lang-btn")
    page.wait_for_function("() => !document.querySelector('#view').textContent.includes('Loading')")
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")  # the rule options
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"the start page: {small}"
    open_seat(page, server, made["table"], made["token"], lang)
    page.wait_for_selector("#turn.mine")
    page.click("#type-btn")  # the typed-move box too
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"a table: {small}"
    page.goto(f"{server}/?pace=0&lang={lang}&watch={made['table']}")
    page.wait_for_selector("#game #watching")
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"a spectator: {small}"
    page.set_viewport_size(SIDEWAYS["viewport"])
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"a spectator, sideways: {small}"


@pytest.mark.parametrize(("game", "players", "lang", "device"), [
    ("diloti", 4, "el", UPRIGHT), ("xeri", 2, "en", SIDEWAYS), ("kontsina", 3, "el", NARROW)],
    ids=["diloti-4-el-390", "xeri-2-en-844", "kontsina-3-el-320"])
def test_the_end_of_a_game_fits_a_phone_with_its_actions_in_reach(
        server: str, new_page: Any, screenshot: Any, game: str, players: int, lang: str,
        device: dict[str, Any]) -> None:
    page = game_over_page(server, new_page, device, game, players, lang)
    width, height = device["viewport"]["width"], device["viewport"]["height"]
    dlg = page.locator("#dlg").bounding_box()
    assert dlg["y"] >= 0 and dlg["y"] + dlg["height"] <= height + 0.5, dlg
    assert dlg["x"] >= 0 and dlg["x"] + dlg["width"] <= width + 0.5, dlg
    # Every action whole on screen, the topmost thing where it is (nothing covers it), a thumb's size.
    actions = page.evaluate("""() => [...document.querySelectorAll('#dlg-foot > *')].map((el) => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {id: el.id, text: el.textContent, top: r.top, bottom: r.bottom, width: r.width, height: r.height,
                reached: !!top && (top === el || el.contains(top))}; })""")
    assert len(actions) == 6, actions  # record, replay, review, new table, again, close
    for a in actions:
        assert a["top"] >= 0 and a["bottom"] <= height + 0.5 and a["reached"], a
        assert a["width"] >= 44 and a["height"] >= 44, a
    assert len({round(a["top"]) for a in actions}) <= 3  # two or three to a row
    check_fits(page, "the end of a game")
    if game == "diloti":
        screenshot(page, "49-game-over-phone-4-greek")
    page.click("#dlg-foot button:not(#end-again)")  # Close
    page.wait_for_selector("#dlg", state="hidden")


# ---------------------------------------------------------------------------------------------------------------
# Item 5: the hand-over, the form's bounds, Greek everywhere, the profile


def test_the_hand_over_comes_after_a_countdown_and_refusals_number_seats_as_the_page(
        server: str, new_page: Any, screenshot: Any) -> None:
    # Anna in the second seat leads (the first deals) and waits: at Bob's own turn the server would hand his seat
    # over by itself.
    made = post(f"{server}/api/tables", {"name": "Anna", "seat": 1, "grace": 6, "seed": 21, "rated": False})
    bob = post(f"{server}/api/tables/{made['table']}/join", {"name": NAMES[1]})
    assert bob["seat"] == 0
    anna = new_page(**UPRIGHT)
    open_seat(anna, server, made["table"], made["token"], "el")
    with connect(ws_url(server), open_timeout=10) as ws:  # Bob is here: nothing to hand over
        ws.send(json.dumps({"type": "hello", "table": made["table"], "token": bob["token"]}))
        while (msg := json.loads(ws.recv(timeout=20)))["type"] != "state":
            pass
        assert msg["turn"] == 1  # Anna's
        bob_box = "document.querySelector(\"#seats .seatbox[data-seat='0']\")"
        anna.wait_for_function(f"() => {bob_box} && !{bob_box}.classList.contains('offline')")
        assert anna.locator("#seats .handover-btn, #seats .handover-wait").count() == 0
    # Bob's tab closed: a countdown, not the button (the server would refuse it), counting down live.
    anna.wait_for_selector("#seats .handover-wait[data-seat='0']")
    assert anna.locator("#seats .handover-btn").count() == 0
    first = anna.inner_text("#seats .handover-wait[data-seat='0']")
    assert re.fullmatch(r"Στον υπολογιστή σε [1-6] δ\.", first), first
    screenshot(anna, "49-hand-over-countdown-phone-greek")
    # Asked early all the same (as another client might): refused, naming the seat as the page does.
    with connect(ws_url(server), open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "table": made["table"], "token": made["token"]}))
        ws.send(json.dumps({"type": "hand_over", "seat": 0}))
        while (msg := json.loads(ws.recv(timeout=20)))["type"] != "error":
            pass
    assert msg["code"] == "grace_period" and "Seat 1" in msg["message"] and "seat 0" not in msg["message"], msg
    anna.wait_for_function("(t) => { const e = document.querySelector(\"#seats .handover-wait[data-seat='0']\");"
                           " return !e || e.textContent !== t; }", arg=first)  # it counts down
    # Then the button, which the server takes.
    anna.wait_for_selector("#seats .handover-btn[data-seat='0']", timeout=15_000)
    assert anna.locator("#seats .handover-wait").count() == 0
    label = anna.locator("#seats .handover-btn[data-seat='0']")
    assert label.inner_text() == "Στον υπολογιστή"
    box = label.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    label.click()
    anna.wait_for_selector("#seats .seatbox[data-seat='0'][data-away='1']")


@pytest.mark.parametrize(("game", "goal", "extra"), [("diloti", "target", None), ("xeri", "hands", None),
                                                     ("kontsina", "target", None)])
def test_the_forms_bounds_are_the_servers(server: str, new_page: Any, game: str, goal: str, extra: Any) -> None:
    with urllib.request.urlopen(f"{server}/api/info", timeout=10) as r:
        ranges = json.loads(r.read())["games"][game]["ranges"]
    low, high = ranges[goal]
    assert high < 10_000  # a game a table lasts
    page = new_page()
    page.goto(f"{server}/?pace=0")
    page.wait_for_selector("#play-first #game-choice")  # the game is chosen by the start page's chips
    page.check(f"#game-choice input[value='{game}']")
    page.wait_for_selector(f"#new-table #{goal}")
    assert page.get_attribute(f"#{goal}", "max") == str(high) and page.get_attribute(f"#{goal}", "min") == str(low)
    page.fill(f"#{goal}", "10000")
    assert page.evaluate(f"() => document.querySelector('#{goal}').validity.rangeOverflow")
    page.click("#create")  # the browser keeps the form: nothing is sent
    page.wait_for_timeout(300)
    assert page.locator("#game").count() == 0 and page.locator("#new-table").count() == 1
    for value, status in ((high, 201), (high + 1, 400)):  # the server's bounds are the same
        body = {"name": "Ann", "game": game, "options": {goal: value}}
        try:
            post(f"{server}/api/tables", body)
            got = 201
        except urllib.error.HTTPError as exc:
            got = exc.code
            answer = json.loads(exc.read())
            assert answer["code"] == "bad_options" and f"at most {high}" in answer["message"], answer
        assert got == status, (value, got)


LATIN = re.compile(r"\b[A-Za-z]{2,}\b")


def test_a_greek_table_shows_no_english_word(server: str, new_page: Any) -> None:
    """Computer levels, the dealer's mark and a group's mark in Greek; no Latin word on the page but the language
    button's "English" (cards are drawn with symbols)."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": level} for level in ("random", "greedy", "heuristic")]
    made = post(f"{server}/api/tables", {"name": "Ελένη", "players": 4, "seats": seats, "seed": 11, "rated": False})
    page = new_page(**UPRIGHT)
    open_seat(page, server, made["table"], made["token"], "el")
    page.wait_for_selector("#turn.mine")
    tags = page.eval_on_selector_all("#seats .seatbox .tag", "els => els.map((e) => e.textContent)")
    assert {"τυχαίος", "άπληστος", "ευρετικός"} <= set(tags), tags
    text = page.inner_text("body").replace("English", "")
    assert not LATIN.findall(text), LATIN.findall(text)
    marks = page.evaluate("""async () => { const i = await import('/static/js/i18n.js');
        const p = await import('/static/js/present.js');
        return [p.prettyMove('4D + 4C = 4G'), p.levelName('master'), i.t('table.dealer_mark')]; }""")
    assert marks == ["4♦ + 4♣ = 4ομ", "μάστορας", "Μ"]
    page.goto(f"{server}/?pace=0&lang=el")
    page.wait_for_selector("#new-table #seat-1")
    options = page.eval_on_selector_all("#seat-1 option, #away-level option", "els => els.map((e) => e.textContent)")
    assert not [o for o in options if LATIN.search(o)], options


def test_the_profile_plot_is_readable_and_its_games_reviewed_in_one_tap(server: str, new_page: Any,
                                                                        kept_name: Any) -> None:
    me = post(f"{server}/api/players", {"name": kept_name("Σταυρούλα")})
    t = post(f"{server}/api/tables", {"name": "x", "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]},
             key=me["key"])
    with connect(ws_url(server), open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["token"]}))
        ws.send(json.dumps({"type": "resign"}))
        while json.loads(ws.recv(timeout=30))["type"] != "game_over":
            pass
    for device in (UPRIGHT, {"viewport": {"width": 1366, "height": 800}}):
        page = new_page(**device)
        page.goto(f"{server}/?pace=0&lang=el&player={me['player']}")
        page.wait_for_selector("#profile #rating-plot circle")
        sizes = page.eval_on_selector_all("#rating-plot text.axis", """els => els.map((e) =>
            parseFloat(getComputedStyle(e).fontSize) * e.ownerSVGElement.getScreenCTM().a)""")
        assert sizes and min(sizes) >= 11, sizes
        assert "υπολογιστής · άπληστος" in page.inner_text("#profile-opponents")  # the computer, in Greek
        assert "άπληστος" in page.inner_text(f"#profile-games li[data-table='{t['table']}']")
        review = page.locator(f"#profile-games li[data-table='{t['table']}'] a[data-review]")
        assert review.inner_text() == "Ανάλυση"
        review.click()
        page.wait_for_url(re.compile(r"replay=.*&review=0"))
        page.wait_for_selector("#replay")
