// The start page's first screen for the daily deal and the arenas: today's deal with its countdown and the
// player's result, the arenas running, coming and joined (docs/PROTOCOL.md, "The daily deal", "Arena tournaments").
import { api, playerKey, saveToken, tokenFor } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { arenaSecret, saveArenaSecret } from "./arena.js";

/** "2:05:09" or "4:09" from seconds. */
export function clockText(s) {
  s = Math.max(0, Math.round(s));
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

/** A device id of this browser (one ranked daily attempt a day per device: docs/PROTOCOL.md). */
export function deviceId() {
  try {
    let id = localStorage.getItem("diloti.device");
    if (!id) {
      id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem("diloti.device", id);
    }
    return id;
  } catch (e) { return undefined; }
}

export class EventsPanel {
  constructor({ go, changed }) {
    this.go = go;
    this.changed = changed;
    this.daily = null;
    this.arenas = [];
    this.error = "";
    this.loaded = 0;
    this.timer = null;
    this.reloading = false;
  }

  async start() {
    await this.load();
    // The countdowns tick in place: re-drawing the start page every second would close its open parts and replace
    // the field being typed in.
    this.timer = setInterval(() => this.tick(), 1000);
  }

  /** Each countdown's text, in place; the lists again once one has run out (at most every 15 s). */
  tick() {
    const d = this.daily;
    const el = document.getElementById("daily-countdown");
    if (d && el) el.textContent = t("daily.next", { time: clockText(this.left(d.ends_in)) });
    for (const li of document.querySelectorAll("#arenas li[data-arena]")) {
      const a = this.arenas.find((x) => x.id === li.dataset.arena);
      const span = li.querySelector(".arena-countdown");
      if (a && span) span.textContent = this.arenaClock(a);
    }
    const out = (d && this.left(d.ends_in) <= 0)
      || this.arenas.some((a) => (a.status === "upcoming" && this.left(a.starts_in) <= 0)
        || (a.status === "running" && this.left(a.ends_in) <= 0));
    if (out && !this.reloading && performance.now() - this.loaded > 15000) {
      this.reloading = true;
      this.load().finally(() => { this.reloading = false; });
    }
  }

  arenaClock(a) {
    return a.status === "upcoming" ? t("arena.starts", { time: clockText(this.left(a.starts_in)) })
      : a.status === "running" ? t("arena.ends", { time: clockText(this.left(a.ends_in)) }) : "";
  }

  stop() { if (this.timer) clearInterval(this.timer); this.timer = null; }

  async load() {
    try {
      this.daily = await api("GET", "/api/daily");
      this.arenas = (await api("GET", "/api/arenas")).arenas || [];
      this.loaded = performance.now();
    } catch (e) { this.error = e.message; }
    this.changed();
  }

  left(seconds) { return seconds - (performance.now() - this.loaded) / 1000; }

  async playDaily(ranked = true) {
    try {
      const body = { device: deviceId() };
      if (!playerKey()) body.name = (document.querySelector("#name") || {}).value || "Guest";
      if (!ranked) body.ranked = false;
      const res = await api("POST", "/api/daily", body);
      saveToken(res.table, res.token);
      try { localStorage.setItem("diloti.daily." + res.day, res.table); } catch (e) { /* private mode */ }
      this.go("?table=" + encodeURIComponent(res.table));
    } catch (e) { this.error = e.message; this.changed(); }
  }

  async join(id) {
    try {
      const res = await api("POST", `/api/arenas/${encodeURIComponent(id)}/join`, {});
      saveArenaSecret(id, res.secret);
      this.go("?arena=" + encodeURIComponent(id));
    } catch (e) { this.error = e.message; this.changed(); }
  }

  renderDaily() {
    const d = this.daily;
    if (!d) return null;
    const mine = d.mine;
    const local = (() => { try { return localStorage.getItem("diloti.daily." + d.day); } catch (e) { return null; } })();
    const resume = mine && mine.status === "playing" ? mine.table : (!mine && local && tokenFor(local) ? local : null);
    const actions = [];
    if (resume) {
      actions.push(h("button", { type: "button", class: "btn primary", id: "daily-resume", onclick: () => this.go("?table=" + encodeURIComponent(resume)) }, t("daily.resume")));
    } else if (!mine || mine.status !== "over") {
      actions.push(h("button", { type: "button", class: "btn primary", id: "daily-play", onclick: () => this.playDaily(true) }, t("daily.play")));
    }
    if (mine && mine.status === "over") {
      actions.push(h("a", { class: "btn primary", id: "daily-field", href: "/?daily=" + encodeURIComponent(mine.table) }, t("daily.field")));
    } else if (!mine && local && !resume) {
      actions.push(h("a", { class: "btn", id: "daily-field", href: "/?daily=" + encodeURIComponent(local) }, t("daily.field")));
    }
    actions.push(h("a", { class: "btn small", id: "daily-board", href: "/?daily=board" }, t("daily.board")));
    return h("section", { class: "panel", id: "daily" },
      h("h2", null, t("daily.title")),
      h("p", null, t("daily.pitch")),
      mine && mine.status === "over" ? h("p", { id: "daily-result" }, t("daily.result", { diff: signed(mine.diff), rank: mine.rank })) : null,
      d.streak ? h("p", { id: "daily-streak" }, t("daily.streak", { n: d.streak })) : null,
      playerKey() ? null : h("p", { class: "note" }, t("daily.guest")),
      h("p", { class: "note" }, h("span", { id: "daily-countdown" }, t("daily.next", { time: clockText(this.left(d.ends_in)) })),
        " · ", t("daily.finished", { n: d.finished })),
      h("div", { class: "choices start" }, actions));
  }

  renderArenas() {
    const rows = this.arenas.filter((a) => a.status !== "over" || arenaSecret(a.id)).slice(0, 6);
    return h("section", { class: "panel", id: "arenas" },
      h("h2", null, t("arena.title")),
      rows.length ? h("ul", { class: "lobbylist" }, rows.map((a) => h("li", { dataset: { arena: a.id } },
        h("span", null, h("b", null, a.name), " · ", t("arena." + a.status),
          arenaSecret(a.id) ? h("span", { class: "tag" }, t("arena.joined")) : null),
        h("span", { class: "arena-countdown" }, this.arenaClock(a)),
        playerKey() && !arenaSecret(a.id) && (a.status === "upcoming" || a.status === "running")
          ? h("button", { type: "button", class: "btn small primary", onclick: () => this.join(a.id) }, t("arena.join")) : null,
        h("a", { class: "btn small", href: "/?arena=" + encodeURIComponent(a.id) }, t("arena.open")))))
        : h("p", null, t("arena.none")),
      playerKey() ? null : h("p", { class: "note" }, t("arena.need_player")));
  }

  render() {
    return h("div", { id: "events" }, this.renderDaily(), this.renderArenas(),
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null);
  }
}

export function signed(n) { return n > 0 ? "+" + n : String(n); }
