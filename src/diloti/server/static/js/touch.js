// Touch first: a hand card can be dragged onto the felt (onto a table card or pile to take or build on it,
// or onto the felt itself to lay it), as well as tapped; and the typed-move box sits behind a
// "Type a move" control. The page still never decides legality: a drop only picks among the legal
// moves the server sent (the same filter as tapping). Mixed into TableView (game.js) as `tableTouch`.
import { openUnits } from "./choices.js";
import { gameOf } from "./games.js";
import { t } from "./i18n.js";
import { filterFor, unitsOf } from "./moves.js";
import { prettyCard } from "./present.js";

const THRESHOLD = 8;  // px a pointer moves before a press becomes a drag (a tap stays a tap)

/** What lies under a point on the felt: {unit} for a table card or pile, {unit: null} for the felt itself. */
function dropTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  if (!el) return null;
  const unit = el.closest("#felt [data-unit]");
  if (unit) return { unit: unit.dataset.unit, el: unit };
  const felt = el.closest(".feltarea, #felt");
  return felt ? { unit: null, el: felt } : null;
}

function swallowNextClick() {
  // The click that ends a drag is not a tap.
  const stop = (e) => { e.stopPropagation(); e.preventDefault(); };
  window.addEventListener("click", stop, { capture: true, once: true });
  setTimeout(() => window.removeEventListener("click", stop, { capture: true }), 0);
}

const ONE_TAP_KEY = "diloti.onetap";

/** Whether a tap on a card with exactly one legal move plays it (on unless turned off; kept on this device). */
export function oneTapOn() {
  try { return localStorage.getItem(ONE_TAP_KEY) !== "off"; } catch (e) { return true; }
}

export function setOneTap(on) {
  try { localStorage.setItem(ONE_TAP_KEY, on ? "on" : "off"); } catch (e) { /* kept for this page only */ }
}

/**
 * Let the playable cards of `hand` be dragged. `targets(card)`: where a drop of the card makes a legal move,
 * {units: Set of unit ids, felt: a drop on the felt itself}, or null when the page cannot tell yet (a table too
 * large to list, before the server's answer). Only those light up while the card is dragged; a drop there calls
 * `onDrop(card, unitId or null, rect)`, a drop anywhere else sends the card back to the hand and calls
 * `onMiss(card, unitId or null, onFelt)` (nothing is played).
 */
export function dragCards(hand, { targets, onDrop, onMiss }) {
  for (const el of hand.querySelectorAll("button.card:not([disabled])")) {
    el.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || !e.isPrimary) return;
      startDrag(e, el, targets, onDrop, onMiss);
    });
  }
}

/** Whether a drop on `target` ({unit, el} of dropTarget, or null) may make a move, by `legal` (null: unknown). */
function allowed(target, legal) {
  if (!target) return false;
  if (!legal) return true;  // the page cannot tell: the drop's handler asks, and plays only what is legal
  return target.unit ? legal.units.has(target.unit) : legal.felt;
}

/** While `card` is dragged: its legal targets lit, the other table units dimmed; returns the undoing. */
function lightTargets(legal) {
  const felt = document.querySelector("#felt");
  if (!legal || !felt) return () => {};
  const marked = [];
  const add = (el, cls) => { el.classList.add(cls); marked.push([el, cls]); };
  for (const u of felt.querySelectorAll("[data-unit]")) add(u, legal.units.has(u.dataset.unit) ? "droplegal" : "dropdim");
  if (legal.felt) add(felt, "droplegal");
  return () => { for (const [el, cls] of marked) el.classList.remove(cls); };
}

function startDrag(e, el, targets, onDrop, onMiss) {
  const card = el.dataset.card;
  const x0 = e.clientX;
  const y0 = e.clientY;
  const rect = el.getBoundingClientRect();
  let g = null;
  let over = null;
  let legal = null;
  let unlight = () => {};
  const mark = (target) => {
    const ok = allowed(target, legal) ? target.el : null;  // only where a drop makes a move is marked
    if (over && over !== ok) over.classList.remove("droptarget");
    over = ok;
    if (over) over.classList.add("droptarget");
  };
  const end = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    mark(null);
    unlight();
  };
  const drop = () => { if (g) { g.remove(); el.classList.remove("lifted"); } };
  const move = (ev) => {
    if (ev.pointerId !== e.pointerId) return;
    const dx = ev.clientX - x0;
    const dy = ev.clientY - y0;
    if (!g) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      g = el.cloneNode(true);
      g.classList.remove("selected", "hinted");
      g.classList.add("ghost", "dragging");
      g.setAttribute("aria-hidden", "true");
      g.inert = true;
      Object.assign(g.style, { left: rect.left + "px", top: rect.top + "px", width: rect.width + "px", height: rect.height + "px" });
      document.body.appendChild(g);
      el.classList.add("lifted");
    }
    if (!legal && targets) {
      // Not known when the drag began (the server's answer for a table too large to list): lit once it came.
      legal = targets(card);
      if (legal) unlight = lightTargets(legal);
    }
    g.style.transform = `translate(${dx}px, ${dy}px) rotate(4deg)`;
    mark(dropTarget(ev.clientX, ev.clientY));
    ev.preventDefault();
  };
  const up = (ev) => {
    if (ev.pointerId !== e.pointerId) return;
    const dragged = !!g;
    const at = g ? g.getBoundingClientRect() : null;
    end();
    if (!dragged) return;  // a tap: its click picks the card
    swallowNextClick();
    const target = dropTarget(ev.clientX, ev.clientY);
    if (allowed(target, legal)) {
      drop();
      onDrop(card, target.unit, at);
      return;
    }
    // No move there: the card goes back to its place in the hand, and nothing is played.
    back(g, () => drop());
    if (onMiss) onMiss(card, target ? target.unit : null, !!target);
  };
  const cancel = (ev) => { if (ev.pointerId === e.pointerId) { end(); back(g, () => drop()); } };
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
}

