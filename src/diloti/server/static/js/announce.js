// Every move said in words for screen readers: one polite live region outside the re-rendered table
// (a region that is replaced on each render is not reliably read), filled with a sentence per move.
import { cardName } from "./cards.js";
import { gameOf } from "./games.js";
import { t, tn } from "./i18n.js";

/** "4 of hearts, 5 of clubs and 9 of spades". */
export function cardList(cards) {
  const names = cards.map((c) => cardName(c, t));
  if (names.length < 2) return names.join("");
  return names.slice(0, -1).join(", ") + " " + t("say.and") + " " + names[names.length - 1];
}

/**
 * A `played` message in words, e.g. moveWords({kind: "capture", card: "9D", cards: ["4H", "5C"], xeri: true}, "Anna",
 * game) -> "Anna took 4 of hearts and 5 of clubs with 9 of diamonds. Xeri!"; in a game whose table is one pile
 * (/api/info `pile`) a capture takes the pile.
 */
export function moveWords(mv, who, game) {
  const card = mv.card ? cardName(mv.card, t) : "";
  const cards = cardList(mv.cards || []);
  let s;
  if (mv.kind === "capture" && gameOf(game).pile) {
    const n = (mv.cards || []).length;
    s = tn("say.pile", n, { who, card });
  } else if (["lay", "capture", "plain", "group", "keep", "redeal"].includes(mv.kind)) s = t("say." + mv.kind, { who, card, cards, value: mv.value });
  else s = who + ": " + mv.move;
  if (mv.xeri) s += " " + t("say.xeri");
  if (mv.by) s += " " + t("say.by");
  return s;
}

/** Put `text` in the live region (made once, at the end of the body). */
export function announce(text) {
  let el = document.getElementById("announcer");
  if (!el) {
    el = document.createElement("div");
    el.id = "announcer";
    el.className = "sr-only";
    el.setAttribute("aria-live", "polite");
    el.setAttribute("aria-atomic", "false");
    document.body.appendChild(el);
  }
  // One line per announcement; only the last few are kept (a reader reads what is added).
  const line = document.createElement("p");
  line.textContent = text;
  el.appendChild(line);
  while (el.childElementCount > 4) el.firstElementChild.remove();
}
