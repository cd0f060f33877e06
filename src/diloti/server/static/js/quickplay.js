// "Play now": wait in the quick-play queue with the chosen settings until other players of a similar
// rating are found (the server pairs), or, after a short wait, play the computer instead.
import { api, saveToken } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";

export class QuickPlayView {
  constructor(root, body, { go, back }) {
    this.root = root;
    this.body = body;   // the QuickPlay request
    this.go = go;
    this.back = back;
    this.ticket = null;
    this.secret = null;
    this.error = "";
    this.timer = null;
  }

  async start() {
    this.render();
    try {
      const res = await api("POST", "/api/quickplay", this.body);
      this.secret = res.secret;
      this.update(res);
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  update(res) {
    this.ticket = res;
    if (res.status === "seated") {
      // The ticket's secret is the seat's token.
      saveToken(res.table, this.secret);
      this.stop();
      this.go("?table=" + encodeURIComponent(res.table));
      return;
    }
    this.render();
    this.stop();
    this.timer = setTimeout(() => this.poll(), 1500);
  }

  async call(path, extra = {}) {
    try {
      this.update(await api("POST", `/api/quickplay/${encodeURIComponent(this.ticket.ticket)}/${path}`, { secret: this.secret, ...extra }));
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  poll() { return this.call("poll"); }

  async cancel() {
    this.stop();
    if (this.ticket) {
      try { await api("POST", `/api/quickplay/${encodeURIComponent(this.ticket.ticket)}/cancel`, { secret: this.secret }); } catch (e) { /* seated or gone */ }
    }
    this.back();
  }

  render() {
    const tk = this.ticket;
    fill(this.root, h("main", { class: "page" }, h("section", { class: "panel", id: "quickplay" },
      h("h2", null, t("quick.title")),
      h("p", { id: "quick-status" }, tk ? t("quick.waiting", { s: Math.round(tk.waited) }) : t("game.waiting")),
      tk && tk.computer ? h("p", null, t("quick.nobody")) : null,
      h("div", { class: "choices start" },
        tk && tk.computer ? h("button", { type: "button", class: "btn primary", id: "quick-computer", onclick: () => this.call("computer") }, t("quick.computer")) : null,
        h("button", { type: "button", class: "btn", id: "quick-cancel", onclick: () => this.cancel() }, t("confirm.cancel"))),
      h("p", { class: "error", id: "quick-error", role: "alert" }, this.error))));
  }
}
