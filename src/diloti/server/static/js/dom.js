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
