// A player's profile (`/?player=ID`): ratings with their uncertainty, the rating over time as a plot
// (inline SVG: the page's security policy allows no outside script), statistics, favourite opponents
// and every past game with its replay and record. And the leaderboard (`/?leaders=MODE&page=N`).
import { loadPlayerEvents, renderPlayerEvents } from "./profile_events.js";
import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { fixed, t, tn } from "./i18n.js";
import { levelName } from "./present.js";
import { reviewHref } from "./review.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

/** The rating after each rated game, with the ± band, as an SVG line plot; `width` is best the plot's width on
 *  screen: its labels (12 units high) are then 12 px, never shrunk to 7 px on a phone. */
export function ratingPlot(points, { width = 640, height = 220 } = {}) {
  const pad = { l: 44, r: 10, t: 10, b: 22 };
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "plot", id: "rating-plot", role: "img",
    "aria-label": t("profile.plot") });
  if (!points.length) return root;
  const lo = Math.min(...points.map((p) => p.rating - p.deviation));
  const hi = Math.max(...points.map((p) => p.rating + p.deviation));
  const span = Math.max(1, hi - lo);
  const x = (i) => pad.l + (points.length === 1 ? (width - pad.l - pad.r) / 2 : i * (width - pad.l - pad.r) / (points.length - 1));
  const y = (v) => pad.t + (hi - v) * (height - pad.t - pad.b) / span;
  const band = points.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`)
    .concat(points.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse()).join(" ");
  root.appendChild(svg("polygon", { points: band, class: "band" }));
  root.appendChild(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }));
  points.forEach((p, i) => root.appendChild(svg("circle", { cx: x(i), cy: y(p.rating), r: 3, class: "dot" },
    svg("title", {}, `${p.rating} ± ${p.deviation}`))));
  for (const v of [hi, (hi + lo) / 2, lo]) root.appendChild(svg("text", { x: 4, y: y(v) + 4, class: "axis" }, String(Math.round(v))));
  return root;
}

function ratingText(r) {
  return `${r.rating} ± ${r.deviation}` + (r.provisional ? " ?" : "");
}

export class ProfileView {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.p = null;
    this.page = null;
    this.mode = "overall";
    this.error = "";
  }

  async start() {
    try {
      this.p = await api("GET", "/api/players/" + encodeURIComponent(this.id));
      this.page = this.p.games;
      this.events = await loadPlayerEvents(this.id);  // the daily deal's streak, the arenas
    } catch (e) { this.error = e.message; }
    this.render();
  }

  stop() {}

  async more(page) {
    try { this.page = await api("GET", `/api/players/${encodeURIComponent(this.id)}/games?page=${page}`); } catch (e) { this.error = e.message; }
    this.render();
  }

  render() {
    if (!this.p) {
      fill(this.root, h("main", { class: "page" }, h("section", { class: "panel", id: "profile" },
        h("p", { class: "error" }, this.error || t("game.waiting")), h("p", null, h("a", { href: "/" }, t("game.new"))))));
      return;
    }
    const p = this.p;
    const ratings = h("table", { class: "sheet", id: "profile-ratings" },
      h("thead", null, h("tr", null, ["profile.mode", "profile.rating", "profile.games", "profile.rank"].map((k) => h("th", null, t(k))))),
      h("tbody", null, p.ratings.map((r) => h("tr", { dataset: { mode: r.mode } }, h("td", null, t("mode." + r.mode)),
        h("td", { class: "rating" }, ratingText(r)), h("td", null, `${r.games} (${r.wins}–${r.losses})`),
        h("td", null, r.rank === null ? "—" : "#" + r.rank)))));
    const history = (p.history.find((x) => x.mode === this.mode) || { points: [] }).points;
    const modes = h("div", { class: "choices start" }, p.history.map((x) => h("button", { type: "button",
      class: "btn small" + (x.mode === this.mode ? " primary" : ""), dataset: { mode: x.mode },
      onclick: () => { this.mode = x.mode; this.render(); } }, t("mode." + x.mode))));
    const stats = h("table", { class: "sheet", id: "profile-stats" },
      h("thead", null, h("tr", null, ["profile.mode", "profile.count", "profile.won", "profile.lost", "profile.xeris", "profile.ppr"].map((k) => h("th", null, t(k))))),
      h("tbody", null, p.stats.map((s) => h("tr", { dataset: { mode: s.mode } }, h("td", null, t("mode." + s.mode)),
        h("td", null, String(s.games)), h("td", null, String(s.won)), h("td", null, String(s.lost)), h("td", null, String(s.xeris)),
        h("td", null, s.points_per_round === null || s.points_per_round === undefined ? "—" : fixed(s.points_per_round, 1))))));
    const opponents = h("ul", { class: "lobbylist", id: "profile-opponents" }, p.opponents.map((o) => h("li", null,
      o.player ? h("a", { href: "/?player=" + encodeURIComponent(o.player) }, o.name || "?")
        : h("span", null, o.level ? t("seat.computer", { level: levelName(o.level) }) : o.name || t("profile.deleted")),
      h("span", null, tn("profile.record", o.games, { games: o.games, won: o.won, lost: o.lost })))));
    const pg = this.page;
    const games = h("ul", { class: "lobbylist", id: "profile-games" }, pg.games.map((g) => h("li", { dataset: { table: g.table } },
      h("span", { class: "tag" + (g.result === "won" ? " side0" : g.result === "lost" ? " side1" : "") }, t("profile.result." + g.result)),
      h("span", null, `${g.points}–${g.against}`),
      h("span", null, g.seats.filter((s) => s.seat !== g.seat).map((s) => (s.bot ? t("seat.bot_account", { name: s.name })
        : s.kind === "bot" ? levelName(s.name) : s.name || t("profile.deleted"))).join(", ")),
      h("span", null, g.finished.slice(0, 10)),
      g.rating !== null ? h("span", { class: "tag" }, String(g.rating)) : h("span", { class: "tag" }, t("profile.casual")),
      h("a", { class: "btn small", href: reviewHref(g.table, g.seat), dataset: { review: g.table } }, t("review.btn")),
      h("a", { class: "btn small", href: g.replay }, t("game.replay")),
      h("a", { class: "btn small", href: g.record, download: `diloti-${g.table}.txt` }, t("game.download")))));
    const pager = pg.pages > 1 ? h("div", { class: "choices" },
      h("button", { type: "button", class: "btn small", disabled: pg.page <= 1 || undefined, onclick: () => this.more(pg.page - 1) }, "‹"),
      h("span", null, `${pg.page} / ${pg.pages}`),
      h("button", { type: "button", class: "btn small", id: "games-next", disabled: pg.page >= pg.pages || undefined, onclick: () => this.more(pg.page + 1) }, "›")) : null;
    fill(this.root, h("main", { class: "page" }, h("section", { class: "panel", id: "profile", dataset: { player: p.player } },
      h("h2", { id: "profile-name" }, p.name, p.bot ? h("span", { class: "badge", id: "bot-badge", title: t("profile.bot_hint") }, " ", t("profile.bot")) : null),
      p.ratings.length ? h("div", { class: "scroll-x" }, ratings) : h("p", null, t("profile.unrated")),
      h("h3", null, t("profile.over_time")), modes, ratingPlot(history),
      h("h3", null, t("profile.stats")), h("div", { class: "scroll-x" }, stats),
      h("h3", null, t("profile.opponents")), p.opponents.length ? opponents : h("p", null, "—"),
      renderPlayerEvents(this.events),
      h("h3", null, t("profile.games_title", { n: pg.total })), games, pager,
      h("p", null, h("a", { href: "/?leaders=overall" }, t("leaders.title")), " · ", h("a", { href: "/" }, t("game.new"))))));
    // Drawn again at its width on screen (a phone's is half the 640 units): one unit a pixel, labels readable.
    const plot = this.root.querySelector("#rating-plot");
    const width = plot ? Math.round(plot.getBoundingClientRect().width) : 0;
    if (width > 0 && width !== 640) plot.replaceWith(ratingPlot(history, { width, height: Math.min(220, Math.max(160, width * 0.5)) }));
  }
}

export class LeaderboardView {
  constructor(root, mode, page, bots = false) {
    this.root = root;
    this.bots = !!bots;  // the bot accounts' own list
    this.mode = ["overall", "2p", "4p"].includes(mode) ? mode : "overall";
    this.pageNo = Number.isInteger(page) && page > 0 ? page : 1;
    this.board = null;
    this.error = "";
  }

  async start() { await this.load(); }

  stop() {}

  async load() {
    try { this.board = await api("GET", `/api/leaderboard?mode=${this.mode}&page=${this.pageNo}` + (this.bots ? "&bots=true" : "")); this.error = ""; } catch (e) { this.error = e.message; }
    this.render();
  }

  go(mode, page, bots = this.bots) {
    this.mode = mode;
    this.pageNo = page;
    this.bots = bots;
    history.replaceState(null, "", `/?leaders=${mode}&page=${page}` + (bots ? "&bots=1" : "") + (new URLSearchParams(location.search).has("pace") ? "&pace=0" : ""));
    this.load();
  }

  render() {
    const b = this.board;
    const tabs = h("div", { class: "choices start" }, ["overall", "2p", "4p"].map((m) => h("button", { type: "button",
      class: "btn small" + (m === this.mode ? " primary" : ""), dataset: { mode: m }, onclick: () => this.go(m, 1) }, t("mode." + m))),
      h("button", { type: "button", class: "btn small" + (this.bots ? " primary" : ""), id: "bots-tab", title: t("leaders.bots_hint"),
        onclick: () => this.go(this.mode, 1, !this.bots) }, t("leaders.bots")));
    const rows = b ? b.players.map((r) => h("tr", { dataset: { player: r.player } }, h("td", null, String(r.rank)),
      h("td", null, h("a", { href: "/?player=" + encodeURIComponent(r.player) }, r.name)),
      h("td", { class: "rating" }, ratingText(r)), h("td", null, `${r.games} (${r.wins}–${r.losses})`))) : [];
    const pager = b && b.pages > 1 ? h("div", { class: "choices" },
      h("button", { type: "button", class: "btn small", disabled: b.page <= 1 || undefined, onclick: () => this.go(this.mode, b.page - 1) }, "‹"),
      h("span", null, `${b.page} / ${b.pages}`),
      h("button", { type: "button", class: "btn small", disabled: b.page >= b.pages || undefined, onclick: () => this.go(this.mode, b.page + 1) }, "›")) : null;
    fill(this.root, h("main", { class: "page" }, h("section", { class: "panel", id: "leaders" },
      h("h2", null, t("leaders.title")), tabs,
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      b && !b.players.length ? h("p", null, t("leaders.empty")) : null,
      b && b.players.length ? h("div", { class: "scroll-x" }, h("table", { class: "sheet", id: "leaders-table" },
        h("thead", null, h("tr", null, ["leaders.rank", "leaders.player", "profile.rating", "profile.games"].map((k) => h("th", null, t(k))))),
        h("tbody", null, rows))) : null,
      pager, h("p", { class: "note" }, t("leaders.note")), h("p", null, h("a", { href: "/" }, t("game.new"))))));
  }
}
