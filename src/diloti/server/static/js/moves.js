// Reading the engine's move notation and matching moves to what the player pointed at.
// The page never decides legality itself: it only filters the legal list the server sent.
import { gameOf } from "./games.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = "CDHS";
const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SYMBOL_SUITS = { "♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S" };

/** Canonical card text ("10D") from forgiving input ("td", "10♦"); null when not a card. */
export function normCard(text) {
  let s = String(text).trim().toUpperCase();
  if (s.length < 2) return null;
  let suit = s.slice(-1);
  let rank = s.slice(0, -1);
  if (SYMBOL_SUITS[suit]) suit = SYMBOL_SUITS[suit];
  if (!SUITS.includes(suit)) {
    suit = SYMBOL_SUITS[s[0]] || s[0];
    rank = s.slice(1);
    if (!SUITS.includes(suit)) return null;
  }
  if (rank === "T") rank = "10";
  if (rank === "1") rank = "A";
  if (!RANKS.includes(rank)) return null;
  return rank + suit;
}

export function cardRank(card) { return card.slice(0, -1); }
export function cardSuit(card) { return card.slice(-1); }
export function suitSymbol(card) { return SUIT_SYMBOLS[cardSuit(card)]; }
export function isRed(card) { const s = cardSuit(card); return s === "D" || s === "H"; }
export function isFace(card) { return ["J", "Q", "K"].includes(cardRank(card)); }
export function cardValue(card) {
  const r = cardRank(card);
  if (isFace(card)) return 0;
  return r === "A" ? 1 : Number(r);
}
/** Sort key matching the engine: by rank, then clubs, diamonds, hearts, spades. */
export function cardIndex(card) {
  return RANKS.indexOf(cardRank(card)) * 4 + SUITS.indexOf(cardSuit(card));
}

/**
 * Parse one move in the engine's notation:
 * "7H" (lay), "9D x 4H 5C" (capture), "5S + 3C = 8" (plain), "4D + 4C = 4G" (group),
 * "keep", "redeal". Returns {text, card, kind, cards, value} or null.
 */
export function parseMove(text) {
  const s = String(text).trim();
  const low = s.toLowerCase();
  if (low === "keep" || low === "redeal") {
    return { text: low, card: null, kind: low, cards: [], value: 0 };
  }
  const m = /^(\S+?)\s*(?:([x:+*])\s*(.*?))?\s*$/i.exec(s);
  if (!m || !s) return null;
  const card = normCard(m[1]);
  if (!card) return null;
  const op = m[2];
  if (op === undefined) return { text: s, card, kind: "lay", cards: [], value: cardValue(card) };
  const rest = m[3] || "";
  const split = (part) => {
    const out = [];
    for (const tok of part.replace(/[,+[\]]/g, " ").split(/\s+/).filter(Boolean)) {
      const c = normCard(tok);
      if (!c) return null;
      out.push(c);
    }
    return out;
  };
  if (/[x:]/i.test(op)) {
    const cards = split(rest);
    if (!cards || !cards.length) return null;
    return { text: s, card, kind: "capture", cards: sortCards(cards), value: cardValue(card) };
  }
  const v = /^(.*?)\s*=\s*(10|[1-9]|a|t)\s*(g|group|s|\*)?\s*$/i.exec(rest);
  if (!v) return null;
  const cards = split(v[1]);
  if (!cards || !cards.length) return null;
  const raw = v[2].toUpperCase();
  const value = raw === "A" ? 1 : raw === "T" ? 10 : Number(raw);
  const kind = v[3] || op === "*" ? "group" : "plain";
  return { text: s, card, kind, cards: sortCards(cards), value };
}

export function sortCards(cards) {
  return [...cards].sort((a, b) => cardIndex(a) - cardIndex(b));
}

