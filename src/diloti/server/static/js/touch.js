// Touch first: a hand card can be dragged onto the felt (onto a table card or pile to take or build on it,
// or onto the felt itself to lay it), as well as tapped; and the typed-move box sits behind a
// "Type a move" control. The page still never decides legality: a drop only picks among the legal
// moves the server sent (the same filter as tapping). Mixed into TableView (game.js) as `tableTouch`.
import { filterFor, unitsOf } from "./moves.js";

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

/** Let the playable cards of `hand` be dragged; `onDrop(card, unitId or null, rect)` when one lands on the felt. */
export function dragCards(hand, onDrop) {
  for (const el of hand.querySelectorAll("button.card:not([disabled])")) {
    el.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || !e.isPrimary) return;
      startDrag(e, el, onDrop);
    });
  }
}

function startDrag(e, el, onDrop) {
  const card = el.dataset.card;
  const x0 = e.clientX;
  const y0 = e.clientY;
  const rect = el.getBoundingClientRect();
  let g = null;
  let over = null;
  const mark = (target) => {
    if (over && (!target || over !== target.el)) over.classList.remove("droptarget");
    over = target ? target.el : null;
    if (over) over.classList.add("droptarget");
  };
  const end = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    mark(null);
    if (g) { g.remove(); el.classList.remove("lifted"); }
  };
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
    if (target) onDrop(card, target.unit, at);
  };
  const cancel = (ev) => { if (ev.pointerId === e.pointerId) end(); };
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
}

export const tableTouch = {
  /**
   * A hand card dropped on the felt: onto a table card or pile it may use, that is the start of the
   * selection (played at once when it names exactly one move and nothing more can be added); onto the
   * felt itself (or a card it cannot use), it is laid if laying it is legal, otherwise chosen.
   */
  dropCard(card, unitId, rect) {
    const st = this.state;
    if (!st || !st.your_turn || this.waitingMove) return;
    const legal = this.legal();
    if (!legal.some((m) => m.card === card)) return;
    if (this.sampled()) { this.dropSampled(card, unitId, rect); return; }  // too large to list: ask (choices.js)
    const units = unitsOf(st);
    const chosen = new Set();
    if (unitId && filterFor(st, legal, units, card, chosen).open.has(unitId)) chosen.add(unitId);
    const f = filterFor(st, legal, units, card, chosen);
    this.sel = { card, units: chosen };
    this.msg = "";
    this.dropped = rect ? { card, rect } : null;  // the card flies on from where it was let go
    if (!chosen.size) {
      const lay = legal.find((m) => m.card === card && m.kind === "lay");
      const only = f.possible.length === 1 ? f.possible[0] : null;
      if (lay || only) { this.send(lay || only); return; }
    } else if (f.exact.length === 1 && f.open.size === 0) {
      this.send(f.exact[0]);
      return;
    }
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
