// Replay viewer for a finished game: every frame of every round, all hands face up.
import { api } from "./api.js";
import { cardEl, pileEl } from "./cards.js";
import { fill, h } from "./dom.js";
import { gameOf, gameTitle, infoReady } from "./games.js";
import { t } from "./i18n.js";
import { breakdownTable, prettyMove, seatName, sideName } from "./present.js";
import { ReviewPanel } from "./review.js";

export class ReplayView {
  constructor(root, tableId, reviewSeat = null) {
    this.root = root;
    this.id = tableId;
    this.review = new ReviewPanel(this, reviewSeat);
    this.data = null;
    this.error = "";
    this.r = 0;
    this.f = 0;
    this.keyHandler = (e) => this.onKey(e);
  }

  async start() {
    document.addEventListener("keydown", this.keyHandler);
    try {
      [this.data] = await Promise.all([api("GET", `/api/tables/${encodeURIComponent(this.id)}/replay`), infoReady()]);
    } catch (e) {
      this.error = e.message;
    }
    this.render();
    if (this.data) this.review.load(this.data.players);
  }

  stop() {
    document.removeEventListener("keydown", this.keyHandler);
    this.review.stop();
  }

  /** Show the frame after the game's move number `ply` (counted from 0 over every round). */
  goToPly(ply) {
    this.data.rounds.forEach((rd, r) => rd.frames.forEach((fr, f) => {
      if (fr.move && fr.ply === ply + 1) { this.r = r; this.f = f; }
    }));
    this.render();
  }

  frames() { return this.data.rounds[this.r].frames; }

  step(d) {
    if (!this.data) return;
    let f = this.f + d;
    let r = this.r;
    if (f < 0 && r > 0) { r -= 1; f = this.data.rounds[r].frames.length - 1; }
    else if (f >= this.frames().length && r < this.data.rounds.length - 1) { r += 1; f = 0; }
    this.r = r;
    this.f = Math.max(0, Math.min(f, this.data.rounds[r].frames.length - 1));
    this.render();
  }

  onKey(e) {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.key === "ArrowRight") { this.step(1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { this.step(-1); e.preventDefault(); }
    else if (e.key === "Home") { this.f = 0; this.render(); }
    else if (e.key === "End") { this.f = this.frames().length - 1; this.render(); }
  }

  render() {
    if (!this.data) {
      fill(this.root, h("main", { class: "page" }, h("div", { class: "panel" },
        h("h2", null, t("replay.title")), h("p", { class: "error", id: "replay-error" }, this.error || t("game.waiting")),
        h("p", null, h("a", { href: "/" }, t("game.new"))))));
      return;
    }
    const d = this.data;
    const tb = { seats: d.seats, players: d.players, sides: d.sides || 2 };
    const round = d.rounds[this.r];
    const frames = round.frames;
    const fr = frames[this.f];
    const name = (s) => seatName(tb, s, null);
    const sides = Array.from({ length: tb.sides }, (_, s) => sideName(tb, s, null));

    const roundSel = h("select", { id: "replay-round", "aria-label": t("replay.round"), onchange: (e) => { this.r = Number(e.target.value); this.f = 0; this.render(); } },
      d.rounds.map((rd, i) => h("option", { value: String(i), selected: i === this.r || undefined }, t("game.round", { n: rd.number }))));
    const btn = (label, id, fn, dis) => h("button", { type: "button", class: "btn small", id, disabled: dis || undefined, onclick: fn }, label);
    const atStart = this.r === 0 && this.f === 0;
    const atEnd = this.r === d.rounds.length - 1 && this.f === frames.length - 1;
    const controls = h("div", { class: "replay-controls" }, roundSel,
      btn("« " + t("replay.first"), "replay-first", () => { this.f = 0; this.render(); }, this.f === 0),
      btn("◀ " + t("replay.prev"), "replay-prev", () => this.step(-1), atStart),
      h("span", { id: "replay-step" }, t("replay.step", { n: this.f, total: frames.length - 1 })),
      btn(t("replay.next") + " ▶", "replay-next", () => this.step(1), atEnd),
      btn(t("replay.last") + " »", "replay-last", () => { this.f = frames.length - 1; this.render(); }, this.f === frames.length - 1));

    const moveLine = h("div", { class: "status" }, fr.move
      ? [h("span", { class: "lastmove", id: "replay-move" }, name(fr.seat) + ": " + prettyMove(fr.move)),
        this.isXeri(frames, this.f) ? h("span", { class: "xeri-badge" }, t("game.xeri")) : null]
      : h("span", { class: "lastmove", id: "replay-move" }, t("replay.start")));

    const felt = h("div", { class: "felt", id: "replay-felt" },
      fr.table.map((c) => cardEl(c, { t })),
      (fr.declarations || []).map((p, i) => pileEl(p, p.kind === "group"
        ? t("pile.label.group", { value: p.value, owner: name(p.owner) }) : t("pile.label.plain", { owner: name(p.owner) }), { index: i, t })),
      fr.table.length || (fr.declarations || []).length ? null : h("span", { class: "empty" }, t("game.table_empty")),
      null);

    const hands = h("div", { class: "replay-hands" }, fr.hands.map((hand, s) => h("div", { class: "replay-hand", dataset: { seat: String(s) } },
      h("span", { class: "who" }, (fr.turn === s ? "▶ " : "") + name(s)),
      hand.map((c) => cardEl(c, { t })),
      h("span", { class: "tag" }, t("game.captured", { n: fr.captured[s % tb.sides] })))));

    const score = sides.length === 2 ? sides[0] + " " + d.scores[0] + " – " + d.scores[1] + " " + sides[1]
      : sides.map((n, i) => n + " " + d.scores[i]).join(" · ");
    const title = (gameOf(d.game).named ? gameTitle(d.game) + " · " : "") + t("replay.title");
    const body = [h("h2", null, title + " · " + score),
      controls, moveLine, h("div", { class: "status" }, h("span", { class: "info", id: "replay-stock" }, t("game.stock") + " " + fr.stock)), felt, hands];
    if (this.f === frames.length - 1 && round.score) {
      body.push(h("h3", null, t("round.title", { n: round.number })), breakdownTable(round.score, sides, null));
    }
    const ply = fr.move ? fr.ply - 1 : null;
    const aside = this.review.el(ply, name, round.number);
    // The review's graph of the whole game runs the page's full width under the replay and its review.
    fill(this.root, h("main", { class: "page", id: "replay" }, h("div", { class: "replay-layout" }, h("div", { class: "panel replay" }, body), aside),
      this.review.graphEl(ply)));
  }

  isXeri(frames, i) {
    if (i === 0) return false;
    const a = frames[i - 1].xeri;
    const b = frames[i].xeri;
    return a.some((x, k) => x !== b[k]);
  }
}
