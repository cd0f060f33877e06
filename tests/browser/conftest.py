"""Fixtures for the real-browser tests: a live server and headless Chromium.

The server is the real application (``diloti.server.app.create_app`` under uvicorn,
in a subprocess, on a free loopback port, with a temporary SQLite database). The
browser is Debian's ``chromium`` driven by Playwright through its executable path.
The tests are skipped when Chromium cannot be found, unless ``CI`` is set: in CI
they must run.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from diloti.store.players import name_key

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

# The server binds its port (any free one) before anything else and writes which to the file argv[2]: between
# choosing the port and listening on it nothing else can take it (other suites' servers run on this machine too,
# and the server takes tens of seconds to import on a loaded host).
SERVER_HEAD = """
import os, socket, sys
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
with open(sys.argv[2] + ".part", "w") as f:
    f.write(str(sock.getsockname()[1]))
os.replace(sys.argv[2] + ".part", sys.argv[2])
"""

SERVER_TAIL = """
import uvicorn
from diloti.server.app import create_app
from diloti.server.limits import Limits
# Every browser test comes from one address, faster than a person: the per-address limits are tested elsewhere.
# All of them are lifted, not only the tables': the session's one server counts every test's new players, logins,
# recoveries, daily deals and reads from 127.0.0.1 together, and a count that ran out would fail whichever test
# came after it (new players: 20 an hour by default, and the browser tests keep 15).
# A game review at 2 worlds a decision: its page is tested, not its judgement (tests/test_review.py does that).
app = create_app(sys.argv[1], allow_seed=True, review_worlds=2, limits=Limits(
    create="1000/minute", join="1000/minute", hint="1000/minute", connections=1000, players="1000/minute",
    recover="1000/minute", login="1000/minute", daily="1000/minute", poll="10000/minute"))
uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
"""

SERVER_CODE = SERVER_HEAD + SERVER_TAIL

# The same server with a fourth game registered, defined only in tests/toy_game.py (argv[3] is tests/): the page
# draws it from what /api/info says of it, with no script of its own.
TOY_SERVER_CODE = SERVER_HEAD + """
sys.path.insert(0, sys.argv[3])
from diloti.games import register_game
from toy_game import PAIRS
register_game(PAIRS)
""" + SERVER_TAIL


def chromium_path() -> str | None:
    env = os.environ.get("DILOTI_CHROMIUM")
    for cand in (env, "/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests must run in CI, but {reason} (run scripts/install-browser)")
    pytest.skip(f"{reason}: install it with scripts/install-browser to run the browser tests")


# The database of each running server, by base URL: the names its players keep are checked after each test.
DATABASES: dict[str, Path] = {}


def _serve(tmp_path_factory: pytest.TempPathFactory, code: str, *extra: str) -> Iterator[str]:
    """Run the server ``code`` on a new database; yields its base URL while it runs."""
    db = tmp_path_factory.mktemp("browser-db") / "diloti.sqlite3"
    port_file = db.parent / "port"
    log = (db.parent / "server.log").open("w")
    proc = subprocess.Popen([sys.executable, "-c", code, f"sqlite:///{db}", str(port_file), *extra],
                            stdout=log, stderr=subprocess.STDOUT)
    base = ""
    try:
        # A slow host takes tens of seconds to import the server (32 to 42 s seen in a session): a server that
        # does start is waited for, and one that exits still fails at once.
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {(db.parent / 'server.log').read_text()[-2000:]}")
            if not base and port_file.exists():
                base = f"http://127.0.0.1:{int(port_file.read_text())}"
            if base:
                with contextlib.suppress(OSError), urllib.request.urlopen(base + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer /healthz within 120 s")
            time.sleep(0.1)
        DATABASES[base] = db
        yield base
    finally:
        DATABASES.pop(base, None)
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running server (one per test session)."""
    yield from _serve(tmp_path_factory, SERVER_CODE)


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running server that also plays *Pairs*, the toy game of tests/toy_game.py."""
    yield from _serve(tmp_path_factory, TOY_SERVER_CODE, str(Path(__file__).parents[1]))


# Kept names. The session's one server serves every browser test, in a random order, and a name a player keeps
# (registers) is refused to every guest after it (409 name_taken: CI, 28 Nov 2026, a kept "Eleni" failed 13 later
# tests that seat a guest "Eleni"). So a test keeps only names made by ``kept_name``: its base and a tag of the
# test's own (two letters or digits from a hash of the test's node id), which no literal guest name in the tests
# carries, and which is unique in the session (a clash of two tests fails them at once, in any order). After
# each test the server's database is read: a name kept any other way fails that test, whatever ran before it.
NAME_MAX = 24  # diloti.server.protocol.clean_name's bound
TAG_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # no I, L, O, U: not read as digits or words
ISSUED: dict[str, str] = {}  # name_key of each kept name made in this session -> the node id of its test


def make_kept_name(nodeid: str, base: str) -> str:
    """``base`` and the tag of test ``nodeid``, at most :data:`NAME_MAX` characters (a long base is cut: a test of
    long names gets a name as long as the rules allow).

    >>> make_kept_name("tests/browser/test_x.py::test_y", "Elpida")
    'Elpida NB'
    >>> len(make_kept_name("t::u", "Κυριακή Ευαγγελοπούλου"))
    24
    """
    digest = hashlib.sha256(f"{nodeid}\0{base}".encode()).digest()
    tag = TAG_ALPHABET[digest[0] % 32] + TAG_ALPHABET[digest[1] % 32]
    return f"{base[:NAME_MAX - len(tag) - 1].rstrip()} {tag}"


@pytest.fixture()
def kept_name(request: pytest.FixtureRequest) -> Callable[[str], str]:
    """A factory of names for this test's players who come back (see :func:`make_kept_name`): the only names a
    browser test may keep, rename a player to, or make a bot account under."""
    def make(base: str) -> str:
        name = make_kept_name(request.node.nodeid, base)
        first = ISSUED.setdefault(name_key(name), request.node.nodeid)
        assert first == request.node.nodeid, f"kept name {name!r} of {request.node.nodeid} was {first}'s already"
        return name
    return make


def _names_kept(db: Path) -> set[str]:
    """The names the server's players keep now (read only: the server is writing)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as con:
        return {row[0] for row in con.execute("SELECT name FROM players WHERE name IS NOT NULL")}


