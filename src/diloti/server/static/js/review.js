// Game review beside the replay (docs/REVIEW.md): the master's judgement of one seat's every move, asked for
// with the Review button, made in the server's worker pool (the progress is polled), stored once. Shows the
// accuracy, the key moments of the whole game (every round, in one list), a full-width graph of the game with
// round dividers (the chance to win, or the points lost where a game has no model of the chance) whose points
// open their move, and the move of the replay's current frame: played and best drawn as cards, the points lost
// with their unit, the reasons in words (read from the search's evidence), and Retry this position.
import { api, saveToken } from "./api.js";
import { cardEl } from "./cards.js";
import { h } from "./dom.js";
import { fixed, getLang, t } from "./i18n.js";
import { prettyCard, prettyMove } from "./present.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 700;
const FORM_KEY = "diloti.form";  // the start page's saved form: the name a retry sits under

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

/** The replay page of table `id` that opens with the review of `seat` (the game-over screen's link). */
export function reviewHref(id, seat) {
  return "/?replay=" + encodeURIComponent(id) + "&review=" + encodeURIComponent(String(seat ?? 0));
}

const pct = (x) => Math.round(100 * x);
/** Points with their unit, one decimal: the same figure in the list and in the move's detail. */
export const pointsText = (n) => t(Math.abs(n - 1) < 0.05 ? "review.point" : "review.points", { n: fixed(n, 1) });
const signed = (n) => (n >= 0 ? "+" : "−") + fixed(Math.abs(n), 1);

/** A move drawn as cards: the played card, then what it takes or builds on ("9D x 4H 5C", "4C + 4D = 8"). */
export function moveCards(text) {
  const toks = String(text || "").split(/\s+/).filter(Boolean);
  const parts = toks.map((tok) => {
    if (/^(10|[2-9AJQK])[CDHS]$/i.test(tok)) return cardEl(tok.toUpperCase(), { t, cls: "mini" });
    if (tok === "x") return h("span", { class: "op", "aria-hidden": "true" }, "×");
    if (tok === "+" || tok === "=") return h("span", { class: "op", "aria-hidden": "true" }, tok);
    return h("span", { class: "op" }, prettyMove(tok));
  });
  return h("span", { class: "review-cards", role: "img", "aria-label": prettyMove(text) }, parts);
}

/** A reason in the page's language, from its code and figures (diloti.ai.reasons). */
export function reasonText(r) {
  const p = r.params || {};
  if (r.code === "xeris" && p.line) {
    return t(Math.round(p.more) === 1 ? "review.reason.xeris_line_one" : "review.reason.xeris_line", { n: fixed(p.more, 0) });
  }
  if (r.code === "cards" && p.majority !== undefined) {
    return t("review.reason.cards_majority" + (p.line ? "_line" : ""), { n: fixed(p.more, 1), m: fixed(p.majority, 1) });
  }
  // Along the exact solver's line of best play (one true world): no shares of worlds to quote.
  if (p.line && ["sweep_left", "card_given", "declaration_lost", "cards", "margin"].includes(r.code)) {
    return t("review.reason." + r.code + "_line", { card: p.card ? prettyCard(p.card) : "", pts: p.points, v: p.value,
      n: p.more === undefined ? "" : fixed(p.more, 0), lost: p.lost === null || p.lost === undefined ? "–" : fixed(p.lost, 1) });
  }
  switch (r.code) {
    case "sweep_left": return t(p.left === 1 ? "review.reason.sweep_left_one" : "review.reason.sweep_left",
      { n: p.left, p: pct(p.share), q: pct(p.best_share) });
    case "sweep_missed": return t("review.reason.sweep_missed");
    case "xeris": return t("review.reason.xeris", { n: fixed(p.more, 1) });
    case "card_given": return t("review.reason.card_given", { card: prettyCard(p.card), pts: p.points,
      q: pct(p.best_share), p: pct(p.share), o: pct(p.theirs) });
    case "declaration_lost": return t("review.reason.declaration_lost", { v: p.value, p: pct(p.share), q: pct(p.best_share) });
    case "cards": return t("review.reason.cards", { n: fixed(p.more, 1) });
    case "exact": return t("review.exact");
    case "margin": return t("review.reason.margin", { lost: p.lost === null || p.lost === undefined ? "–" : fixed(p.lost, 1), w: p.worlds });
    default: return r.text || "";
  }
}

