// An arena's page (`/?arena=ID`): its countdown, live standings (followed over the websocket), the games being
// played (watchable), joining and withdrawing; and, on every screen, the player's presence in the arenas they
// joined: the arena's page follows it with the player's secret (present while open, each new game pushed and
// opened at once), and every screen polls the arenas joined (the fallback), which keeps them paired too.
import { api, playerKey, saveToken } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";

const SECRETS = "diloti.arena.";  // + arena id: the player's arena secret (the seat token of their games)
const POLL = 3000;  // ms between two polls of the player's game (the server counts them present for 20 s)

export function arenaSecret(id) {
  try { return localStorage.getItem(SECRETS + id); } catch (e) { return null; }
}

export function saveArenaSecret(id, secret) {
  try { localStorage.setItem(SECRETS + id, secret); } catch (e) { /* private mode */ }
}

function forgetArena(id) {
  try { localStorage.removeItem(SECRETS + id); } catch (e) { /* private mode */ }
}

function joinedArenas() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith(SECRETS)) out.push(k.slice(SECRETS.length));
    }
  } catch (e) { /* private mode */ }
  return out;
}

function clock(s) {
  s = Math.max(0, Math.round(s));
  const mm = Math.floor(s / 60), ss = s % 60;
  return `${mm}:${String(ss).padStart(2, "0")}`;
}

/**
 * The player's presence in the arenas they joined, on every screen: polls each one's `/me`, and when a new
 * game of theirs is made opens it (unless a game of theirs is under way on this page).
 */
export function startPresence(go) {
  const seen = new Set();
  const tick = async () => {
    if (playerKey()) {
      for (const id of joinedArenas()) {
        try {
          const me = await api("GET", `/api/arenas/${encodeURIComponent(id)}/me`);
          if (me.status === "over" || !me.joined) { if (me.status === "over") forgetArena(id); continue; }
          if (me.table && !seen.has(me.table)) {
            saveToken(me.table, arenaSecret(id));
            const q = new URLSearchParams(location.search);
            const game = document.querySelector("#game");
            const busy = game && game.dataset.phase !== "over" && q.get("table") !== me.table;
            if (q.get("table") !== me.table && !busy) { seen.add(me.table); go("?table=" + encodeURIComponent(me.table)); }
            else if (q.get("table") === me.table) seen.add(me.table);
          }
          backLink(id, me.table);
        } catch (e) { /* the next poll tries again */ }
      }
    }
    setTimeout(tick, POLL);
  };
  setTimeout(tick, 500);
}

/** On an arena game's page, a way back to the arena's standings. */
function backLink(id, table) {
  let a = document.querySelector("#arena-back");
  const here = new URLSearchParams(location.search).get("table");
  if (here && here === table) {
    if (!a) {
      a = h("a", { id: "arena-back", class: "btn small", href: "/?arena=" + encodeURIComponent(id) });
      document.body.appendChild(a);
    }
    a.textContent = t("arena.back");
  } else if (a) a.remove();
}

export class ArenaView {
  constructor(root, id, { go }) {
    this.root = root;
    this.id = id;
    this.go = go;
    this.doc = null;
    this.me = null;
    this.error = "";
    this.ws = null;
    this.loaded = 0;
    this.timer = null;
    this.stopped = false;
  }

