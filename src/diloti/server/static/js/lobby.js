// The start page (new table, open tables) and the join page of an invitation link.
import { api, saveToken } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./present.js";
import { PlayerPanel } from "./player.js";
import { QuickPlayView } from "./quickplay.js";

const FORM_KEY = "diloti.form";
const CLOCKS = ["off", "15+60", "30+120", "60+300"];  // the turn clocks offered: "move+reserve" seconds
const GAMES = ["diloti", "xeri", "kontsina"];
const PLAYERS = { diloti: [2, 4], xeri: [2, 4], kontsina: [2, 3, 4] };  // until /api/info says

function loadForm() {
  try { return JSON.parse(localStorage.getItem(FORM_KEY)) || {}; } catch (e) { return {}; }
}

export class Lobby {
  constructor(root, { go }) {
    this.root = root;
    this.go = go;
    this.info = null;
    this.tables = [];
    this.finished = [];
    this.error = "";
    const saved = loadForm();
    const game = GAMES.includes(saved.game) ? saved.game : "diloti";
    this.form = {
      name: typeof saved.name === "string" ? saved.name : "",
      game,
      // The parent games' own settings, kept apart from Diloti's: {options, target, hands} each.
      games: saved.games && typeof saved.games === "object" ? saved.games : {},
      players: PLAYERS[game].includes(saved.players) ? saved.players : 2,
      seats: Array.isArray(saved.seats) ? saved.seats : null,  // per seat: "human" or a level
      target: Number.isInteger(saved.target) ? saved.target : 61,
      options: saved.options && typeof saved.options === "object" ? saved.options : {},
      private: !!saved.private,
      clock: CLOCKS.includes(saved.clock) ? saved.clock : "off",
      rated: saved.rated !== false,
    };
    this.player = new PlayerPanel({ changed: () => this.render(), nameInput: () => this.form.name });
  }

  async start() {
    this.render();
    await this.player.load();
    if (this.player.me) this.form.name = this.player.me.name;
    try {
      this.info = await api("GET", "/api/info");
    } catch (e) {
      this.error = e.message;
    }
    this.fixSeats();
    this.render();
    try {
      this.tables = (await api("GET", "/api/tables")).tables || [];
      this.finished = (await api("GET", "/api/tables?status=over")).tables || [];
      this.render();
    } catch (e) { /* the lists are optional */ }
  }

  stop() {}

  levels() { return (this.info && this.info.levels) || ["random"]; }

  defaultLevel() {
    const lv = this.levels();
    for (const pref of ["heuristic", "greedy", "expert"]) if (lv.includes(pref)) return pref;
    return lv[lv.length - 1];
  }

  playerChoices() {
    const g = this.info && this.info.games && this.info.games[this.form.game];
    return g ? g.players : PLAYERS[this.form.game];
  }

  /** The parent game's settings in the form (made on first use). */
  gameForm(game) {
    const f = this.form;
    if (!f.games[game] || typeof f.games[game] !== "object") f.games[game] = {};
    const g = f.games[game];
    const defaults = (this.info && this.info.games && this.info.games[game] && this.info.games[game].options) || {};
    if (!g.options || typeof g.options !== "object") g.options = {};
    if (!Number.isInteger(g.target)) g.target = defaults.target || (game === "xeri" ? 101 : 21);
    if (!Number.isInteger(g.hands)) g.hands = defaults.hands || 10;
    return g;
  }

  /** The options sent for the form's game (only the changed ones, the target and, for Xeri, the hands). */
  optionsBody() {
    const f = this.form;
    if (f.game === "diloti") return { ...f.options, target: f.target };
    const g = this.gameForm(f.game);
    const out = { ...g.options, target: g.target };
    if (f.game === "xeri") {
      out.hands = g.hands;
      if (f.players === 4) out.partnerships = true; else delete out.partnerships;  // four play Xeri as partners
    } else if (f.players !== 4) delete out.partnerships;
    return out;
  }

  /** With `n` players, do partners sit opposite (Diloti, Xeri; Kontsina only when chosen)? */
  partnersAt(n) {
    if (n !== 4) return false;
    const f = this.form;
    return f.game !== "kontsina" || !!this.gameForm(f.game).options.partnerships;
  }

  partners() {
    const f = this.form;
    if (f.players !== 4) return false;
    return f.game === "diloti" || f.game === "xeri" || !!this.gameForm(f.game).options.partnerships;
  }

