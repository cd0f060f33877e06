// Game review beside the replay (docs/REVIEW.md): the master's judgement of one seat's every move, asked for
// with the Review button, made in the server's worker pool (the progress is polled), stored once. Shows the
// accuracy, the marks, the chance to win over the game as an inline SVG line, and the move of the replay's
// current frame: played, best, points lost.
import { api } from "./api.js";
import { h } from "./dom.js";
import { fixed, getLang, t } from "./i18n.js";
import { prettyMove } from "./present.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 700;

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

/** The chance to win after each reviewed move (before the first), as an SVG line; `at` marks a decision. */
export function winPlot(decisions, at, onPick, { width = 320, height = 140 } = {}) {
  const pad = { l: 30, r: 6, t: 8, b: 16 };
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "plot review-plot", id: "review-graph",
    role: "img", "aria-label": t("review.graph") });
  const pts = decisions.filter((d) => d.win_after !== null && d.win_after !== undefined);
  if (!pts.length) return root;
  const n = pts.length;
  const x = (i) => pad.l + (n === 1 ? (width - pad.l - pad.r) / 2 : i * (width - pad.l - pad.r) / (n - 1));
  const y = (v) => pad.t + (1 - v) * (height - pad.t - pad.b);
  for (const v of [0, 0.5, 1]) {
    root.appendChild(svg("line", { x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v), class: "grid" }));
    root.appendChild(svg("text", { x: 2, y: y(v) + 4, class: "axis" }, pct(v) + "%"));
  }
  root.appendChild(svg("polyline", { points: pts.map((d, i) => `${x(i)},${y(d.win_after)}`).join(" "), class: "line" }));
  pts.forEach((d, i) => {
    if (d.ply === at) root.appendChild(svg("line", { x1: x(i), x2: x(i), y1: pad.t, y2: height - pad.b, class: "now" }));
    const dot = svg("circle", { cx: x(i), cy: y(d.win_after), r: d.mark ? 4 : 2.5, class: "dot mark-" + (d.mark || "ok"),
      "data-ply": d.ply }, svg("title", {}, `${t("game.round", { n: d.round })} · ${prettyMove(d.played)} · ${pct(d.win_after)}%`));
    dot.addEventListener("click", () => onPick(d.ply));
    root.appendChild(dot);
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

  /** The panel for the replay at the move of game ply `ply` (null: the start of a round) of round `round`. */
  el(ply, seatName, round) {
    const d = this.view.data;
    const review = this.status && this.status.status === "done" ? this.status.review : null;
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
      ["review.help_1", "review.help_2", "review.help_3", "review.help_4"].map((k) => h("p", null, t(k)))));
    return h("aside", { class: "panel review", id: "review" }, parts);
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
    const plot = winPlot(decisions, ply, (p) => this.view.goToPly(p));
    if (plot.childNodes.length) out.push(h("p", { class: "info" }, t("review.graph")), plot);
    const here = decisions.find((x) => x.ply === ply);
    if (ply === null) out.push(h("p", { id: "review-move", class: "info" }, t("review.pick")));
    else if (!here) out.push(h("p", { id: "review-move", class: "info" }, t("review.other", { name: seatName(Number(seat)) })));
    else out.push(this.detail(here));
    // The marked moves of the round on show: a click shows the move.
    const list = decisions.filter((x) => x.round === round && x.mark);
    if (list.length) {
      out.push(h("ul", { id: "review-list", class: "review-list" }, list.map((x) => h("li", { class: x.ply === ply ? "now" : null },
        h("button", { type: "button", class: "linkish mark-" + x.mark, dataset: { ply: String(x.ply) }, onclick: () => this.view.goToPly(x.ply) },
          `${t("game.round", { n: x.round })} · ${x.number}. ${prettyMove(x.played)} — ${t("review.mark." + x.mark)} (−${fixed(x.lost, 1)})`)))));
    }
    return out;
  }

  detail(x) {
    const mark = x.judged ? (x.mark || "ok") : "forced";
    const rows = [h("p", { class: "review-mark mark-" + mark, id: "review-mark" }, t("review.mark." + mark)),
      h("p", null, t("review.played") + ": " + prettyMove(x.played) + ` (${x.played_points >= 0 ? "+" : ""}${fixed(x.played_points, 2)})`)];
    if (x.judged && x.best !== x.played && x.lost > 0) {
      rows.push(h("p", { id: "review-best" }, t("review.best") + ": " + prettyMove(x.best) + ` (${x.best_points >= 0 ? "+" : ""}${fixed(x.best_points, 2)})`),
        h("p", { id: "review-lost" }, t("review.lost", { n: fixed(x.lost, 2) })));
    }
    if (x.win_before !== null && x.win_after !== null && Math.abs(x.win_before - x.win_after) >= 0.005) {
      rows.push(h("p", { id: "review-win" }, t("review.win", { a: pct(x.win_before), b: pct(x.win_after) })));
    }
    // Issue 54: a verdict of the exact solver (nothing hidden once the stock is empty) says so.
    if (x.exact) rows.push(h("p", { id: "review-exact", class: "info" }, t("review.exact")));
    return h("div", { id: "review-move", class: "review-move" }, rows);
  }
}
