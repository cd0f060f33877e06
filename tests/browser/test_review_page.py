"""Game review in the browser: a finished game's replay, the Review button, the progress while the worker pool
analyses, then the accuracy, the chance-to-win graph and each move's judgement beside the replay."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from typing import Any

import pytest
from websockets.sync.client import connect

pytestmark = pytest.mark.timeout(180)


def new_table(server: str, seed: int, game: str = "diloti") -> dict[str, Any]:
    """A table of a person against the random computer, to a target of 11 (Diloti; a parent game: its own
    length): its id and the person's token."""
    table: dict[str, Any] = {"name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                             "seed": seed, "game": game}
    if game == "diloti":
        table["options"] = {"target": 11}
    body = json.dumps(table).encode()
    req = urllib.request.Request(server + "/api/tables", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        t: dict[str, Any] = json.loads(r.read())
    return t


def play_out(server: str, t: dict[str, Any], seed: int) -> None:
    """The person's moves (random, over a websocket of its own) until the game is over."""
    rng = random.Random(seed)
    with connect(server.replace("http://", "ws://") + "/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["token"]}))
        while True:
            m = json.loads(ws.recv(timeout=90))  # a loaded machine: the first computer move starts the pool
            if m["type"] == "game_over":
                break
            if m["type"] == "error" and m["code"] == "rate_limited":
                # Faster than the server's 20 messages a second (a random bot answers at once): the move was
                # dropped. Ask again for the position once the allowance is back, as a real client would.
                time.sleep(1)
                ws.send(json.dumps({"type": "sync"}))
            if m["type"] == "state" and m["your_turn"]:
                ws.send(json.dumps({"type": "move", "move": rng.choice(m["legal"])["move"], "ply": m["ply"]}))


def finished_game(server: str, seed: int = 3) -> str:
    """A game of a person (random moves, over the websocket) against the random computer, to a target of 11."""
    t = new_table(server, seed)
    play_out(server, t, seed)
    tid: str = t["table"]
    return tid


def test_review_button_on_a_replay(server: str, new_page: Any) -> None:
    tid = finished_game(server)
    page = new_page()
    page.goto(f"{server}/?replay={tid}&lang=en")
    page.wait_for_selector("#replay #review-btn")
    assert page.locator("#review-accuracy").count() == 0
    page.select_option("#review-seat", "0")
    page.click("#review-btn")
    page.wait_for_selector("#review-accuracy", timeout=120_000)
    assert page.inner_text("#review-accuracy").startswith("Ann: accuracy ")
    assert page.locator("#review-btn").count() == 0  # done: stored, nothing more to ask for
    assert page.locator("#review-graph circle").count() > 3
    assert page.inner_text("#review-move") == "Step to a move to see its review."
    # Step to Ann's first move (seat 0 moves second when seat 0 deals... whichever it is, one of the first two).
    page.click("#replay-next")
    if "Not Ann" in page.inner_text("#review-move"):
        page.click("#replay-next")
    mark = page.inner_text("#review-mark")
    assert mark in ("Good move", "Forced (the only move)", "Inaccuracy", "Mistake", "Blunder")
    assert "Played:" in page.inner_text("#review-move")
    # A dot of the graph takes the replay to its move.
    before = page.inner_text("#replay-step")
    page.locator("#review-graph circle").nth(5).dispatch_event("click")
    page.wait_for_function("b => document.querySelector('#replay-step').textContent !== b", arg=before)
    assert page.locator("#review-move").count() == 1
    # The help says what the marks mean; in Greek too, and the stored review comes back at once.
    page.click("#review-help summary")
    assert "blunder" in page.inner_text("#review-help")
    page.goto(f"{server}/?replay={tid}&review=0&lang=el")
    page.wait_for_selector("#review-accuracy")
    assert re.fullmatch(r"Ann: ακρίβεια \d+,\d", page.inner_text("#review-accuracy"))  # a decimal comma


def test_review_from_the_game_over_screen(server: str, new_page: Any) -> None:
    t = new_table(server, seed=4)
    page = new_page()
    page.goto(f"{server}/?lang=en")
    page.evaluate("([id, token]) => localStorage.setItem('diloti.token.' + id, token)", [t["table"], t["token"]])
    page.goto(f"{server}/?table={t['table']}&lang=en&pace=0")  # the other seat's moves at once
    page.wait_for_selector("#toolbar")
    play_out(server, t, seed=4)  # the same seat, played from another connection: this page follows
    page.wait_for_selector("#end-review", timeout=60_000)
    page.click("#end-review")
    page.wait_for_selector("#review-accuracy", timeout=120_000)  # the review of this seat starts by itself
    assert page.inner_text("#review-accuracy").startswith("Ann: accuracy ")
    assert page.input_value("#review-seat") == "0"


def test_a_xeri_review_with_whole_table_sweeps_fits_a_phone(server: str, new_page: Any) -> None:
    # Random play in Xeri leaves big tables that a jack sweeps: the longest moves a review shows. On a phone
    # they wrap; nothing scrolls sideways.
    t = new_table(server, seed=3, game="xeri")
    play_out(server, t, seed=3)
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(f"{server}/?replay={t['table']}&review=0&lang=en")
    page.wait_for_selector("#review-accuracy", timeout=120_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    with urllib.request.urlopen(f"{server}/api/tables/{t['table']}/review?seat=0", timeout=10) as r:
        decisions = json.loads(r.read())["review"]["decisions"]
    widest = max((d for d in decisions if d["mark"] is not None), key=lambda d: len(d["best"]))  # in the list
    assert widest["best"].count(" ") > 12, widest  # a sweep of a dozen cards or more
    page.select_option("#replay-round", str(widest["round"] - 1))  # its round (the list holds every round's)
    page.click(f'#review-list [data-ply="{widest["ply"]}"]')
    # The best move is drawn as its cards, which wrap.
    page.wait_for_function("n => document.querySelectorAll('#review-best .card').length > n", arg=12)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.inner_text("#review-move")
    fits = page.evaluate("""() => { const e = document.querySelector('#review-best'), r = e.getBoundingClientRect();
                                     return [e.scrollWidth <= e.clientWidth, r.left >= 0 && r.right <= 390]; }""")
    assert fits == [True, True], page.inner_text("#review-best")  # wrapped whole on the screen, not cut off
    # The move on show is the bold one of the round's list, in the light scheme too (an unclosed block once
    # made it dark-only).
    assert page.evaluate("getComputedStyle(document.querySelector('#review-list li.now')).fontWeight") == "700"


def test_a_review_on_a_phone_held_sideways(server: str, new_page: Any) -> None:
    # Sideways, the replay and its review sit side by side (the page is wider than a phone held upright): the
    # graph and the move's judgement stay on the screen, in Greek's longer words too.
    tid = finished_game(server, seed=6)
    for width, height in ((844, 390), (667, 375)):
        page = new_page(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
        page.goto(f"{server}/?replay={tid}&review=0&lang=el")
        page.wait_for_selector("#review-accuracy", timeout=120_000)
        page.click("#replay-next")
        page.click("#replay-next")
        page.wait_for_selector("#review-move")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for part in ("#review-graph", "#review-move", "#replay"):
            box = page.locator(part).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (part, box)


def test_a_failed_review_is_said_in_the_page_language(server: str, new_page: Any) -> None:
    # A worker fault is hard to cause on purpose: the server's answer for one is given in its place. Its
    # message is English (it names the fault); a Greek page says the failure in Greek.
    tid = finished_game(server, seed=5)
    failed = {"status": "failed", "table": tid, "seat": 0, "done": 0, "total": 0, "position": 0,
              "message": "the review could not be made (RuntimeError); ask again to retry", "review": None}
    for lang, said in (("en", failed["message"]), ("el", "Η ανάλυση δεν έγινε· ζητήστε την ξανά.")):
        page = new_page()
        page.route(f"**/api/tables/{tid}/review?seat=0", lambda route: route.fulfill(json=failed))
        page.goto(f"{server}/?replay={tid}&review=0&lang={lang}")
        page.wait_for_selector("#review-error")
        assert page.inner_text("#review-error") == said
        assert page.get_attribute("#review-error", "role") == "alert"  # a screen reader says it as it appears