/**
 * The whole game's graph, every round side by side with a divider between rounds: the chance to win after each
 * judged move where the game has a model of it, else the points each move lost (bars). `at` marks the move on
 * show; a point (and its larger invisible target, for fingers) opens its move with `onPick(ply)`.
 */
export function gameGraph(decisions, at, onPick, { width = 640, height = 170 } = {}) {
  const pts = decisions.filter((d) => d.judged);
  const chance = pts.some((d) => d.win_after !== null && d.win_after !== undefined);
  const shown = chance ? pts.filter((d) => d.win_after !== null && d.win_after !== undefined) : pts;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "plot review-plot", id: "review-graph",
    role: "img", "aria-label": t(chance ? "review.graph" : "review.graph_lost"), "data-kind": chance ? "chance" : "lost" });
  if (!shown.length) return root;
  const pad = { l: 36, r: 8, t: 18, b: 16 };
  const n = shown.length;
  const step = (width - pad.l - pad.r) / Math.max(1, n);
  const x = (i) => pad.l + (i + 0.5) * step;
  const top = chance ? 1 : Math.max(5, ...shown.map((d) => d.lost));
  const y = (v) => pad.t + (chance ? 1 - v : v / top) * (height - pad.t - pad.b);
  const ticks = chance ? [0, 0.5, 1] : [0, top / 2, top];
  for (const v of ticks) {
    root.appendChild(svg("line", { x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v), class: "grid" }));
    root.appendChild(svg("text", { x: 2, y: y(v) + 4, class: "axis" }, chance ? pct(v) + "%" : fixed(v, 0)));
  }
  shown.forEach((d, i) => {
    if (i === 0 || shown[i - 1].round !== d.round) {
      const xd = pad.l + i * step;
      if (i > 0) root.appendChild(svg("line", { x1: xd, x2: xd, y1: 2, y2: height - pad.b, class: "divider" }));
      root.appendChild(svg("text", { x: xd + 3, y: 12, class: "axis round-label" }, t("review.round_short", { n: d.round })));
    }
  });
  if (chance) root.appendChild(svg("polyline", { points: shown.map((d, i) => `${x(i)},${y(d.win_after)}`).join(" "), class: "line" }));
  shown.forEach((d, i) => {
    if (d.ply === at) root.appendChild(svg("line", { x1: x(i), x2: x(i), y1: pad.t, y2: height - pad.b, class: "now" }));
    const v = chance ? d.win_after : d.lost;
    const label = `${t("game.round", { n: d.round })} · ${d.number}. ${prettyMove(d.played)} · ` +
      (chance ? `${pct(v)}%` : pointsText(v));
    if (!chance) root.appendChild(svg("rect", { x: x(i) - Math.max(1, step * 0.3), y: y(0), width: Math.max(2, step * 0.6),
      height: Math.max(1, y(v) - y(0)), class: "bar mark-" + (d.mark || "ok") }));
    const dot = svg("circle", { cx: x(i), cy: y(v), r: d.mark ? 5 : 3, class: "dot mark-" + (d.mark || "ok"), "data-ply": d.ply },
      svg("title", {}, label));
    const hit = svg("circle", { cx: x(i), cy: y(v), r: Math.max(6, Math.min(14, step / 2)), class: "hit", "data-ply": d.ply });
    for (const el of [dot, hit]) el.addEventListener("click", () => onPick(d.ply));
    root.appendChild(dot);
    root.appendChild(hit);
  });
  return root;
}

export class ReviewPanel {
  /** `view` is the ReplayView (its `goToPly(ply)` shows a move); `seat` the seat asked for on the page's address. */
  constructor(view, seat) {
    this.view = view;
    this.auto = seat !== null && seat !== undefined && seat !== "";
    this.seat = this.auto ? Number(seat) || 0 : 0;
    this.status = null;
    this.error = "";
    this.retryError = "";
    this.timer = null;
  }

  async load(players) {
    this.seat = Math.min(this.seat, players - 1);
    try {
      const s = await api("GET", `/api/tables/${encodeURIComponent(this.view.id)}/review?seat=${this.seat}`);
      this.status = s.status === "none" ? null : s;
    } catch (e) { this.error = e.message; }
    if (this.status && this.status.status !== "done") this.poll();
    else if (!this.status && this.auto) { await this.ask(); return; }
    this.view.render();
  }

