// The start page (new table, open tables) and the join page of an invitation link.
import { api, saveToken } from "./api.js";
import { fill, h, heldWhilePressed } from "./dom.js";
import { defaultGame, gameNames, gameOf, gameTitle, goalOf, infoReady, loadInfo, optionLabel, optionWord, seatingChoices,
  seatingFlags, seatingOf } from "./games.js";
import { has, t, tn } from "./i18n.js";
import { levelName, seatName } from "./present.js";
import { PlayerPanel } from "./player.js";
import { QuickPlayView } from "./quickplay.js";
import { EventsPanel } from "./events.js";

const FORM_KEY = "diloti.form";
const CLOCKS = ["off", "15+60", "30+120", "60+300"];  // the turn clocks offered: "move+reserve" seconds
// What decides a game (/api/info `goal`): the number option of that name is the form's goal field, not an option.
const GOALS = ["target", "hands"];

function loadForm() {
  try { return JSON.parse(localStorage.getItem(FORM_KEY)) || {}; } catch (e) { return {}; }
}

/** "2 players", "4 players (2 against 2)", "4 players (each alone)": `n` players making `sides` sides. */
export function playersWords(n, sides) {
  const alone = n === 4 && sides === 4 ? "_alone" : "";
  return has("new.players" + n + alone) ? t("new.players" + n + alone) : tn("new.players_n", n);
}

// How many open tables the start page lists before "more" (the rest are one tap away): one on a phone, where the
// ways to play, the first open table and the daily deal's heading just fill the first screen; three elsewhere.
const openShown = () => (window.matchMedia("(max-width: 480px)").matches ? 1 : 3);

export class Lobby {
  constructor(root, { go }) {
    this.root = root;
    this.go = go;
    this.info = null;
    this.tables = [];
    this.finished = [];
    this.error = "";
    this.errorAt = "start";  // where the error is shown: the first screen's ("start") or the form's ("form")
    const saved = loadForm();
    this.form = {
      name: typeof saved.name === "string" ? saved.name : "",
      game: typeof saved.game === "string" ? saved.game : null,  // one of /api/info `games` once it came
      // Each game's own settings, {options, and a value for each number option (target, hands)}, by game.
      games: saved.games && typeof saved.games === "object" ? saved.games : {},
      players: Number.isInteger(saved.players) ? saved.players : 2,
      seats: Array.isArray(saved.seats) ? saved.seats : null,  // per seat: "human" or a level
      private: !!saved.private,
      clock: CLOCKS.includes(saved.clock) ? saved.clock : "off",
      rated: saved.rated !== false,
      bots: !!saved.bots,  // bot accounts may take the free seats
    };
    // A form saved by an earlier page kept the default game's settings apart: they become that game's.
    this.earlier = { options: saved.options, target: saved.target };
    this.player = new PlayerPanel({ changed: () => this.render(), nameInput: () => this.form.name });
    this.events = new EventsPanel({ go, changed: () => this.render() });  // the daily deal and the arenas
  }

  async start() {
    this.render();
    await this.player.load();
    this.events.start();
    if (this.player.me) this.form.name = this.player.me.name;
    try {
      this.info = await loadInfo(true);
      this.adopt();
    } catch (e) {
      this.error = e.message;
    }
    this.render();
    try {
      this.tables = (await api("GET", "/api/tables")).tables || [];
      this.finished = (await api("GET", "/api/tables?status=over")).tables || [];
      this.render();
    } catch (e) { /* the lists are optional */ }
  }

  stop() { this.stopped = true; this.events.stop(); }

  /** The form made to fit the server's games (once /api/info came). */
  adopt() {
    const f = this.form;
    const first = defaultGame();
    const old = this.earlier;
    if (first && !f.games[first] && (old.options || Number.isInteger(old.target))) {
      f.games[first] = { options: old.options && typeof old.options === "object" ? old.options : {} };
      if (Number.isInteger(old.target)) f.games[first].target = old.target;
    }
    if (!gameNames().includes(f.game)) f.game = first;
    this.fixSeats();
  }

  /** The computer's levels for the form's game and player count (a level may play only some: /api/info says). */
  levels() {
    const all = (this.info && this.info.levels) || ["random"];
    const game = this.info && this.info.games && this.info.games[this.form.game];
    const here = game && game.levels && game.levels[String(this.form.players)];
    return here ? all.filter((lv) => here.includes(lv)) : all;
  }

