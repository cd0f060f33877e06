"""The review as a coach (issue 49 item 3), in the real browser on a desktop and a phone, in English and Greek: the
key moments of the whole game in one list with the round named, the same points (with their unit) in the list and
the detail, the reasons in words, the best move drawn on the cards, a full-width graph with round dividers whose
points open their move, and Retry this position (a new casual table where the game stood, against the master)."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from typing import Any

import pytest
from websockets.sync.client import connect

pytestmark = pytest.mark.timeout(300)

CODES = {"sweep_left", "sweep_missed", "xeris", "card_given", "declaration_lost", "cards", "margin", "exact"}


def get(server: str, path: str) -> Any:
    with urllib.request.urlopen(server + path, timeout=10) as r:
        return json.loads(r.read())


def finished(server: str, seed: int, game: str = "diloti", target: int = 25) -> str:
    """A game of a person (random moves, over a websocket of its own) against the random computer: several rounds
    of Diloti (to ``target``), or a parent game's default length."""
    table: dict[str, Any] = {"name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                             "seed": seed, "game": game}
    if game == "diloti":
        table["options"] = {"target": target}
    req = urllib.request.Request(server + "/api/tables", data=json.dumps(table).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        t: dict[str, Any] = json.loads(r.read())
    rng = random.Random(seed)
    with connect(server.replace("http://", "ws://") + "/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["token"]}))
        while True:
            m = json.loads(ws.recv(timeout=90))
            if m["type"] == "game_over":
                break
            if m["type"] == "error" and m["code"] == "rate_limited":
                time.sleep(1)  # faster than the server's allowance: ask again for the position, as a client would
                ws.send(json.dumps({"type": "sync"}))
            if m["type"] == "state" and m["your_turn"]:
                ws.send(json.dumps({"type": "move", "move": rng.choice(m["legal"])["move"], "ply": m["ply"]}))
    tid: str = t["table"]
    return tid


def open_review(new_page: Any, server: str, tid: str, lang: str, **ctx: Any) -> Any:
    page = new_page(**ctx)
    page.goto(f"{server}/?replay={tid}&review=0&lang={lang}")
    page.wait_for_selector("#review-accuracy", timeout=200_000)
    return page


def no_sideways_scroll(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wide = page.evaluate("""w => [...document.querySelectorAll('body *')].filter(e => {
        const r = e.getBoundingClientRect(); return r.width > 0 && (r.right > w + 1 || r.left < -1); })
        .map(e => e.id || e.className).slice(0, 5)""", width)
    assert not wide, wide


@pytest.fixture(scope="module")
def game(server: str) -> tuple[str, dict[str, Any]]:
    """A finished Diloti game of several rounds and its review of seat 0 (asked for once, through the API)."""
    tid = finished(server, seed=11)
    req = urllib.request.Request(f"{server}/api/tables/{tid}/review", data=json.dumps({"seat": 0}).encode(),
                                 headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req, timeout=10).close()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        s = get(server, f"/api/tables/{tid}/review?seat=0")
        if s["status"] == "done":
            return tid, s["review"]
        time.sleep(0.3)
    raise AssertionError("the review did not finish")


def test_the_key_moments_of_every_round_with_reasons_on_a_desktop(server: str, new_page: Any, screenshot: Any,
                                                                  game: tuple[str, dict[str, Any]]) -> None:
    tid, review = game
    decisions = review["decisions"]
    marked = [d for d in decisions if d["mark"]]
    rounds = sorted({d["round"] for d in decisions if d["judged"] and d["win_after"] is not None})
    assert len(rounds) >= 2 and marked, (rounds, len(marked))  # a game of several rounds, with mistakes
    page = open_review(new_page, server, tid, "en", viewport={"width": 1366, "height": 800})
    # One list for the whole game, each moment named by its round (not only the round on show).
    assert page.inner_text("#review-list-title") == f"Key moments of the whole game ({len(marked)})"
    items = page.locator("#review-list button")
    assert items.count() == len(marked)
    for i, d in enumerate(marked):
        assert items.nth(i).inner_text().startswith(f"Round {d['round']} · {d['number']}. ")
    # The graph runs the page's width, a divider between rounds, a label for each.
    graph = page.locator("#review-graph").bounding_box()
    assert graph is not None and graph["width"] >= 0.9 * 1366 - 60, graph
    assert page.locator("#review-graph .divider").count() == len(rounds) - 1
    assert page.locator("#review-graph .round-label").count() == len(rounds)
    # The worst moment: the same points, with their unit, in the list and the detail; the reasons; the best move
    # drawn as cards.
    worst = max(marked, key=lambda d: d["lost"])
    page.click(f'#review-list [data-ply="{worst["ply"]}"]')
    page.wait_for_selector("#review-lost")
    figure = f"{worst['lost']:.1f} points"
    assert figure in page.inner_text(f'#review-list [data-ply="{worst["ply"]}"]')
    assert page.inner_text("#review-lost").startswith(f"Points lost: {figure}")
    codes = page.eval_on_selector_all("#review-reasons li", "els => els.map(e => e.dataset.code)")
    assert codes and set(codes) <= CODES, codes
    texts = page.eval_on_selector_all("#review-reasons li", "els => els.map(e => e.textContent)")
    assert all(len(t) > 20 for t in texts), texts
    best_cards = page.eval_on_selector_all("#review-best .card", "els => els.map(e => e.dataset.card)")
    assert best_cards and best_cards[0] == worst["best"].split()[0], (best_cards, worst["best"])
    assert re.search(r"expected [+−]\d+\.\d points in the round", page.inner_text("#review-best"))
    screenshot(page, "60-review-desktop", full=True)  # the whole game's graph under the replay too
    # A point of the graph opens its move.
    other = next(d for d in decisions if d["judged"] and d["win_after"] is not None and d["ply"] != worst["ply"])
    page.locator(f'#review-graph .hit[data-ply="{other["ply"]}"]').dispatch_event("click")
    page.wait_for_function("p => document.querySelector('#review-graph line.now') && "
                           "document.querySelector('#review-played')", arg=other["ply"])
    assert page.locator("#review-played .card").first.get_attribute("data-card") == other["played"].split()[0]
    no_sideways_scroll(page, 1366)


def test_the_review_on_a_phone_in_greek(server: str, new_page: Any, screenshot: Any,
                                        game: tuple[str, dict[str, Any]]) -> None:
    tid, review = game
    marked = [d for d in review["decisions"] if d["mark"]]
    worst = max(marked, key=lambda d: d["lost"])
    for width, height in ((390, 844), (320, 640), (844, 390)):
        page = open_review(new_page, server, tid, "el", viewport={"width": width, "height": height}, is_mobile=True,
                           has_touch=True)
        page.click(f'#review-list [data-ply="{worst["ply"]}"]')
        page.wait_for_selector("#review-reasons li")
        figure = f"{worst['lost']:.1f}".replace(".", ",")  # a decimal comma
        assert page.inner_text("#review-lost").startswith(f"Πόντοι που χάθηκαν: {figure}")
        assert re.search("[α-ω]{4}", page.inner_text("#review-reasons"))  # the reasons in Greek
        assert "Γύρος" in page.inner_text("#review-list")
        no_sideways_scroll(page, width)
        # Fingers: the list's moments and Retry are at least 44 px tall.
        for sel in ("#review-list button", "#review-retry"):
            box = page.locator(sel).first.bounding_box()
            assert box is not None and box["height"] >= 44, (sel, box)
        if width == 390:
            page.locator("#review-move").scroll_into_view_if_needed()
            screenshot(page, "61-review-phone-greek")


def test_a_parent_games_graph_is_the_points_lost(server: str, new_page: Any, screenshot: Any) -> None:
    # Xeri has no model of the chance to win: its graph shows what each move lost, every hand divided.
    tid = finished(server, seed=3, game="xeri")
    page = open_review(new_page, server, tid, "en", viewport={"width": 390, "height": 844}, is_mobile=True,
                       has_touch=True)
    assert page.get_attribute("#review-graph", "data-kind") == "lost"
    assert page.locator("#review-graph rect.bar").count() > 3
    no_sideways_scroll(page, 390)
    page.evaluate("document.querySelector('#review-graph-panel').scrollIntoView({block: 'center'})")
    screenshot(page, "62-review-xeri-phone")


def test_retry_this_position(server: str, new_page: Any, ui: Any, screenshot: Any,
                             game: tuple[str, dict[str, Any]]) -> None:
    tid, review = game
    worst = max((d for d in review["decisions"] if d["mark"]), key=lambda d: d["lost"])
    page = open_review(new_page, server, tid, "en", viewport={"width": 1366, "height": 800})
    page.click(f'#review-list [data-ply="{worst["ply"]}"]')
    page.click("#review-retry")
    page.wait_for_url(re.compile(r"\?table="))
    ui.wait_status(page, ("turn",), timeout=60)
    # The position as it stood before that move: the same hand, the table's cards, the seat's own view only.
    frames = [fr for rd in get(server, f"/api/tables/{tid}/replay")["rounds"] for fr in rd["frames"]]
    before = [fr for fr in frames if fr["ply"] == worst["ply"]][-1]  # a round's first frame, not the last's
    assert sorted(ui.hand(page)) == sorted(before["hands"][0])
    assert ui.ply(page) == worst["ply"]
    new = page.evaluate("new URLSearchParams(location.search).get('table')")
    summary = get(server, f"/api/tables/{new}")
    assert summary["rated"] is False and summary["seats"][1]["level"] == "master"
    screenshot(page, "63-retry-position")


def test_the_review_passes_axe(server: str, new_page: Any, game: tuple[str, dict[str, Any]]) -> None:
    axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")
    tid, review = game
    worst = max((d for d in review["decisions"] if d["mark"]), key=lambda d: d["lost"])
    rules = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
             "resultTypes": ["violations"]}
    for scheme in ("light", "dark"):
        page = open_review(new_page, server, tid, "en", color_scheme=scheme)
        page.click(f'#review-list [data-ply="{worst["ply"]}"]')
        page.wait_for_selector("#review-reasons li")
        result = axe_sync.Axe().run(page, options=rules)
        found = [f"{v['id']}: {n['target']}" for v in result.response["violations"] for n in v["nodes"]]
        assert not found, (scheme, found)
