// What the page knows of the games: what /api/info says of each (docs/PROTOCOL.md), asked once per page. The
// page draws a game by what it is said to be (its seats, options, goal, table and moves), never by its name, so a
// game added on the server is drawn with no change here. Only words are looked up by a game's or an option's
// name, and the server's own words stand in where the page has none.
import { api } from "./api.js";
import { has, t } from "./i18n.js";

let known = null;   // the last answer of /api/info
let asking = null;  // the request under way

/** `GET /api/info`, asked once (again with `fresh`, or after a failure); rejects with the failure. */
export function loadInfo(fresh = false) {
  if (known && !fresh) return Promise.resolve(known);
  if (!asking) {
    asking = api("GET", "/api/info").then((got) => { known = got; return got; }).finally(() => { asking = null; });
  }
  return asking;
}

/** `loadInfo()` that never rejects: what is known after it (null when the server could not be asked). */
export function infoReady() {
  return loadInfo().catch(() => known);
}

/** The last answer of /api/info (null before one came). */
export function serverInfo() { return known; }

// A game the server did not describe (its answer has not come, or could not be had): named, drawn plainly.
const UNKNOWN = { players: [], options: {}, ranges: {}, choices: {}, help: {}, named: true, rated: false,
  quick_play: false, pile: false, declarations: true, hands_won: false, goal: "target", goal_flags: [], seating: [] };

/** What the server says of the game `name` (docs/PROTOCOL.md, `GET /api/info` `games`). */
export function gameOf(name) {
  const g = known && known.games ? known.games[name] : null;
  return g || { ...UNKNOWN, title: name ? String(name) : "" };
}

/** The games a table may play, in the server's order. */
export function gameNames() { return known && known.games ? Object.keys(known.games) : []; }

/** The game a form starts with: the default one (the game outputs do not name), else the first. */
export function defaultGame() {
  const names = gameNames();
  return names.find((n) => !gameOf(n).named) || names[0] || null;
}

/** A game's name in the page's language: the page's own words when it has them, else the server's. */
export function gameTitle(name) {
  return has("game.name." + name) ? t("game.name." + name) : gameOf(name).title;
}

/** What an option of `game` is called: the page's own words when it has them, else the server's help. */
export function optionLabel(game, key) {
  return has("opt." + key) ? t("opt." + key) : gameOf(game).help[key] || key;
}

/** One word an option of words takes, in the page's language when it has it. */
export function optionWord(key, word) {
  return has(`opt.${key}.${word}`) ? t(`opt.${key}.${word}`) : word;
}

/** What decides a game of `name` under the chosen options (the changed ones): "target" (points) or "hands". */
export function goalOf(name, chosen) {
  const g = gameOf(name);
  const switched = g.goal_flags.some((f) => f in chosen && chosen[f] !== g.options[f]);
  if (!switched) return g.goal;
  return g.goal === "hands" ? "target" : "hands";
}

/** The ways `name` seats `players` ({players, sides, options}: the seating flags' values), the defaults' first. */
export function seatingsOf(name, players) {
  return gameOf(name).seating.filter((s) => s.players === players);
}

/** The seating flags a choice of the table makes with `players` (two ways to seat them differ in it). */
export function seatingChoices(name, players) {
  const ways = seatingsOf(name, players);
  const keys = new Set(ways.flatMap((w) => Object.keys(w.options)));
  return [...keys].filter((k) => new Set(ways.map((w) => w.options[k])).size > 1);
}

/** Every seating flag of `name` (set by the number of players, or chosen with it). */
export function seatingFlags(name) {
  return new Set(gameOf(name).seating.flatMap((w) => Object.keys(w.options)));
}

/** The way `name` seats `players` with the chosen options (null: it does not seat them). */
export function seatingOf(name, players, chosen) {
  const g = gameOf(name);
  const ways = seatingsOf(name, players);
  const value = (k) => (k in chosen ? chosen[k] : g.options[k]);
  return ways.find((w) => Object.entries(w.options).every(([k, v]) => value(k) === v)) || ways[0] || null;
}