  async ask() {
    this.error = "";
    try {
      this.status = await api("POST", `/api/tables/${encodeURIComponent(this.view.id)}/review`, { seat: this.seat });
      if (this.status.status !== "done") this.poll();
    } catch (e) {
      this.status = null;
      this.error = e.message;
    }
    this.view.render();
  }

  poll() {
    clearTimeout(this.timer);
    this.timer = setTimeout(async () => {
      try {
        const s = await api("GET", `/api/tables/${encodeURIComponent(this.view.id)}/review?seat=${this.seat}`);
        this.status = s;
        if (s.status === "failed") this.error = (getLang() === "en" && s.message) || t("review.failed");  // the server's is English
        else if (s.status !== "done") this.poll();
      } catch (e) { this.error = e.message; }
      this.view.render();
    }, POLL_MS);
  }

  stop() { clearTimeout(this.timer); }

  pickSeat(seat) {
    this.stop();
    this.seat = seat;
    this.status = null;
    this.error = "";
    this.auto = false;
    this.load(this.view.data.players);
  }

  /** Retry this position: a new casual table from the position before move `ply`, this seat against the master. */
  async retry(ply) {
    this.retryError = "";
    let name = "";
    try { name = (JSON.parse(localStorage.getItem(FORM_KEY)) || {}).name || ""; } catch (e) { /* none saved */ }
    try {
      const res = await api("POST", `/api/tables/${encodeURIComponent(this.view.id)}/retry`,
        { seat: this.seat, ply, name: name || t("review.retry_guest") });
      saveToken(res.table, res.token);
      window.location.href = "/?table=" + encodeURIComponent(res.table);
    } catch (e) {
      this.retryError = e.message;
      this.view.render();
    }
  }

  get review() { return this.status && this.status.status === "done" ? this.status.review : null; }

  /** The panel for the replay at the move of game ply `ply` (null: the start of a round) of round `round`. */
  el(ply, seatName, round) {
    const d = this.view.data;
    const review = this.review;
    const seatSel = h("select", { id: "review-seat", "aria-label": t("review.seat"), onchange: (e) => this.pickSeat(Number(e.target.value)) },
      Array.from({ length: d.players }, (_, s) => h("option", { value: String(s), selected: s === this.seat || undefined }, seatName(s))));
    const busy = this.status && ["queued", "running"].includes(this.status.status);
    const head = h("div", { class: "review-head" }, h("h3", null, t("review.title")), seatSel,
      review || busy ? null : h("button", { type: "button", class: "btn small primary", id: "review-btn", onclick: () => this.ask() }, t("review.btn")));
    const parts = [head];
    if (this.error) parts.push(h("p", { class: "error", id: "review-error", role: "alert" }, this.error));
    if (busy) {
      const s = this.status;
      parts.push(h("p", { id: "review-status", class: "info" }, s.status === "queued" ? t("review.queued", { n: s.position })
        : s.total ? t("review.running", { done: s.done, total: s.total }) : t("review.starting")),
      h("progress", { id: "review-progress", max: String(s.total || 1), value: String(s.done || 0) }));
    }
    if (review) parts.push(...this.results(review, ply, seatName, round));
    parts.push(h("details", { class: "review-help", id: "review-help" }, h("summary", null, t("review.help_title")),
      ["review.help_1", "review.help_2", "review.help_3", "review.help_4", "review.help_5"].map((k) => h("p", null, t(k)))));
    return h("aside", { class: "panel review", id: "review" }, parts);
  }

  /** The full-width graph of the whole game under the replay (null until the review is done). */
  graphEl(ply) {
    const review = this.review;
    if (!review) return null;
    const wide = Math.max(300, Math.min(1400, (document.documentElement.clientWidth || 800) - 24));
    const plot = gameGraph(review.decisions, ply, (p) => this.view.goToPly(p),
      { width: Math.round(wide), height: wide < 600 ? 150 : 190 });
    if (!plot.childNodes.length) return null;
    const chance = plot.getAttribute("data-kind") === "chance";
    return h("section", { class: "panel review-graph", id: "review-graph-panel" },
      h("p", { class: "info" }, t(chance ? "review.graph" : "review.graph_lost")), plot);
  }

