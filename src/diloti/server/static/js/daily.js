// The daily deal's pages: the day's leaderboard (`/?daily=board`) and, after finishing, how the field played the
// player's game (`/?daily=TABLE`: each decision, how many reached it and played alike, the review's verdict, the
// best game of the day).
import { api, tokenFor } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { signed } from "./events.js";

export class DailyView {
  constructor(root, what) {
    this.root = root;
    this.what = what;
    this.board = null;
    this.field = null;
    this.error = "";
    this.timer = null;
  }

  async start() {
    this.render();
    try {
      this.board = await api("GET", "/api/daily/leaderboard");
      if (this.what !== "board") await this.loadField();
    } catch (e) { this.error = e.message; }
    this.render();
  }

  stop() { if (this.timer) clearTimeout(this.timer); this.timer = null; }

  async loadField() {
    const token = tokenFor(this.what);
    if (!token) { this.error = t("join.full"); return; }
    this.field = await api("POST", "/api/daily/field", { table: this.what, token });
    if (this.field.review.status !== "done") {  // the verdicts come once the review is made
      this.timer = setTimeout(async () => {
        try { await this.loadField(); } catch (e) { this.error = e.message; }
        this.render();
      }, 3000);
    }
  }

  renderField() {
    const f = this.field;
    if (!f) return null;
    const r = f.review;
    return h("section", { class: "panel", id: "daily-field" },
      h("h2", null, t("daily.field")),
      h("p", null, t("daily.result", { diff: signed(f.diff), rank: f.rank ?? "–" })),
      h("p", { class: "note" }, t("daily.field_note")),
      r.status !== "done" ? h("p", { class: "note", id: "daily-review" }, t("daily.review_wait", { done: r.done, total: r.total })) : null,
      h("ol", { class: "history", id: "daily-decisions" }, f.decisions.map((d) => h("li", { dataset: { ply: String(d.ply) }, class: d.mark || "" },
        h("b", null, d.move), " · ", t("daily.reached", { same: d.same, reached: d.reached }),
        d.mark ? h("span", { class: "tag " + d.mark }, t("review.mark." + d.mark)) : null,
        d.best && d.best !== d.move ? h("small", null, " → " + d.best) : null))),
      f.best ? h("p", { id: "daily-best" }, t("daily.best", { name: f.best.name, diff: signed(f.best.diff) })) : null);
  }

  renderBoard() {
    const b = this.board;
    if (!b) return null;
    return h("section", { class: "panel", id: "daily-board" },
      h("h2", null, t("daily.board") + " · " + b.day),
      b.entries.length ? h("table", { class: "standings" },
        h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, t("arena.player")), h("th", null, t("daily.diff")))),
        h("tbody", null, b.entries.map((e) => h("tr", null, h("td", null, String(e.rank)),
          h("td", null, h("a", { href: "/?player=" + encodeURIComponent(e.player) }, e.name)),
          h("td", null, signed(e.diff), h("small", null, ` ${e.points}–${e.against}`))))))
        : h("p", null, t("daily.none")));
  }

  render() {
    fill(this.root, h("main", { class: "page" }, this.renderField(), this.renderBoard(),
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      h("p", null, h("a", { href: "/" }, t("game.new")))));
  }
}
