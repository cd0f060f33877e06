"""The page at 390 px wide, as a phone shows it (issue 27): the side seats' clock and the hand-over's countdown
fit their boxes, a long Greek name on a declaration does not cover the side seats, the leaderboard's note is
readable (WCAG AA, 4.5:1), the profile's statistics fit, and the words are right ("1 game"; a message when a
recovery on another device signed this one out)."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from websockets.sync.client import connect

from browser.conftest import UI

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LONG = "Αλεξάνδρα Κωνσταντινίδου"  # 24 characters, the longest name allowed


def post(url: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (inner["x"] >= outer["x"] - 0.5 and inner["y"] >= outer["y"] - 0.5
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def open_seat(page: Any, server: str, table: str, token: str) -> None:
    page.goto(f"{server}/?pace=0")
    page.evaluate("([id, tok]) => localStorage.setItem('diloti.token.' + id, tok)", [table, token])
    page.goto(f"{server}/?pace=0&table={table}")
    page.wait_for_selector("#game")


def test_side_seats_clock_and_hand_over_fit_their_boxes(server: str, new_page: Any, screenshot: Any) -> None:
    made = post(f"{server}/api/tables", {"name": "Ann", "players": 4, "grace": 3600, "rated": False,
                                         "clock": {"move": 600, "reserve": 600}})
    table = made["table"]
    for name in ("Νικόλαος Παπαδόπουλος", LONG, "Χαραλαμπία Γεωργίου"):
        post(f"{server}/api/tables/{table}/join", {"name": name})  # seated, never connected
    page = new_page(**PHONE)
    open_seat(page, server, table, made["token"])
    # Within the hour's grace the seats of the players who never came count down to the hand-over (issue 49).
    page.wait_for_selector(".seatbox.at-left .handover-wait")
    screenshot(page, "fair-01-side-seats-390")
    for place in ("left", "right"):
        box = page.locator(f".seatbox.at-{place}").bounding_box()
        for part in (".clock", ".handover-wait", ".name"):
            el = page.locator(f".seatbox.at-{place} {part}")
            assert el.count() == 1, (place, part)
            assert inside(el.bounding_box(), box), (place, part, el.bounding_box(), box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_long_greek_name_on_a_declaration_does_not_cover_the_side_seats(server: str, new_page: Any,
                                                                           screenshot: Any) -> None:
    bots = [{"kind": "bot", "level": "random"}] * 3
    for seed in range(40):  # a deal where the long-named player can declare at once
        made = post(f"{server}/api/tables", {"name": LONG, "players": 4, "seed": seed, "rated": False,
                                             "seats": [{"kind": "human"}, *bots]})
        port = server.rsplit(":", 1)[1]
        with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "table": made["table"], "token": made["token"]}))
            while True:
                msg = json.loads(ws.recv(timeout=20))
                if msg["type"] == "state" and msg["your_turn"]:
                    break
            builds = [m for m in msg["legal"] if m["kind"] in ("plain", "group")]
            if not builds:
                continue
            ws.send(json.dumps({"type": "move", "move": builds[0]["move"], "ply": msg["ply"]}))
            while True:  # the computers answer; the table waits at this player's next turn
                msg = json.loads(ws.recv(timeout=20))
                if msg["type"] == "state" and msg["your_turn"]:
                    break
            if msg["declarations"]:
                break
    else:
        pytest.skip("no deal of the first 40 seeds gives a declaration that stands a round of play")
    page = new_page(**PHONE)
    page.goto(f"{server}/?pace=0&watch={made['table']}")  # a spectator sees the owner's name on it
    page.wait_for_selector(".pile .badge")
    screenshot(page, "fair-02-declaration-long-name-390")
    badge = page.locator(".pile .badge").first.bounding_box()
    for place in ("left", "right"):
        assert not overlap(badge, page.locator(f".seatbox.at-{place}").bounding_box()), place


def luminance(rgb: tuple[float, float, float]) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


NOTE_COLORS = """sel => {
  const el = document.querySelector(sel);
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  let fg = parse(getComputedStyle(el).color);
  let alpha = (fg.length > 3 ? fg[3] : 1) * Number(getComputedStyle(el).opacity);
  let bg = null;
  for (let n = el; n && !bg; n = n.parentElement) {
    const c = parse(getComputedStyle(n).backgroundColor);
    if (c.length === 3 || (c.length > 3 && c[3] > 0.5)) bg = c.slice(0, 3);
  }
  return { fg: fg.slice(0, 3), alpha, bg: bg || [255, 255, 255] };
}"""


def contrast(page: Any, selector: str) -> float:
    got = page.evaluate(NOTE_COLORS, selector)
    fg = [got["alpha"] * f + (1 - got["alpha"]) * b for f, b in zip(got["fg"], got["bg"], strict=True)]
    hi, lo = sorted((luminance(tuple(fg)), luminance(tuple(got["bg"]))), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_leaderboard_note_is_readable(server: str, new_page: Any, screenshot: Any, scheme: str) -> None:
    page = new_page(color_scheme=scheme, **PHONE)
    page.goto(f"{server}/?leaders=overall")
    page.wait_for_selector("#leaders .note")
    screenshot(page, f"fair-03-leaderboard-{scheme}-390")
    assert contrast(page, "#leaders .note") >= 4.5


def test_profile_statistics_fit_and_one_game_is_one_game(server: str, new_page: Any, screenshot: Any,
                                                        kept_name: Any) -> None:
    me = post(f"{server}/api/players", {"name": kept_name("Κυριακή Ευαγγελοπούλου")})  # long: 24 characters
    t = post(f"{server}/api/tables", {"name": "x", "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]},
             key=me["key"])
    port = server.rsplit(":", 1)[1]
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["token"]}))
        ws.send(json.dumps({"type": "resign"}))
        while json.loads(ws.recv(timeout=20))["type"] != "game_over":
            pass
    page = new_page(**PHONE)
    page.goto(f"{server}/?player={me['player']}")
    page.wait_for_selector("#profile-stats")
    screenshot(page, "fair-04-profile-390", True)
    fits = page.evaluate("() => { const t = document.querySelector('#profile-stats');"
                         " return t.scrollWidth <= t.parentElement.clientWidth; }")
    assert fits and page.evaluate("document.documentElement.scrollWidth") <= 390
    assert re.search(r"\b1 game, 0–1", page.inner_text("#profile-opponents"))


def test_a_recovery_on_another_device_is_told_here(server: str, new_page: Any, screenshot: Any,
                                                   kept_name: Any) -> None:
    page = new_page(http_errors_expected=True, **PHONE)
    page.goto(f"{server}/")
    UI.set_name(page, kept_name("Eleftheria"))
    page.click("#become-btn")
    code = page.inner_text("#recovery-code")
    page.click("#recovery-done")
    page.wait_for_selector("#player-name")
    post(f"{server}/api/players/recover", {"recovery": code})  # the player moves to another device
    page.reload()
    page.wait_for_selector("#player-lost")
    assert "recovery code" in page.inner_text("#player-lost")
    screenshot(page, "fair-05-signed-out-390")
    page.click("#player-lost-ok")
    page.wait_for_selector("#player-lost", state="detached")


def test_the_join_page_and_the_new_table_form_show_a_rated_tables_conditions(server: str, new_page: Any,
                                                                              screenshot: Any) -> None:
    rated = post(f"{server}/api/tables", {"name": "Ann"})
    casual = post(f"{server}/api/tables", {"name": "Ann", "grace": 5, "away_level": "random"})
    page = new_page(**PHONE)
    page.goto(f"{server}/?join={rated['table']}")
    page.wait_for_selector("#join-terms")
    assert "Rated" in page.inner_text("#join-terms") and "(heuristic) after 60 s" in page.inner_text("#join-terms")
    screenshot(page, "fair-06-join-rated-390")
    page.goto(f"{server}/?join={casual['table']}")
    page.wait_for_selector("#join-terms")
    assert "Casual" in page.inner_text("#join-terms") and "(random) after 5 s" in page.inner_text("#join-terms")
    page.goto(f"{server}/")  # the form: a rated table's away level is the pool's, shown and fixed
    page.wait_for_selector("#rated")
    assert page.is_checked("#rated") and page.is_disabled("#away-level") and page.is_visible("#rated-note")
    page.uncheck("#rated")
    page.wait_for_selector("#away-level:not([disabled])")


def test_claiming_a_game_from_a_player_who_never_came(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    import random

    made = post(f"{server}/api/tables", {"name": "Ann", "grace": 1, "seed": 4})
    post(f"{server}/api/tables/{made['table']}/join", {"name": "Bob"})  # Bob never opens the table
    page = new_page(**PHONE)
    open_seat(page, server, made["table"], made["token"])
    rng = random.Random(1)
    for _ in range(40):  # Ann plays her turns; at Bob's the server hands his seat over after the grace
        if page.locator(".claim-btn").count():
            break
        if ui.status(page) == "turn":
            ui.play_turn(page, rng)
        page.wait_for_timeout(100)
    page.wait_for_selector(".seatbox.at-top .claim-btn")
    screenshot(page, "fair-07-claim-390")
    assert "out of time" not in page.inner_text(".seatbox.at-top")  # no clock here: Bob is away, not out of time
    page.click(".seatbox.at-top .claim-btn")
    page.wait_for_selector("#dlg[open] #end-reason")
    assert "aborted: Bob left before playing" in page.inner_text("#end-reason")  # he never played: no result
