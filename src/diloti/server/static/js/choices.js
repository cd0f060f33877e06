// A table too large to list: when a `state` says `legal_complete: false`, its `legal` is a bounded sample
// (every playable hand card is in it, with one move of each kind and value it can make), so the page cannot
// filter it for what the pointing allows. It asks the server instead: `choices` of the chosen hand card with
// the table cards picked so far answers the moves taking exactly those cards and the table cards that can
// still be added. The answers are kept per (ply, card, chosen cards) until the next `state`; one that does
// not fit the position or the selection any more is never used. With a complete list nothing here runs.
// Mixed into TableView (game.js) as `tableChoices`: `this` is the table view.
import { parseMove, sortCards, unitsOf } from "./moves.js";

const FAILED = { failed: true, moves: [], open: [] };

/** The key of an answer: the ply, the hand card and the chosen table cards (sorted). */
export function choiceKey(ply, card, cards) {
  return `${ply}|${card}|${sortCards(cards).join(" ")}`;
}

/** The table cards of the chosen units, sorted (a declaration by all its cards). */
export function chosenCards(units, ids) {
  return sortCards(units.filter((u) => ids.has(u.id)).flatMap((u) => u.cards));
}

/** The unit ids, not chosen yet, that hold a card the answer says can still be added. */
export function openUnits(units, ids, openCards) {
  const open = new Set(openCards);
  return new Set(units.filter((u) => !ids.has(u.id) && u.cards.some((c) => open.has(c))).map((u) => u.id));
}

/** A move as the server sends it (a `legal` entry, a `choices` or `hint` move) in the page's shape. */
export function moveOf(l) {
  return { text: l.move, card: l.card, kind: l.kind, value: l.value, cards: sortCards(l.cards || []) };
}

/**
 * The engine's notation of a typed move, its piles completed from `declarations` (as matchTyped completes
 * them); null when it cannot be read.
 */
export function typedNotation(text, declarations = []) {
  const mv = parseMove(text);
  if (!mv || !mv.card) return null;
  if (mv.kind === "lay") return mv.card;
  const named = new Set(mv.cards);
  for (const p of declarations) if (p.cards.some((c) => named.has(c))) p.cards.forEach((c) => named.add(c));
  const cards = sortCards([...named]).join(" ");
  if (mv.kind === "capture") return `${mv.card} x ${cards}`;
  return `${mv.card} + ${cards} = ${mv.value}${mv.kind === "group" ? "G" : ""}`;
}

const sameIds = (a, b) => a.size === b.size && [...a].every((id) => b.has(id));

