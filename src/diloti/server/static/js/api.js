// HTTP calls and the live websocket of one table (docs/PROTOCOL.md).
import { serverText } from "./i18n.js";

/** A failed call: `code` is the server's stable code; `message` is in the page's language (serverText). */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(serverText(code, message));
    this.status = status;
    this.code = code;
  }
}

const PLAYER_KEY = "diloti.player";

/** The key of the player on this device (see docs/PROTOCOL.md, "Players who come back"), if any. */
export function playerKey() {
  try { return localStorage.getItem(PLAYER_KEY); } catch (e) { return null; }
}

export function savePlayerKey(key) {
  try { localStorage.setItem(PLAYER_KEY, key); localStorage.removeItem(PLAYER_LOST); } catch (e) { /* private mode */ }
}

// Set when the server no longer knew this device's key (a recovery or a sign-out on another device, a
// deletion): the page says so once, instead of silently turning the player into a guest.
const PLAYER_LOST = "diloti.player_lost";

export function playerLost() {
  try { return localStorage.getItem(PLAYER_LOST) === "1"; } catch (e) { return false; }
}

export function clearPlayerLost() {
  try { localStorage.removeItem(PLAYER_LOST); } catch (e) { /* private mode */ }
}

export function forgetPlayerKey() {
  try { localStorage.removeItem(PLAYER_KEY); } catch (e) { /* private mode */ }
}

/**
 * Call the JSON API; throws ApiError with the server's code and message on failure. The player's key,
 * if this device has one, goes with every call; a key the server no longer knows (signed out, recovered
 * on another device, deleted) is forgotten and the call made again as a guest.
 */
export async function api(method, path, body, { auth = true } = {}) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const key = auth ? playerKey() : null;
  if (key) init.headers.Authorization = "Bearer " + key;
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "network", String(e.message || e));
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (res.status === 401 && key && data && data.code === "bad_key") {
    forgetPlayerKey();
    try { localStorage.setItem(PLAYER_LOST, "1"); } catch (e) { /* private mode */ }
    if (!path.startsWith("/api/me")) return api(method, path, body, { auth: false });
  }
  if (!res.ok) {
    throw new ApiError(res.status, (data && data.code) || "http_" + res.status,
      (data && data.message) || res.statusText);
  }
  return data;
}

export function tokenFor(table) {
  try { return localStorage.getItem("diloti.token." + table); } catch (e) { return null; }
}

export function forgetToken(table) {
  try { localStorage.removeItem("diloti.token." + table); } catch (e) { /* private mode */ }
}

export function saveToken(table, token) {
  try { localStorage.setItem("diloti.token." + table, token); } catch (e) { /* private mode */ }
}

/**
 * The websocket of one seat (or, with `watch`, of a spectator). Sends `hello` (`watch`) on every
 * (re)connect, reconnects with backoff, keeps the connection alive with pings, and hands every
 * message to `onMessage`.
 */
export class Connection {
  constructor(table, token, { onMessage, onStatus, watch = false }) {
    this.table = table;
    this.token = token;
    this.watch = watch;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.pingTimer = null;
    this.pingId = 0;
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.onStatus("open");
      ws.send(JSON.stringify(this.watch ? { type: "watch", table: this.table }
        : { type: "hello", table: this.table, token: this.token }));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping", id: ++this.pingId }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg && typeof msg === "object") this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws || this.closed) return;
      this.onStatus("closed");
      const delay = Math.min(8000, 400 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    });
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}
