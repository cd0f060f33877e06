// Table sounds, synthesized with the Web Audio API (no files): a card laid, a capture, a xeri, your turn.
// Off until the player turns them on (kept in this browser, beside the alerts).
const KEY = "diloti.sounds";

/** Whether the table sounds are on (false unless the player turned them on). */
export function soundOn() {
  try { return JSON.parse(localStorage.getItem(KEY)) === true; } catch (e) { return false; }
}

export function setSoundOn(on) {
  try { localStorage.setItem(KEY, JSON.stringify(!!on)); } catch (e) { /* private mode */ }
}

/** What was played, newest last (read by the tests; a few entries only). */
export const soundLog = [];

let ctx = null;

function audio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  ctx = ctx || new Ctx();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// A card on felt: a short burst of filtered noise with a fast decay.
function swish(a, at, { freq = 1800, len = 0.07, gain = 0.35 } = {}) {
  const n = Math.floor(a.sampleRate * len);
  const buf = a.createBuffer(1, n, a.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 3;
  const src = a.createBufferSource();
  src.buffer = buf;
  const bp = a.createBiquadFilter();
  bp.type = "bandpass";
  bp.frequency.value = freq;
  bp.Q.value = 0.9;
  const g = a.createGain();
  g.gain.value = gain;
  src.connect(bp).connect(g).connect(a.destination);
  src.start(at);
}

function tone(a, at, freq, len, { type = "sine", gain = 0.12 } = {}) {
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(gain, at + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, at + len);
  osc.connect(g).connect(a.destination);
  osc.start(at);
  osc.stop(at + len + 0.02);
}

const SOUNDS = {
  card: (a, t0) => swish(a, t0),
  capture: (a, t0) => { swish(a, t0, { freq: 1400 }); swish(a, t0 + 0.06, { freq: 1100, len: 0.09 }); tone(a, t0 + 0.05, 180, 0.12, { gain: 0.08 }); },
  xeri: (a, t0) => { swish(a, t0, { freq: 1400 }); [660, 830, 990, 1320].forEach((f, i) => tone(a, t0 + 0.05 + i * 0.07, f, 0.18, { type: "triangle", gain: 0.1 })); },
  turn: (a, t0) => { tone(a, t0, 587, 0.16); tone(a, t0 + 0.12, 880, 0.22); },
};

/** Play one of "card", "capture", "xeri", "turn" if the sounds are on; returns whether it was played. */
export function playSound(kind) {
  if (!soundOn() || !SOUNDS[kind] || document.hidden) return false;  // a hidden tab has the alerts instead
  soundLog.push(kind);
  if (soundLog.length > 20) soundLog.shift();
  try {
    const a = audio();
    if (a) SOUNDS[kind](a, a.currentTime + 0.01);
  } catch (e) { /* no audio here: the game goes on silently */ }
  return true;
}

/** The sound a `played` message makes. */
export function soundOf(played) {
  if (played.xeri) return "xeri";
  return played.kind === "capture" ? "capture" : "card";
}
