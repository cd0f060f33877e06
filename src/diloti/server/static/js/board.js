// The live table's board, part by part: the score bar, the turn line, the felt, what the selection allows,
// the hand and the toolbar. Mixed into TableView (game.js), whose renderBoard puts them together on every
// render: `this` is the table view.
import { cardEl, pileEl } from "./cards.js";
import { h } from "./dom.js";
import { gameOf, gameTitle } from "./games.js";
import { t, tn } from "./i18n.js";
import { KEYS } from "./keys.js";
import { moveLabel, prettyCard, prettyMove, sideName } from "./present.js";
import { showRules } from "./dialogs.js";
import { soundButton } from "./felt.js";
import { unitsOfMove } from "./moves.js";
import { oneTapOn, setOneTap } from "./touch.js";

/**
 * What picking the lit table unit `u` does, in a word ("take", "declare", "take or declare"; a pile's: "take the
 * pile"), by the kinds of the still possible moves that use it.
 */
export function offerWord(st, u, possible, units) {
  const kinds = new Set(possible.filter((m) => unitsOfMove(m, units).includes(u.id)).map((m) => (m.kind === "capture" ? "take" : "build")));
  if (!kinds.size) return "";
  if (u.id === "x:pile") return t("offer.pile");
  return kinds.size > 1 ? t("offer.take_build") : t(kinds.has("take") ? "offer.take" : "offer.build");
}