export const tableChoices = {
  /** Whether the legal list is a sample: my turn on a table too large to list. */
  sampled() {
    const st = this.state;
    return !!st && !!st.your_turn && st.phase === "play" && st.legal_complete === false;
  },

  /** A new position (or the same one sent again): every answer and every wait is over. */
  resetChoices() {
    const waits = this.choiceWaits ? [...this.choiceWaits.values()].flat() : [];
    this.choiceAnswers = new Map();
    this.choiceWaits = new Map();
    for (const w of waits) w(null);
  },

  /**
   * The answer for (card, chosen cards) at this ply: the `choices` reply, FAILED when the asking failed, or
   * null while it is awaited (asked here once, unless the connection is down: then asked again on the next call).
   */
  askChoices(card, cards) {
    if (!this.choiceAnswers) this.resetChoices();
    const key = choiceKey(this.state.ply, card, cards);
    const got = this.choiceAnswers.get(key);
    if (got) return got.reply || (got.failed ? FAILED : null);
    if (this.conn && this.conn.send({ type: "choices", card, chosen: sortCards(cards) })) this.choiceAnswers.set(key, { asking: true });
    return null;
  },

  /** The answer for (card, chosen cards) once it comes: the reply, or null (failed, or the position changed). */
  choicesFor(card, cards) {
    const got = this.askChoices(card, cards);
    if (got) return Promise.resolve(got.failed ? null : got);
    const key = choiceKey(this.state.ply, card, cards);
    if (!this.choiceAnswers.has(key)) return Promise.resolve(null);  // not asked: no connection
    return new Promise((resolve) => {
      if (!this.choiceWaits.has(key)) this.choiceWaits.set(key, []);
      this.choiceWaits.get(key).push(resolve);
    });
  },

  /** A `choices` reply: kept if it is about this position (a reply about an earlier one is dropped). */
  onChoices(msg) {
    const st = this.state;
    if (!st || msg.ply !== st.ply || !msg.card || !Array.isArray(msg.chosen)) return;
    if (!this.choiceAnswers) this.resetChoices();
    const key = choiceKey(msg.ply, msg.card, msg.chosen);
    const prev = this.choiceAnswers.get(key);
    if (prev && prev.reply) return;
    const reply = { moves: (msg.moves || []).map(moveOf), open: msg.open || [] };
    this.choiceAnswers.set(key, { reply });
    const waits = this.choiceWaits.get(key) || [];
    this.choiceWaits.delete(key);
    for (const w of waits) w(reply);
    // Shown if it answers the selection on the screen now.
    if (this.sampled() && this.sel.card === msg.card
      && choiceKey(st.ply, this.sel.card, chosenCards(unitsOf(st), this.sel.units)) === key) this.render();
  },

  /**
   * An error while answers are awaited: one a `choices` request can get fails them all (they are not asked
   * again until the next position, so an error cannot start a loop of requests).
   */
  choicesFailed(msg) {
    if (!this.choiceAnswers) return;
    if (!["invalid_card", "not_your_turn", "rate_limited", "server_error", "bad_message", "not_joined"].includes(msg.code)) return;
    for (const [key, got] of this.choiceAnswers) {
      if (!got.asking) continue;
      this.choiceAnswers.set(key, { failed: true });
      const waits = this.choiceWaits.get(key) || [];
      this.choiceWaits.delete(key);
      for (const w of waits) w(null);
    }
  },

  /**
   * `filterMoves` for a sampled list: {exact, possible, open, pending} from the server's answer for the
   * selection (`pending` while it is awaited: nothing is lit and nothing can be played).
   */
  sampledFilter() {
    const none = { exact: [], possible: [], open: new Set() };
    const card = this.sel.card;
    if (!card) return none;
    const units = unitsOf(this.state);
    const a = this.askChoices(card, chosenCards(units, this.sel.units));
    if (!a) return { ...none, pending: true };
    const exact = a.moves.filter((m) => m.card === card);
    return { exact, possible: exact, open: openUnits(units, this.sel.units, a.open) };
  },

  /**
   * A typed move, sent as it is named (its piles completed) rather than looked up in the sample, which need
   * not hold it (nor tell that a card alone names its only move): the server checks it and says why not.
   */
  sendTyped(text) {
    const move = typedNotation(text, this.state.declarations);
    if (!move) return false;
    this.send({ text: move });
    return true;
  },

  /**
   * A hand card dropped on the felt of a table too large to list. Onto the felt itself it is laid when laying
   * it is legal (the sample holds every card's lay), and goes back to the hand otherwise. Onto a table card or
   * pile the server is asked: one the card can use is chosen, and the move played only if exactly one takes
   * just it and nothing more can be added (several: the selection stays, to finish); one it cannot use sends
   * the card back to the hand. Nothing is played on a guess, nor on an answer about another selection.
   */
  async dropSampled(card, unitId, rect) {
    const st = this.state;
    const units = unitsOf(st);
    const unit = unitId ? units.find((u) => u.id === unitId) : null;
    const lay = this.legal().find((m) => m.card === card && m.kind === "lay");
    const play = (mv) => {
      this.dropped = rect ? { card, rect } : null;  // the card flies on from where it was let go
      this.send(mv);
    };
    this.msg = "";
    if (!unit) { if (lay) play(lay); else this.dropMiss(card, null); return; }
    this.sel = { card, units: new Set() };
    this.render();
    const still = (ids) => this.state === st && !this.waitingMove && this.sel.card === card && sameIds(this.sel.units, ids);
    const first = await this.choicesFor(card, []);
    if (!first || !still(new Set())) return;
    if (!openUnits(units, new Set(), first.open).has(unit.id)) {
      this.sel = { card: null, units: new Set() };
      this.dropMiss(card, unit.id);
      return;
    }
    const ids = new Set([unit.id]);
    this.sel = { card, units: ids };
    this.render();
    const a = await this.choicesFor(card, unit.cards);
    if (a && still(ids) && a.moves.length === 1 && !a.open.length) play(a.moves[0]);
  },
};
