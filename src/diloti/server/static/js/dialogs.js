// One shared <dialog> for the round summary, the end of game, the score sheet, moves, rules.
import { $, fill, h } from "./dom.js";
import { gameOf, gameTitle } from "./games.js";
import { getLang, t } from "./i18n.js";
import { RULES } from "./rules.js";
import { GAME_RULES } from "./rules_games.js";

export function showDialog(title, body, foot, name) {
  const dlg = $("#dlg");
  dlg.dataset.name = name || "";
  $("#dlg-title").textContent = title;
  fill($("#dlg-body"), body);
  fill($("#dlg-foot"), foot);
  if (dlg.open) dlg.close();
  dlg.showModal();
  const first = $("#dlg-foot .primary") || $("#dlg-foot button");
  if (first) first.focus();
}

export function closeDialog() {
  const dlg = $("#dlg");
  if (dlg.open) dlg.close();
}

// The rules in short, by game: Diloti's (rules.js) and its parent games' (rules_games.js). A game the page has no
// summary of says so, under its name.
const SUMMARIES = { ...GAME_RULES, diloti: RULES };

/** The rules of `game` in the page's language (the default game's title is "Rules" alone). */
export function showRules(game) {
  const rules = SUMMARIES[game];
  const secs = rules ? rules[getLang()] || rules.en : [];
  const body = rules ? h("div", { class: "rules" }, secs.map(([title, paras]) =>
    [h("h3", null, title), paras.map((p) => h("p", null, p))]))
    : h("div", { class: "rules" }, h("p", { id: "rules-none" }, t("rules.none", { game: gameTitle(game) })));
  showDialog(gameOf(game).named ? t("game.rules") + " · " + gameTitle(game) : t("game.rules"), [body], [h("button", { type: "button", class: "btn primary", onclick: closeDialog }, t("game.close"))], "rules");
}
