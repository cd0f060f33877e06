"""A table too large to list (``legal_complete`` false), played through the page in the real Chromium.

Two humans sit at a private table dealt from a seed; Python websocket clients lay a card every turn (the
first lay the server lists, else its first move) until the seat to move gets a sampled ``legal``. The page
opens that seat and plays a capture the sample does not hold, by clicks: the card, then the table cards one
by one, each time lighting what the server's ``choices`` answer says (checked against the engine's full list
of moves, rebuilt from the same seed and moves). A drop and clicks that name no move, and a typed move that
is not legal, play nothing. A unit test of choices.js (a stub view) covers the cache, stale answers, the
reset on a new state, a drop that names exactly one move, and drops that make none (onto the felt with no lay,
onto a table card the card cannot use): the card goes back to the hand.
"""

from __future__ import annotations

import json
import time
from typing import Any, NamedTuple

import pytest
from websockets.sync.client import ClientConnection, connect

from diloti.core.cards import cards_of
from diloti.core.moves import MoveKind
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SEEDS = (1, 5, 9, 4, 13, 17)  # tried in turn until one reaches a sampled list and a capture fit for the test


# ----------------------------------------------------------------------------------------- websocket players
def ws_of(server: str, table: str, token: str) -> ClientConnection:
    ws = connect(server.replace("http://", "ws://") + "/ws", open_timeout=10, legacy=True)
    ws.send(json.dumps({"type": "hello", "table": table, "token": token}))
    return ws


def next_of(ws: ClientConnection, kind: str, timeout: float = 20.0, **match: Any) -> dict[str, Any]:
    """The next message of ``kind`` (with the fields of ``match``); errors fail the test."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {kind} {match} within {timeout} s"
        msg: dict[str, Any] = json.loads(ws.recv(timeout=left))
        assert msg["type"] != "error", msg
        if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
            return msg


def reach_large_table(server: str, page: Any, seed: int) -> dict[str, Any] | None:
    """Lay cards from both seats until the seat to move gets a sampled list; None if the game gets nowhere."""
    resp = page.request.post(server + "/api/tables", data={
        "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "seat": 0, "name": "Anna",
        "private": True, "seed": seed})
    assert resp.status == 201, resp.text()
    made = resp.json()
    table = made["table"]
    joined = page.request.post(f"{server}/api/tables/{table}/join", data={"name": "Nikos", "seat": 1})
    assert joined.status == 200, joined.text()
    tokens = [made["token"], joined.json()["token"]]
    socks = [ws_of(server, table, tok) for tok in tokens]
    played: list[str] = []
    for ply in range(60):
        states = [next_of(ws, "state", ply=ply) for ws in socks]
        st = next((s for s in states if s["your_turn"]), None)
        if st is None or st["phase"] != "play":
            break
        if not st["legal_complete"]:
            return {"table": table, "tokens": tokens, "socks": socks, "seat": st["seat"], "state": st,
                    "played": played, "seed": seed}
        lays = [m for m in st["legal"] if m["kind"] == "lay"]
        move = (lays or st["legal"])[0]["move"]
        socks[st["seat"]].send(json.dumps({"type": "move", "move": move, "ply": ply}))
        played.append(move)
    for ws in socks:
        ws.close()
    return None


# ------------------------------------------------------------------------------------ the engine's answers
def units_of(st: dict[str, Any]) -> list[tuple[str, frozenset[str]]]:
    """The page's table units: loose cards "c:X", declarations "p:N"."""
    return [("c:" + c, frozenset([c])) for c in st["table"]] + [
        (f"p:{i}", frozenset(d["cards"])) for i, d in enumerate(st["declarations"])]


class Legal(NamedTuple):
    move: str
    card: str
    kind: MoveKind
    cards: frozenset[str]


