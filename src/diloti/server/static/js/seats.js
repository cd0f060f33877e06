// The seats around the table, placed as the players sit: this seat at the bottom, play passing to
// the right (counter-clockwise, as Greek card games go), so the next player sits on the right, the
// partner opposite, the player before on the left; each with name, cards left, clock, away mark and
// the last move that seat made.
import { backEl } from "./cards.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { levelName, prettyMove } from "./present.js";

/** Where seat `s` sits seen from `pov`: "bottom", "right", "top" or "left". */
export function placeOf(s, pov, players) {
  const r = (s - pov + players) % players;
  if (r === 0) return "bottom";
  if (players === 2) return "top";
  if (players === 3) return ["bottom", "right", "left"][r];  // three round a table: nobody opposite
  return ["bottom", "right", "top", "left"][r];
}

/** The last move of every seat in this round, from the round's history `[[seat, move]]`. */
export function lastBySeat(history) {
  const out = new Map();
  for (const [seat, move] of history || []) out.set(seat, move);
  return out;
}

function seatBox(view, s, { st, tb, me, watching, last, xeris, bottomOwn }) {
  const info = tb.seats ? tb.seats[s] : null;
  const n = st.hand_sizes[s];
  const meta = [];
  const sides = st.sides || 2;
  if (sides < st.players && !watching && s !== me && s % sides === me % sides) meta.push(h("span", { class: "tag" }, t("seat.partner")));
  if (info && info.kind === "bot") meta.push(h("span", { class: "tag" }, levelName(info.level)));
  const away = !info || !info.away ? null : !info.taken ? "seat.left" : view.outOfTime.has(s) ? "clock.out" : "seat.away";
  if (away) meta.push(h("span", { class: "tag away awaymark", title: t(away) }, t(away)));  // cut short on a narrow seat
  // An absent player's seat may be handed to the computer once the server allows it (the summary's `hand_over_in`,
  // counted down here from its arrival: the clock ticker paints it and draws the table again when it is due).
  const wait = info && info.kind === "human" && !watching && view.playing() && s !== me ? info.hand_over_in : null;
  if (typeof wait === "number") {
    const due = (view.tableAt || performance.now()) + wait * 1000;
    const left = Math.ceil((due - performance.now()) / 1000);
    meta.push(left > 0
      ? h("span", { class: "tag handover-wait", dataset: { seat: String(s), handoverDue: String(due) } },
        t("away.hand_over_in", { s: left }))
      : h("button", { type: "button", class: "btn small handover-btn", dataset: { seat: String(s) },
        title: t("away.hand_over_title", { name: view.name(s) }),
        onclick: () => view.conn.send({ type: "hand_over", seat: s }) }, t("away.hand_over")));
  }
  // An absent opponent's seat (away) lets the players who stayed claim the game (docs/PROTOCOL.md, Abandoned games).
  if (info && info.kind === "human" && info.away && !watching && view.playing() && s % sides !== me % sides) {
    meta.push(h("button", { type: "button", class: "btn small claim-btn", dataset: { seat: String(s) },
      onclick: () => view.conn.send({ type: "claim" }) }, t("claim.btn")));
  }
  const backs = bottomOwn ? null : h("span", { class: "backs", "aria-hidden": "true" });
  if (backs) for (let i = 0; i < n; i++) backs.appendChild(backEl());
  const move = last.get(s);
  const place = placeOf(s, watching ? 0 : me, st.players);
  const turn = st.turn === s && st.phase !== "over";
  return h("div", {
    class: ["seatbox", "at-" + place, turn && "turn",
      info && info.kind === "human" && !info.connected && "offline", info && info.away && "away"],
    dataset: { seat: String(s), side: String(s % sides), place, away: info && info.away ? "1" : "0" },
  },
  h("span", { class: "name" },
    st.dealer === s ? h("span", { class: "dealerchip", role: "img", title: t("table.dealer"), "aria-label": t("table.dealer") }, t("table.dealer_mark")) : null,
    turn ? h("span", { class: "turnmark", "aria-hidden": "true" }, "▶ ") : null,
    view.name(s),
    turn ? h("span", { class: "sr-only" }, " · " + t("table.to_play")) : null),
  takenPile(st, s % sides, view.sideLabel ? view.sideLabel(s % sides) : view.name(s)),
  backs,
  bottomOwn ? null : h("span", { class: "count" }, tn("game.cards", n)),
  tb.clock ? h("span", { class: "clock", dataset: { clockSeat: String(s) }, "aria-live": "off" }) : null,
  h("span", { class: "seatlast", dataset: { seatLast: String(s) } }, move ? prettyMove(move) : "\u00a0",
    move && xeris.has(s) ? h("span", { class: "xeri-badge small" }, t("game.xeri")) : null),
  meta.length ? h("span", { class: "meta" }, meta) : null);
}

/** A side's taken pile: a stack of backs as high as its share of the deck, the count, and its xeris. */
export function takenPile(st, side, who) {
  const counts = st.captured_counts || [];
  const n = counts[side] || 0;
  const x = st.xeri ? st.xeri[side] || 0 : 0;
  const label = x ? tn("table.taken_xeris", x, { who, n, x }) : t("table.taken", { who, n });
  const layers = n ? Math.min(6, 1 + Math.floor(n / 8)) : 0;
  const stack = h("span", { class: ["stack", !n && "empty"], style: { "--layers": String(layers) } });
  for (let i = 0; i < layers; i++) stack.appendChild(backEl());
  return h("span", { class: "takenpile", dataset: { side: String(side), count: String(n), xeri: String(x) }, role: "img", "aria-label": label, title: label },
    stack, h("b", { class: "tcount", "aria-hidden": "true" }, String(n)),
    x ? h("span", { class: "txeri", "aria-hidden": "true" }, "✕" + x) : null);
}

/** The table's ring: every seat in its place around `felt`. */
export function seatRing(view, felt, { st, tb, me, watching, xeris }) {
  const last = lastBySeat(st.history);
  const ctx = { st, tb, me, watching, last, xeris };
  const boxes = {};
  for (let s = 0; s < st.players; s++) {
    const place = placeOf(s, watching ? 0 : me, st.players);
    boxes[place] = seatBox(view, s, { ...ctx, bottomOwn: place === "bottom" && !watching });
  }
  return h("div", { class: ["ring", "p" + st.players], id: "seats" },
    boxes.top || null, boxes.left || null, felt, boxes.right || null, boxes.bottom || null);
}
