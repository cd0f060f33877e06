// The table's chat: the log, quick phrases, a text box and a per-browser mute.
// Every line is user text: it only ever becomes text nodes (h() and textContent), never markup.
import { h } from "./dom.js";
import { getLang, serverText, t } from "./i18n.js";

export const CHAT_MAX = 200;
const MUTE_KEY = "diloti.chat.muted";
export const QUICK = ["chat.q.luck", "chat.q.wp", "chat.q.thanks", "chat.q.oops"];

export function isMuted() {
  try { return localStorage.getItem(MUTE_KEY) === "1"; } catch (e) { return false; }
}

function saveMuted(on) {
  try {
    if (on) localStorage.setItem(MUTE_KEY, "1");
    else localStorage.removeItem(MUTE_KEY);
  } catch (e) { /* private mode */ }
}

export class ChatPanel {
  /**
   * onSend(text) sends a line and returns whether it went out; readOnly: a spectator's panel.
   */
  constructor({ onSend, readOnly = false }) {
    this.onSend = onSend;
    this.readOnly = readOnly;
    this.seat = null;
    this.lines = [];
    this.ids = new Set();
    this.muted = isMuted();
    this.pending = 0;       // when the last line was sent (errors soon after are about it)
    this.status = "";
    this.el = h("section", { class: "chat", id: "chat" });
    this.build();
  }

  build() {
    const value = this.input ? this.input.value : "";
    this.lang = getLang();
    this.log = h("ol", { class: "chatlog", id: "chat-log", "aria-live": "polite", "aria-label": t("chat.title") });
    this.muteBtn = h("button", { type: "button", class: "btn small ghost", id: "chat-mute", "aria-pressed": this.muted ? "true" : "false",
      onclick: () => this.setMuted(!this.muted) }, this.muted ? t("chat.unmute") : t("chat.mute"));
    this.statusEl = h("div", { class: "chatstatus", id: "chat-status", role: "status" }, this.status);
    const head = h("div", { class: "chathead" }, h("h2", null, t("chat.title")), this.muteBtn);
    let foot;
    if (this.readOnly) {
      this.input = null;
      foot = h("p", { class: "chatnote", id: "chat-readonly" }, t("chat.readonly"));
    } else {
      this.input = h("input", { type: "text", id: "chat-input", maxlength: String(CHAT_MAX), autocomplete: "off",
        placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder") });
      this.input.value = value;
      const form = h("form", { class: "chatform", id: "chat-form", onsubmit: (e) => { e.preventDefault(); this.sendTyped(); } },
        this.input, h("button", { type: "submit", class: "btn small", id: "chat-send" }, t("chat.send")));
      const quick = h("div", { class: "chatquick", id: "chat-quick", role: "group", "aria-label": t("chat.quick") },
        QUICK.map((k) => h("button", { type: "button", class: "btn small ghost", dataset: { phrase: k }, onclick: () => this.send(t(k)) }, t(k))));
      foot = [quick, form];
    }
    this.el.replaceChildren(head, this.log, this.statusEl, ...[foot].flat());
    this.renderLog();
  }

  /** Rebuild the labels if the language changed since (keeps the typed text). */
  relabel() {
    if (this.lang !== getLang()) this.build();
  }

  setSeat(seat) {
    if (this.seat !== seat) {
      this.seat = seat;
      this.renderLog();
    }
  }

  setMuted(on) {
    this.muted = on;
    saveMuted(on);
    this.muteBtn.setAttribute("aria-pressed", on ? "true" : "false");
    this.muteBtn.textContent = on ? t("chat.unmute") : t("chat.mute");
    this.renderLog();
  }

  /** Forget the lines (a new connection: the server sends the last ones again). */
  reset() {
    this.lines = [];
    this.ids = new Set();
    this.renderLog();
  }

  add(line) {
    if (typeof line.id === "number") {
      if (this.ids.has(line.id)) return;
      this.ids.add(line.id);
    }
    this.lines.push(line);
    if (this.lines.length > 200) this.lines.shift();
    if (line.seat === this.seat) this.say("");
    if (!this.hidden(line)) {
      if (!this.log.querySelector("li[data-id]")) this.renderLog();
      else this.log.appendChild(this.lineEl(line));
      this.scroll();
    }
  }

  hidden(line) { return this.muted && line.seat !== this.seat; }

  lineEl(line) {
    const at = line.at ? new Date(line.at) : null;
    return h("li", { class: line.seat === this.seat ? "mine" : "", dataset: { id: String(line.id), seat: String(line.seat) },
      title: at && !Number.isNaN(at.getTime()) ? at.toLocaleTimeString() : undefined },
      h("b", { class: "who" }, String(line.name) + ":"), " ", h("span", { class: "text" }, String(line.text)));
  }

  renderLog() {
    const shown = this.lines.filter((l) => !this.hidden(l));
    const items = shown.map((l) => this.lineEl(l));
    if (this.muted) items.unshift(h("li", { class: "chatnote", id: "chat-muted" }, t("chat.muted")));
    else if (!shown.length) items.push(h("li", { class: "chatnote" }, t("chat.empty")));
    this.log.replaceChildren(...items);
    this.scroll();
  }

  scroll() { this.log.scrollTop = this.log.scrollHeight; }

  say(text) {
    this.status = text;
    this.statusEl.textContent = text;
  }

  send(text) {
    const line = String(text).trim();
    if (!line) return false;
    if (line.length > CHAT_MAX) { this.say(t("chat.too_long", { n: CHAT_MAX })); return false; }
    if (!this.onSend(line)) return false;
    this.pending = performance.now();
    this.say("");
    return true;
  }

  sendTyped() {
    if (this.send(this.input.value)) this.input.value = "";
  }

  /** A server error about chat (bad_chat, a flood, spectator): shown here, not over the game. */
  error(msg) {
    this.say(msg.code === "rate_limited" ? t("chat.slow") : t("game.error", { text: serverText(msg.code, msg.message) }));
  }

  /** Whether an error just received is about the line just sent. */
  expects(msg) {
    if (msg.code === "bad_chat") return true;
    return msg.code === "rate_limited" && /chat/.test(msg.message || "") && performance.now() - this.pending < 5000;
  }
}