class Position:
    """The full list of legal moves of the seat to move, from the engine replaying the same deal and moves."""

    def __init__(self, reached: dict[str, Any]) -> None:
        game = Game(2, Options(), reached["seed"], 0)
        for m in reached["played"]:
            game.play(m)
        s = game.state
        st = reached["state"]
        assert s.turn == st["seat"] and sorted(map(str, s.hands[s.turn])) == sorted(st["hand"])
        assert sorted(map(str, s.table)) == sorted(st["table"])
        self.units = units_of(st)
        self.moves = [Legal(str(m), str(m.card), m.kind, frozenset(map(str, cards_of(m.mask))))
                      for m in s.legal_moves()]
        assert len(self.moves) > len(st["legal"])  # a sample indeed

    def ids(self, cards: frozenset[str]) -> frozenset[str]:
        return frozenset(u for u, cs in self.units if cs <= cards)

    def offer(self, card: str, chosen: set[str]) -> tuple[set[str], set[str]]:
        """(the open unit ids, the exact moves) of ``card`` with the units ``chosen``: what the page must show."""
        mine = [(m, self.ids(m.cards)) for m in self.moves if m.card == card]
        fits = [(m, ids) for m, ids in mine if chosen <= ids]
        return {u for _, ids in fits for u in ids} - chosen, {m.move for m, ids in fits if ids == chosen}


def pick_target(pos: Position, st: dict[str, Any]) -> dict[str, Any] | None:
    """A capture the sample does not hold, of two or more loose cards u1, u2, ...: u1 alone is no capture of the
    card, and no sample move of the card takes both u1 and u2 (so the sample alone would not light u2 once u1
    is chosen: what the page lights comes from `choices`)."""
    sample = {(m["card"], m["kind"], frozenset(m["cards"])) for m in st["legal"]}
    # Three or four table cards rather than two when there are: more clicks, more answers checked.
    for m in sorted(pos.moves, key=lambda m: -len(m.cards) if len(m.cards) <= 4 else 0):
        card = m.card
        if m.kind != MoveKind.CAPTURE or len(m.cards) < 2 or not m.cards <= set(st["table"]):
            continue  # loose cards only: each is one click
        if (card, "capture", m.cards) in sample:
            continue
        mine = [frozenset(s["cards"]) for s in st["legal"] if s["card"] == card]
        for u1 in sorted(m.cards):
            if any(x.card == card and x.cards == frozenset([u1]) for x in pos.moves):
                continue
            for u2 in sorted(m.cards - {u1}):
                if not any({u1, u2} <= cs for cs in mine):
                    rest = sorted(m.cards - {u1, u2})
                    return {"move": m.move, "card": card, "order": [u1, u2, *rest]}
    return None


# ------------------------------------------------------------------------------------------------ the page
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def card_index(c: str) -> int:
    """The engine's order of cards: by rank, then clubs, diamonds, hearts, spades."""
    return RANKS.index(c[:-1]) * 4 + "CDHS".index(c[-1])


LIT_JS = """() => ({
  asking: document.querySelector('#felt').dataset.asking === '1',
  open: [...document.querySelectorAll('#felt button[data-unit]:not([disabled])')]
    .filter(b => b.getAttribute('aria-pressed') === 'false').map(b => b.dataset.unit),
  chosen: [...document.querySelectorAll('#felt button[aria-pressed=true]')].map(b => b.dataset.unit),
  moves: [...document.querySelectorAll('#choices button[data-move]')].map(b => b.dataset.move),
  card: document.querySelector('#hand button[aria-pressed=true]')?.dataset.card || null,
})"""


def settled(page: Any) -> dict[str, Any]:
    """What the page offers once the server's answer for the selection is in."""
    page.wait_for_selector("#felt:not([data-asking])")
    lit: dict[str, Any] = page.evaluate(LIT_JS)
    return lit


def sent_choices(frames: list[str]) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, frames) if m.get("type") == "choices"]


def open_large_table(server: str, page: Any, frames: list[str]) -> tuple[dict[str, Any], Position, dict[str, Any]]:
    """Reach a table too large to list and open the page at the seat to move (its sent frames kept in
    ``frames``); returns what was reached (the other seat's websocket still open), the position and a target."""
    page.goto(server + "/?pace=0")
    reached = target = pos = None
    for seed in SEEDS:
        reached = reach_large_table(server, page, seed)
        if reached is None:
            continue
        pos = Position(reached)
        target = pick_target(pos, reached["state"])
        if target is not None:
            break
        for ws in reached["socks"]:
            ws.close()
    assert reached is not None and target is not None and pos is not None, "no seed reached a table too large to list"
    me = reached["seat"]
    reached["socks"][me].close()  # the page holds the seat from now on
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(payload)))
    page.evaluate("([t, k]) => localStorage.setItem('diloti.token.' + t, k)", [reached["table"], reached["tokens"][me]])
    page.goto(f"{server}/?pace=0&table={reached['table']}")
    page.wait_for_selector("#turn.mine")
    assert page.get_attribute("#game", "data-ply") == str(reached["state"]["ply"])
    return reached, pos, target


