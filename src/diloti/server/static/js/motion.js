// Motion with meaning, with the Web Animations API: the table is re-rendered whole on every state, so
// motion is "first, last, invert, play": where each card was before the render (a snapshot) and where it
// is after. A laid card travels from the hand (or the player's seat) to the felt, a declaration's cards
// stack into their pile, a capture gathers and sweeps to the capturer's taken pile (a xeri marked), the
// deal flies from the stock, and the end-of-round sweep goes to the last capturer. Each animation is
// under 400 ms, none under prefers-reduced-motion or in a hidden tab, and none ever holds up input:
// the real cards are in place and clickable at once (only flying copies are drawn over the page).
import { cardEl } from "./cards.js";
import { t } from "./i18n.js";

export const DURATION = 340;
const EASE = "cubic-bezier(.2,.7,.3,1)";

/** Whether to animate now: not when the player asked for less motion, nor in a hidden tab. */
export function motionAllowed() {
  if (document.hidden) return false;
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return false;
  return typeof Element.prototype.animate === "function";
}

/** The layer the flying copies are drawn in (over the page, never catching a click). */
function layer() {
  let fx = document.getElementById("fx");
  if (!fx) {
    fx = document.createElement("div");
    fx.id = "fx";
    fx.setAttribute("aria-hidden", "true");
    fx.inert = true;  // the copies are pictures: never focused, never clicked
    document.body.appendChild(fx);
  }
  return fx;
}

/** Where every card on the felt and in the hand is before a render: card -> {rect, el}. */
export function snapshot(root) {
  if (!motionAllowed()) return null;
  const cards = new Map();
  for (const el of root.querySelectorAll("#felt .card[data-card], #hand .card[data-card]")) {
    const rect = el.getBoundingClientRect();
    if (rect.width) cards.set(el.dataset.card, { rect, el });
  }
  const stock = root.querySelector("#stock .stack");
  return { cards, stock: stock ? stock.getBoundingClientRect() : null };
}

const center = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

