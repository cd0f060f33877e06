"""The page's move-matching module (static/js/moves.js) and its strings (static/js/i18n.js), run inside Chromium."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(30)]

LEGAL = [
    {"text": "4D + 4C = 8", "card": "4D", "kind": "plain", "value": 8, "cards": ["4C"]},
    {"text": "4D + 4C = 4G", "card": "4D", "kind": "group", "value": 4, "cards": ["4C"]},
    {"text": "4D x 4C", "card": "4D", "kind": "capture", "value": 4, "cards": ["4C"]},
    {"text": "4D", "card": "4D", "kind": "lay", "value": 4, "cards": []},
    {"text": "9D x 4C 5H", "card": "9D", "kind": "capture", "value": 9, "cards": ["4C", "5H"]},
    {"text": "9D x 3S 6H 4C 5H", "card": "9D", "kind": "capture", "value": 9, "cards": ["3S", "4C", "5H", "6H"]},
    {"text": "9D x 3S 6H", "card": "9D", "kind": "capture", "value": 9, "cards": ["3S", "6H"]},
]
DECLS = [{"cards": ["3S", "6H"], "value": 9, "kind": "plain", "owner": 1}]


@pytest.fixture()
def home(server: str, new_page: Any) -> Any:
    """The start page, loaded: the page's modules import from it."""
    page = new_page()
    page.goto(server + "/?pace=0")
    page.wait_for_selector("#new-table")
    return page


@pytest.fixture()
def js(home: Any) -> Any:
    page = home

    def run(body: str, *args: Any) -> Any:
        # Playwright compiles the function itself: the page's CSP forbids eval and new Function.
        return page.evaluate(f"async (args) => {{ const M = await import('/static/js/moves.js'); {body} }}",
                             list(args))
    return run


def test_parse_move(js: Any) -> None:
    assert js("return M.parseMove(args[0])", "9d x 4h 5c") == {
        "text": "9d x 4h 5c", "card": "9D", "kind": "capture", "cards": ["4H", "5C"], "value": 9}
    assert js("return M.parseMove(args[0])", "4C+4D=4g")["kind"] == "group"
    assert js("return M.parseMove(args[0])", "t♦")["card"] == "10D"
    assert js("return M.parseMove(args[0])", "5S + 3C = 8")["value"] == 8
    assert js("return M.parseMove(args[0])", "keep")["kind"] == "keep"
    for bad in ("", "zz", "9D x", "9D + 4H", "9D + 4H = 11", "1Z"):
        assert js("return M.parseMove(args[0])", bad) is None, bad


def test_filter_moves_by_selection(js: Any) -> None:
    body = """
      const units = M.tableUnits(['4C', '5H'], args[1]);
      const f = M.filterMoves(args[0], units, args[2], new Set(args[3]));
      return {exact: f.exact.map(m => m.text), open: [...f.open].sort()};
    """
    assert js(body, LEGAL, DECLS, "4D", []) == {"exact": ["4D"], "open": ["c:4C"]}
    assert js(body, LEGAL, DECLS, "4D", ["c:4C"]) == {"exact": ["4D + 4C = 8", "4D + 4C = 4G", "4D x 4C"], "open": []}
    assert js(body, LEGAL, DECLS, "9D", []) == {"exact": [], "open": ["c:4C", "c:5H", "p:0"]}
    assert js(body, LEGAL, DECLS, "9D", ["p:0"]) == {"exact": ["9D x 3S 6H"], "open": ["c:4C", "c:5H"]}
    assert js(body, LEGAL, DECLS, "9D", ["c:5H"]) == {"exact": [], "open": ["c:4C", "p:0"]}
    assert js(body, LEGAL, DECLS, None, []) == {"exact": [], "open": []}


def test_typed_moves_complete_named_piles_only(js: Any) -> None:
    body = "const r = M.matchTyped(args[0], args[2], args[1]); return r.move ? r.move.text : r.error;"
    assert js(body, LEGAL, DECLS, "9d x 5h 4c") == "9D x 4C 5H"
    assert js(body, LEGAL, DECLS, "9D x 6H") == "9D x 3S 6H"  # the pile named by one of its cards
    assert js(body, LEGAL, DECLS, "9D x 4C 5H 3S") == "9D x 3S 6H 4C 5H"
    assert js(body, LEGAL, DECLS, "9D x 4C") == "illegal"  # 5H is loose: never added silently
    assert js(body, LEGAL, DECLS, "4d+4c=4g") == "4D + 4C = 4G"
    assert js(body, LEGAL, DECLS, "4D + 4C") == "syntax"
    # A card alone names its only legal move (every Xeri card has one), never one of several.
    xeri = [{"text": "2H x 2D 3H 6H", "card": "2H", "kind": "capture", "value": 2, "cards": ["2D", "3H", "6H"]},
            {"text": "AS", "card": "AS", "kind": "lay", "value": 1, "cards": []}]
    assert js(body, xeri, [], "2h") == "2H x 2D 3H 6H"
    assert js(body, LEGAL, DECLS, "9D") == "illegal"  # 9D has several moves here


