// What the felt shows at a glance besides the cards: the stock as a stack as high as what is left, and
// the last move kept in view (who, the card, what it took, a xeri) until the next one; and the table's
// sound switch; and what a new state does before and after the table view (game.js) renders it.
import { backEl, cardEl } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { announce, moveWords } from "./announce.js";
import { animateRender, snapshot } from "./motion.js";
import { prettyMove } from "./present.js";
import { playSound, setSoundOn, soundOn } from "./sound.js";

/** The stock: up to 8 backs, one for every 5 cards or part of them, with the count. */
export function stockStack(n) {
  const layers = n > 0 ? Math.min(8, Math.ceil(n / 5)) : 0;
  const stack = h("span", { class: ["stack", !n && "empty"], style: { "--layers": String(layers) } });
  for (let i = 0; i < layers; i++) stack.appendChild(backEl());
  return h("span", { class: "stockpile", id: "stock", role: "img", "aria-label": t("table.stock", { n }), title: t("table.stock", { n }), dataset: { count: String(n) } },
    stack, h("b", { class: "scount", "aria-hidden": "true" }, String(n)));
}

/** The last move as cards: the card played, then what it took or built on, with who played it. */
export function lastTrick(view, last) {
  if (!last || !last.card) return h("span", { class: "lasttrick empty", id: "lasttrick" });
  const who = view.name(last.seat);
  const words = moveWords(last, who, view.gameKind());
  const shown = (last.cards || []).slice(-5);
  return h("span", { class: ["lasttrick", last.xeri && "xeri"], id: "lasttrick", dataset: { seat: String(last.seat), kind: last.kind }, title: words },
    h("span", { class: "ltwho" }, who),
    h("span", { class: "ltcards", "aria-hidden": "true" },
      cardEl(last.card, { t, cls: "played" }),
      shown.length ? h("span", { class: "ltop" }, last.kind === "capture" ? "×" : "+") : null,
      shown.map((c) => cardEl(c, { t })),
      (last.cards || []).length > shown.length ? h("span", { class: "ltop" }, "…") : null),
    h("span", { class: "sr-only" }, words),
    last.kind === "plain" || last.kind === "group" ? h("span", { class: "ltval", "aria-hidden": "true" }, prettyMove(last.move).split("=").pop().trim()) : null,
    last.xeri ? h("span", { class: "xeri-badge small" }, t("game.xeri")) : null);
}

/** The row at the top of the felt: stock on the left, the last move on the right. */
export function feltBar(view) {
  const st = view.state;
  const last = view.last && view.last.round === st.round ? view.last : null;
  return h("div", { class: "feltbar" }, stockStack(st.stock), lastTrick(view, last));
}

/** The sound switch (off until turned on), beside the alerts. */
export function soundButton(view) {
  if (view.watching) return null;
  const on = soundOn();
  return h("button", { type: "button", class: "btn small", id: "sound-btn", "aria-pressed": on ? "true" : "false",
    onclick: () => { setSoundOn(!soundOn()); view.render(); } }, (on ? "♪ " : "♪̸ ") + t(on ? "table.sound_on" : "table.sound_off"));
}

/**
 * Before a new state is rendered: "your turn" said (and sounded, if on), and where every card is now
 * (motion.js), the card just dropped at the place it was let go. Returns what `afterState` needs.
 */
export function beforeState(view, prev, st) {
  if (!view.watching && st.your_turn && (!prev || !prev.your_turn || prev.ply !== st.ply)) {
    playSound("turn");
    announce(t("say.your_turn"));
  }
  const snap = prev ? snapshot(view.root) : null;
  const d = view.dropped;
  if (snap && d) snap.cards.set(d.card, { rect: d.rect, el: snap.cards.has(d.card) ? snap.cards.get(d.card).el : null });
  view.dropped = null;
  return { snap, dealt: !!prev && (prev.round !== st.round || prev.deal !== st.deal) };
}

/** After the render: the move just shown, and a deal, set in motion. */
export function afterState(view, { snap, dealt }, st) {
  const played = view.lastFresh && view.last && view.last.ply === st.ply ? view.last : null;
  animateRender(snap, view.root, { played, dealt });
}