  defaultLevel() {
    const lv = this.levels();
    for (const pref of ["heuristic", "greedy", "expert"]) if (lv.includes(pref)) return pref;
    return lv[lv.length - 1];
  }

  playerChoices() { return gameOf(this.form.game).players; }

  /** The game's settings in the form (made on first use): its changed options and its numbers. */
  gameForm(game) {
    const f = this.form;
    if (!f.games[game] || typeof f.games[game] !== "object") f.games[game] = {};
    const gf = f.games[game];
    if (!gf.options || typeof gf.options !== "object") gf.options = {};
    const g = gameOf(game);
    for (const k of Object.keys(g.ranges)) if (!Number.isInteger(gf[k])) gf[k] = g.options[k];
    return gf;
  }

  /** How the form's table seats its players (/api/info `seating`: the sides, the seating flags' values). */
  seating(n = this.form.players) {
    const f = this.form;
    return seatingOf(f.game, n, this.gameForm(f.game).options);
  }

  /** The options sent for the form's game: the changed ones, its numbers, and the seating flags the players set. */
  optionsBody() {
    const f = this.form;
    const g = gameOf(f.game);
    const gf = this.gameForm(f.game);
    const out = { ...gf.options };
    for (const k of Object.keys(g.ranges)) out[k] = gf[k];
    const way = this.seating();
    const chosen = seatingChoices(f.game, f.players);
    for (const k of seatingFlags(f.game)) {
      if (chosen.includes(k)) continue;  // the player's choice, among the options
      const v = way ? way.options[k] : g.options[k];
      if (v === g.options[k]) delete out[k]; else out[k] = v;  // four play Xeri as partners
    }
    return out;
  }

  fixSeats() {
    const choices = this.playerChoices();
    if (choices.length && !choices.includes(this.form.players)) this.form.players = choices[0];
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
    this.save();
    const body = { players: f.players, options: this.optionsBody() };
    if (!this.player.me) body.name = this.playName();
    if (f.bots) body.bots = true;  // bots welcome: quick play may pair a bot account too
    if (f.clock !== "off") {
      const [move, reserve] = f.clock.split("+").map(Number);
      body.clock = { move, reserve };
    }
    const view = new QuickPlayView(this.root, body, { go: this.go, back: () => { this.render(); } });
    view.start();
  }

  /** The name a guest sits under: the one typed, else "Guest" in the page's language (a player: theirs). */
  playName() {
    if (this.player.me) return this.player.me.name;
    return this.form.name.trim() || t("start.guest");
  }

  /** The computer's level for the seats "Play the computer" fills: the form's first computer seat's, else the default. */
  computerLevel() {
    const lv = (this.form.seats || []).find((s, i) => i > 0 && s !== "human");
    return lv || this.defaultLevel();
  }

  /** "Play the computer": the form's game, players and rules, every other seat the computer; one tap to the table. */
  playComputer() {
    const level = this.computerLevel();
    return this.create(null, this.form.seats.map((s, i) => (i === 0 ? "human" : s === "human" ? level : s)), "start");
  }

