// The live table: waiting room, board, pointing and keyboard moves, chat, dialogs; or, with
// `watch`, the same table as a spectator sees it (no hand: the server sends none).
import { Connection, forgetToken, saveToken, tokenFor } from "./api.js";
import { ChatPanel } from "./chat.js";
import { $, fill, h } from "./dom.js";
import { fixed, serverText, t, tn } from "./i18n.js";
import { gameOf, gameTitle, infoReady } from "./games.js";
import { filterFor, matchTyped, playableCards, sortCards, unitsOf } from "./moves.js";
import { prettyMove, seatName } from "./present.js";
import { showDialog, closeDialog } from "./dialogs.js";
import { ClockTicker } from "./clock.js";
import { seatRing } from "./seats.js";
import { tableDialogs } from "./tabledialogs.js";
import { tableBoard } from "./board.js";
import { tableKeys } from "./keys.js";
import { alertPrefs, shouldAlert, turnAlert } from "./alerts.js";
import { sweepRound } from "./motion.js";
import { dragCards, oneTapOn, tableTouch } from "./touch.js";
import { playSound, soundOf } from "./sound.js";
import { announce, moveWords } from "./announce.js";
import { afterState, beforeState, feltBar } from "./felt.js";
import { moveOf, tableChoices } from "./choices.js";