@pytest.fixture(autouse=True)
def _only_kept_names(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test that kept a name not made by ``kept_name`` (a later test's guest could not sit under it)."""
    used = [f for f in ("server", "toy_server") if f in request.fixturenames]
    bases = [request.getfixturevalue(f) for f in used]
    before = {base: _names_kept(DATABASES[base]) for base in bases}
    yield
    for base in bases:
        new = {n for n in _names_kept(DATABASES[base]) - before[base] if name_key(n) not in ISSUED}
        assert not new, (f"{request.node.nodeid} kept the names {sorted(new)} on the session's shared server: a "
                         "player's name is refused to every later guest; make kept names with the kept_name fixture")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    exe = chromium_path()
    if exe is None:
        _missing("Chromium was not found at /usr/bin/chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


# The browser contexts each running test opened, by node id: what their pages showed is added to a failure.
OPEN_CONTEXTS: dict[str, list[Any]] = {}


def _what_the_pages_showed(nodeid: str) -> str:
    """Each open page's address and text, and the tail of each server's log: a failure that could not be
    reproduced (a wait that timed out once in CI) says what the page had drawn and what the server did."""
    parts: list[str] = []
    for context in OPEN_CONTEXTS.get(nodeid, []):
        for page in context.pages:
            try:
                text = page.evaluate("() => document.body ? document.body.innerText : ''")
            except Exception as e:  # a closed or crashed page: say so and go on to the others
                text = f"(could not read the page: {e})"
            parts.append(f"--- page {page.url}\n{text[:1500]}")
    for db in DATABASES.values():
        log = db.parent / "server.log"
        if log.exists():
            tail = log.read_text(errors="replace").splitlines()[-40:]
            parts.append(f"--- the last lines of {log}\n" + "\n".join(tail))
    return "\n".join(parts)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call" and report.failed:
        report.sections.append(("what the pages showed", _what_the_pages_showed(item.nodeid)))
    return report


@pytest.fixture()
def new_page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A factory of pages, each in its own browser context (own localStorage); errors fail the test."""
    contexts: list[Any] = []
    OPEN_CONTEXTS[request.node.nodeid] = contexts
    errors: list[str] = []

    def make(http_errors_expected: bool = False, **ctx: Any) -> Any:
        """``http_errors_expected``: the browser's own log lines for failed requests (a 401 the test
        provokes) are not errors of the page."""
        ctx.setdefault("viewport", {"width": 1000, "height": 820})
        # No animations: clicks need not wait for cards to settle.
        ctx.setdefault("reduced_motion", "reduce")
        context = browser.new_context(**ctx)
        context.set_default_timeout(30_000)  # a wait for what the page shows: a loaded host draws slowly
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        def on_console(m: Any) -> None:
            if m.type == "error" and not (http_errors_expected and m.text.startswith("Failed to load resource")):
                errors.append(f"console error: {m.text}")
        page.on("console", on_console)
        return page

    yield make
    OPEN_CONTEXTS.pop(request.node.nodeid, None)
    for c in contexts:
        c.close()
    assert not errors, errors


def shot(page: Any, name: str, full: bool = False) -> None:
    """Save a screenshot under $DILOTI_SCREENSHOTS (docs/screenshots when making them)."""
    out = os.environ.get("DILOTI_SCREENSHOTS")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        path = str(Path(out) / f"{name}.png")
        if full and page.evaluate("matchMedia('(pointer: coarse)').matches"):
            # Chromium's full-page capture drops the touch screen's emulation (a phone's page would be drawn for
            # a mouse): the screen is made as tall as the page instead, then put back.
            size = page.viewport_size
            page.set_viewport_size({"width": size["width"], "height": page.evaluate(
                "Math.max(document.documentElement.scrollHeight, innerHeight)")})
            page.screenshot(path=path)
            page.set_viewport_size(size)
        else:
            page.screenshot(path=path, full_page=full)


@pytest.fixture()
def screenshot() -> Any:
    return shot


STATUS_JS = """() => {
  const d = document.querySelector('#dlg');
  if (d && d.open) return 'dialog:' + (d.dataset.name || '');
  const g = document.querySelector('#game');
  if (!g) return document.querySelector('#waiting') ? 'waiting' : 'loading';
  if (g.dataset.waiting === '0' && document.querySelector('#turn.mine')) return 'turn';
  return 'other';
}"""


OFFER_JS = """() => ({
  moves: [...document.querySelectorAll('#choices button[data-move]')].map(b => b.dataset.move),
  open: [...document.querySelectorAll('#felt button:not([disabled])[aria-pressed=false]')].map(b => b.dataset.unit),
})"""


SEEN_JS = """([card, ply]) => ({msg: document.querySelector('#msg')?.textContent,
  waiting: document.querySelector('#game')?.dataset.waiting, ply: document.querySelector('#game')?.dataset.ply,
  before: ply, pressed: document.querySelector(`#hand button[data-card='${card}']`)?.getAttribute('aria-pressed'),
  hand: [...document.querySelectorAll('#hand button.card')].map(b => b.dataset.card + (b.disabled ? '-' : '')),
  dialog: document.querySelector('#dlg')?.open ? document.querySelector('#dlg').dataset.name : null})"""


class UI:
    """Driving the page by real clicks, as a player would."""

    @staticmethod
    def status(page: Any) -> str:
        result: str = page.evaluate(STATUS_JS)
        return result

    @staticmethod
    def wait_status(page: Any, wanted: tuple[str, ...], timeout: float = 15.0) -> str:
        """Wait until the page is in one of ``wanted`` states (prefix match)."""
        deadline = time.monotonic() + timeout
        while True:
            st = UI.status(page)
            if any(st.startswith(w) for w in wanted):
                return st
            if time.monotonic() > deadline:
                raise AssertionError(f"page stuck in {st!r}, waiting for {wanted}")
            page.wait_for_timeout(40)

    @staticmethod
    def continue_round(page: Any) -> None:
        """Close the round's score dialog with a real click if it is still open. The last round's gives way to the
        game's as soon as the game-over message follows it, which can come between reading the status and the click:
        then there is nothing to close. A dialog that stays open and cannot be clicked fails the test."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        try:
            page.click("#dlg[open][data-name='round-over'] #round-continue", timeout=3000)
        except PlaywrightTimeoutError:
            if UI.status(page) == "dialog:round-over":
                raise

    @staticmethod
    def ply(page: Any) -> int:
        return int(page.get_attribute("#game", "data-ply"))

    @staticmethod
    def hand(page: Any) -> list[str]:
        cards: list[str] = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
        return cards

    @staticmethod
    def played(page: Any, ply: int) -> bool:
        """Whether a move was sent (or made) since ``ply``: a tap on a card with one legal move plays it."""
        done: bool = page.evaluate(f"""() => document.querySelector('#game').dataset.waiting === '1'
            || Number(document.querySelector('#game').dataset.ply) > {ply}""")
        return done

    @staticmethod
    def play_turn(page: Any, rng: Any) -> str:
        """Make one move by clicking: a hand card, some table cards or piles, then a move button (a card with one
        legal move is played by its tap alone).

        Returns the notation of the move clicked ("" when the card's tap played it).
        """
        ply = UI.ply(page)
        cards = page.eval_on_selector_all("#hand button.card:not([disabled])", "els => els.map(e => e.dataset.card)")
        assert cards, "no playable card in hand on my turn"
        card = rng.choice(cards)
        page.click(f"#hand button[data-card='{card}']")
        if UI.played(page, ply):
            page.wait_for_function(f"() => Number(document.querySelector('#game').dataset.ply) > {ply}")
            return ""
        for _ in range(30):
            offer = page.evaluate(OFFER_JS)
            if offer["open"] and (not offer["moves"] or rng.random() < 0.35):
                page.click(f"#felt button[data-unit='{rng.choice(offer['open'])}']")
                continue
            if not offer["moves"]:
                # Seen twice in CI (29 Nov 2026, test_two_players), with the card picked and "Or lay" shown in the
                # page's text: wait for the table to draw its offer, and say what the page held if it never does.
                try:
                    offered = f"() => {{ const o = ({OFFER_JS})(); return o.moves.length || o.open.length; }}"
                    page.wait_for_function(offered, timeout=10_000)
                except Exception as exc:  # Playwright's TimeoutError
                    raise AssertionError(f"no move offered after a click on {card}: "
                                         f"{page.evaluate(SEEN_JS, [card, ply])}") from exc
                continue
            move: str = rng.choice(offer["moves"])
            page.click(f"#choices button[data-move='{move}']")
            page.wait_for_function(f"() => Number(document.querySelector('#game').dataset.ply) > {ply}")
            return move
        raise AssertionError(f"could not complete a move by clicking {card}: {page.evaluate(SEEN_JS, [card, ply])}")

    @staticmethod
    def open_rule_options(page: Any) -> None:
        """Open the new-table form's rule options and wait until they show.

        A click on the summary landed once while the form was drawn again and left them closed (CI rehearsal,
        28 Nov 2026): the summary is clicked again while they stay closed.
        """
        deadline = time.monotonic() + 30
        while not page.evaluate("() => !!document.querySelector('#new-table details')?.open"):
            assert time.monotonic() < deadline, "the rule options never opened"
            page.click("#new-table details summary")
            page.wait_for_timeout(100)
        page.wait_for_selector("#new-table details input[type=checkbox]", state="visible")

    @staticmethod
    def open_identity(page: Any) -> None:
        """Expand the start page's identity control (who plays on this device: the name, sign-in, settings).

        The page opens the control itself when it has something to say there (a key another device replaced):
        a tap that came just after folded it again (CI, 29 Nov 2026), so the summary is tapped while it is closed.
        """
        page.wait_for_selector("#player-panel")
        deadline = time.monotonic() + 30
        while not page.evaluate("() => !!document.querySelector('#player-panel')?.open"):
            assert time.monotonic() < deadline, "the identity control never opened"
            page.click("#player-panel > summary")
            page.wait_for_timeout(200)

    @staticmethod
    def set_name(page: Any, name: str) -> None:
        """Type the name a guest plays under, in the identity control (a player who keeps a name plays under it)."""
        page.wait_for_selector("#player-panel")
        if page.get_attribute("#player-panel", "data-player"):
            return
        UI.open_identity(page)
        page.fill("#name", name)

    @staticmethod
    def create_table(page: Any, base: str, name: str, seats: list[str], target: int | None = None,
                     players: int = 2) -> str:
        """Fill and send the new-table form; returns the table id from the address."""
        page.goto(base + "/?pace=0")
        page.wait_for_selector("#new-table #seat-1")
        UI.set_name(page, name)
        if players == 4:
            page.check("input[name=players][value='4']")
            page.wait_for_selector("#seat-3")
        for i, kind in enumerate(seats, start=1):
            page.select_option(f"#seat-{i}", kind)
        if target is not None:
            page.fill("#target", str(target))
        page.click("#create")
        page.wait_for_selector("#game, #waiting")
        table: str = page.evaluate("new URLSearchParams(location.search).get('table')")
        assert table
        return table


    # Read in one evaluation: the table renders again as the computer plays, and an element looked up in one
    # call and measured in the next may be gone by then (its box: None).
    _BOXES = """sel => [...document.querySelectorAll(sel)].map(el => { const r = el.getBoundingClientRect();
        return {seat: el.dataset.seat, place: el.dataset.place, x: r.x, y: r.y, width: r.width, height: r.height}; })"""

    @staticmethod
    def seat_places(page: Any) -> dict[str, dict[str, Any]]:
        """Each seat box's place and box, by seat, as of one moment."""
        return {b.pop("seat"): b for b in page.evaluate(UI._BOXES, "#seats .seatbox")}

    @staticmethod
    def settled_layout(page: Any) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
        """The seat boxes and the felt's box, read in one evaluation once two reads in a row agree.

        The computer players move while the page is read, and the felt grows and shrinks with the cards on it;
        seats read in one call and the felt in the next once disagreed (CI, 27 Nov 2026: my seat above the felt's
        bottom edge by 68 px).
        """
        read = f"() => ({{seats: ({UI._BOXES})('#seats .seatbox'), felt: ({UI._BOXES})('#felt')[0]}})"
        last = None
        deadline = time.monotonic() + 30
        while True:
            now = page.evaluate(read)
            if now == last:
                break
            # A layout that never settles is a finding of its own, not a read to check places against.
            assert time.monotonic() < deadline, f"the seats and felt kept moving for 30 s; last read {now}"
            last = now
            page.wait_for_timeout(100)
        return {b.pop("seat"): b for b in now["seats"]}, now["felt"]

    @staticmethod
    def check_sitting(page: Any, width: int) -> None:
        """Me at the bottom, the next player (seat 1) on the right, my partner opposite, seat 3 on the left."""
        places, felt = UI.settled_layout(page)
        assert {k: v["place"] for k, v in places.items()} == {"0": "bottom", "1": "right", "2": "top", "3": "left"}
        assert places["2"]["y"] + places["2"]["height"] <= felt["y"] + 1  # partner above the table
        assert places["0"]["y"] >= felt["y"] + felt["height"] - 1  # me below it
        assert places["3"]["x"] + places["3"]["width"] <= felt["x"] + 1  # opponents left and right
        assert places["1"]["x"] >= felt["x"] + felt["width"] - 1
        for b in places.values():
            assert b["x"] >= 0 and b["x"] + b["width"] <= width, b
        assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.fixture()
def ui() -> type[UI]:
    return UI