/** The dragged copy flies back to the card's place in the hand (at once under reduced motion), then `done()`. */
function back(g, done) {
  if (!g) { done(); return; }
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (still || document.hidden || !g.animate) { done(); return; }
  const a = g.animate([{ transform: g.style.transform }, { transform: "translate(0px, 0px) rotate(0deg)" }],
    { duration: 180, easing: "ease-out", id: "return:" + g.dataset.card });
  a.finished.then(done, done);
}

export const tableTouch = {
  /**
   * Where a drop of `card` makes a legal move (dragCards' `targets`): the table units it can take or declare on,
   * and the felt itself when the card can be laid. Where the table is one pile (/api/info `pile`: a capture takes
   * all of it and a card laid goes on it), the card has one move and a drop anywhere on the felt makes it.
   * A table too large to list: the server's answer for the card, once it came (null before).
   */
  dropTargets(card) {
    const st = this.state;
    const legal = this.legal();
    const units = unitsOf(st);
    const mine = legal.filter((m) => m.card === card);
    if (gameOf(st.game).pile) {
      const one = mine.length === 1;
      return { units: new Set(one ? units.map((u) => u.id) : []), felt: one };
    }
    const felt = mine.some((m) => m.kind === "lay");
    if (this.sampled()) {
      const a = this.askChoices(card, []);
      return a && !a.failed ? { units: openUnits(units, new Set(), a.open), felt } : null;
    }
    return { units: filterFor(st, legal, units, card, new Set()).open, felt };
  },

  /**
   * A hand card dropped where it makes a move (dropTargets): onto a table card or pile, the moves that use it;
   * exactly one (nothing more can be added) is played, several are asked in words (the chooser of the action
   * row). Onto the felt itself, the card is laid (in a one-pile game, its one move is made).
   */
  dropCard(card, unitId, rect) {
    const st = this.state;
    if (!st || !st.your_turn || this.waitingMove) return;
    const legal = this.legal();
    const mine = legal.filter((m) => m.card === card);
    if (!mine.length) return;
    if (this.sampled()) { this.dropSampled(card, unitId, rect); return; }  // too large to list: ask (choices.js)
    this.msg = "";
    const play = (mv) => {
      this.dropped = rect ? { card, rect } : null;  // the card flies on from where it was let go
      this.send(mv);
    };
    if (gameOf(st.game).pile) {
      if (mine.length === 1) play(mine[0]); else this.dropMiss(card, unitId);
      return;
    }
    const units = unitsOf(st);
    if (!unitId) {
      const lay = mine.find((m) => m.kind === "lay");
      if (lay) play(lay); else this.dropMiss(card, null);
      return;
    }
    if (!filterFor(st, legal, units, card, new Set()).open.has(unitId)) { this.dropMiss(card, unitId); return; }
    const chosen = new Set([unitId]);
    const f = filterFor(st, legal, units, card, chosen);
    if (f.exact.length === 1 && f.open.size === 0) { play(f.exact[0]); return; }
    // Several moves use that table card: asked in words (the action row's chooser), the card and it chosen.
    this.sel = { card, units: chosen };
    this.render();
  },

  /**
   * A drop that makes no move (onto a table unit the card cannot use, onto the felt when it cannot be laid, or
   * off the felt): the card is back in the hand, the table as it was, and the page says why.
   */
  dropMiss(card, unitId, onFelt = true) {
    const st = this.state;
    if (!st || !st.your_turn) return;
    const target = unitId ? unitsOf(st).find((u) => u.id === unitId) : null;
    const c = prettyCard(card);
    this.msg = target ? t("drop.back", { card: c, target: target.cards.map(prettyCard).join(" ") })
      : t(onFelt ? "drop.back_lay" : "drop.back_off", { card: c });
    this.render();
  },

  /** Show (or hide) the typed-move box; shown, it takes the focus. */
  showTyped(open = true) {
    this.typing = open;
    this.render();
    const inp = this.root.querySelector("#typed");
    if (open && inp) inp.focus();
    else if (!open) { const b = this.root.querySelector("#type-btn"); if (b) b.focus(); }
  },
};