  fixSeats() {
    if (!this.playerChoices().includes(this.form.players)) this.form.players = 2;
    const n = this.form.players;
    const lv = this.levels();
    let seats = this.form.seats && this.form.seats.length === n ? this.form.seats.slice() : null;
    if (!seats) seats = Array.from({ length: n }, (_, i) => (i === 0 ? "human" : this.defaultLevel()));
    seats[0] = "human";
    seats = seats.map((s, i) => (i === 0 || s === "human" || lv.includes(s) ? s : this.defaultLevel()));
    this.form.seats = seats;
  }

  save() {
    try { localStorage.setItem(FORM_KEY, JSON.stringify(this.form)); } catch (e) { /* ignore */ }
  }

  /** "Play now" with the form's settings: the quick-play queue pairs players of a similar rating. */
  quickPlay() {
    const f = this.form;
    const name = f.name.trim();
    if (!name && !this.player.me) { this.error = t("join.name_needed"); this.render(); return; }
    this.save();
    const body = { players: f.players, options: this.optionsBody() };
    if (!this.player.me) body.name = name;
    if (f.clock !== "off") {
      const [move, reserve] = f.clock.split("+").map(Number);
      body.clock = { move, reserve };
    }
    const view = new QuickPlayView(this.root, body, { go: this.go, back: () => { this.render(); } });
    view.start();
  }

