"""Chat and spectators in real browsers: a watch link, a spectator who sees the game but no hand, chat as
text (never markup), quick phrases in English and Greek, mute, a phone screen, and a server restart."""

from __future__ import annotations

import contextlib
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

EVIL = '<img src=x onerror="document.title=\'pwned\'"> <b>hi</b>'
SERVER = """
import sys, uvicorn
from diloti.server.app import create_app
from diloti.server.limits import Limits
app = create_app(sys.argv[1], allow_seed=True, limits=Limits("1000/minute", "1000/minute", "1000/minute", 1000))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def chat_texts(page: Any) -> list[str]:
    texts: list[str] = page.eval_on_selector_all("#chat-log li[data-id] .text", "els => els.map(e => e.textContent)")
    return texts


def wait_chat(page: Any, text: str) -> None:
    page.wait_for_function("t => [...document.querySelectorAll('#chat-log li[data-id] .text')]"
                           ".some(e => e.textContent === t)", arg=text)


def test_players_chat_and_a_spectator_watches(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    anna = new_page()
    table = ui.create_table(anna, server, "Anna", ["human"])
    anna.wait_for_selector("#waiting")
    watch_link = anna.input_value("#watch-link")
    assert watch_link == f"{server}/?watch={table}"

    # A spectator follows the watch link: the waiting room, read-only chat.
    spec = new_page()
    spec.goto(watch_link.replace("?watch=", "?pace=0&watch="))
    spec.wait_for_selector("#waiting #watching")
    assert spec.locator("#chat-readonly").count() == 1 and spec.locator("#chat-input").count() == 0
    anna.wait_for_selector("#spectators")
    assert "1 watching" in anna.inner_text("#spectators")

    # Anna chats while waiting: raw markup stays text everywhere.
    anna.fill("#chat-input", EVIL)
    anna.click("#chat-send")
    wait_chat(spec, EVIL)
    assert spec.locator("#chat-log img, #chat-log li b b").count() == 0 and spec.title() != "pwned"

    nikos = new_page()
    nikos.goto(f"{server}/?pace=0&join={table}")
    nikos.wait_for_selector("#join button[data-seat='1']")
    nikos.fill("#join-name", "Νίκος")
    nikos.click("#join button[data-seat='1']")
    for page in (anna, nikos, spec):
        page.wait_for_selector("#game")
    # The spectator sees both players, the table, and no hand at all.
    spec.wait_for_selector("#game.watching #watching")
    assert spec.locator("#hand").count() == 0 and spec.locator("#typed").count() == 0
    assert spec.locator("#seats .seatbox").count() == 2
    assert "Anna" in spec.inner_text("#seats") and "Νίκος" in spec.inner_text("#seats")
    assert spec.locator("#felt .card").count() == 4
    # Nikos, who joined after it was said, gets the earlier line too (stored with the table).
    wait_chat(nikos, EVIL)

    # Quick phrases in each player's language.
    nikos.click("#lang-btn")
    nikos.wait_for_selector("#chat-quick button:has-text('Μπράβο')")
    nikos.click("#chat-quick button:has-text('Μπράβο')")
    anna.click("#chat-quick button:has-text('Good luck')")
    for page in (anna, nikos, spec):
        wait_chat(page, "Μπράβο")
        wait_chat(page, "Good luck")
    assert spec.inner_text("#chat-log").count("Νίκος:") == 1
    screenshot(spec, "11-spectator", full=True)

    # Moves: the spectator's board follows every one.
    rng = random.Random(4)
    for _ in range(4):
        mover = anna if ui.status(anna) == "turn" else nikos
        ui.wait_status(mover, ("turn",))
        ui.play_turn(mover, rng)
        ply = ui.ply(mover)
        spec.wait_for_function(f"() => Number(document.querySelector('#game').dataset.ply) === {ply}")
        assert spec.locator("#hand .card").count() == 0
    spec.click("#history-btn")
    assert spec.locator("#dlg[open] ol.history li").count() == 4
    spec.click("#dlg-foot button")

    # Mute hides the others' lines (one's own stay), and is remembered by the browser.
    anna.click("#chat-mute")
    anna.wait_for_selector("#chat-muted")
    assert chat_texts(anna) == [EVIL, "Good luck"]
    nikos.fill("#chat-input", "γεια")
    nikos.press("#chat-input", "Enter")
    wait_chat(spec, "γεια")
    assert "γεια" not in chat_texts(anna)
    anna.reload()
    anna.wait_for_selector("#game #chat-muted")
    anna.wait_for_function("() => document.querySelectorAll('#chat-log li[data-id]').length === 2")
    anna.click("#chat-mute")
    wait_chat(anna, "γεια")
    assert chat_texts(anna) == [EVIL, "Μπράβο", "Good luck", "γεια"]

    # A reloaded spectator gets the table and the lines again; the invite dialog shows the link.
    spec.reload()
    spec.wait_for_selector("#game.watching")
    wait_chat(spec, "γεια")
    assert chat_texts(spec) == [EVIL, "Μπράβο", "Good luck", "γεια"]
    anna.click("#watch-btn")
    assert anna.input_value("#dlg[open] #watch-link") == watch_link
    anna.click("#dlg-foot button")

    # The join link of a full table offers to watch it.
    other = new_page()
    other.goto(f"{server}/?pace=0&join={table}")
    other.click("#join-watch")
    other.wait_for_selector("#game.watching")


def test_an_unknown_table_to_watch_is_a_clear_error(server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{server}/?pace=0&watch=no-such-table")
    page.wait_for_selector("#view .error")
    assert "no table" in page.inner_text("#view .error")


def test_phone_spectator_and_player_chat(server: str, new_page: Any, ui: Any, screenshot: Any) -> None:
    phone = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}
    player = new_page(**phone)
    table = ui.create_table(player, server, "Kostas", ["random"])
    spec = new_page(**phone)
    spec.goto(f"{server}/?pace=0&lang=el&watch={table}")
    spec.wait_for_selector("#game.watching")
    assert spec.inner_text("#watching") == "Παρακολουθείτε αυτό το τραπέζι."
    assert spec.inner_text("#chat h2") == "Συζήτηση"
    rng = random.Random(6)
    for _ in range(3):
        ui.wait_status(player, ("turn",))
        ui.play_turn(player, rng)
    player.click("#chat-quick button:has-text('Oops')")
    wait_chat(spec, "Oops")
    player.fill("#chat-input", "x" * 250)  # the box stops at 200 characters
    assert len(player.input_value("#chat-input")) == 200
    player.click("#chat-send")
    wait_chat(spec, "x" * 200)
    for page in (player, spec):
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        for sel in ("#chat", "#chat-log", "#chat-mute"):
            b = page.locator(sel).bounding_box()
            assert b is not None and b["x"] >= 0 and b["x"] + b["width"] <= 375, (sel, b)
    for b in [player.locator("#chat-quick button").nth(i).bounding_box() for i in range(4)]:
        assert b is not None and b["x"] + b["width"] <= 375 and b["height"] >= 36, b  # large enough to tap
    screenshot(spec, "12-phone-spectator", full=True)


# ------------------------------------------------------------------ a server restart
def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def running(db: Path, port: int) -> Iterator[str]:
    proc = subprocess.Popen([sys.executable, "-c", SERVER, f"sqlite:///{db}", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        # A loaded host takes tens of seconds to import the server (conftest.py's _serve waits 120 s too); one that
        # exits still fails at once.
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            with contextlib.suppress(OSError), urllib.request.urlopen(base + "/healthz", timeout=1) as r:
                if r.status == 200:
                    break
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_chat_and_watching_survive_a_server_restart(tmp_path: Path, browser: Any, ui: Any) -> None:
    db, port = tmp_path / "d.sqlite3", _port()
    contexts: list[Any] = []
    errors: list[str] = []

    def new_page() -> Any:
        # As the shared fixture's pages, except that a refused websocket (the server is down) is expected.
        context = browser.new_context(viewport={"width": 1000, "height": 820}, reduced_motion="reduce")
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        return page

    try:
        restart(db, port, new_page, ui)
    finally:
        for c in contexts:
            c.close()
    unexpected = [e for e in errors if "ERR_CONNECTION_REFUSED" not in e]
    assert not unexpected, unexpected


def restart(db: Path, port: int, new_page: Any, ui: Any) -> None:
    with running(db, port) as base:
        player = new_page()
        table = ui.create_table(player, base, "Eleni", ["random"])
        spec = new_page()
        spec.goto(f"{base}/?pace=0&watch={table}")
        spec.wait_for_selector("#game.watching")
        player.fill("#chat-input", "before the restart")
        player.click("#chat-send")
        wait_chat(spec, "before the restart")
        ui.wait_status(player, ("turn",))
        ui.play_turn(player, random.Random(1))
        ply = ui.ply(player)
    # The pages stay open while the server is down, then reconnect by themselves.
    with running(db, port):
        for page in (player, spec):
            page.wait_for_function("() => document.querySelector('#banner').hidden", timeout=20_000)
            wait_chat(page, "before the restart")
            page.wait_for_function(f"() => Number(document.querySelector('#game').dataset.ply) >= {ply}")
        assert chat_texts(spec) == ["before the restart"]  # not twice: the lines are sent afresh
        player.fill("#chat-input", "after")
        player.click("#chat-send")
        wait_chat(spec, "after")
        ui.wait_status(player, ("turn",))
        ui.play_turn(player, random.Random(2))
        spec.wait_for_function(f"() => Number(document.querySelector('#game').dataset.ply) > {ply}")