def test_parent_games_units_and_ready_moves(js: Any) -> None:
    # Xeri's pile is one unit; a card with one move is ready without pointing at the table.
    st = {"game": "xeri", "table": ["2D", "3H", "6H"], "declarations": []}
    assert js("return M.unitsOf(args[0])", st) == [{"id": "x:pile", "cards": ["2D", "3H", "6H"]}]
    assert js("return M.unitsOf(args[0])", {**st, "table": []}) == []
    legal = [{"text": "2H x 2D 3H 6H", "card": "2H", "kind": "capture", "value": 2, "cards": ["2D", "3H", "6H"]}]
    body = ("const f = M.filterFor(args[0], args[1], M.unitsOf(args[0]), args[2], new Set()); "
            "return f.exact.map(m => m.text);")
    assert js(body, st, legal, "2H") == ["2H x 2D 3H 6H"]
    assert js(body, {**st, "game": "diloti"}, legal, "2H") == []  # Diloti keeps pointing at what is taken


def test_clock_and_seat_places(server: str, home: Any) -> None:
    page = home

    def run(module: str, body: str, *args: Any) -> Any:
        return page.evaluate(f"async (args) => {{ const M = await import('/static/js/{module}'); {body} }}",
                             list(args))
    assert run("clock.js", "return [0, 999, 1000, 65000, 600000].map(M.mmss)") == [
        "0:00", "0:01", "0:01", "1:05", "10:00"]
    clock = {"move": 10, "reserve": 30, "reserves": [30000, 4000], "running": 1, "left": 2000, "ply": 3}
    # 5 s after the message: the 2 s of move time are gone, and 3 s of the 4 s reserve.
    assert run("clock.js", "return M.seatClock(args[0], 1, 5000)", clock) == {
        "running": True, "move": 0, "reserve": 1000, "low": True}
    assert run("clock.js", "return M.seatClock(args[0], 0, 5000)", clock) == {
        "running": False, "move": None, "reserve": 30000, "low": False}
    assert run("clock.js", "return M.seatClock(null, 0, 0)") is None
    # Play passes to the right: from seat 2, seat 3 sits on the right, seat 0 opposite, seat 1 on the left.
    assert run("seats.js", "return [0, 1, 2, 3].map((s) => M.placeOf(s, 2, 4))") == ["top", "left", "bottom", "right"]
    assert run("seats.js", "return [0, 1].map((s) => M.placeOf(s, 1, 2))") == ["top", "bottom"]
    assert run("seats.js", "return [...M.lastBySeat(args[0]).entries()]", [[0, "7H"], [1, "7D x 7H"], [0, "2C"]]) == [
        [0, "2C"], [1, "7D x 7H"]]


STATIC = Path(__file__).parents[2] / "src" / "diloti" / "server" / "static" / "js"


def _strings(page: Any) -> dict[str, list[str]]:
    keys: dict[str, list[str]] = page.evaluate(
        "async () => { const M = await import('/static/js/i18n.js');"
        " return Object.fromEntries(M.LANGS.map((l) => [l, Object.keys(M._STRINGS[l])])); }")
    return keys