  async create(ev) {
    ev.preventDefault();
    const f = this.form;
    const name = f.name.trim();
    if (!name) { this.error = t("join.name_needed"); this.render(); return; }
    const body = {
      players: f.players,
      options: this.optionsBody(),
      seats: f.seats.map((s) => (s === "human" ? { kind: "human" } : { kind: "bot", level: s })),
      seat: 0,
      name,
      private: f.private,
    };
    // The ratings are Diloti's: the parent games are casual.
    if (f.game === "diloti") body.rated = f.rated; else body.game = f.game;
    // A rated table plays by the rated pool's conditions (the server's default away level and grace).
    const pool = f.game === "diloti" && f.rated;
    if (!pool && f.away_level && this.levels().includes(f.away_level)) body.away_level = f.away_level;
    if (f.clock !== "off") {
      const [move, reserve] = f.clock.split("+").map(Number);
      body.clock = { move, reserve };
    }
    this.save();
    try {
      const res = await api("POST", "/api/tables", body);
      saveToken(res.table, res.token);
      this.go("?table=" + encodeURIComponent(res.table));
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  render() {
    const f = this.form;
    const info = this.info;
    const set = (k) => (e) => { f[k] = e.target.value; };
    const nameInput = h("input", { type: "text", id: "name", name: "name", maxlength: (info && info.limits && info.limits.name_max) || 24, value: f.name, autocomplete: "nickname", oninput: set("name") });

    const games = h("div", { class: "radio-row", role: "radiogroup", id: "game-choice" }, GAMES.map((g) =>
      h("label", null, h("input", { type: "radio", name: "game", value: g, checked: f.game === g || undefined,
        onchange: () => { f.game = g; this.fixSeats(); this.render(); } }), " ", t("game.name." + g))));

    const players = h("div", { class: "radio-row", role: "radiogroup" }, this.playerChoices().map((n) =>
      h("label", null, h("input", { type: "radio", name: "players", value: String(n), checked: f.players === n || undefined,
        onchange: () => { f.players = n; f.seats = null; this.fixSeats(); this.render(); } }), " ",
      t(n === 4 && !this.partnersAt(4) ? "new.players4_alone" : "new.players" + n))));

    const seatRows = (f.seats || []).map((s, i) => {
      const role = i === 0 ? t("new.you") : this.partners() && i === 2 ? t("new.partner") : t("new.opponent");
      if (i === 0) return h("div", { class: "seat-row" }, h("span", { class: "who" }, t("seat.n", { n: 1 }) + " · " + role));
      const sel = h("select", { id: "seat-" + i, "aria-label": t("seat.n", { n: i + 1 }), onchange: (e) => { f.seats[i] = e.target.value; } },
        h("option", { value: "human", selected: s === "human" || undefined }, t("new.human")),
        this.levels().map((lv) => h("option", { value: lv, selected: s === lv || undefined }, t("new.computer") + " · " + lv)));
      return h("div", { class: "seat-row" }, h("span", { class: "who" }, t("seat.n", { n: i + 1 }) + " · " + role), sel);
    });

    const diloti = f.game === "diloti";
    const gf = diloti ? null : this.gameForm(f.game);
    const byHands = f.game === "xeri" && !gf.options.game_by_points;
    const numberInput = (id, value, max, put) => h("input", { type: "number", id, min: 1, max, value: String(value),
      oninput: (e) => { const v = Number(e.target.value); if (Number.isInteger(v) && v > 0) put(v); } });
    const target = byHands ? numberInput("hands", gf.hands, 1000, (v) => { gf.hands = v; })
      : numberInput("target", diloti ? f.target : gf.target, 10000, (v) => { if (diloti) f.target = v; else gf.target = v; });

    const opts = [];
    const defaults = diloti ? (info && info.options) || {}
      : (info && info.games && info.games[f.game] && info.games[f.game].options) || {};
    const chosen = diloti ? f.options : gf.options;
    for (const [k, v] of Object.entries(defaults)) {
      if (k === "target" || k === "hands") continue;
      // Xeri's partnerships follow from 4 players; Kontsina's are a choice of 4 players only.
      if (k === "partnerships" && (f.game === "xeri" || f.players !== 4)) continue;
      if (typeof v === "boolean") {
        opts.push(h("label", null, h("input", { type: "checkbox", id: "opt-" + k, checked: chosen[k] || undefined,
          onchange: (e) => { if (e.target.checked) chosen[k] = true; else delete chosen[k];
            if (k === "game_by_points" || k === "partnerships") this.render(); } }), t("opt." + k)));
      } else {
        const choices = (info.choices && info.choices[k]) || [v];
        opts.push(h("label", null, t("opt." + k) + ": ", h("select", { id: "opt-" + k, onchange: (e) => {
          if (e.target.value === v) delete f.options[k]; else f.options[k] = e.target.value; } },
        choices.map((c) => h("option", { value: c, selected: (f.options[k] || v) === c || undefined }, t(`opt.${k}.${c}`))))));
      }
    }

    const form = h("form", { class: "panel", id: "new-table", onsubmit: (e) => this.create(e) },
      h("h2", null, t("new.title")),
      h("label", { class: "field" }, h("span", null, t("new.name")), nameInput),
      h("div", { class: "field" }, h("span", null, t("new.game")), games),
      h("div", { class: "field" }, h("span", null, t("new.players")), players),
      h("div", { class: "field" }, h("span", null, t("new.seats")), seatRows),
      h("label", { class: "field" }, h("span", null, t(byHands ? "new.hands" : "new.target")), target),
      h("label", { class: "field" }, h("span", null, t("new.away_level")),
        h("select", { id: "away-level", disabled: (diloti && f.rated) || undefined, onchange: (e) => { f.away_level = e.target.value; } },
          this.levels().map((lv) => h("option", { value: lv, selected: ((diloti && f.rated ? null : f.away_level) || "heuristic") === lv || undefined }, lv)))),
      h("label", { class: "field" }, h("span", null, t("new.clock")),
        h("select", { id: "clock", onchange: (e) => { f.clock = e.target.value; } },
          CLOCKS.map((c) => h("option", { value: c, selected: f.clock === c || undefined }, t("new.clock." + c))))),
      h("details", { open: Object.keys(chosen).length ? true : undefined }, h("summary", null, t("new.options")), h("div", { class: "opts" }, opts)),
      h("label", { class: "field-inline" }, h("input", { type: "checkbox", id: "private", checked: f.private || undefined,
        onchange: (e) => { f.private = e.target.checked; } }), " ", t("new.private")),
      diloti ? h("label", { class: "field-inline" }, h("input", { type: "checkbox", id: "rated", checked: f.rated || undefined,
        onchange: (e) => { f.rated = e.target.checked; this.render(); } }), " ", t("new.rated"))
        : h("p", { class: "note", id: "casual-note" }, t("new.casual")),
      diloti && f.rated ? h("p", { class: "note", id: "rated-note" }, t("new.rated_pool")) : null,
      h("p", { class: "error", id: "form-error", role: "alert" }, this.error),
      h("div", { class: "choices start" },
        h("button", { type: "submit", class: "btn primary", id: "create" }, t("new.create")),
        diloti ? h("button", { type: "button", class: "btn", id: "quick-play", title: t("quick.hint"), onclick: () => this.quickPlay() }, t("quick.play")) : null));

    const open = this.tables.filter((tb) => tb.free && tb.free.length);
    const list = open.length ? h("section", { class: "panel", id: "open-tables" }, h("h2", null, t("lobby.open")),
      h("ul", { class: "lobbylist" }, open.map((tb) => h("li", { dataset: { game: tb.game || "diloti" } },
        h("span", null, t("game.name." + (tb.game || "diloti")) + " · " + t("new.players" + tb.players + (tb.players === 4 && tb.sides === 4 ? "_alone" : ""))),
        h("span", null, tb.seats.filter((s) => s.taken).map((s) => seatName(tb, s.seat, null)).join(", ")),
        h("a", { class: "btn small", href: "/?join=" + encodeURIComponent(tb.id) }, t("join.title")))))) : null;

    const done = this.finished.length ? h("section", { class: "panel", id: "finished-games" }, h("h2", null, t("replay.games")),
      h("ul", { class: "lobbylist" }, this.finished.slice(0, 10).map((tb) => h("li", { dataset: { game: tb.game || "diloti" } },
        h("span", null, (tb.game && tb.game !== "diloti" ? t("game.name." + tb.game) + ": " : "") + tb.seats.map((s) => seatName(tb, s.seat, null)).join(" · ")),
        tb.scores ? h("span", null, tb.scores.join(" – ")) : null,
        h("a", { class: "btn small", href: "/?replay=" + encodeURIComponent(tb.id) }, t("game.replay")))))) : null;

    fill(this.root, h("main", { class: "page" },
      h("p", null, t("app.tagline")), this.player.render(), form, list, done));
  }
}

export class JoinPage {
  constructor(root, tableId, { go }) {
    this.root = root;
    this.id = tableId;
    this.go = go;
    this.table = null;
    this.error = "";
    this.name = loadForm().name || "";
  }

  async start() {
    try {
      this.table = await api("GET", "/api/tables/" + encodeURIComponent(this.id));
    } catch (e) {
      this.error = e.message;
    }
    this.render();
  }

  stop() {}

  async join(seat) {
    const name = this.name.trim();
    if (!name) { this.error = t("join.name_needed"); this.render(); return; }
    try {
      const res = await api("POST", `/api/tables/${encodeURIComponent(this.id)}/join`, { name, seat });
      saveToken(res.table, res.token);
      try { localStorage.setItem(FORM_KEY, JSON.stringify({ ...loadForm(), name })); } catch (e) { /* ignore */ }
      this.go("?table=" + encodeURIComponent(res.table));
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  render() {
    const tb = this.table;
    const body = [h("h2", null, t("join.title"))];
    if (tb && tb.game && tb.game !== "diloti") body.push(h("p", { id: "join-game" }, t("game.name." + tb.game) + " · " + t("new.players" + tb.players + (tb.players === 4 && tb.sides === 4 ? "_alone" : ""))));
    if (tb) {
      body.push(h("ul", { class: "seatlist" }, tb.seats.map((s) => h("li", null,
        h("span", { class: "tag side" + (s.seat % (tb.sides || 2)) }, t("seat.n", { n: s.seat + 1 })),
        h("b", null, s.kind === "bot" ? seatName(tb, s.seat, null) + " · " + s.level : s.taken ? s.name : t("wait.free")),
        s.away ? h("span", { class: "tag away" }, t(s.taken ? "seat.away" : "seat.left")) : null,
        (tb.sides || 2) < tb.players ? h("span", { class: "tag" }, t("side.n", { n: (s.seat % (tb.sides || 2)) + 1 })) : null))));
      // The conditions are shown before anyone sits: rated or casual, and what happens to an absent player's seat.
      body.push(h("p", { class: "note", id: "join-terms" }, t(tb.rated ? "join.rated" : "join.casual",
        { level: tb.away_level, grace: tb.grace })));
      // A seat left during a game is free too: whoever takes it plays from the next move on.
      if (tb.free && tb.free.length && (tb.status === "waiting" || tb.status === "playing")) {
        body.push(h("label", { class: "field" }, h("span", null, t("new.name")),
          h("input", { type: "text", id: "join-name", value: this.name, maxlength: 24, oninput: (e) => { this.name = e.target.value; } })));
        body.push(h("div", { class: "choices" }, tb.free.map((s) =>
          h("button", { type: "button", class: "btn primary", dataset: { seat: String(s) }, onclick: () => this.join(s) }, t("join.take", { seat: s + 1 })))));
      } else {
        body.push(h("p", null, t("join.full")));
      }
      if (tb.status !== "closed") {
        body.push(h("p", null, h("a", { href: "/?watch=" + encodeURIComponent(tb.id), id: "join-watch" }, t("watch.this"))));
      }
    }
    body.push(h("p", { class: "error", id: "join-error", role: "alert" }, this.error));
    fill(this.root, h("main", { class: "page" }, h("section", { class: "panel", id: "join" }, body)));
  }
}