def test_a_capture_the_sample_does_not_hold_is_played_by_clicks(server: str, new_page: Any) -> None:
    page = new_page()
    frames: list[str] = []
    reached, pos, target = open_large_table(server, page, frames)
    st = reached["state"]
    me = reached["seat"]
    other = reached["socks"][1 - me]
    card, order = target["card"], target["order"]
    # The playable cards are the sample's: every card with a legal move.
    playable = set(page.eval_on_selector_all("#hand button.card:not([disabled])",
                                             "els => els.map(e => e.dataset.card)"))
    assert playable == {m.card for m in pos.moves}

    def u(card: str) -> str:
        return "c:" + card

    # A drop onto a table card the card can take only with others: nothing is played, the selection stays
    # (the card and that table card) with what can be added lit, as the server answers.
    src = page.locator(f"#hand button[data-card='{card}']").bounding_box()
    dst = page.locator(f"#felt button[data-unit='{u(order[0])}']").bounding_box()
    x0, y0 = src["x"] + src["width"] / 2, src["y"] + src["height"] / 2
    x1, y1 = dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    for i in range(1, 9):
        page.mouse.move(x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8)
    page.mouse.up()
    page.wait_for_selector(f"#felt button[data-unit='{u(order[0])}'][aria-pressed=true]")
    lit = settled(page)
    want_open, want_moves = pos.offer(card, {u(order[0])})
    assert lit["card"] == card and lit["chosen"] == [u(order[0])]
    assert set(lit["open"]) == want_open and u(order[1]) in want_open
    assert set(lit["moves"]) == want_moves
    asked = sent_choices(frames)
    assert {"type": "choices", "card": card, "chosen": [order[0]]} in asked
    page.wait_for_timeout(300)
    assert page.get_attribute("#game", "data-ply") == str(st["ply"])  # nothing played
    page.keyboard.press("Escape")

    # A typed move that is not legal (the card alone on u1) goes to the server, which refuses it.
    page.click("#type-btn")
    page.fill("#typed", f"{card} x {order[0]}")
    page.press("#typed", "Enter")
    page.wait_for_function("() => document.querySelector('#msg').textContent.includes('not a legal move')")
    assert {"type": "move", "move": f"{card} x {order[0]}", "ply": st["ply"]} in map(json.loads, frames)
    assert page.get_attribute("#game", "data-ply") == str(st["ply"])

    # The card, then the table cards one by one: each time the lit units are the server's answer.
    page.click(f"#hand button[data-card='{card}']")
    lit = settled(page)
    want_open, want_moves = pos.offer(card, set())
    assert set(lit["open"]) == want_open and set(lit["moves"]) == want_moves
    # Clicks that name no move play nothing: a table card that is not lit cannot be chosen (by a click or its
    # key), and with u1 alone nothing fits, so neither Enter nor a button plays.
    dark = [uid for uid, _ in pos.units if uid not in want_open]
    if dark:
        page.click(f"#felt button[data-unit='{dark[0]}']", force=True)
        key = page.get_attribute(f"#felt button[data-unit='{dark[0]}']", "data-key")
        if key:
            page.keyboard.press(key)
        assert settled(page)["chosen"] == []
    chosen: set[str] = set()
    for i, c in enumerate(order):
        page.click(f"#felt button[data-unit='{u(c)}']")
        chosen.add(u(c))
        lit = settled(page)
        want_open, want_moves = pos.offer(card, chosen)
        assert set(lit["chosen"]) == chosen
        assert set(lit["open"]) == want_open, (c, lit, want_open)
        assert set(lit["moves"]) == want_moves
        if i == 0:
            assert not lit["moves"]
            page.evaluate("() => document.activeElement.blur()")  # Enter on the focused table card would click it
            page.keyboard.press("Enter")
            page.wait_for_timeout(200)
            assert page.get_attribute("#game", "data-ply") == str(st["ply"])
    assert target["move"] in lit["moves"]
    # Every selection was asked (its table cards sorted), once only: drawing the page again sends nothing more.
    asks = [(a["card"], tuple(a["chosen"])) for a in sent_choices(frames)]
    assert len(asks) == len(set(asks))
    assert {(card, tuple(sorted(order[:k], key=card_index))) for k in range(len(order) + 1)} <= set(asks)
    page.click("#sheet-btn")
    page.click("#dlg-foot button")
    assert len(sent_choices(frames)) == len(asks)

    page.click(f"#choices button[data-move='{target['move']}']")
    played = next_of(other, "played", ply=st["ply"] + 1)
    assert played["move"] == target["move"] and played["seat"] == me
    page.wait_for_function(f"() => Number(document.querySelector('#game').dataset.ply) > {st['ply']}")
    # The only moves sent: the typed one the server refused, and the capture.
    sent = [m["move"] for m in map(json.loads, frames) if m["type"] == "move"]
    assert sent == [f"{card} x {order[0]}", target["move"]]
    other.close()