  async start() {
    this.render();
    await this.load();
    this.follow();
    this.timer = setInterval(() => this.render(), 1000);
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.ws) this.ws.close();
  }

  async load() {
    try {
      const doc = await api("GET", "/api/arenas/" + encodeURIComponent(this.id));
      this.me = doc.me || null;
      this.adopt(doc);
    } catch (e) { this.error = e.message; this.render(); }
  }

  adopt(doc) {
    this.doc = doc;
    this.loaded = performance.now();
    if (this.me) this.me = doc.standings.find((ln) => ln.player === this.me.player) || this.me;
    this.render();
  }

  /**
   * The standings, live: an `arena` message at once and at each change (reconnecting if the socket drops). A player
   * who joined follows with their secret: present while the page is open, and each new game of theirs pushed
   * (`arena_game`) and opened at once; the presence poll of `/me` is the fallback.
   */
  follow() {
    if (this.stopped) return;
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    this.ws = ws;
    ws.onopen = () => this.subscribe();
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      const secret = arenaSecret(this.id);
      if (msg.type === "arena") this.adopt(msg.arena);
      else if (msg.type === "arena_game" && msg.arena === this.id && secret && !this.stopped) {
        saveToken(msg.table, secret);
        this.go("?table=" + encodeURIComponent(msg.table));
      } else if (msg.type === "error" && msg.code === "bad_token" && this.ws === ws) {
        ws.onclose = null;  // withdrawn, or joined again elsewhere: followed without the secret from now
        ws.close();
        forgetArena(this.id);
        this.follow();
      }
    };
    ws.onclose = () => { if (!this.stopped) setTimeout(() => this.follow(), 2000); };
  }

  /** Follow the arena on the open socket: with the player's secret once they joined (again after joining). */
  subscribe() {
    const secret = arenaSecret(this.id);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(secret ? { type: "arena", arena: this.id, secret } : { type: "arena", arena: this.id }));
    }
  }

  async join() {
    try {
      const res = await api("POST", `/api/arenas/${encodeURIComponent(this.id)}/join`, {});
      saveArenaSecret(this.id, res.secret);
      this.subscribe();
      await this.load();
    } catch (e) { this.error = e.message; this.render(); }
  }

  async withdraw() {
    try {
      await api("POST", `/api/arenas/${encodeURIComponent(this.id)}/withdraw`, {});
      forgetArena(this.id);
      await this.load();
    } catch (e) { this.error = e.message; this.render(); }
  }

  left(s) { return s - (performance.now() - this.loaded) / 1000; }

  render() {
    const a = this.doc;
    if (!a) {
      fill(this.root, h("main", { class: "page" }, h("section", { class: "panel", id: "arena" },
        h("p", { class: this.error ? "error" : "" }, this.error || t("game.waiting")))));
      return;
    }
    const joined = !!arenaSecret(this.id) && this.me && !this.me.withdrawn;
    const open = a.status === "upcoming" || a.status === "running";
    const countdown = a.status === "upcoming" ? t("arena.starts", { time: clock(this.left(a.starts_in)) })
      : a.status === "running" ? t("arena.ends", { time: clock(this.left(a.ends_in)) }) : t("arena." + a.status);
    const mine = this.me && this.me.table;
    fill(this.root, h("main", { class: "page" }, h("section", { class: "panel", id: "arena", dataset: { status: a.status } },
      h("h2", null, a.name),
      h("p", null, h("b", { id: "arena-countdown" }, countdown), " · ",
        t("arena.minutes") + ": " + Math.round(a.seconds / 60), " · ", `${a.clock.move}+${a.clock.reserve}`),
      h("p", { class: "note" }, t("arena.scoring")),
      h("div", { class: "choices start" },
        playerKey() && open && !joined ? h("button", { type: "button", class: "btn primary", id: "arena-join", onclick: () => this.join() }, t("arena.join")) : null,
        joined && open ? h("button", { type: "button", class: "btn", id: "arena-withdraw", onclick: () => this.withdraw() }, t("arena.withdraw")) : null,
        joined && mine ? h("a", { class: "btn primary", id: "arena-mine", href: "/?table=" + encodeURIComponent(mine) }, t("arena.your_game")) : null),
      joined && !mine && a.status === "running" ? h("p", { id: "arena-waiting" }, t("arena.waiting")) : null,
      playerKey() ? null : h("p", { class: "note" }, t("arena.need_player")),
      h("h3", null, t("arena.standings")),
      h("table", { class: "standings", id: "arena-standings" },
        h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, t("arena.player")), h("th", null, t("arena.score")), h("th", null, t("arena.games")))),
        h("tbody", null, a.standings.map((ln) => h("tr", { dataset: { player: ln.player }, class: this.me && ln.player === this.me.player ? "me" : "" },
          h("td", null, String(ln.rank)),
          h("td", null, h("a", { href: "/?player=" + encodeURIComponent(ln.player) }, ln.name), ln.fire ? " 🔥" : "",
            ln.table ? h("a", { class: "tag", href: "/?watch=" + encodeURIComponent(ln.table) }, "▶") : null),
          h("td", { class: "score" }, String(ln.score), h("small", null, " " + ln.sheet.join(" "))),
          h("td", null, String(ln.games)))))),
      a.playing.length ? h("h3", null, t("arena.playing")) : null,
      a.playing.length ? h("ul", { class: "lobbylist", id: "arena-games" }, a.playing.map((g) => h("li", null,
        h("span", null, g.players.join(" – ")),
        h("a", { class: "btn small", href: "/?watch=" + encodeURIComponent(g.table) }, t("arena.watch"))))) : null,
      (a.played || []).length ? h("h3", null, t("arena.played")) : null,
      (a.played || []).length ? h("ul", { class: "lobbylist", id: "arena-played" }, a.played.map((g) => h("li", { dataset: { table: g.table } },
        h("span", null, g.players.map((n, i) => (g.winner === i ? "🏆 " : "") + (n || "")).join(" – ")),
        h("a", { class: "btn small", href: g.replay }, t("game.replay"))))) : null,
      h("p", { class: "error", role: "alert" }, this.error))));
  }
}
