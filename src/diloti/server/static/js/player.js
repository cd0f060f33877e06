// The player on this device: become one (a name is enough), sign in on another device (recovery code
// or password), and the settings (rename, password, new recovery code, sign out, delete).
import { api, clearPlayerLost, forgetPlayerKey, playerKey, playerLost, savePlayerKey } from "./api.js";
import { closeDialog, showDialog } from "./dialogs.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The player of this device ({player, name, password, created}), or null (a guest). */
export async function whoAmI() {
  if (!playerKey()) return null;
  try { return await api("GET", "/api/me"); } catch (e) { return null; }
}

function showRecovery(code, after) {
  showDialog(t("player.recovery_title"), [
    h("p", null, t("player.recovery_text")),
    h("p", { class: "recovery", id: "recovery-code" }, code),
  ], [h("button", { type: "button", class: "btn primary", id: "recovery-done", onclick: () => { closeDialog(); after(); } }, t("player.written"))],
  "recovery");
}


/** The bot account of this player (docs/BOTS.md): make a new account a bot, for good; its tokens, each shown once,
 *  and revoked here. */
async function botDialog() {
  const err = h("p", { class: "error", id: "bot-error", role: "alert" });
  const close = h("button", { type: "button", class: "btn", onclick: closeDialog }, t("game.close"));
  let list;
  try { list = await api("GET", "/api/me/bot/tokens"); } catch (e) { err.textContent = e.message; showDialog(t("bot.title"), [err], [close], "bot"); return; }
  const act = (fn) => async () => { err.textContent = ""; try { await fn(); } catch (e) { err.textContent = e.message; } };
  if (!list.bot) {
    showDialog(t("bot.title"), [h("p", null, t("bot.make_text")), err], [close,
      h("button", { type: "button", class: "btn primary danger", id: "make-bot", onclick: act(async () => {
        await api("POST", "/api/me/bot"); await botDialog(); }) }, t("bot.make"))], "bot");
    return;
  }
  const rows = list.tokens.map((tk) => h("li", { dataset: { token: tk.id } }, (tk.label || tk.id) + " · " + tk.scopes.join(", ") + " · " + tk.created.slice(0, 10),
    tk.revoked ? h("span", { class: "note" }, " " + t("bot.revoked")) : h("button", { type: "button", class: "btn small", onclick: act(async () => {
      await api("DELETE", "/api/me/bot/tokens/" + encodeURIComponent(tk.id)); await botDialog(); }) }, t("bot.revoke"))));
  const label = h("input", { type: "text", id: "bot-token-label", maxlength: 64, placeholder: t("bot.label") });
  showDialog(t("bot.title"), [h("p", null, t("bot.is_bot")), h("ul", { id: "bot-tokens" }, rows), label, err], [close,
    h("button", { type: "button", class: "btn primary", id: "new-bot-token", onclick: act(async () => {
      const made = await api("POST", "/api/me/bot/tokens", { label: label.value.trim() });
      showDialog(t("bot.token_title"), [h("p", null, t("bot.token_text")), h("p", { class: "recovery", id: "bot-token" }, made.token)],
        [h("button", { type: "button", class: "btn primary", onclick: () => botDialog() }, t("player.written"))], "bot-token");
    }) }, t("bot.new_token"))], "bot");
}

/** A small form in a dialog: fields [{id, label, type}], then `submit(values)` (throws ApiError to show it). */
function formDialog(name, title, fields, submitLabel, submit) {
  const err = h("p", { class: "error", id: name + "-error", role: "alert" });
  const inputs = fields.map((f) => h("input", { type: f.type || "text", id: f.id, autocomplete: f.autocomplete || "off",
    maxlength: f.max || 128, value: f.value || "" }));
  const form = h("form", { id: name + "-form", onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = "";
    try { await submit(Object.fromEntries(fields.map((f, i) => [f.id, inputs[i].value]))); } catch (ex) { err.textContent = ex.message; }
  } }, fields.map((f, i) => h("label", { class: "field" }, h("span", null, f.label), inputs[i])), err,
  h("button", { type: "submit", class: "btn primary", id: name + "-submit" }, submitLabel));
  showDialog(title, [form], [h("button", { type: "button", class: "btn", onclick: closeDialog }, t("confirm.cancel"))], name);
  if (inputs[0]) inputs[0].focus();
}

/** The lobby's panel: who plays on this device, and the ways in. `changed()` re-renders the lobby. */
export class PlayerPanel {
  constructor({ changed, nameInput }) {
    this.me = null;
    this.changed = changed;
    this.nameInput = nameInput;  // () => the name typed in the new-table form
    this.error = "";
  }

  async load() {
    this.me = await whoAmI();
  }

  async become() {
    const name = (this.nameInput() || "").trim();
    if (!name) { this.error = t("join.name_needed"); this.changed(); return; }
    try {
      const id = await api("POST", "/api/players", { name }, { auth: false });
      savePlayerKey(id.key);
      this.error = "";
      showRecovery(id.recovery, async () => { await this.load(); this.changed(); });
    } catch (e) {
      this.error = e.message;
      this.changed();
    }
  }

  signedIn(id) {
    savePlayerKey(id.key);
    closeDialog();
    this.load().then(() => this.changed());
  }

  recover() {
    formDialog("recover", t("player.recover"), [{ id: "recover-code", label: t("player.recovery_code") }], t("player.recover_go"),
      async (v) => { const id = await api("POST", "/api/players/recover", { recovery: v["recover-code"] }, { auth: false }); this.signedIn(id); if (id.recovery) showRecovery(id.recovery, () => {}); });
  }

