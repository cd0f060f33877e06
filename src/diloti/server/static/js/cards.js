// Drawing cards, card backs and declaration piles with plain DOM + CSS (no images).
import { h } from "./dom.js";
import { cardRank, isFace, isRed, suitSymbol } from "./moves.js";

const FACE_MARK = { J: "♞", Q: "♛", K: "♚" };

/** One face-up card. `opts.tag` ("button" for pickable cards), `opts.cls`, `opts.attrs`. */
export function cardEl(card, opts = {}) {
  const rank = cardRank(card);
  const sym = suitSymbol(card);
  const tag = opts.tag || "div";
  const face = isFace(card);
  const el = h(tag, {
    class: ["card", isRed(card) ? "red" : "black", face && "face", opts.cls],
    dataset: { card },
    // A drawn card is an image to a screen reader (a label on a bare div is not read); a button keeps its role.
    role: tag === "button" ? undefined : "img",
    "aria-label": cardName(card, opts.t),
    title: opts.title,
    ...(opts.attrs || {}),
  },
  h("span", { class: "corner tl", "aria-hidden": "true" }, h("b", null, rank), h("i", null, sym)),
  h("span", { class: "pip", "aria-hidden": "true" }, face ? h("span", { class: "facemark" }, rank, h("small", null, FACE_MARK[rank])) : sym),
  h("span", { class: "corner br", "aria-hidden": "true" }, h("b", null, rank), h("i", null, sym)));
  if (tag === "button") el.type = "button";
  return el;
}

/** The back of a card, for hidden hands and the stock. */
export function backEl(cls) {
  return h("div", { class: ["card", "back", cls], "aria-hidden": "true" });
}

/** A readable card name for screen readers and titles, e.g. "10 of diamonds". */
export function cardName(card, t) {
  if (!t) return card;
  const rankNames = { A: t("rank.A"), J: t("rank.J"), Q: t("rank.Q"), K: t("rank.K") };
  const r = cardRank(card);
  return t("card.name", { rank: rankNames[r] || r, suit: t("suit." + card.slice(-1)) });
}

/**
 * A declaration drawn as a fanned stack with a badge "8 plain · Anna".
 * `label` is the badge text (built by the caller, who knows the names).
 */
export function pileEl(decl, label, opts = {}) {
  const tag = opts.tag || "div";
  const el = h(tag, {
    class: ["pile", decl.kind === "group" ? "group" : "plain", opts.cls],
    dataset: { pile: String(opts.index ?? ""), value: String(decl.value), kind: decl.kind },
    "aria-label": label + ": " + decl.cards.join(" "),
    ...(opts.attrs || {}),
  });
  if (tag === "button") el.type = "button";
  const fan = h("span", { class: "fan", style: { "--n": String(decl.cards.length) } });
  decl.cards.forEach((c, i) => {
    const ce = cardEl(c, { cls: "mini", t: opts.t });
    ce.style.setProperty("--i", String(i));
    fan.appendChild(ce);
  });
  el.appendChild(fan);
  el.appendChild(h("span", { class: "badge" }, h("b", { class: "pv" }, String(decl.value)), " ", label));
  return el;
}
