// The turn clock as the page shows it: counted down locally from the last `clock` the server sent
// (in `state` or a `clock` message), so it ticks without messages; the server alone decides a timeout.

/** "1:05" from milliseconds (rounded up: a clock shows 0:00 only when it has run out). */
export function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

/**
 * What one seat's clock shows `elapsed` ms after `clock` arrived:
 * {running, move (ms left of the move time, running seat only), reserve (ms), low (under 10 s in all)}.
 */
export function seatClock(clock, seat, elapsed) {
  if (!clock) return null;
  const reserve = clock.reserves[seat];
  if (clock.running !== seat || clock.left === null) return { running: false, move: null, reserve, low: false };
  const moveLeft = clock.left - elapsed;
  const over = Math.max(0, -moveLeft);
  const res = Math.max(0, reserve - over);
  return { running: true, move: Math.max(0, moveLeft), reserve: res, low: Math.max(0, moveLeft) + res < 10000 };
}

/** Keeps every `[data-clock-seat]` element's text current, four times a second. */
export class ClockTicker {
  /** `onDue`: called when a hand-over's countdown (`[data-handover-due]`, seats.js) reaches its end. */
  constructor(root, t, onDue = null) {
    this.root = root;
    this.t = t;
    this.onDue = onDue;
    this.clock = null;
    this.at = 0;
    this.timer = null;
  }

  set(clock) {
    this.clock = clock || null;
    this.at = performance.now();
    this.paint();
  }

  start() {
    if (!this.timer) this.timer = setInterval(() => this.paint(), 250);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  paint() {
    let due = false;
    for (const el of this.root.querySelectorAll("[data-handover-due]")) {
      const left = Math.ceil((Number(el.dataset.handoverDue) - performance.now()) / 1000);
      if (left <= 0) due = true;
      else el.textContent = this.t("away.hand_over_in", { s: left });
    }
    if (due && this.onDue) this.onDue();
    const elapsed = performance.now() - this.at;
    for (const el of this.root.querySelectorAll("[data-clock-seat]")) {
      const c = seatClock(this.clock, Number(el.dataset.clockSeat), elapsed);
      if (!c) { el.hidden = true; continue; }
      el.hidden = false;
      el.classList.toggle("running", c.running);
      el.classList.toggle("low", c.low);
      // Digits only (no clock symbol: not every phone font has one); the running clock is highlighted.
      el.textContent = c.running
        ? (c.move > 0 ? mmss(c.move) + (c.reserve > 0 ? " +" + mmss(c.reserve) : "") : this.t("clock.reserve") + " " + mmss(c.reserve))
        : "+" + mmss(c.reserve);
      el.title = this.t("clock.title");
    }
  }
}
