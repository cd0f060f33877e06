// Presenting moves, names and scores as text (shared by the table and the replay viewer).
import { h } from "./dom.js";
import { has, t } from "./i18n.js";
import { gameOf } from "./games.js";
import { normCard, suitSymbol, cardRank } from "./moves.js";

/** "10D" -> "10♦". */
export function prettyCard(card) {
  return cardRank(card) + suitSymbol(card);
}

/** A computer level (a server name: "expert") in the page's language, the server's name when the page has none. */
export function levelName(level) {
  return level && has("level." + level) ? t("level." + level) : String(level || "");
}

/** Notation with suit symbols: "9D x 4H 5C" -> "9♦ × 4♥ 5♣"; a group's mark in the page's language ("4G" -> "4ομ"). */
export function prettyMove(text) {
  if (!text) return "";
  return String(text).split(/\s+/).map((tok) => {
    if (tok === "x") return "×";
    const m = /^(.+?)(G?)$/.exec(tok);
    const c = normCard(tok);
    if (c && /^(10|[2-9AJQK])[CDHS]$/i.test(tok)) return prettyCard(c);
    if (m && m[2] && /^\d+$/.test(m[1])) return m[1] + t("move.group_mark");
    return tok;
  }).join(" ");
}

/** A move described in words for the chooser: "plain 8", "group of 4s", "take …" (a pile's: "takes the pile"). */
export function moveLabel(mv, game) {
  const cards = mv.cards.map(prettyCard).join(" ");
  const card = mv.card ? prettyCard(mv.card) : "";
  if (gameOf(game).pile && mv.kind === "capture") return t("mv.pile", { card, n: mv.cards.length });
  switch (mv.kind) {
    case "lay": return t("mv.lay", { card });
    case "capture": return t("mv.capture", { card, cards });
    case "plain": return t("mv.plain", { card, cards, value: mv.value });
    case "group": return t("mv.group", { card, cards, value: mv.value });
    case "keep": return t("mv.keep");
    case "redeal": return t("mv.redeal");
    default: return mv.text;
  }
}

/** The display name of a seat from the table summary (user text: only ever used as text). */
export function seatName(table, seat, mySeat) {
  if (seat === mySeat) return t("new.you");
  const s = table && table.seats ? table.seats[seat] : null;
  if (!s) return t("seat.n", { n: seat + 1 });
  if (s.kind === "bot") {
    const bots = table.seats.filter((x) => x.kind === "bot").length;
    return bots > 1 ? t("bot.name_n", { n: seat + 1 }) : t("bot.name");
  }
  // A bot account (an outside program) is marked as one wherever a seat is named.
  if (s.bot) return t("seat.bot_account", { name: s.name || t("seat.n", { n: seat + 1 }) });
  return s.name || t("seat.n", { n: seat + 1 });
}

/** The sides of a table: 2 in Diloti (partners share one); in the parent games each player alone unless
 *  the table plays in partnerships. */
export function sidesOf(table) { return (table && table.sides) || 2; }

/** "Us"/"Them" when seated with two sides, "You" or the player's name when each plays alone, otherwise the
 *  players' names. */
export function sideName(table, side, mySeat) {
  const n = sidesOf(table);
  const seated = mySeat !== null && mySeat !== undefined;
  const players = (table && table.players) || 2;
  if (seated && n === 2 && players > 2) return side === (mySeat % n) ? t("side.us") : t("side.them");
  if (seated && side === mySeat % n) return n === 2 ? t("side.us") : t("new.you");
  if (seated && n === 2) return t("side.them");
  if (!table || !table.seats) return t("side.n", { n: side + 1 });
  return table.seats.filter((s) => s.seat % n === side).map((s) => seatName(table, s.seat, mySeat)).join(" & ");
}

// A round's score breakdown, row by row: the rows are the fields of a side's score as the server sends them
// (docs/PROTOCOL.md, `round_over`), each with the page's words for it when it has them. A game's xeris are one row
// (with the jacks' and their points when its score has them); the total closes the table.
const SCORE_WORDS = {
  cards: "round.cards", cards_points: "round.most", aces: "round.aces", honours: "round.honours", clubs: "round.clubs",
  clubs_points: "round.most_clubs", ten_of_diamonds: "round.td", two_of_clubs: "round.tc", xeri: "round.xeri",
};
const SCORE_FOLDED = new Set(["total", "jack_xeri", "xeri_points"]);  // in the xeri's row, or the total's

function scoreLabel(field) {
  if (SCORE_WORDS[field]) return t(SCORE_WORDS[field]);
  const words = field.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// The fields shown otherwise than as their number: the xeris, with their points (and the jacks' when counted).
const SCORE_CELLS = {
  xeri: (s) => (!s.xeri ? 0 : !("xeri_points" in s) ? `${s.xeri} × 10`
    : `${s.xeri}${s.jack_xeri ? " (" + t("round.jacks", { n: s.jack_xeri }) + ")" : ""} = ${s.xeri_points}`),
};

function scoreCell(field, s) {
  return SCORE_CELLS[field] ? SCORE_CELLS[field](s) : s[field];
}

/** The round breakdown as a table (one column per side). */
export function breakdownTable(score, names, gameScores) {
  const fields = Object.keys(score[0] || {}).filter((f) => !SCORE_FOLDED.has(f));
  const body = fields.map((f) => h("tr", null, h("td", null, scoreLabel(f)), score.map((s) => h("td", null, String(scoreCell(f, s))))));
  body.push(h("tr", { class: "total" }, h("td", null, t("round.total")), score.map((s) => h("td", null, String(s.total)))));
  if (gameScores) body.push(h("tr", { class: "total" }, h("td", null, t("round.game")), gameScores.map((s) => h("td", null, String(s)))));
  return h("table", { class: "sheet breakdown" },
    h("thead", null, h("tr", null, h("th", null, ""), names.map((n) => h("th", null, n)))),
    h("tbody", null, body));
}
