// Tiny DOM builder. Strings always become text nodes, so user text (names) can never
// turn into markup: the page never assigns innerHTML.

/**
 * h("div", {class: "x", onclick: fn, dataset: {id: 1}}, "text", childNode, [more])
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") el.className = Array.isArray(v) ? v.filter(Boolean).join(" ") : v;
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k === "style" && typeof v === "object") {
        // Custom properties (--n) only work through setProperty.
        for (const [sk, sv] of Object.entries(v)) {
          if (sk.startsWith("--")) el.style.setProperty(sk, sv);
          else el.style[sk] = sv;
        }
      }
      else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "text") el.textContent = v;
      else if (v === true) el.setAttribute(k, "");
      else el.setAttribute(k, String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

// A tap is a press and a release on one element: a screen drawn again between the two (the lobby's lists arriving
// while the finger is down, a countdown's reload) puts a new element under the release, and the browser fires no
// click, so the tap is lost. While a press lasts (at most a second: a release outside the window is never heard),
// `heldWhilePressed` keeps such a redraw until the release has delivered its click.
const HOLD_MS = 1000;
let pressedAt = null;
let held = new Map();
if (typeof document !== "undefined") {
  document.addEventListener("pointerdown", () => { pressedAt = performance.now(); }, true);
  const release = () => {
    pressedAt = null;
    if (!held.size) return;
    const draws = [...held.values()];
    held = new Map();
    setTimeout(() => { for (const draw of draws) draw(); }, 0);  // after the click this release fires
  };
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
}

/** Whether `owner`'s `draw` must wait for a press to end (then it runs once, after the release's click): call
 * first thing in a render that replaces what may be under the finger, and return when true. */
export function heldWhilePressed(owner, draw) {
  if (pressedAt === null || performance.now() - pressedAt > HOLD_MS) return false;
  held.set(owner, draw);
  return true;
}

/** Replace all children of `el`. The focus stays where it was: a screen that renders again while the
 * player types (the lobby does as its lists arrive) would otherwise drop what comes next, and a keyboard
 * user's place. The element with the focused one's id gets it back, with the caret. */
export function fill(el, ...children) {
  const was = document.activeElement;
  const keep = was && was.id && el.contains(was) ? { id: was.id, start: caret(was, "selectionStart"), end: caret(was, "selectionEnd") } : null;
  el.replaceChildren();
  append(el, children);
  if (keep) {
    const now = el.querySelector("#" + CSS.escape(keep.id));
    if (now && now !== document.activeElement) {
      now.focus({ preventScroll: true });
      if (keep.start !== null) { try { now.setSelectionRange(keep.start, keep.end); } catch (e) { /* not a text field */ } }
    }
  }
  return el;
}

function caret(el, which) {
  try { return typeof el[which] === "number" ? el[which] : null; } catch (e) { return null; }
}

export function $(sel, root = document) { return root.querySelector(sel); }
export function $$(sel, root = document) { return [...root.querySelectorAll(sel)]; }