/** Two parsed moves are the same move: same card, kind, value and table cards. */
export function sameMove(a, b) {
  if (!a || !b) return false;
  return a.card === b.card && a.kind === b.kind && a.value === b.value
    && a.cards.length === b.cards.length && a.cards.every((c, i) => c === b.cards[i]);
}

/**
 * The table as selectable units: each loose card alone, each declaration as a whole.
 * Returns [{id, cards}], ids "c:5H" for loose cards and "p:N" for the N-th declaration.
 */
export function tableUnits(table, declarations) {
  const units = table.map((c) => ({ id: "c:" + c, cards: [c] }));
  (declarations || []).forEach((p, i) => units.push({ id: "p:" + i, cards: p.cards }));
  return units;
}

/**
 * The table of a state message as selectable units: in a game whose table is one pile (/api/info `pile`: Xeri)
 * the whole pile is one unit ("x:pile": a capture always takes all of it); otherwise the loose cards and
 * declarations of `tableUnits`.
 */
export function unitsOf(st, game = gameOf(st.game)) {
  if (game.pile) return st.table.length ? [{ id: "x:pile", cards: [...st.table] }] : [];
  return tableUnits(st.table, st.declarations);
}

/**
 * `filterMoves`, except that in a game without declarations (/api/info `declarations`: the parent games) a
 * card with one move only (always so on a pile) has it ready at once: the player need not point at what it takes.
 */
export function filterFor(st, legal, units, card, chosen, game = gameOf(st.game)) {
  const f = filterMoves(legal, units, card, chosen);
  if (!game.declarations && !f.exact.length && f.possible.length === 1 && !chosen.size) f.exact.push(f.possible[0]);
  return f;
}

/** The unit ids a move involves (every move names whole piles). */
export function unitsOfMove(move, units) {
  const set = new Set(move.cards);
  return units.filter((u) => u.cards.every((c) => set.has(c))).map((u) => u.id);
}

/**
 * Filter the legal moves by the pointing selection.
 * - `card`: the chosen hand card (or null)
 * - `chosen`: a Set of unit ids picked on the table
 * Returns {exact, possible, open}: the moves that involve exactly the chosen units,
 * the moves still reachable by choosing more, and the unit ids that could still be added.
 */
export function filterMoves(legal, units, card, chosen) {
  const exact = [];
  const possible = [];
  const open = new Set();
  if (!card) return { exact, possible, open };
  for (const mv of legal) {
    if (mv.card !== card) continue;
    const ids = unitsOfMove(mv, units);
    const idset = new Set(ids);
    if (![...chosen].every((id) => idset.has(id))) continue;
    possible.push(mv);
    if (ids.length === chosen.size) exact.push(mv);
    for (const id of ids) if (!chosen.has(id)) open.add(id);
  }
  return { exact, possible, open };
}

/** Hand cards that have at least one legal move. */
export function playableCards(legal) {
  return new Set(legal.filter((m) => m.card).map((m) => m.card));
}

/**
 * Find the legal move a typed text names (the order of table cards does not matter).
 * A pile may be named by some of its cards: the rest of a pile that a named card belongs
 * to is completed from `declarations`, nothing else is added.
 */
export function matchTyped(legal, text, declarations = []) {
  const mv = parseMove(text);
  if (!mv) return { error: "syntax" };
  const hit = legal.find((l) => sameMove(l, mv));
  if (hit) return { move: hit };
  if (mv.kind === "lay") {
    // A card alone names its only legal move (in Xeri every card has one: it takes the pile or is laid).
    const only = legal.filter((l) => l.card === mv.card);
    if (only.length === 1) return { move: only[0] };
  }
  const named = new Set(mv.cards);
  for (const p of declarations) {
    if (p.cards.some((c) => named.has(c))) p.cards.forEach((c) => named.add(c));
  }
  const full = { ...mv, cards: sortCards([...named]) };
  const completed = legal.find((l) => sameMove(l, full));
  if (completed) return { move: completed };
  return { error: "illegal" };
}