def test_a_typed_move_the_sample_does_not_hold_is_played(server: str, new_page: Any) -> None:
    page = new_page()
    frames: list[str] = []
    reached, _, target = open_large_table(server, page, frames)
    st = reached["state"]
    other = reached["socks"][1 - reached["seat"]]
    assert target["move"] not in {m["move"] for m in st["legal"]}
    # Lower case, the table cards in another order: read by the page, sent in the engine's notation.
    card, order = target["card"], target["order"]
    page.click("#type-btn")
    page.fill("#typed", f"{card.lower()} x {' '.join(reversed(order)).lower()}")
    page.press("#typed", "Enter")
    played = next_of(other, "played", ply=st["ply"] + 1)
    assert played["move"] == target["move"]
    page.wait_for_function(f"() => Number(document.querySelector('#game').dataset.ply) > {st['ply']}")
    assert [m["move"] for m in map(json.loads, frames) if m["type"] == "move"] == [target["move"]]
    other.close()


# ---------------------------------------------------------------------------------- choices.js, on a stub view
@pytest.fixture()
def js(server: str, new_page: Any) -> Any:
    page = new_page()
    page.goto(server + "/?pace=0")
    page.wait_for_selector("#new-table")

    def run(body: str) -> Any:
        return page.evaluate("async () => { const C = await import('/static/js/choices.js'); " + STUB + body + " }")
    return run


STUB = """
const sent = []; let renders = 0;
const state = (ply) => ({ ply, game: 'diloti', your_turn: true, phase: 'play', legal_complete: false,
  table: ['4H', '5C', '9S', 'KD'], declarations: [{ cards: ['2C', '7D'], value: 9, kind: 'plain', owner: 1 }],
  legal: [{ move: '9D x 9S', card: '9D', kind: 'capture', value: 9, cards: ['9S'] }] });
const view = Object.assign({
  state: state(5), sel: { card: '9D', units: new Set() }, waitingMove: false, played: [], missed: [],
  conn: { send: (m) => { sent.push(m); return true; } },
  render() { renders += 1; },
  legal() { return this.state.legal.map(C.moveOf); },
  send(mv) { this.played.push(mv.text); this.waitingMove = true; },
  dropMiss(card, unit) { this.missed.push([card, unit]); },  // touch.js: the card goes back to the hand
}, C.tableChoices);
const reply = (ply, card, chosen, moves, open) => view.onChoices({ type: 'choices', ply, card, chosen, moves, open });
const mv = (text, cards) => ({ move: text, card: text.split(' ')[0], kind: 'capture', value: 9, cards });
const tick = () => new Promise((r) => setTimeout(r, 0));
"""