  results(review, ply, seatName, round) {
    const seat = String(review.seats[0]);
    const acc = review.accuracy[seat];
    const counts = review.counts[seat] || {};
    const out = [h("p", { id: "review-accuracy", class: "review-accuracy" },
      t("review.accuracy", { name: seatName(Number(seat)), a: acc === null ? "–" : fixed(acc, 1) })),
    h("p", { id: "review-counts" }, t("review.counts", { i: counts.inaccuracy || 0, m: counts.mistake || 0, b: counts.blunder || 0 })),
    h("p", { id: "review-rounds", class: "info" }, Object.entries(review.rounds).map(([n, by]) =>
      t("review.round_acc", { n, a: by[seat] === null ? "–" : Math.round(by[seat]) })).join(" · "))];
    const decisions = review.decisions;
    const here = decisions.find((x) => x.ply === ply);
    if (ply === null) out.push(h("p", { id: "review-move", class: "info" }, t("review.pick")));
    else if (!here) out.push(h("p", { id: "review-move", class: "info" }, t("review.other", { name: seatName(Number(seat)) })));
    else out.push(this.detail(here));
    // The key moments of the whole game, every round in one list, each named by its round: a click shows the move.
    const list = decisions.filter((x) => x.mark);
    out.push(h("h4", { id: "review-list-title" }, t("review.key_moments", { n: list.length })));
    if (list.length) {
      out.push(h("ol", { id: "review-list", class: "review-list" }, list.map((x) => h("li", { class: [x.ply === ply && "now", x.round === round && "this-round"] },
        h("button", { type: "button", class: "linkish mark-" + x.mark, dataset: { ply: String(x.ply), round: String(x.round) }, onclick: () => this.view.goToPly(x.ply) },
          `${t("game.round", { n: x.round })} · ${x.number}. ${prettyMove(x.played)} — ${t("review.mark." + x.mark)}, ${t("review.lost_short", { n: pointsText(x.lost) })}`)))));
    } else out.push(h("p", { class: "info", id: "review-list-none" }, t("review.no_moments")));
    return out;
  }

  detail(x) {
    const mark = x.judged ? (x.mark || "ok") : "forced";
    const rows = [h("p", { class: "review-mark mark-" + mark, id: "review-mark" }, t("review.mark." + mark))];
    const expected = (n) => h("span", { class: "info" }, " " + t("review.expected", { n: signed(n) }));
    rows.push(h("div", { class: "review-line", id: "review-played" }, h("span", { class: "what" }, t("review.played") + ":"),
      moveCards(x.played), x.judged ? expected(x.played_points) : null));
    if (x.judged && x.best !== x.played && x.lost > 0) {
      rows.push(h("div", { class: "review-line best", id: "review-best" }, h("span", { class: "what" }, t("review.best") + ":"),
        moveCards(x.best), expected(x.best_points)),
      h("p", { id: "review-lost" }, t("review.lost", { n: pointsText(x.lost) })));
    }
    const reasons = x.reasons || [];
    if (x.judged && reasons.length) {
      rows.push(h("div", { id: "review-why" }, h("span", { class: "what" }, t("review.why")),
        h("ul", { id: "review-reasons", class: "review-reasons" }, reasons.map((r) => h("li", { dataset: { code: r.code } }, reasonText(r))))));
    }
    if (x.win_before !== null && x.win_after !== null && x.win_before !== undefined && Math.abs(x.win_before - x.win_after) >= 0.005) {
      rows.push(h("p", { id: "review-win" }, t("review.win", { a: pct(x.win_before), b: pct(x.win_after) })));
    }
    // Issue 54: a verdict of the exact solver (nothing hidden once the stock is empty) says so.
    if (x.exact && !reasons.some((r) => r.code === "exact")) rows.push(h("p", { id: "review-exact", class: "info" }, t("review.exact")));
    if (x.judged) {
      rows.push(h("p", { class: "review-retry" }, h("button", { type: "button", class: "btn small", id: "review-retry",
        title: t("review.retry_help"), onclick: () => this.retry(x.ply) }, t("review.retry"))));
      if (this.retryError) rows.push(h("p", { class: "error", id: "review-retry-error", role: "alert" }, this.retryError));
    }
    return h("div", { id: "review-move", class: "review-move" }, rows);
  }
}
