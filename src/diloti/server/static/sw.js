// The service worker: keeps the page's shell (HTML, CSS, scripts, icons) so the app opens offline
// and installs. Network first, so a new version is used as soon as the server has it; the cache is
// only the fallback. The API, the websocket and records are never cached (they are live data).
const CACHE = "diloti-shell-v16";
const SHELL = [
  "/", "/static/app.css", "/static/table.css", "/static/manifest.webmanifest",
  "/static/icons/icon-192.png", "/static/icons/icon-512.png", "/static/icons/maskable-512.png",
  "/static/js/app.js", "/static/js/api.js", "/static/js/cards.js", "/static/js/chat.js", "/static/js/clock.js",
  "/static/js/dialogs.js", "/static/js/dom.js", "/static/js/game.js", "/static/js/i18n.js", "/static/js/lobby.js",
  "/static/js/moves.js", "/static/js/present.js", "/static/js/replay.js", "/static/js/rules.js",
  "/static/js/seats.js", "/static/js/tabledialogs.js", "/static/js/alerts.js", "/static/js/player.js",
  "/static/js/profile.js", "/static/js/quickplay.js", "/static/js/keys.js", "/static/js/rules_games.js",
  "/static/js/motion.js", "/static/js/touch.js", "/static/js/sound.js", "/static/js/announce.js", "/static/js/felt.js",
  "/static/js/i18n_table.js", "/static/js/i18n_errors.js", "/static/js/i18n_player.js", "/static/js/i18n_seats.js",
  "/static/js/i18n_start.js",
  "/static/js/review.js", "/static/js/board.js", "/static/js/choices.js", "/static/js/games.js",
  "/static/js/events.js", "/static/js/arena.js", "/static/js/daily.js", "/static/js/i18n_events.js",
  "/static/js/profile_events.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  const shell = url.pathname === "/" || url.pathname.startsWith("/static/");
  if (!shell) return;  // /api, /ws, records: always the network
  // Every page address (/?table=..., /?join=...) is the same shell.
  const key = url.pathname === "/" ? "/" : url.pathname;
  event.respondWith(fetch(event.request).then((res) => {
    if (res.ok) {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(key, copy));
    }
    return res;
  }).catch(() => caches.match(key).then((hit) => hit || Response.error())));
});