def test_answers_are_asked_once_kept_per_selection_and_dropped_when_stale(js: Any) -> None:
    out = js("""
      const log = [];
      let f = view.sampledFilter();
      log.push([f.pending, sent.length]);
      f = view.sampledFilter();                        // drawn again: not asked again
      log.push([f.pending, sent.length]);
      reply(4, '9D', [], [], ['4H']);                   // about an earlier position: dropped
      log.push([!!view.sampledFilter().pending, renders]);
      reply(5, '9D', [], [], ['4H', '5C', '9S', '2C', '7D']);
      f = view.sampledFilter();
      log.push([renders, [...f.open].sort(), f.exact.length]);
      view.sel.units.add('p:0');                       // a declaration is asked by all its cards
      f = view.sampledFilter();
      log.push([f.pending, sent[sent.length - 1]]);
      reply(5, '9D', ['4H'], [], ['5C']);              // about another selection: kept, not drawn
      log.push([renders, !!view.sampledFilter().pending]);
      reply(5, '9D', ['2C', '7D'], [mv('9D x 2C 7D', ['2C', '7D'])], ['9S']);
      f = view.sampledFilter();
      log.push([renders, f.exact.map((m) => m.text), [...f.open]]);
      view.resetChoices();                             // a new state: asked again
      f = view.sampledFilter();
      log.push([f.pending, sent.length]);
      view.choicesFailed({ code: 'invalid_card' });    // a refused question is not asked again
      f = view.sampledFilter();
      log.push([!!f.pending, f.exact.length, f.open.size, sent.length]);
      view.state = { ...state(5), legal_complete: true };
      log.push(view.sampled());
      return log;
    """)
    assert out == [
        [True, 1], [True, 1], [True, 0],
        [1, ["c:4H", "c:5C", "c:9S", "p:0"], 0],
        [True, {"type": "choices", "card": "9D", "chosen": ["2C", "7D"]}],
        [1, True],
        [2, ["9D x 2C 7D"], ["c:9S"]],
        [True, 3],
        [False, 0, 0, 3],
        False,
    ]


def test_a_drop_plays_only_one_move_answered_for_its_selection(js: Any) -> None:
    out = js("""
      const log = [];
      // Onto 9S: one move takes just it, nothing can be added: played.
      let drop = view.dropSampled('9D', 'c:9S', null);
      reply(5, '9D', [], [], ['9S', '4H', '5C']);
      await tick();
      reply(5, '9D', ['9S'], [mv('9D x 9S', ['9S'])], []);
      await drop;
      log.push(view.played.slice());
      // Onto 4H: more can be added (5C): the selection is left to finish.
      view.resetChoices(); view.waitingMove = false; view.played = [];
      drop = view.dropSampled('9D', 'c:4H', null);
      reply(5, '9D', [], [], ['9S', '4H', '5C']);
      await tick();
      reply(5, '9D', ['4H'], [], ['5C']);
      await drop;
      log.push([view.played.slice(), view.sel.card, [...view.sel.units]]);
      // The position changes before the answer: nothing is played.
      view.resetChoices(); view.played = [];
      drop = view.dropSampled('9D', 'c:9S', null);
      reply(5, '9D', [], [], ['9S']);
      await tick();
      view.state = state(6); view.resetChoices();
      reply(5, '9D', ['9S'], [mv('9D x 9S', ['9S'])], []);
      await drop;
      log.push(view.played.slice());
      // The player chose something else meanwhile: nothing is played.
      view.state = state(5); view.resetChoices(); view.played = [];
      drop = view.dropSampled('9D', 'c:9S', null);
      reply(5, '9D', [], [], ['9S']);
      await tick();
      view.sel = { card: '9D', units: new Set(['c:4H']) };
      reply(5, '9D', ['9S'], [mv('9D x 9S', ['9S'])], []);
      await drop;
      log.push(view.played.slice());
      // Onto the felt, no lay: no move is made there, the card goes back to the hand (nothing asked or played).
      view.sel = { card: null, units: new Set() }; view.resetChoices(); view.played = [];
      const asked = sent.length;
      await view.dropSampled('9D', null, null);
      log.push([view.played.slice(), view.missed.slice(), sent.length - asked]);
      // Onto KD, which the answer says 9D cannot use: back to the hand, nothing chosen, nothing played.
      view.resetChoices(); view.missed = [];
      drop = view.dropSampled('9D', 'c:KD', null);
      reply(5, '9D', [], [], ['9S', '4H', '5C']);
      await drop;
      log.push([view.played.slice(), view.missed.slice(), view.sel.card]);
      // Typed: sent as named, piles completed.
      const piles = view.state.declarations;
      return [log, C.typedNotation('9d x 2c 4h'), C.typedNotation('9d x 2c 4h', piles),
              C.typedNotation('9D + 7D = 9g', piles), C.typedNotation('9D'), C.typedNotation('x x'),
              C.typedNotation('keep')];
    """)
    assert out == [
        [["9D x 9S"], [[], "9D", ["c:4H"]], [], [], [[], [["9D", None]], 0], [[], [["9D", "c:KD"]], None]],
        "9D x 2C 4H", "9D x 2C 4H 7D", "9D + 2C 7D = 9G", "9D", None, None,
    ]