  login() {
    formDialog("login", t("player.login"), [
      { id: "login-name", label: t("new.name"), max: 24, autocomplete: "username" },
      { id: "login-password", label: t("player.password"), type: "password", autocomplete: "current-password" },
    ], t("player.login_go"), async (v) => {
      this.signedIn(await api("POST", "/api/login", { name: v["login-name"], password: v["login-password"] }, { auth: false }));
    });
  }

  settings() {
    const me = this.me;
    const done = async () => { closeDialog(); await this.load(); this.changed(); };
    const rows = [
      h("button", { type: "button", class: "btn", id: "rename-btn", onclick: () => formDialog("rename", t("player.rename"),
        [{ id: "rename-name", label: t("new.name"), max: 24, value: me.name }], t("player.save"),
        async (v) => { await api("PATCH", "/api/me", { name: v["rename-name"] }); await done(); }) }, t("player.rename")),
      h("button", { type: "button", class: "btn", id: "password-btn", onclick: () => formDialog("password", t("player.password_set"),
        [...(me.password ? [{ id: "password-current", label: t("player.password_now"), type: "password", autocomplete: "current-password" }] : []),
          { id: "password-new", label: t("player.password_new"), type: "password", autocomplete: "new-password" }], t("player.save"),
        async (v) => { await api("PUT", "/api/me/password", { password: v["password-new"], current: v["password-current"] || null }); await done(); }) },
      t("player.password_set")),
      h("button", { type: "button", class: "btn", id: "bot-btn", onclick: () => botDialog() }, t("bot.title")),
      h("button", { type: "button", class: "btn", id: "new-recovery-btn", onclick: async () => {
        const r = await api("POST", "/api/me/recovery"); showRecovery(r.recovery, () => {}); } }, t("player.new_recovery")),
      h("button", { type: "button", class: "btn", id: "logout-btn", onclick: async () => {
        try { await api("POST", "/api/logout"); } catch (e) { /* signed out anyway */ }
        forgetPlayerKey(); await done(); } }, t("player.logout")),
      h("button", { type: "button", class: "btn danger", id: "delete-btn", onclick: () => showDialog(t("player.delete_title"),
        [h("p", null, t("player.delete_text"))],
        [h("button", { type: "button", class: "btn", onclick: closeDialog }, t("confirm.cancel")),
          h("button", { type: "button", class: "btn primary danger", id: "confirm-delete", onclick: async () => {
            await api("DELETE", "/api/me"); forgetPlayerKey(); await done(); } }, t("player.delete"))], "confirm-delete") },
      t("player.delete")),
    ];
    showDialog(t("player.settings"), [h("div", { class: "settings-list" }, rows)],
      [h("button", { type: "button", class: "btn primary", onclick: closeDialog }, t("game.close"))], "settings");
  }

  /**
   * The identity control: one compact line (who plays on this device) that expands to the ways in (a guest:
   * the name, keep it, a recovery code, a password) or to the settings (a player). `nameField`: the lobby's
   * name input, shown to a guest only; `shown`: the name the line shows for a guest.
   */
  render(nameField = null, shown = "") {
    // Opened or closed by a tap just now: the element says so at once, its "toggle" event (which keeps this.open)
    // comes a task later, and a redraw in between would fold the panel back.
    const live = document.getElementById("player-panel");
    if (live) this.open = live.open;
    const links = h("p", { class: "player-links" },
      h("a", { href: "/?leaders=overall", id: "leaders-link" }, t("leaders.title")));
    const initial = ((this.me ? this.me.name : shown).trim()[0] || "?").toUpperCase();
    const box = (summary, ...body) => {
      const d = h("details", { class: "panel identity", id: "player-panel", open: this.open || undefined,
        dataset: this.me ? { player: this.me.player } : {} },
      h("summary", { id: "identity-btn" }, h("span", { class: "avatar", "aria-hidden": "true" }, initial), summary), ...body);
      d.addEventListener("toggle", () => { this.open = d.open; });
      return d;
    };
    if (this.me) {
      links.prepend(h("a", { href: "/?player=" + encodeURIComponent(this.me.player), id: "profile-link" }, t("player.profile")), " · ");
      return box(h("span", { class: "idname" }, t("player.you_are"), " ", h("b", { id: "player-name" }, this.me.name)),
        h("p", null, h("button", { type: "button", class: "btn small", id: "settings-btn", onclick: () => this.settings() }, t("player.settings"))),
        links);
    }
    const lost = playerLost();
    if (lost || this.error) this.open = true;  // something to read or do here: shown, not folded away
    return box(h("span", { class: "idname", id: "guest-name" }, shown ? t("start.you_guest", { name: shown }) : t("start.you_new"),
      h("small", null, " · " + t("start.identity_more"))),
    lost ? h("p", { class: "note lost", id: "player-lost", role: "status" }, t("player.lost"), " ",
      h("button", { type: "button", class: "btn small", id: "player-lost-ok", onclick: () => { clearPlayerLost(); this.changed(); } }, t("player.lost_ok"))) : null,
    nameField,
    h("p", null, t("player.pitch")),
    h("div", { class: "choices start" },
      h("button", { type: "button", class: "btn", id: "become-btn", onclick: () => this.become() }, t("player.become")),
      h("button", { type: "button", class: "btn", id: "recover-btn", onclick: () => this.recover() }, t("player.recover")),
      h("button", { type: "button", class: "btn", id: "login-btn", onclick: () => this.login() }, t("player.login"))),
    h("p", { class: "error", id: "player-error", role: "alert" }, this.error),
    links);
  }
}
