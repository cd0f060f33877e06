// Entry point: picks the screen from the address, switches the language.
import { $ } from "./dom.js";
import { getLang, initLang, setLang, t } from "./i18n.js";
import { JoinPage, Lobby } from "./lobby.js";
import { ReplayView } from "./replay.js";
import { TableView } from "./game.js";
import { tokenFor } from "./api.js";
import { LeaderboardView, ProfileView } from "./profile.js";
import { ArenaView, startPresence } from "./arena.js";
import { DailyView } from "./daily.js";

let screen = null;

function go(query) {
  // Keep extra test/display parameters (pace, lang) when moving between screens.
  const keep = new URLSearchParams(location.search);
  const next = new URLSearchParams(query.replace(/^\?/, ""));
  for (const k of ["pace"]) if (keep.has(k) && !next.has(k)) next.set(k, keep.get(k));
  history.pushState(null, "", "/?" + next.toString());
  route();
}

function route() {
  if (screen && screen.stop) screen.stop();
  // Each screen draws into an element of its own: a screen left behind may still draw once what it asked for
  // comes (the start page's lists, after a tap had already opened the table), and must not draw over the next.
  const root = document.createElement("div");
  root.className = "screen";
  $("#view").replaceChildren(root);
  const q = new URLSearchParams(location.search);
  const table = q.get("table");
  const join = q.get("join");
  const replay = q.get("replay");
  const watch = q.get("watch");
  if (watch) {
    screen = new TableView(root, watch, { watch: true });
    screen.start();
  } else if (table && tokenFor(table)) {
    screen = new TableView(root, table);
    screen.start();
  } else if (table || join) {
    const id = table || join;
    if (tokenFor(id)) { go("?table=" + encodeURIComponent(id)); return; }
    screen = new JoinPage(root, id, { go });
    screen.start();
  } else if (replay) {
    screen = new ReplayView(root, replay, q.get("review"));
    screen.start();
  } else if (q.get("player")) {
    screen = new ProfileView(root, q.get("player"));
    screen.start();
  } else if (q.get("arena")) {
    screen = new ArenaView(root, q.get("arena"), { go });
    screen.start();
  } else if (q.get("daily")) {
    screen = new DailyView(root, q.get("daily"));
    screen.start();
  } else if (q.get("leaders")) {
    screen = new LeaderboardView(root, q.get("leaders"), Number(q.get("page") || 1), q.get("bots") === "1");
    screen.start();
  } else {
    screen = new Lobby(root, { go });
    screen.start();
  }
}

function applyLang() {
  document.title = t("app.title") + " · " + (getLang() === "el" ? "Diloti" : "Δηλωτή");
  $("#home-link").textContent = t("app.title");
  $("#lang-btn").textContent = t("lang.switch");
  $("#lang-btn").setAttribute("aria-label", t("lang.label") + ": " + t("lang.switch"));
}

initLang();
applyLang();
$("#lang-btn").addEventListener("click", () => {
  setLang(getLang() === "el" ? "en" : "el");
  applyLang();
  if (screen && screen.render) screen.render();
  const dlg = $("#dlg");
  if (dlg.open) dlg.close();
});
window.addEventListener("popstate", route);
route();
startPresence(go);  // the arenas this player joined: present while any page of the site is open
// Installable, and the shell opens offline (sw.js); a browser without service workers just plays online.
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