def _script(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def test_every_string_is_in_both_languages_and_every_key_used_exists(home: Any) -> None:
    # t() falls back to English, then to the key itself: a key missing in Greek shows English to a Greek
    # player, and a mistyped key shows "review.mrk" to everyone. Neither fails anywhere else.
    page = home
    keys = _strings(page)
    assert sorted(keys) == ["el", "en"]
    assert set(keys["en"]) - set(keys["el"]) == set(), "English only"
    assert set(keys["el"]) - set(keys["en"]) == set(), "Greek only"
    # t("key", ...) and tn("key", n, ...), whose singular "key1" is optional (the parity above checks it).
    used = {k for f in STATIC.glob("*.js") for k in re.findall(r"\btn?\(\s*[\"']([\w.-]+)[\"']\s*[,)]",
                                                                f.read_text(encoding="utf-8"))}
    assert len(used) > 200 and {"say.pile", "watch.count", "game.cards"} <= used
    assert used - set(keys["en"]) == set()


def test_every_key_built_from_data_exists(server: str, home: Any) -> None:
    # Keys built at run time (t("mode." + r.mode)) escape the literal check above: each family is listed
    # here with the values the server can send, taken from where the server takes them. A new family in
    # the scripts fails the first assert until it is listed.
    from diloti.ai.reasons import CODES
    from diloti.ai.review import MARKS
    from diloti.core.cards import SUITS
    from diloti.games import GAMES
    from diloti.server.event_models import Arena
    from diloti.server.player_models import GameEntry, PlayerStats, RatingInfo
    from diloti.store.players import MODES

    page = home
    keys = set(_strings(page)["en"])
    info = page.evaluate("async () => (await fetch('/api/info')).json()")
    families = {m[0] or m[1] for f in STATIC.glob("*.js")
                for m in re.findall(r"\bt\(\s*(?:[\"']([\w.-]+)[\"']\s*\+|`([\w.]*)\$\{)", _script(f.name))}

    def literal(field: Any) -> set[str]:
        return set(get_args(field.annotation))

    said = re.search(r"\[([^\]]*)\]\.includes\(mv\.kind\)", _script("announce.js"))
    clocks = re.search(r"const CLOCKS = \[([^\]]*)\]", _script("lobby.js"))
    assert said and clocks
    options: set[str] = set()
    for game in info["games"].values():
        for k, v in game["options"].items():
            if k in ("target", "hands"):  # numbers typed in, not named
                continue
            options.add(k)
            if not isinstance(v, bool):
                options |= {f"{k}.{c}" for c in info["choices"].get(k, [v])}
    values = {
        "arena.": literal(Arena.model_fields["status"]),  # an arena's status (server/event_models.py)
        "end.": {"resigned", "abandoned", "aborted"},  # the kinds of a table's end_reason (server/life.py)
        "game.name.": set(info["games"]),
        "level.": set(info["levels"]),  # the computer's levels (present.js levelName)
        "mode.": set(MODES) | literal(PlayerStats.model_fields["mode"]) | literal(RatingInfo.model_fields["mode"])
        | literal(GameEntry.model_fields["mode"]) | {g.rating_mode(n) for g in GAMES.values() for n in g.players},
        "new.clock.": set(re.findall(r"\"([^\"]+)\"", clocks.group(1))),
        "new.players": {str(n) for g in info["games"].values() for n in g["players"]} | {"4_alone"},
        "opt.": options,
        "profile.result.": literal(GameEntry.model_fields["result"]),
        "review.mark.": set(MARKS) | {"ok", "forced"},
        # A reason read along the exact solver's line (review.js): every code that quotes shares of the worlds.
        "review.reason.": {f"{c}_line" for c in CODES if c not in ("exact", "sweep_missed")},
        "review.reason.cards_majority": {"", "_line"},
        "say.": set(re.findall(r"\"(\w+)\"", said.group(1))),
        "suit.": set(SUITS),
    }
    assert families == set(values)
    missing = {p + v for p, vs in values.items() for v in vs} - keys
    assert missing == set()


def test_every_server_error_has_a_greek_sentence(server: str, home: Any) -> None:
    # The server's messages are English; a Greek page shows its own sentence for each stable code. The codes
    # are read from the server's source, so a new code without a sentence fails here (and in the docs' table).
    codes: set[str] = set()
    for f in (STATIC.parents[1]).rglob("*.py"):
        text = f.read_text(encoding="utf-8")
        codes |= set(re.findall(r"(?:ProtocolError|\berror)\(\s*\"([a-z_]+)\"", text))
        codes |= set(re.findall(r"code = \"([a-z_]+)\"", text)) | set(re.findall(r"\"(bad_[a-z_]+)\" if", text))
        codes |= set(re.findall(r"_json\(send, \d+, \"([a-z_]+)\"", text))  # the ASGI layer's own answers
    from diloti.server.protocol import BODY_CODES

    codes |= {code for fields in BODY_CODES.values() for code in fields.values()}  # a bad body field's code
    # The proxy's own refusals reach the page too, in the servers' shape (deploy/nginx/diloti.conf).
    nginx = (STATIC.parents[4] / "deploy" / "nginx" / "diloti.conf").read_text(encoding="utf-8")
    codes |= set(re.findall(r'"code": *"([a-z_]+)"', nginx))
    assert {"name_taken", "table_full", "illegal_move", "bad_chat", "bad_players", "review_busy"} <= codes
    protocol = (STATIC.parents[4] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    table = protocol[protocol.index("### Error codes"):protocol.index("### Spectators")]
    assert codes <= set(re.findall(r"`([a-z_]+)`", table)), "a code the docs' table does not list"
    page = home
    greek = page.evaluate("async () => Object.keys((await import('/static/js/i18n.js'))._SERVER_ERRORS.el)")
    assert codes - set(greek) == set(), "no Greek sentence"
    assert set(greek) - codes == {"network", "http"}, "a sentence for a code the server never sends"
    said = page.evaluate("async () => { const M = await import('/static/js/i18n.js'); const out = [];"
                         " for (const l of ['en', 'el']) { M.setLang(l);"
                         " out.push(M.serverText('table_full', 'table abc is full'), M.serverText('http_502', '')); }"
                         " M.setLang('en'); return out; }")
    assert said == ["table abc is full", "The server answered with HTTP error 502; try again in a moment.",
                    "Το τραπέζι είναι γεμάτο.",
                    "Ο διακομιστής απάντησε με σφάλμα HTTP 502· δοκιμάστε ξανά σε λίγο."]


def test_decimals_are_written_as_the_page_language_writes_them(js: Any) -> None:
    decimals = js("const I = await import('/static/js/i18n.js'); const out = [];"
                  " for (const l of ['en', 'el']) { I.setLang(l); out.push(I.fixed(-2.5, 2), I.fixed(69.84, 1)); }"
                  " I.setLang('en'); return out;")
    assert decimals == ["-2.50", "69.8", "-2,50", "69,8"]  # a Greek page writes a decimal comma


def test_a_move_is_said_in_words_with_one_card_said_as_one(home: Any) -> None:
    page = home
    said = page.evaluate("async () => { const M = await import('/static/js/announce.js');"
                         " return [M.moveWords({kind: 'capture', card: 'JS', cards: ['4H']}, 'Anna', 'xeri'),"
                         " M.moveWords({kind: 'capture', card: 'JS', cards: ['4H', '5C']}, 'Anna', 'xeri'),"
                         " M.moveWords({kind: 'capture', card: '9D', cards: ['4H', '5C'], xeri: true},"
                         " 'Anna', 'diloti')]; }")
    assert said == ["Anna took the pile, 1 card, with jack of spades.",
                    "Anna took the pile, 2 cards, with jack of spades.",
                    "Anna took 4 of hearts and 5 of clubs with 9 of diamonds. Xeri!"]


def test_counts_take_the_singular_where_there_is_one(js: Any) -> None:
    said = js("const I = await import('/static/js/i18n.js'); const out = [];"
              " for (const l of ['en', 'el']) { I.setLang(l);"
              " out.push(I.tn('game.cards', 1), I.tn('game.cards', 5),"
              " I.tn('table.taken_xeris', 1, {who: 'A', n: 9, x: 1})); }"
              " I.setLang('en'); return out;")
    assert said == ["1 card", "5 cards", "A: 9 cards taken, 1 xeri",
                    "1 φύλλο", "5 φύλλα", "A: 9 φύλλα μαζεμένα, 1 ξερή"]


def test_a_tap_is_not_lost_to_a_redraw_while_the_finger_is_down(home: Any) -> None:
    """static/js/dom.js's heldWhilePressed: a screen drawn again between the press and the release (the lobby's
    lists arriving) would put a new button under the release, and the browser would fire no click; held, the draw
    runs after the release's click. Without the hold (a draw at once) the same taps are lost: the test checks both."""
    page = home
    setup = """async (hold) => {
      const D = await import('/static/js/dom.js');
      const box = document.createElement('div');
      box.id = 'tap-box';
      document.body.prepend(box);
      window.taps = 0;
      window.draws = 0;
      const owner = {};
      const draw = () => {
        if (hold && D.heldWhilePressed(owner, draw)) return;
        window.draws += 1;
        const tap = () => { window.taps += 1; };
        D.fill(box, D.h('button', { id: 'tap-target', style: 'width:200px;height:60px', onclick: tap }, 'tap'));
      };
      window.redraw = draw;
      draw();
    }"""
    for hold, taps in ((False, 0), (True, 1)):
        page.evaluate("() => document.getElementById('tap-box')?.remove()")
        page.evaluate(setup, hold)
        box = page.locator("#tap-target").bounding_box()
        page.mouse.move(box["x"] + 20, box["y"] + 20)
        page.mouse.down()
        page.evaluate("() => window.redraw()")  # the lists arrive while the finger is down
        page.mouse.up()
        page.wait_for_function("n => window.draws === n", arg=2)  # the held draw ran, after the release
        assert page.evaluate("() => window.taps") == taps, f"hold={hold}"
