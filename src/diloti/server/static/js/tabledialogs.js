// The live table's dialogs: the round and game summaries, the score sheet, the move history and the
// watch link. Mixed into TableView (game.js): `this` is the table view.
import { closeDialog, showDialog } from "./dialogs.js";
import { h } from "./dom.js";
import { gameOf } from "./games.js";
import { t } from "./i18n.js";
import { breakdownTable, prettyCard, prettyMove, sideName, sidesOf } from "./present.js";
import { alertPrefs, askNotify, saveAlertPrefs } from "./alerts.js";
import { setSoundOn, soundOn } from "./sound.js";
import { reviewHref } from "./review.js";

export const tableDialogs = {
  showAlerts() {
    const prefs = alertPrefs();
    const note = h("p", { class: "error", id: "alerts-note", role: "status" });
    const box = (key, label) => h("label", null, h("input", { type: "checkbox", id: "alert-" + key, checked: prefs[key] || undefined,
      onchange: async (e) => {
        prefs[key] = e.target.checked;
        note.textContent = "";
        if (key === "notify" && prefs.notify) {
          const got = await askNotify();
          if (got !== "granted") { prefs.notify = false; e.target.checked = false; note.textContent = t("alerts.denied"); }
        }
        saveAlertPrefs(prefs);
      } }), " ", t(label));
    // The table's own sounds (sound.js) sit beside the background alerts.
    const tableSound = h("label", null, h("input", { type: "checkbox", id: "alert-table-sound", checked: soundOn() || undefined,
      onchange: (e) => { setSoundOn(e.target.checked); this.render(); } }), " ", t("alerts.table_sound"));
    showDialog(t("alerts.btn"), [h("div", { class: "alerts-opts" }, box("sound", "alerts.sound"), box("notify", "alerts.notify"), tableSound), note],
      [h("button", { type: "button", class: "btn primary", onclick: closeDialog }, t("game.close"))], "alerts");
  },

  sideNames() {
    const n = this.state && this.state.sides ? this.state.sides : sidesOf(this.table);
    const tb = this.table ? { ...this.table, sides: n } : { sides: n, players: this.state ? this.state.players : 2 };
    return Array.from({ length: n }, (_, s) => sideName(tb, s, this.seat));
  },

  /** The table's game (its name: what the server says of it is `gameOf(name)`, games.js). */
  gameKind() { return (this.state && this.state.game) || (this.table && this.table.game) || null; },

  showRoundOver(msg) {
    const names = this.sideNames();
    const body = [breakdownTable(msg.score, names, msg.scores)];
    const won = this.handWinner(msg);
    if (won !== null) body.push(h("p", { id: "hand-winner" }, t("round.won_by", { name: names[won] })));
    if (msg.swept && msg.swept.length && msg.swept_to !== null && msg.swept_to !== undefined) {
      body.push(h("p", null, t("game.sweep", { name: names[msg.swept_to] }) + ": " + msg.swept.map(prettyCard).join(" ")));
    }
    showDialog(t("round.title", { n: msg.round }), body, [h("button", { type: "button", class: "btn primary", id: "round-continue", onclick: closeDialog }, t("round.continue"))], "round-over");
  },

  /** In a game that counts hands won (/api/info `hands_won`: Xeri) the hand goes to the side with the most points
   *  (none on a tie); null in the other games. */
  handWinner(msg) {
    if (!gameOf(this.gameKind()).hands_won || !msg.totals) return null;
    const top = Math.max(...msg.totals);
    return msg.totals.filter((x) => x === top).length === 1 ? msg.totals.indexOf(top) : null;
  },

  showGameOver() {
    const g = this.gameOver;
    const names = this.sideNames();
    const mine = this.seat !== null ? this.seat % names.length : null;
    const best = Math.max(...g.scores.filter((_, i) => i !== g.winner));
    const headline = g.winner === null || g.winner === undefined ? t("end.draw")
      : mine === null ? t("end.won", { side: names[g.winner], a: g.scores[g.winner], b: best })
        : g.winner === mine ? t("end.you_won") : t("end.you_lost");
    const lastRound = this.rounds.get(g.rounds);
    // Why it ended early: "resigned:SEAT", "abandoned:SEAT" (claimed from an absent player) or "aborted:SEAT".
    const [why, who] = typeof g.end_reason === "string" ? g.end_reason.split(":") : [null, null];
    const reason = why && ["resigned", "abandoned", "aborted"].includes(why) ? t("end." + why, { name: this.name(Number(who)) }) : null;
    const body = [reason ? h("p", { id: "end-reason" }, reason) : null,
      h("p", { class: "endtitle", id: "end-headline" }, headline),
      h("p", { id: "end-scores" }, names.length === 2 ? `${names[0]} ${g.scores[0]} – ${g.scores[1]} ${names[1]}`
        : names.map((n, i) => `${n} ${g.scores[i]}`).join(" · ")),
      this.state && this.state.hands_won ? h("p", { id: "end-hands" }, t("end.hands_won", { scores: names.map((n, i) => `${n} ${this.state.hands_won[i]}`).join(" · ") })) : null];
    if (this.table && this.table.series_score) body.push(h("p", { id: "end-series" }, this.seriesText()));
    if (this.seat !== null) body.push(h("p", { id: "end-offer", role: "status" }, this.offerText() || ""));
    if (lastRound) body.push(h("h3", null, t("round.title", { n: g.rounds })), breakdownTable(lastRound.score, names, lastRound.scores));
    if (this.rounds.size > 1) body.push(h("h3", null, t("game.scores")), this.sheetTable());
    showDialog(t("end.title"), body, [
      h("a", { class: "btn", id: "end-download", href: `/api/tables/${encodeURIComponent(this.id)}/record`, download: `${this.gameKind()}-${this.id}.txt` }, t("game.download")),
      h("a", { class: "btn", id: "end-replay", href: "/?replay=" + encodeURIComponent(this.id) }, t("game.replay")),
      h("a", { class: "btn", id: "end-review", href: reviewHref(this.id, this.seat) }, t("review.btn")),
      h("a", { class: "btn", href: "/" }, t("game.new")),
      this.seat !== null ? h("button", { type: "button", class: "btn primary", id: "end-again", onclick: () => this.askRematch() }, this.againText()) : null,
      h("button", { type: "button", class: "btn" + (this.seat !== null ? "" : " primary"), onclick: closeDialog }, t("game.close")),
    ], "game-over");
    this.render();
  },

  /** The "play again" button's words: accepting a rematch the others offered, or offering one. */
  againText() {
    const offer = this.table && this.table.rematch_offer;
    return offer && this.seat !== null && !offer.seats.includes(this.seat) ? t("rematch.accept") : t("end.again");
  },

  /** The standing rematch offer, in words for this seat (null: none). */
  offerText() {
    const offer = this.table && this.table.rematch_offer;
    if (!offer || this.watching) return null;
    if (offer.seats.includes(this.seat)) return t("rematch.waiting", { s: offer.expires_in });
    return t("rematch.offer", { names: offer.seats.map((s) => this.name(s)).join(", "), s: offer.expires_in });
  },

  sheetTable() {
    const names = this.sideNames();
    const rows = [...this.rounds.values()].sort((a, b) => a.round - b.round).map((r) =>
      h("tr", { dataset: { round: String(r.round) } }, h("td", null, String(r.round)),
        r.score.map((s) => h("td", null, String(s.total) + (s.xeri ? ` (${t("game.xeris", { n: s.xeri })})` : "")))));
    const total = this.state ? this.state.scores : names.map(() => 0);
    const final = this.gameOver ? this.gameOver.scores : total;
    rows.push(h("tr", { class: "total" }, h("td", null, t("round.game")), final.map((s) => h("td", null, String(s)))));
    return h("table", { class: "sheet", id: "sheet" },
      h("thead", null, h("tr", null, h("th", null, t("sheet.round")), names.map((n) => h("th", null, n)))),
      h("tbody", null, rows));
  },

  showSheet() {
    const body = [this.sheetTable()];
    const rounds = [...this.rounds.values()].sort((a, b) => b.round - a.round);
    for (const r of rounds) {
      body.push(h("h3", null, t("game.round", { n: r.round })), breakdownTable(r.score, this.sideNames(), r.scores));
    }
    showDialog(t("game.scores"), body, [h("button", { type: "button", class: "btn primary", onclick: closeDialog }, t("game.close"))], "score-sheet");
  },

  showWatchLink() {
    showDialog(t("watch.invite"), [h("p", null, t("watch.link")), this.linkBox(this.watchLink(), "watch-link", t("watch.invite"))],
      [h("button", { type: "button", class: "btn primary", onclick: closeDialog }, t("game.close"))], "watch-link");
  },

  showHistory() {
    const rounds = [...this.moves.keys()].sort((a, b) => a - b);
    const body = [];
    for (const r of rounds) {
      body.push(h("h3", null, t("game.round", { n: r })));
      body.push(h("ol", { class: "history" }, this.moves.get(r).map(([s, m, x]) =>
        h("li", null, h("span", { class: "who" }, this.name(s) + ":"), " ", prettyMove(m), x ? h("span", { class: "xeri-badge" }, t("game.xeri")) : null))));
    }
    if (!body.length) body.push(h("p", null, t("history.empty")));
    showDialog(t("game.history"), body, [h("button", { type: "button", class: "btn primary", onclick: closeDialog }, t("game.close"))], "history");
  },
};
