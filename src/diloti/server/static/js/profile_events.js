// A player's daily-deal streak and history and their arenas' final standings, on their profile.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { signed } from "./events.js";

export async function loadPlayerEvents(id) {
  try {
    const [daily, arenas] = await Promise.all([api("GET", `/api/players/${encodeURIComponent(id)}/daily`),
      api("GET", `/api/players/${encodeURIComponent(id)}/arenas`)]);
    return { daily, arenas: arenas.arenas };
  } catch (e) { return null; }
}

export function renderPlayerEvents(ev) {
  if (!ev || (!ev.daily.days.length && !ev.arenas.length)) return null;
  return h("div", { id: "profile-events" },
    ev.daily.days.length ? h("h3", null, t("daily.title")) : null,
    ev.daily.days.length ? h("p", { id: "profile-streak" }, t("daily.streak", { n: ev.daily.streak }) + " · " + t("profile.best_streak", { n: ev.daily.best_streak })) : null,
    ev.daily.days.length ? h("ul", { class: "lobbylist", id: "profile-daily" }, ev.daily.days.slice(0, 14).map((d) => h("li", null,
      h("span", null, d.day), h("span", null, d.diff === null ? "…" : signed(d.diff) + (d.rank ? ` (#${d.rank})` : ""))))) : null,
    ev.arenas.length ? h("h3", null, t("arena.title")) : null,
    ev.arenas.length ? h("ul", { class: "lobbylist", id: "profile-arenas" }, ev.arenas.slice(0, 14).map((a) => h("li", null,
      h("a", { href: "/?arena=" + encodeURIComponent(a.arena) }, a.name), h("span", null, `#${a.rank} · ${a.score}`)))) : null);
}