export const tableBoard = {
  // The score bar: my side first (a spectator: seat 0's), then the others in the order of play.
  scoreBar(st, tb, me, pov) {
    const target = st.target ?? tb.target ?? null;
    const nSides = st.sides || 2;
    const counts = st.captured_counts || st.scores.map((_, s) => (st.captured && st.captured[s] ? st.captured[s].length : 0));
    const order = [...new Set(Array.from({ length: st.players }, (_, k) => (pov + k) % st.players % nSides))];
    const sides = order.map((s) => h("span", { class: "score side" + s, dataset: { side: String(s) } },
      sideName(tb, s, me), " ", h("b", { class: "pts" }, String(st.scores[s])),
      st.hands_won ? h("small", { class: "hands-won", dataset: { won: String(st.hands_won[s]) } }, " · " + t("game.hands_won", { n: st.hands_won[s] })) : null,
      h("small", { class: "taken", title: t("game.captured", { n: counts[s] }) }, " · " + t("game.captured", { n: counts[s] })),
      st.xeri && st.xeri[s] ? h("small", { class: "xeris", dataset: { xeri: String(st.xeri[s]) } }, " · " + t("game.xeris", { n: st.xeri[s] })) : null));
    // A game decided by hands won has no target (the state's `target` null, `hands` its length).
    const goal = st.target === null && st.hands ? tn("game.hands_of", st.hands, { total: st.hands })
      : target !== null ? t("game.target", { n: target }) : null;
    return h("div", { class: "scorebar", id: "scorebar", dataset: { game: st.game } },
      gameOf(st.game).named ? h("span", { class: "info gamename", id: "game-name" }, gameTitle(st.game)) : null,
      ...sides,
      goal ? h("span", { class: "info" }, goal) : null,
      this.spectatorsEl(),
      h("span", { class: "info" }, t("game.round", { n: st.round }) + " · " + t("game.deal", { n: st.deal })));
  },

  // Whose turn, and the last move. Moves and turns are read out by the announcer (announce.js): this line,
  // rebuilt on every render, is not live.
  statusLine(st, me) {
    const mine = st.your_turn;
    const turnText = st.phase === "over" ? t("end.title") : mine ? t("game.your_turn") : t("game.turn_of", { name: this.name(st.turn) });
    const status = h("div", { class: "status", id: "status" },
      h("span", { class: ["turnline", mine && "mine"], id: "turn" }, turnText));
    if (this.last) {
      status.appendChild(h("span", { class: ["lastmove", this.lastFresh && "fresh"], id: "lastmove" },
        this.name(this.last.seat) + (this.last.by ? " (" + t(!this.watching && this.last.seat === me ? "game.by_computer_you" : "game.by_computer") + ")" : "") + ": " + prettyMove(this.last.move)));
      if (this.last.xeri) status.appendChild(h("span", { class: "xeri-badge", id: "xeri" }, t("game.xeri")));
    }
    return status;
  },

  // The table: loose cards and declarations, each a button (the legal next choices lit, the rest dimmed while
  // a hand card is chosen), with its key when it is my turn.
  feltCards(st, me, units, f) {
    const mine = st.your_turn;
    const selecting = !!this.sel.card;
    const freshCards = new Set(this.lastFresh && this.last && this.last.kind === "lay" ? [this.last.card] : []);
    const hm = mine ? this.hintMove : null;
    const hinted = (cards) => !!hm && cards.length > 0 && cards.every((c) => hm.cards.includes(c));
    // `data-asking`: the server is asked what the selection allows (a table too large to list; choices.js).
    const felt = h("div", { class: "felt", id: "felt", role: "group", "aria-label": t("game.table"), "data-asking": f.pending ? "1" : undefined });
    units.forEach((u, i) => {
      const chosen = this.sel.units.has(u.id);
      const open = f.open.has(u.id);
      const usable = selecting && (chosen || open);
      const offer = selecting && open && !chosen && "open";  // a legal next choice: highlighted
      const key = i < KEYS.length ? KEYS[i] : "";
      const attrs = { "aria-pressed": chosen ? "true" : "false", disabled: selecting && !usable ? true : undefined, "data-unit": u.id, "data-key": key };
      const onclick = () => this.pickUnit(u.id);
      // Every kind of table unit is lit, chosen or dimmed alike; each adds its own marks.
      const cls = (...own) => [chosen && "selected", offer, selecting && !usable && !f.pending && "dim", hinted(u.cards) && "hinted", ...own]
        .filter(Boolean).join(" ");
      let el;
      if (u.id === "x:pile") {
        // Xeri's pile: its last cards fanned, the top card last; a capture takes all of it.
        const shown = u.cards.slice(-5);
        const label = tn("pile.xeri", u.cards.length, { card: prettyCard(u.cards[u.cards.length - 1]) });
        el = pileEl({ cards: shown, value: u.cards.length, kind: "xeri" }, label, { tag: "button", t, cls: cls("xeripile"), attrs });
      } else if (u.id.startsWith("c:")) {
        el = cardEl(u.cards[0], { tag: "button", t, cls: cls(freshCards.has(u.cards[0]) && "new"), attrs });
      } else {
        const d = st.declarations[Number(u.id.slice(2))];
        const owner = d.owner === me ? t("new.you") : this.name(d.owner);
        const label = d.kind === "group" ? t("pile.label.group", { value: d.value, owner }) : t("pile.label.plain", { owner });
        el = pileEl(d, label, { tag: "button", t, index: Number(u.id.slice(2)), cls: cls(this.lastFresh && this.last && this.last.card && d.cards.includes(this.last.card) && "new"), attrs });
        el.dataset.owner = String(d.owner);
      }
      el.addEventListener("click", onclick);
      if (offer && !f.pending) {
        // What picking it does, in words: on the card, and in its name for a screen reader.
        const word = offerWord(st, u, f.possible, units);
        if (word) {
          el.appendChild(h("span", { class: "offerword", "aria-hidden": "true" }, word));
          el.setAttribute("aria-label", t("offer.label", { card: el.getAttribute("aria-label"), what: word }));
        }
      }
      if (mine && key) el.appendChild(h("span", { class: "key", "aria-hidden": "true" }, key));
      felt.appendChild(el);
    });
    if (!units.length) felt.appendChild(h("span", { class: "empty" }, t("game.table_empty")));
    return felt;
  },

  // What the selection allows: a prompt, the moves that fit (or a decision's choices), the hint, the bottom card.
  actionRow(st, legal, f) {
    const mine = st.your_turn;
    const action = h("div", { class: "action", id: "action" });
    if (mine && st.phase === "decide") {
      action.appendChild(h("div", { class: "prompt" }, t("game.decide")));
      action.appendChild(h("div", { class: "choices" }, legal.map((mv) =>
        h("button", { type: "button", class: "btn primary", dataset: { move: mv.text }, onclick: () => this.send(mv) }, moveLabel(mv, st.game)))));
    } else if (mine) {
      if (!this.sel.card) action.appendChild(h("div", { class: "prompt", id: "prompt" }, t("game.pick_card")));
      else if (f.pending) action.appendChild(h("div", { class: "prompt", id: "prompt" }, t("table.asking")));
      else if (f.exact.length > 1) action.appendChild(h("div", { class: "prompt", id: "prompt" }, t("game.which")));
      else if (f.exact.length === 0 || f.open.size) action.appendChild(h("div", { class: "prompt", id: "prompt" }, f.possible.length || f.open.size ? t("game.pick_table") : t("game.no_fit")));
      const choices = h("div", { class: "choices", id: "choices" });
      // Laying the card is the secondary choice while table cards are lit (each saying what it does): the bright
      // button is not the one that gives the move away.
      for (const mv of f.exact) {
        const lay = mv.kind === "lay" && f.open.size > 0;
        const words = lay ? t("game.or_lay", { card: prettyCard(mv.card) })
          : (f.exact.length === 1 ? t("game.play") + ": " : "") + moveLabel(mv, st.game);
        choices.appendChild(h("button", { type: "button", class: lay ? "btn laybtn" : "btn primary", dataset: { move: mv.text }, disabled: this.waitingMove || undefined, onclick: () => this.send(mv) }, words));
      }
      if (this.sel.card) choices.appendChild(h("button", { type: "button", class: "btn ghost small", onclick: () => this.clearSel() }, t("game.clear")));
      action.appendChild(choices);
    }
    if (this.hint) action.appendChild(h("div", { class: "hintline", id: "hintline" }, this.hint));
    if (st.bottom) action.appendChild(h("div", { class: "prompt" }, t("game.bottom", { card: prettyCard(st.bottom) })));
    return action;
  },

  // My hand: the cards I may play lit and numbered, the others dimmed.
  handCards(st, playable) {
    const mine = st.your_turn;
    const hm = mine ? this.hintMove : null;
    const hand = h("div", { class: "hand", id: "hand", "aria-label": t("game.hand") });
    st.hand.forEach((c, i) => {
      const ok = mine && playable.has(c);
      const el = cardEl(c, { tag: "button", t, cls: [this.sel.card === c && "selected", mine && !ok && "dim", hm && hm.card === c && "hinted"].filter(Boolean).join(" "),
        attrs: { "aria-pressed": this.sel.card === c ? "true" : "false", disabled: !ok || undefined, "data-key": String(i + 1) } });
      // A click with a pointer is a tap (one-tap play); Enter or Space on a focused card only picks it.
      el.addEventListener("click", (e) => this.pickCard(c, e.detail > 0));
      if (mine && ok && i < 9) el.appendChild(h("span", { class: "key", "aria-hidden": "true" }, String(i + 1)));
      hand.appendChild(el);
    });
    return hand;
  },

  toolBar(st, tb, watching) {
    const mine = st.your_turn;
    return h("div", { class: "toolbar", id: "toolbar" },
      tb.hints && mine && st.phase === "play" ? h("button", { type: "button", class: "btn small", id: "hint-btn", onclick: () => this.askHint() }, t("game.hint")) : null,
      h("button", { type: "button", class: "btn small", id: "history-btn", onclick: () => this.showHistory() }, t("game.history")),
      h("button", { type: "button", class: "btn small", id: "sheet-btn", onclick: () => this.showSheet() }, t("game.scores")),
      h("button", { type: "button", class: "btn small", id: "rules-btn", onclick: () => showRules(st.game) }, t("game.rules")),
      h("button", { type: "button", class: "btn small", id: "watch-btn", onclick: () => this.showWatchLink() }, t("watch.invite")),
      watching ? null : h("button", { type: "button", class: "btn small", id: "alerts-btn", onclick: () => this.showAlerts() }, t("alerts.btn")),
      soundButton(this),
      watching ? null : h("button", { type: "button", class: "btn small", id: "onetap-btn", "aria-pressed": oneTapOn() ? "true" : "false", title: t("table.onetap_hint"),
        onclick: () => { setOneTap(!oneTapOn()); this.render(); } }, t(oneTapOn() ? "table.onetap_on" : "table.onetap_off")),
      !watching && this.playing() ? h("button", { type: "button", class: "btn small", id: "resign-btn", onclick: () => this.confirm("resign") }, t("resign.btn")) : null,
      !watching && !this.isOver() ? h("button", { type: "button", class: "btn small", id: "leave-btn", onclick: () => this.confirm("leave") }, t("leave.btn")) : null,
      this.isOver() ? h("a", { class: "btn small", id: "download-btn", href: `/api/tables/${encodeURIComponent(this.id)}/record`, download: `${st.game}-${this.id}.txt` }, t("game.download")) : null,
      this.isOver() ? h("a", { class: "btn small", id: "replay-btn", href: "/?replay=" + encodeURIComponent(this.id) }, t("game.replay")) : null);
  },
};
