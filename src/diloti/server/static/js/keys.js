// The live table's keyboard: 1-9 pick a hand card, letters pick table items, Enter plays, Esc clears, arrows
// move along a row, ? or / go to the typed move. Mixed into TableView (game.js): `this` is the table view.
import { $ } from "./dom.js";
import { unitsOf } from "./moves.js";

export const KEYS = "abcdefghijklmnopqrstuvwxyz";

export const tableKeys = {
  onKey(e) {
    if (!this.state || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
    if ($("#dlg") && $("#dlg").open) return;
    const st = this.state;
    if (e.key === "Escape") { this.clearSel(); return; }
    if (e.key === "?" || e.key === "/") {
      // The typed-move box sits behind its control: the key opens it.
      if (!$("#typed") || this.watching) return;
      e.preventDefault();
      this.showTyped(true);
      return;
    }
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      const row = e.target.closest && e.target.closest(".hand, .felt, .choices");
      if (!row) return;
      const items = [...row.querySelectorAll("button:not([disabled])")];
      const i = items.indexOf(e.target);
      if (i < 0) return;
      const j = (i + (e.key === "ArrowLeft" ? -1 : 1) + items.length) % items.length;
      items[j].focus();
      e.preventDefault();
      return;
    }
    if (!st.your_turn) return;
    if (/^[1-9]$/.test(e.key)) {
      const card = st.hand[Number(e.key) - 1];
      if (card) { this.pickCard(card); this.focusSel(); }
      return;
    }
    const k = KEYS.indexOf(e.key);
    if (k >= 0 && this.sel.card) {
      const units = unitsOf(st);
      if (units[k]) this.pickUnit(units[k].id);
      return;
    }
    // Enter plays what fits the selection (Space still toggles a focused card); on a
    // move or tool button it keeps its usual meaning.
    if (e.key === "Enter" && !(e.target.closest && e.target.closest(".choices, .toolbar, .chat, form, a"))) {
      const f = this.current();
      if (!f.exact.length) return;
      e.preventDefault();
      if (f.exact.length === 1) this.send(f.exact[0]);
      else { const b = $("#choices button[data-move]"); if (b) b.focus(); }
    }
  },

  focusSel() {
    const b = this.sel.card && this.root.querySelector(`.hand button[data-card="${this.sel.card}"]`);
    if (b) b.focus();
  },
};