function pace() {
  // The page spaces out other seats' moves so each can be seen; ?pace=MS overrides (tests use 0).
  const q = new URLSearchParams(location.search).get("pace");
  return q !== null && /^\d+$/.test(q) ? Number(q) : 700;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class TableView {
  constructor(root, tableId, { onLeave, watch = false } = {}) {
    this.root = root;
    this.id = tableId;
    this.watching = watch;
    this.token = watch ? null : tokenFor(tableId);
    this.onLeave = onLeave;
    this.seat = null;
    this.table = null;
    this.state = null;
    this.sel = { card: null, units: new Set() };
    this.last = null;            // the latest `played` message
    this.lastFresh = false;
    this.rounds = new Map();     // round number -> {score, scores, swept, swept_to}
    this.moves = new Map();      // round number -> [[seat, move, xeri]]
    this.hint = null;
    this.hintMove = null;        // the move the last hint suggests (marked on the board)
    this.xeriBy = new Set();     // seats whose last move was a xeri
    this.outOfTime = new Set();  // away seats whose clock ran out (until their player is back)
    this.msg = "";
    this.waitingMove = false;
    this.queue = [];
    this.pumping = false;
    this.shownAt = 0;
    this.gameOver = null;
    this.conn = null;
    this.keyHandler = (e) => this.onKey(e);
    this.ticker = new ClockTicker(root, t);
    this.chat = new ChatPanel({ readOnly: watch, onSend: (text) => !!this.conn && this.conn.send({ type: "chat", text }) });
  }

  start() {
    if (!this.token && !this.watching) return false;
    this.conn = new Connection(this.id, this.token, {
      watch: this.watching,
      onMessage: (m) => this.enqueue(m),
      onStatus: (s) => this.banner(s === "closed" ? t("game.disconnected") : ""),
    });
    // The table is drawn by what /api/info says of its game (games.js): asked first (once per page).
    const conn = this.conn;
    infoReady().then(() => conn.connect());
    this.ticker.start();
    document.addEventListener("keydown", this.keyHandler);
    this.render();
    return true;
  }

  stop() {
    if (this.conn) this.conn.close();
    this.ticker.stop();
    document.removeEventListener("keydown", this.keyHandler);
    this.banner("");
  }

  clearIdle() {
    if (this.idleShown) {
      this.idleShown = false;
      this.banner("");
    }
  }

  banner(text) {
    const b = $("#banner");
    if (!b) return;
    b.textContent = text;
    b.hidden = !text;
  }

  // ------------------------------------------------------------------ messages
  enqueue(msg) {
    this.queue.push(msg);
    if (!this.pumping) this.pump();
  }

  async pump() {
    this.pumping = true;
    while (this.queue.length) {
      const msg = this.queue[0];
      // Each position stays on screen at least `pace` ms before another seat's move
      // replaces it, so computer moves can be followed one by one.
      if (msg.type === "played" && msg.seat !== this.seat && this.shownAt) {
        const wait = pace() - (performance.now() - this.shownAt);
        if (wait > 0) await sleep(wait);
      }
      this.queue.shift();
      this.handle(msg);
      if (this.holdFor) {
        // The end-of-round sweep is shown before the round's summary (and the next deal) replaces it.
        const hold = this.holdFor;
        this.holdFor = 0;
        await sleep(hold);
        if (this.afterHold) { const f = this.afterHold; this.afterHold = null; f(); }
      }
    }
    this.pumping = false;
  }

  handle(msg) {
    switch (msg.type) {
      case "welcome":
        this.seat = msg.seat;
        this.chat.setSeat(msg.seat);
        this.chat.reset();  // the last lines follow
        break;
      case "chat":
        this.chat.add(msg);
        break;
      case "table":
        this.table = msg.table;
        for (const s of this.table.seats) if (!s.away) this.outOfTime.delete(s.seat);
        this.render();
        if ($("#end-series") && this.table.series_score) $("#end-series").textContent = this.seriesText();
        if ($("#end-again")) $("#end-again").textContent = this.againText();  // an offer came, or lapsed
        if ($("#end-offer")) $("#end-offer").textContent = this.offerText() || "";
        break;
      case "state":
        this.clearIdle();
        this.onState(msg);
        break;
      case "idle_warning":
        // Without a move or a click the server closes the table: say so while it can be helped.
        this.idleShown = true;
        this.banner(t("game.idle", { minutes: Math.max(1, Math.ceil(msg.closes_in / 60)) }));
        break;
      case "played":
        this.clearIdle();
        this.last = msg;
        this.lastFresh = true;
        this.hint = null;
        this.hintMove = null;
        if (msg.xeri) this.xeriBy.add(msg.seat); else this.xeriBy.delete(msg.seat);
        playSound(soundOf(msg));
        announce(moveWords(msg, this.name(msg.seat), this.gameKind()));
        if (!this.moves.has(msg.round)) this.moves.set(msg.round, []);
        this.moves.get(msg.round).push([msg.seat, msg.move, !!msg.xeri]);
        break;
      case "clock":
        this.ticker.set(msg);
        break;
      case "timeout":
        // The server decides: this seat's time ran out (or its player stayed away), the computer plays it.
        if (msg.reason === "clock") this.outOfTime.add(msg.seat);  // else away: gone past the grace period
        this.render();
        break;
      case "round_over":
        this.xeriBy.clear();
        this.rounds.set(msg.round, msg);
        announce(t("say.round_over", { n: msg.round }) + (msg.swept && msg.swept.length && msg.swept_to !== null
          ? " " + tn("say.swept", msg.swept.length, { side: this.sideNames()[msg.swept_to] }) : ""));
        this.holdFor = sweepRound(this.root, { last: this.last, toSide: msg.swept_to });
        if (this.holdFor) this.afterHold = () => this.showRoundOver(msg);
        else this.showRoundOver(msg);
        break;
      case "game_over":
        this.gameOver = msg;
        this.showGameOver();
        break;
      case "rematch":
        this.toRematch(msg.table);
        break;
      case "left":
        // This seat was given up (here or in another tab): the token holds nothing any more.
        forgetToken(this.id);
        if (this.conn) this.conn.close();
        if (this.onLeave) this.onLeave(); else location.href = "/";
        break;
      case "hint":
        this.onHint(msg);
        break;
      case "choices":
        this.onChoices(msg);
        break;
      case "error":
        this.onError(msg);
        break;
      default:
        break;
    }
  }

  onState(st) {
    const prev = this.state;
    this.state = st;
    this.waitingMove = false;
    if (st.seat !== undefined) this.seat = st.seat;
    if (Array.isArray(st.rounds)) {
      for (const r of st.rounds) if (!this.rounds.has(r.number)) this.rounds.set(r.number, { round: r.number, ...r });
    }
    // After a reload the page knows this round's moves only from `history`.
    const known = this.moves.get(st.round) || [];
    if (Array.isArray(st.history) && st.history.length > known.length) {
      this.moves.set(st.round, st.history.map(([s, m]) => [s, m, false]));
    }
    if (!this.last && st.last) this.last = st.last;
    if ("clock" in st) this.ticker.set(st.clock);
    if (!this.watching && shouldAlert(prev, st, document.hidden)) turnAlert(alertPrefs(), t("app.title"), t("game.your_turn"));
    this.resetChoices();  // answers about a table too large to list hold for the position they were asked in
    const motion = beforeState(this, prev, st);
    if (!prev || prev.ply !== st.ply) {
      this.clearSel(false);
      if (prev && !this.fatal) this.msg = "";  // an error about the last position no longer applies
    }
    this.render();
    afterState(this, motion, st);
    this.lastFresh = false;
    this.shownAt = performance.now();
  }

  askHint() {
    if (this.conn.send({ type: "hint" })) {
      this.hint = t(this.table && this.table.hint_level === "master" ? "game.hint_wait_master" : "game.hint_wait");
      this.render();
    }
  }

  onHint(msg) {
    if (!this.state || msg.ply !== this.state.ply || !msg.moves || !msg.moves.length) return;
    // A table too large to list: the move need not be in the sample.
    const best = this.legal().find((m) => m.text === msg.moves[0].move) || (this.sampled() ? moveOf(msg.moves[0]) : undefined);
    this.hintMove = best || null;
    const fmt = (m) => prettyMove(m.move) + (typeof m.score === "number" ? ` (${m.score > 0 ? "+" : ""}${fixed(m.score, 1)}`
      + (typeof m.win === "number" ? " · " + t("game.win_chance", { p: Math.round(m.win * 100) }) : "") + ")" : "");
    this.hint = t(msg.level === "master" ? "game.hint_is_master" : "game.hint_is", { move: fmt(msg.moves[0]) })
      + (msg.moves.length > 1 ? " · " + t("game.hint_also", { moves: msg.moves.slice(1, 3).map(fmt).join(", ") }) : "");
    if (best && best.card) {
      // Select the suggested move so one press of Play (or Enter) makes it.
      const units = unitsOf(this.state);
      this.sel = { card: best.card, units: new Set(units.filter((u) => u.cards.every((c) => best.cards.includes(c))).map((u) => u.id)) };
    }
    this.render();
  }

  onError(msg) {
    if (this.chat.expects(msg) || msg.code === "spectator") { this.chat.error(msg); return; }
    this.choicesFailed(msg);
    this.waitingMove = false;
    this.hint = null;
    const fatal = ["bad_token", "unknown_table", "table_closed"];
    if (fatal.includes(msg.code)) {
      if (this.conn && msg.code !== "table_closed") this.conn.close();
      // A token the server does not know (e.g. a new database) would send the join link
      // straight back here: forget it so the link offers the free seats again.
      if (!this.watching && (msg.code === "bad_token" || msg.code === "unknown_table")) forgetToken(this.id);
      this.fatal = serverText(msg.code, msg.message);
    }
    this.msg = t("game.error", { text: serverText(msg.code, msg.message) });
    this.render();
  }

  // ------------------------------------------------------------------ moves
  legal() {
    const st = this.state;
    if (!st || !st.your_turn || !Array.isArray(st.legal)) return [];
    return st.legal.map((l) => ({ text: l.move, card: l.card, kind: l.kind, value: l.value, cards: sortCards(l.cards || []) }));
  }

  send(mv) {
    if (!mv || this.waitingMove) return;
    this.hintMove = null;
    if (this.conn.send({ type: "move", move: mv.text, ply: this.state.ply })) {
      this.waitingMove = true;
      this.msg = "";
      this.hint = null;
      this.clearSel(false);
      this.render();
    }
  }

  clearSel(render = true) {
    this.sel = { card: null, units: new Set() };
    if (render) this.render();
  }

  /**
   * A hand card picked (or put back). `tap`: by a finger or a mouse (not a key): a card with exactly one legal
   * move is then played at once, unless the player turned one-tap play off (a table too large to list is never
   * played so: its list is a sample).
   */
  pickCard(card, tap = false) {
    if (!this.state || !this.state.your_turn || this.waitingMove) return;
    const legal = this.legal();
    if (!playableCards(legal).has(card)) return;
    const mine = legal.filter((m) => m.card === card);
    if (tap && mine.length === 1 && this.state.phase === "play" && !this.sampled() && oneTapOn()) {
      this.send(mine[0]);
      return;
    }
    if (this.sel.card === card) this.sel = { card: null, units: new Set() };
    else this.sel = { card, units: new Set() };
    this.msg = "";
    this.render();
  }

  pickUnit(id) {
    if (!this.sel.card || this.waitingMove) return;
    const f = this.current();
    if (this.sel.units.has(id)) this.sel.units.delete(id);
    else if (f.open.has(id)) this.sel.units.add(id);
    else return;
    this.render();
  }

  playTyped(text) {
    // A table too large to list: the sample need not hold the move; the server checks what was typed.
    if (this.sampled() && this.sendTyped(text)) return true;
    const res = matchTyped(this.legal(), text, this.state.declarations);
    if (res.move) { this.send(res.move); return true; }
    this.msg = t(res.error === "syntax" ? "game.typed_syntax" : "game.typed_illegal", { text });
    this.render();
    return false;
  }

  current() {
    const st = this.state;
    if (this.sampled()) return this.sampledFilter();
    const units = unitsOf(st);
    return filterFor(st, this.legal(), units, this.sel.card, this.sel.units);
  }

  // ------------------------------------------------------------------ rendering
  render() {
    this.chat.relabel();
    const chatFocus = !!this.chat.input && document.activeElement === this.chat.input;
    this.renderScreen();
    if (chatFocus && this.chat.el.isConnected) this.chat.input.focus();
    if (this.chat.el.isConnected) this.chat.scroll();
  }

  renderScreen() {
    if (this.fatal && !this.state) { this.renderFatal(); return; }
    if (!this.table && !this.state) { fill(this.root, h("main", { class: "page" }, h("p", null, t("game.waiting")))); return; }
    if (this.table && this.table.status === "waiting" && !this.state) { this.renderWaiting(); return; }
    if (!this.state) { fill(this.root, h("main", { class: "page" }, h("p", null, t("game.waiting")))); return; }
    this.renderBoard();
  }

  renderFatal() {
    fill(this.root, h("main", { class: "page" }, h("div", { class: "panel" },
      h("p", { class: "error", role: "alert" }, this.fatal),
      this.watching ? null : h("p", null, h("a", { href: "/?join=" + encodeURIComponent(this.id) }, t("join.title"))),
      h("p", null, h("a", { href: "/" }, t("game.new"))))));
  }

  seatTags(s) {
    const n = this.table.sides || 2;
    const tags = [h("span", { class: "tag side" + (s.seat % n) }, t("seat.n", { n: s.seat + 1 }))];
    if (s.seat === this.seat) tags.push(h("span", { class: "tag" }, t("seat.you")));
    else if (n < this.table.players && this.seat !== null && s.seat % n === this.seat % n) tags.push(h("span", { class: "tag" }, t("seat.partner")));
    if (s.kind === "bot") tags.push(h("span", { class: "tag" }, t("seat.computer", { level: s.level })));
    else if (s.away) tags.push(h("span", { class: "tag away" }, t(s.taken ? "seat.away" : "seat.left")));
    else if (s.taken && !s.connected) tags.push(h("span", { class: "tag" }, t("seat.offline")));
    return tags;
  }

  linkBox(link, id, label) {
    const input = h("input", { type: "text", readonly: true, value: link, id, "aria-label": label });
    const copy = h("button", { type: "button", class: "btn small", onclick: async () => {
      try { await navigator.clipboard.writeText(link); } catch (e) { input.select(); document.execCommand && document.execCommand("copy"); }
      copy.textContent = t("wait.copied");
    } }, t("wait.copy"));
    return h("div", { class: "invite" }, input, copy);
  }

  watchLink() { return location.origin + "/?watch=" + encodeURIComponent(this.id); }

  spectatorsEl() {
    const n = this.table && this.table.spectators ? this.table.spectators : 0;
    if (!n) return null;
    return h("span", { class: "info spectators", id: "spectators", title: tn("watch.count", n) }, "👁 " + tn("watch.count", n));
  }

  renderWaiting() {
    const tb = this.table;
    const link = location.origin + "/?join=" + encodeURIComponent(tb.id);
    fill(this.root, h("main", { class: "page" }, h("section", { class: "panel", id: "waiting" },
      h("h2", null, t("wait.title")),
      gameOf(tb.game).named ? h("p", { id: "wait-game" }, gameTitle(tb.game)) : null,
      this.watching ? h("p", { class: "watchnote", id: "watching" }, t("watch.you")) : null,
      h("p", null, t("wait.invite")),
      this.linkBox(link, "invite-link", t("wait.invite")),
      h("p", null, t("watch.invite") + " · " + t("watch.link")),
      this.linkBox(this.watchLink(), "watch-link", t("watch.invite")),
      this.spectatorsEl(),
      h("ul", { class: "seatlist" }, tb.seats.map((s) => h("li", { dataset: { seat: String(s.seat) } },
        h("b", null, s.kind === "bot" ? seatName(tb, s.seat, this.seat) : (s.taken ? (s.seat === this.seat ? (s.name || t("new.you")) : s.name) : t("wait.free"))),
        this.seatTags(s)))),
      h("p", null, t("wait.starts")),
      this.watching ? null : h("button", { type: "button", class: "btn small", id: "leave-btn", onclick: () => this.confirm("leave") }, t("leave.btn"))),
    this.chat.el));
  }

  name(seat) { return seatName(this.table, seat, this.seat); }

  renderBoard() {
    const st = this.state;
    const tb = this.table || { seats: [], players: st.players };
    const me = this.seat;
    const watching = me === null || me === undefined;
    const pov = watching ? 0 : me;  // whose side is shown first (a spectator: seat 0's)
    const mine = st.your_turn;
    const legal = this.legal();
    const units = unitsOf(st);
    const f = this.current();
    const scorebar = this.scoreBar(st, tb, me, pov);
    const status = this.statusLine(st, me);
    const felt = this.feltCards(st, me, units, f);
    const action = this.actionRow(st, legal, f);
    const hand = this.handCards(st, playableCards(legal));
    const tools = this.toolBar(st, tb, watching);
    const myMeta = [];
    if (st.dealer === me) myMeta.push(t("game.dealer"));
    const handLabel = h("div", { class: "handlabel" }, [t("game.hand"), ...myMeta].join(" · "));
    if (mine && !this.waitingMove) {
      dragCards(hand, { targets: (c) => this.dropTargets(c), onDrop: (c, u, r) => this.dropCard(c, u, r), onMiss: (c, u, felt) => this.dropMiss(c, u, felt) });
    }

    // Typing a move.
    const typedInput = h("input", { type: "text", id: "typed", placeholder: t(gameOf(st.game).pile ? "game.type_ph_xeri" : "game.type_ph"), "aria-label": t("game.type"), autocomplete: "off", autocapitalize: "characters", spellcheck: "false" });
    const typeBtn = h("button", { type: "button", class: "btn small ghost", id: "type-btn", "aria-expanded": this.typing ? "true" : "false",
      "aria-controls": "typed-form", onclick: () => this.showTyped(!this.typing) }, "⌨ " + t(this.typing ? "table.type_hide" : "table.type_btn"));
    const typed = h("form", { class: "typed", id: "typed-form", hidden: !this.typing || undefined, onsubmit: (e) => { e.preventDefault(); if (typedInput.value.trim() && this.playTyped(typedInput.value.trim())) typedInput.value = ""; } },
      typedInput, h("button", { type: "submit", class: "btn small", disabled: !mine || undefined }, t("game.type_go")));
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset : null;
    const refocus = focused && (focused.card || focused.unit) ? { card: focused.card, unit: focused.unit } : null;
    const hadTypedFocus = document.activeElement && document.activeElement.id === "typed";
    const oldTyped = $("#typed");
    if (oldTyped) typedInput.value = oldTyped.value;
    const myInfo = !watching && tb.seats ? tb.seats[me] : null;
    const mineParts = watching ? [h("div", { class: "watchnote", id: "watching" }, t("watch.you"))]
      : [myInfo && myInfo.away ? h("div", { class: "watchnote", id: "away-note" }, t(this.outOfTime.has(me) ? "clock.you_out" : "away.you"), " ",
        h("button", { type: "button", class: "btn small primary", id: "back-btn", onclick: () => this.conn.send({ type: "back" }) }, t("away.back"))) : null,
      this.isOver() && this.offerText() ? h("div", { class: "watchnote", id: "rematch-offer", role: "status" }, this.offerText(), " ",
        this.table.rematch_offer.seats.includes(me) ? null
          : h("button", { type: "button", class: "btn small primary", id: "rematch-accept", onclick: () => this.askRematch() }, t("rematch.accept"))) : null,
      hand, handLabel, h("div", { class: "typedrow" }, typeBtn, typed)];
    fill(this.root, h("div", { id: "game", class: watching ? "watching" : "", dataset: { seat: watching ? "" : String(me), ply: String(st.ply), round: String(st.round), phase: st.phase, turn: String(st.turn), waiting: this.waitingMove ? "1" : "0" } },
      scorebar, status, seatRing(this, h("div", { class: "feltarea" }, feltBar(this), felt), { st, tb, me, watching, xeris: this.xeriBy }), action,
      h("div", { class: "msg", id: "msg", role: "status" }, this.msg), ...mineParts, tools,
      watching ? null : h("div", { class: "keyshelp" }, t("keys.help")), this.chat.el));
    this.ticker.paint();
    if (hadTypedFocus) typedInput.focus();
    else if (refocus) {
      const sel = refocus.unit ? `[data-unit="${refocus.unit}"]` : `.hand [data-card="${refocus.card}"]`;
      const el = this.root.querySelector(sel);
      if (el && !el.disabled) el.focus();
    }
  }

  playing() {
    return !!this.table && this.table.status === "playing" && !this.isOver();
  }

  confirm(what) {
    // Resigning and leaving cannot be undone: asked once more, in a dialog.
    showDialog(t(what + ".title"), [h("p", null, t(what + ".text"))], [
      h("button", { type: "button", class: "btn", id: "confirm-cancel", onclick: closeDialog }, t("confirm.cancel")),
      h("button", { type: "button", class: "btn primary danger", id: "confirm-" + what, onclick: () => {
        closeDialog();
        this.conn.send({ type: what });
      } }, t(what + ".confirm")),
    ], "confirm-" + what);
  }

  // Play again: an offer the other players accept (or the acceptance of theirs); the server makes the rematch
  // once everyone seated asked, and tells every connection its id.
  askRematch() {
    if (this.conn) this.conn.send({ type: "rematch" });
  }

  toRematch(table) {
    // The same token holds the same seat at the new table: kept under its id, the way tokens are kept.
    if (!this.watching && this.token) saveToken(table, this.token);
    if (this.conn) this.conn.close();
    closeDialog();
    const q = new URLSearchParams(location.search);
    const next = new URLSearchParams();
    if (q.has("pace")) next.set("pace", q.get("pace"));
    next.set(this.watching ? "watch" : "table", table);
    location.assign("/?" + next.toString());
  }

  seriesText() {
    const names = this.sideNames();
    const sc = this.table.series_score;
    if (sc.length === 2) return t("end.series", { a: names[0], x: sc[0], y: sc[1], b: names[1] });
    return t("end.series_n", { scores: names.map((n, i) => `${n} ${sc[i]}`).join(" · ") });
  }

  isOver() {
    return !!this.gameOver || (this.table && this.table.status === "over") || (this.state && this.state.phase === "over");
  }
}

// The board's parts (board.js) and the table's dialogs (round and game summaries, score sheet, history, watch
// link) live in their own modules.
Object.assign(TableView.prototype, tableBoard, tableDialogs, tableKeys, tableTouch, tableChoices);
