"""Game review in the browser: a finished game's replay, the Review button, the progress while the worker pool
analyses, then the accuracy, the chance-to-win graph and each move's judgement beside the replay."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from typing import Any

import pytest
from websockets.sync.client import connect

pytestmark = pytest.mark.timeout(180)


def new_table(server: str, seed: int) -> dict[str, Any]:
    """A table of a person against the random computer, to a target of 11: its id and the person's token."""
    body = json.dumps({"name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                       "options": {"target": 11}, "seed": seed}).encode()
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
    assert "ακρίβεια" in page.inner_text("#review-accuracy")


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
