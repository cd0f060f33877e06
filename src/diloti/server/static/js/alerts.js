// "Your turn" alerts while the tab is in the background: a short sound and a browser notification,
// each optional and off until the player turns it on (kept in this browser).
const KEY = "diloti.alerts";

/** {sound, notify}, both false unless turned on. */
export function alertPrefs() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY)) || {};
    return { sound: p.sound === true, notify: p.notify === true };
  } catch (e) { return { sound: false, notify: false }; }
}

export function saveAlertPrefs(prefs) {
  try { localStorage.setItem(KEY, JSON.stringify({ sound: !!prefs.sound, notify: !!prefs.notify })); } catch (e) { /* private mode */ }
}

/** Alert for `state` when it newly became this seat's turn while the page is hidden. */
export function shouldAlert(prev, state, hidden) {
  if (!hidden || !state || !state.your_turn) return false;
  return !prev || !prev.your_turn || prev.ply !== state.ply;
}

/** Ask the browser for permission to notify (only ever after the player turned the option on). */
export async function askNotify() {
  if (!("Notification" in window)) return "unsupported";
  if (Notification.permission === "default") return Notification.requestPermission();
  return Notification.permission;
}

let audio = null;

function beep() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  audio = audio || new Ctx();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = 660;
  gain.gain.setValueAtTime(0.15, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.25);
}

/** Sound and/or notify as the player chose; returns what was done (for the tests). */
export function turnAlert(prefs, title, body) {
  const done = [];
  if (prefs.sound) { try { beep(); done.push("sound"); } catch (e) { /* no audio */ } }
  if (prefs.notify && "Notification" in window && Notification.permission === "granted") {
    const opts = { body, tag: "diloti-turn", icon: "/static/icons/icon-192.png" };
    // Phones show notifications only through the service worker.
    const viaWorker = navigator.serviceWorker && navigator.serviceWorker.controller
      ? navigator.serviceWorker.ready.then((r) => r.showNotification(title, opts)) : null;
    if (!viaWorker) { try { new Notification(title, opts); } catch (e) { /* not allowed here */ } }
    done.push("notify");
  }
  return done;
}