  /** A new table from the form (`seats`: the form's own unless given); `where` the error is shown ("form", "start"). */
  async create(ev, seats = null, where = "form") {
    if (ev) ev.preventDefault();
    const f = this.form;
    const g = gameOf(f.game);
    const name = this.playName();
    this.errorAt = where;
    const body = {
      game: f.game,
      players: f.players,
      options: this.optionsBody(),
      seats: (seats || f.seats).map((s) => (s === "human" ? { kind: "human" } : { kind: "bot", level: s })),
      seat: 0,
      name,
      private: f.private,
      bots: f.bots,
    };
    // Only a rated game's tables may count for the ratings (/api/info `rated`); the others are casual.
    if (g.rated) body.rated = f.rated;
    // A rated table plays by the rated pool's conditions (the server's default away level and grace).
    const pool = g.rated && f.rated;
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

  /** The option rows of the form's game: flags, words and numbers, as /api/info describes its options. */
  optionRows(gf) {
    const f = this.form;
    const g = gameOf(f.game);
    const chosen = gf.options;
    const seated = seatingFlags(f.game);
    const free = seatingChoices(f.game, f.players);
    const redraw = (k) => g.goal_flags.includes(k) || seated.has(k);  // the goal's field, or the seats, change
    const opts = [];
    for (const [k, v] of Object.entries(g.options)) {
      if (GOALS.includes(k)) continue;
      if (seated.has(k) && !free.includes(k)) continue;  // set by the number of players (Xeri's partnerships)
      const label = optionLabel(f.game, k);
      if (k in g.ranges) {
        opts.push(h("label", null, label + ": ", h("input", { type: "number", id: "opt-" + k, min: g.ranges[k][0],
          max: g.ranges[k][1], value: String(gf[k]),
          oninput: (e) => { const n = Number(e.target.value); if (Number.isInteger(n) && n > 0) gf[k] = n; } })));
      } else if (k in g.choices) {
        opts.push(h("label", null, label + ": ", h("select", { id: "opt-" + k, onchange: (e) => {
          if (e.target.value === v) delete chosen[k]; else chosen[k] = e.target.value; } },
        g.choices[k].map((c) => h("option", { value: c, selected: (chosen[k] || v) === c || undefined }, optionWord(k, c))))));
      } else {
        opts.push(h("label", null, h("input", { type: "checkbox", id: "opt-" + k, checked: (k in chosen ? chosen[k] : v) || undefined,
          onchange: (e) => { if (e.target.checked === v) delete chosen[k]; else chosen[k] = e.target.checked;
            if (redraw(k)) this.render(); } }), label));
      }
    }
    return opts;
  }

  /** The new-table form, drawn from what /api/info says of the chosen game. */
  renderForm() {
    const f = this.form;
    const info = this.info;
    if (!info || !f.game) return null;  // the first screen says it waits (or why the server could not be asked)
    const g = gameOf(f.game);
    const gf = this.gameForm(f.game);

    const players = h("div", { class: "radio-row", role: "radiogroup" }, this.playerChoices().map((n) => {
      const way = this.seating(n);
      return h("label", null, h("input", { type: "radio", name: "players", value: String(n), checked: f.players === n || undefined,
        onchange: () => { f.players = n; f.seats = null; this.fixSeats(); this.render(); } }), " ",
      playersWords(n, way ? way.sides : n));
    }));

    const way = this.seating();
    const sides = way ? way.sides : f.players;
    const seatRows = (f.seats || []).map((s, i) => {
      const role = i === 0 ? t("new.you") : sides < f.players && i % sides === 0 ? t("new.partner") : t("new.opponent");
      if (i === 0) return h("div", { class: "seat-row" }, h("span", { class: "who" }, t("seat.n", { n: 1 }) + " · " + role));
      const sel = h("select", { id: "seat-" + i, "aria-label": t("seat.n", { n: i + 1 }), onchange: (e) => { f.seats[i] = e.target.value; } },
        h("option", { value: "human", selected: s === "human" || undefined }, t("new.human")),
        this.levels().map((lv) => h("option", { value: lv, selected: s === lv || undefined }, t("new.computer") + " · " + levelName(lv))));
      return h("div", { class: "seat-row" }, h("span", { class: "who" }, t("seat.n", { n: i + 1 }) + " · " + role), sel);
    });

    // What decides the game (a target score, or hands won), as the chosen options make it: its number's field.
    const goal = goalOf(f.game, gf.options);
    const goalInput = goal in g.ranges ? h("input", { type: "number", id: goal, min: g.ranges[goal][0], max: g.ranges[goal][1],
      value: String(gf[goal]), oninput: (e) => { const v = Number(e.target.value); if (Number.isInteger(v) && v > 0) gf[goal] = v; } }) : null;

    const opts = this.optionRows(gf);
    const rated = g.rated;
    const ratedGames = gameNames().filter((n) => gameOf(n).rated).map(gameTitle);

    return h("form", { class: "panel", id: "new-table", onsubmit: (e) => this.create(e) },
      h("h2", null, t("new.title")),
      h("p", { class: "note" }, t("start.own")),
      h("div", { class: "field" }, h("span", null, t("new.players")), players),
      h("div", { class: "field" }, h("span", null, t("new.seats")), seatRows),
      goalInput ? h("label", { class: "field" }, h("span", null, t(goal === "hands" ? "new.hands" : "new.target")), goalInput) : null,
      h("label", { class: "field" }, h("span", null, t("new.away_level")),
        h("select", { id: "away-level", disabled: (rated && f.rated) || undefined, onchange: (e) => { f.away_level = e.target.value; } },
          this.levels().map((lv) => h("option", { value: lv, selected: ((rated && f.rated ? null : f.away_level) || "heuristic") === lv || undefined }, levelName(lv))))),
      h("label", { class: "field" }, h("span", null, t("new.clock")),
        h("select", { id: "clock", onchange: (e) => { f.clock = e.target.value; } },
          CLOCKS.map((c) => h("option", { value: c, selected: f.clock === c || undefined }, t("new.clock." + c))))),
      opts.length ? h("details", { open: Object.keys(gf.options).length ? true : undefined }, h("summary", null, t("new.options")), h("div", { class: "opts" }, opts)) : null,
      h("label", { class: "field-inline" }, h("input", { type: "checkbox", id: "private", checked: f.private || undefined,
        onchange: (e) => { f.private = e.target.checked; } }), " ", t("new.private")),
      h("label", { class: "field-inline", title: t("new.bots_hint") }, h("input", { type: "checkbox", id: "bots",
        checked: f.bots || undefined, onchange: (e) => { f.bots = e.target.checked; } }), " ", t("new.bots")),
      rated ? h("label", { class: "field-inline" }, h("input", { type: "checkbox", id: "rated", checked: f.rated || undefined,
        onchange: (e) => { f.rated = e.target.checked; this.render(); } }), " ", t("new.rated"))
        : h("p", { class: "note", id: "casual-note" }, ratedGames.length ? t("new.casual", { game: gameTitle(f.game), rated: ratedGames.join(", ") })
          : t("new.casual_none", { game: gameTitle(f.game) })),
      rated && f.rated ? h("p", { class: "note", id: "rated-note" }, t("new.rated_pool")) : null,
      h("p", { class: "error", id: "form-error", role: "alert" }, this.errorAt === "form" ? this.error : ""),
      h("div", { class: "choices start" },
        h("button", { type: "submit", class: "btn primary", id: "create" }, t("new.create"))));
  }

  /** The name field of the identity control (a guest's): what a guest sits under, "Guest" when left empty. */
  nameField() {
    if (this.player.me) return null;
    const f = this.form;
    const info = this.info;
    return h("label", { class: "field" }, h("span", null, t("new.name")),
      h("input", { type: "text", id: "name", name: "name", maxlength: (info && info.limits && info.limits.name_max) || 24, value: f.name,
        autocomplete: "nickname", placeholder: t("start.name_ph"), oninput: (e) => {
          f.name = e.target.value;
          // The identity line follows the name as it is typed (drawn again, the field would lose the caret).
          const name = f.name.trim();
          const shown = this.root.querySelector("#guest-name");
          if (shown) shown.firstChild.textContent = name ? t("start.you_guest", { name }) : t("start.you_new");
          const avatar = this.root.querySelector("#player-panel .avatar");
          if (avatar) avatar.textContent = (name[0] || "?").toUpperCase();
        } }));
  }

  /**
   * The first screen: the game, "Play the computer" (a table at once, every other seat the computer) and "Play
   * now" (the quick-play queue, where the game has one: /api/info `quick_play`), with what they will start.
   */
  renderStart() {
    const f = this.form;
    if (!this.info || !f.game) return h("section", { class: "panel start", id: "play-first" }, h("p", { class: "tagline" }, t("app.tagline")),
      h("p", { class: this.error ? "error" : "note", id: "start-error", role: "alert" }, this.error || t("game.waiting")));
    const g = gameOf(f.game);
    const games = h("div", { class: "radio-row gamechips", role: "radiogroup", id: "game-choice", "aria-label": t("new.game") },
      gameNames().map((name) => h("label", { class: f.game === name ? "on" : "" }, h("input", { type: "radio", name: "game", value: name,
        checked: f.game === name || undefined, onchange: () => { f.game = name; this.fixSeats(); this.render(); } }), " ", gameTitle(name))));
    const way = this.seating();
    const summary = t("start.summary", { game: gameTitle(f.game), players: playersWords(f.players, way ? way.sides : f.players), level: this.computerLevel() });
    return h("section", { class: "panel start", id: "play-first" },
      h("p", { class: "tagline" }, t("app.tagline")),
      games,
      h("div", { class: "choices start playbtns" },
        h("button", { type: "button", class: "btn primary big", id: "play-computer", title: t("start.computer_hint"), onclick: () => this.playComputer() }, t("start.computer")),
        g.quick_play ? h("button", { type: "button", class: "btn big", id: "quick-play", title: t("quick.hint"), onclick: () => this.quickPlay() }, t("quick.play")) : null),
      h("p", { class: "note", id: "play-summary" }, summary),
      h("p", { class: "error", id: "start-error", role: "alert" }, this.errorAt === "form" ? "" : this.error));
  }

  render() {
    if (this.stopped) return;  // another screen took over while the lists were on their way
    if (heldWhilePressed(this, () => this.render())) return;  // the lists came while a tap is under way
    const form = this.renderForm();
    const open = this.tables.filter((tb) => tb.free && tb.free.length);
    // The open tables come on the first screen, under the ways to play, then the daily deal and the arenas: a few
    // of them (openShown), the others behind "more", so that a busy evening's tables do not push the daily deal
    // and the arenas off a phone's first screen (12 open tables put the daily deal at 1,508 px on a 667 px phone).
    const row = (tb) => h("li", { dataset: { game: tb.game } },
      h("span", { class: "what" }, gameTitle(tb.game) + " · " + playersWords(tb.players, tb.sides)),
      h("span", { class: "who" }, tb.seats.filter((s) => s.taken).map((s) => seatName(tb, s.seat, null)).join(", ")),
      h("a", { class: "btn small", href: "/?join=" + encodeURIComponent(tb.id) }, t("join.title")));
    const few = openShown();
    const more = open.slice(few);
    const list = h("section", { class: "panel", id: "open-tables" }, h("h2", null, t("lobby.open")),
      open.length ? h("ul", { class: "lobbylist" }, open.slice(0, few).map(row))
        : h("p", { class: "note", id: "open-none" }, t("start.open_none")),
      more.length ? h("details", { id: "open-more", open: this.openMore || undefined,
        ontoggle: (e) => { this.openMore = e.target.open; } },
        h("summary", null, t("start.open_more", { n: more.length })), h("ul", { class: "lobbylist" }, more.map(row))) : null);

    const done = this.finished.length ? h("section", { class: "panel", id: "finished-games" }, h("h2", null, t("replay.games")),
      h("ul", { class: "lobbylist" }, this.finished.slice(0, 10).map((tb) => h("li", { dataset: { game: tb.game } },
        h("span", null, (gameOf(tb.game).named ? gameTitle(tb.game) + ": " : "") + tb.seats.map((s) => seatName(tb, s.seat, null)).join(" · ")),
        tb.scores ? h("span", null, tb.scores.join(" – ")) : null,
        h("a", { class: "btn small", href: "/?replay=" + encodeURIComponent(tb.id) }, t("game.replay")))))) : null;

    const shown = this.player.me ? "" : this.form.name.trim();
    fill(this.root, h("main", { class: "page" },
      this.player.render(this.nameField(), shown), this.renderStart(), list, this.events.render(), form, done));
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
      [this.table] = await Promise.all([api("GET", "/api/tables/" + encodeURIComponent(this.id)), infoReady()]);
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
    if (tb && gameOf(tb.game).named) body.push(h("p", { id: "join-game" }, gameTitle(tb.game) + " · " + playersWords(tb.players, tb.sides)));
    if (tb) {
      body.push(h("ul", { class: "seatlist" }, tb.seats.map((s) => h("li", null,
        h("span", { class: "tag side" + (s.seat % (tb.sides || 2)) }, t("seat.n", { n: s.seat + 1 })),
        h("b", null, s.kind === "bot" ? seatName(tb, s.seat, null) + " · " + levelName(s.level) : s.taken ? seatName(tb, s.seat, null) : t("wait.free")),
        s.away ? h("span", { class: "tag away" }, t(s.taken ? "seat.away" : "seat.left")) : null,
        (tb.sides || 2) < tb.players ? h("span", { class: "tag" }, t("side.n", { n: (s.seat % (tb.sides || 2)) + 1 })) : null))));
      // The conditions are shown before anyone sits: rated or casual, and what happens to an absent player's seat.
      body.push(h("p", { class: "note", id: "join-terms" }, t(tb.rated ? "join.rated" : "join.casual",
        { level: levelName(tb.away_level), grace: tb.grace })));
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