/** Play `el` from where `from` was to where it is now. */
function flip(el, from, { delay = 0, duration = DURATION, id } = {}) {
  const to = el.getBoundingClientRect();
  if (!to.width || !from || !from.width) return null;
  const a = center(from);
  const b = center(to);
  const s = from.width / to.width;
  return el.animate([
    { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${s})` },
    { transform: "none" },
  ], { duration, delay, easing: EASE, fill: "backwards", id });
}

/** A copy of a card drawn over the page at `rect` (from an element on the page, or drawn anew). */
function ghost(rect, card, src) {
  const g = src ? src.cloneNode(true) : cardEl(card, { t });
  g.removeAttribute("id");
  for (const c of ["selected", "dim", "new", "hinted", "open", "mini"]) g.classList.remove(c);
  g.classList.add("ghost");
  g.removeAttribute("tabindex");
  g.style.setProperty("--cw", rect.width + "px");
  Object.assign(g.style, { left: rect.left + "px", top: rect.top + "px", width: rect.width + "px", height: rect.height + "px" });
  layer().appendChild(g);
  return g;
}

/** The taken pile of a seat (or of the first seat of a side). */
export function pileOf(root, { seat, side }) {
  const sel = seat !== undefined && seat !== null ? `.seatbox[data-seat="${seat}"] .takenpile .stack`
    : `.seatbox[data-side="${side}"] .takenpile .stack`;
  return root.querySelector("#seats " + sel);
}

/** A card's size on this screen (for a card that comes from another player's seat). */
function cardSize(root) {
  const ref = root.querySelector("#felt .card:not(.mini), #hand .card");
  const r = ref ? ref.getBoundingClientRect() : null;
  return r && r.width ? { w: r.width, h: r.height } : { w: 56, h: 80 };
}

/** Where a card played by `seat` starts: its place in my hand before the render, or that seat's box. */
function sourceOf(snap, root, seat, card) {
  const known = snap.cards.get(card);
  if (known && known.el && known.el.closest("#hand")) return known;
  const box = root.querySelector(`#seats .seatbox[data-seat="${seat}"]`);
  if (!box) return null;
  const c = center(box.getBoundingClientRect());
  const { w, h } = cardSize(root);
  return { rect: new DOMRect(c.x - w / 2, c.y - h / 2, w, h), el: null };
}

/**
 * Keep flying cards aimed at their pile: the seat's box can be drawn again while they fly (on a phone the
 * layout settles after the move and the pile moves by some pixels), and the cards must land where it is then.
 */
function follow(flights, locate, aimed) {
  let at = aimed;
  const step = () => {
    if (flights.every((f) => f.a.playState === "finished" || f.a.playState === "idle")) return;
    const el = locate();
    if (el && el.isConnected) {
      const now = center(el.getBoundingClientRect());
      if (Math.abs(now.x - at.x) > 0.5 || Math.abs(now.y - at.y) > 0.5) {
        at = now;
        for (const f of flights) f.a.effect.setKeyframes(f.frames(at));
      }
    }
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

/** Fly copies of `items` ([{rect, el, card}]) together to the element `locate()` finds (gathered first, then swept). */
function sweepTo(items, locate, { id = "capture", xeri = false } = {}) {
  const target = locate();
  if (!target || !items.length) return [];
  const to = target.getBoundingClientRect();
  const end = center(to);
  const mid = items.reduce((m, it) => ({ x: m.x + center(it.rect).x / items.length, y: m.y + center(it.rect).y / items.length }), { x: 0, y: 0 });
  const flights = items.map((it, i) => {
    const g = ghost(it.rect, it.card, it.el);
    const c = center(it.rect);
    const s = Math.min(1, to.width / it.rect.width);
    const frames = (at) => [
      { transform: "none", opacity: 1 },
      { transform: `translate(${mid.x - c.x + i * 3}px, ${mid.y - c.y}px)`, opacity: 1, offset: 0.4 },
      { transform: `translate(${at.x - c.x}px, ${at.y - c.y}px) scale(${s})`, opacity: 0.85 },
    ];
    const a = g.animate(frames(end), { duration: 380, easing: "ease-in-out", fill: "forwards", id: id + ":" + it.card });
    a.finished.then(() => g.remove(), () => g.remove());
    return { a, frames };
  });
  follow(flights, locate, end);
  const anims = flights.map((f) => f.a);
  const pile = target.closest(".takenpile");
  if (pile) {
    pile.animate([{ transform: "scale(1)" }, { transform: "scale(1.18)", offset: 0.8 }, { transform: "scale(1)" }],
      { duration: 380, easing: "ease-out", id: id + ":pile" });
    if (xeri) {
      pile.classList.add("xeri-hit");
      // A xeri is marked as one: its name bursts over the pile the cards fly to.
      const label = document.createElement("span");
      label.className = "fxlabel";
      label.textContent = t("game.xeri");
      Object.assign(label.style, { left: end.x + "px", top: end.y + "px" });
      layer().appendChild(label);
      const a = label.animate([{ transform: "translate(-50%, -50%) scale(.5)", opacity: 0 },
        { transform: "translate(-50%, -90%) scale(1.25)", opacity: 1, offset: 0.5 },
        { transform: "translate(-50%, -130%) scale(1)", opacity: 0 }], { duration: 390, easing: "ease-out", id: "xeri:label" });
      a.finished.then(() => label.remove(), () => label.remove());
      anims.push(a);
    }
  }
  return anims;
}

/**
 * After a render: animate what changed since `snap`. `played` is the move just shown (or null);
 * `dealt` is true when cards were just dealt (a new deal or round).
 */
export function animateRender(snap, root, { played = null, dealt = false } = {}) {
  if (!snap || !motionAllowed()) return [];
  const out = [];
  if (played && played.card) {
    const src = sourceOf(snap, root, played.seat, played.card);
    if (played.kind === "capture") {
      const items = [];
      if (src) items.push({ ...src, card: played.card });
      for (const c of played.cards || []) {
        const was = snap.cards.get(c);
        if (was) items.push({ ...was, card: c });
      }
      out.push(...sweepTo(items, () => pileOf(root, { seat: played.seat }), { xeri: !!played.xeri }));
    } else {
      const el = root.querySelector(`#felt .card[data-card="${played.card}"]`);
      if (el && src) out.push(flip(el, src.rect, { id: "play:" + played.card }));
      // A declaration: the table cards it takes in move into its pile.
      for (const c of played.cards || []) {
        const was = snap.cards.get(c);
        const now = root.querySelector(`#felt .card[data-card="${c}"]`);
        if (was && now) out.push(flip(now, was.rect, { id: "stack:" + c }));
      }
      const pile = el && el.closest(".pile");
      if (pile && played.kind !== "lay") {
        const badge = pile.querySelector(".badge");
        if (badge) out.push(badge.animate([{ transform: "scale(.4)", opacity: 0 }, { transform: "scale(1.15)", opacity: 1, offset: 0.7 }, { transform: "none" }],
          { duration: 280, delay: 100, easing: "ease-out", fill: "backwards", id: "stack:badge" }));
      }
    }
  }
  // Everything else that only changed place (the hand closing up, the felt reflowing) glides there.
  const moved = new Set(played ? [played.card, ...(played.cards || [])] : []);
  for (const el of root.querySelectorAll("#felt .card[data-card], #hand .card[data-card]")) {
    const was = snap.cards.get(el.dataset.card);
    if (!was || moved.has(el.dataset.card)) continue;
    const now = el.getBoundingClientRect();
    if (Math.abs(now.left - was.rect.left) > 2 || Math.abs(now.top - was.rect.top) > 2) out.push(flip(el, was.rect, { duration: 220, id: "glide" }));
  }
  if (dealt) {
    const stock = root.querySelector("#stock .stack");
    const from = (stock && stock.getBoundingClientRect()) || snap.stock;
    if (from) {
      const fresh = [...root.querySelectorAll("#hand .card[data-card], #felt .card[data-card], #seats .backs .card")]
        .filter((el) => !el.dataset.card || !snap.cards.has(el.dataset.card));
      const step = fresh.length > 1 ? Math.min(30, 150 / fresh.length) : 0;
      fresh.forEach((el, i) => out.push(flip(el, from, { delay: i * step, duration: 240, id: "deal" })));
    }
  }
  return out.filter(Boolean);
}

/**
 * The end-of-round sweep: the cards still on the felt fly to `toSide`'s pile; the last move's own cards
 * (a capture's) to the seat that made it. Returns how long it lasts (0 when there is no motion).
 */
export function sweepRound(root, { last = null, toSide = null } = {}) {
  if (!motionAllowed()) return 0;
  const felt = [...root.querySelectorAll("#felt .card[data-card]")].map((el) => ({ rect: el.getBoundingClientRect(), el, card: el.dataset.card }));
  const taken = new Set(last && last.kind === "capture" ? last.cards : []);
  const snap = { cards: new Map([...root.querySelectorAll("#hand .card[data-card]")].map((el) => [el.dataset.card, { rect: el.getBoundingClientRect(), el }])) };
  let n = 0;
  if (last && last.card) {
    const src = sourceOf(snap, root, last.seat, last.card);
    const mine = felt.filter((it) => taken.has(it.card));
    if (src) mine.push({ ...src, card: last.card });
    const locate = () => (last.kind === "capture" ? pileOf(root, { seat: last.seat })
      : toSide !== null && toSide !== undefined ? pileOf(root, { side: toSide }) : null);
    n += sweepTo(mine, locate, { id: "capture", xeri: !!last.xeri }).length;
  }
  if (toSide !== null && toSide !== undefined) {
    n += sweepTo(felt.filter((it) => !taken.has(it.card)), () => pileOf(root, { side: toSide }), { id: "sweep" }).length;
  }
  return n ? 400 : 0;
}
