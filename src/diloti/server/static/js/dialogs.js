// One shared <dialog> for the round summary, the end of game, the score sheet, moves, rules.
import { $, fill, h } from "./dom.js";
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

/** The rules of `game` (Diloti's when not given) in the page's language. */
export function showRules(game) {
  const rules = (game && GAME_RULES[game]) || RULES;
  const secs = rules[getLang()] || rules.en;
  const body = h("div", { class: "rules" }, secs.map(([title, paras]) =>
    [h("h3", null, title), paras.map((p) => h("p", null, p))]));
  showDialog(game && GAME_RULES[game] ? t("game.rules") + " · " + t("game.name." + game) : t("game.rules"), [body], [h("button", { type: "button", class: "btn primary", onclick: closeDialog }, t("game.close"))], "rules");
}
