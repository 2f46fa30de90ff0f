// Input (pointer and keys) for Python, the accessibility mirror of the scene's controls as real
// buttons, the screen's heading, and the aria-live narration log (docs/drawing.md).
import { $, queue } from "./state.js";

const canvas = $("screen"); // drawn by the worker; its events are the page's

/**
 * @param {"down" | "move" | "up"} kind
 * @returns {(e: PointerEvent) => void}
 */
function pointer(kind) {
  return (e) => {
    const r = canvas.getBoundingClientRect();
    queue.push({ type: kind, x: e.clientX - r.left, y: e.clientY - r.top });
  };
}
canvas.addEventListener("pointerdown", pointer("down"));
canvas.addEventListener("pointermove", pointer("move"));
canvas.addEventListener("pointerup", pointer("up"));
// The wheel scrolls a page taller than the window (engine/ui/scroll.py), over the mirror too;
// a line or page of the wheel counts as 40 or 400 px.
window.addEventListener(
  "wheel",
  (e) => {
    queue.push({ type: "wheel", dy: e.deltaY * [1, 40, 400][e.deltaMode] });
  },
  { passive: true },
);
window.addEventListener("keydown", (e) => {
  // A focused mirror button turns Enter/Space into its own click; do not send them twice.
  if (e.target instanceof HTMLButtonElement && (e.key === "Enter" || e.key === " ")) return;
  // A mirrored text field keeps its keys (it sends its text, and Enter, itself).
  if (e.target instanceof HTMLInputElement && box.contains(e.target)) return;
  if (e.key === "Tab") return;
  queue.push({ type: "key", key: e.key });
  if (e.key === " ") e.preventDefault();
});

// ---- the mirror --------------------------------------------------------------------------
// One <button> per control, in the order the frame lists them (so Tab follows the game's
// order). A control that is not enabled is marked aria-disabled="true", not `disabled`: it
// stays focusable, so the button a player just pressed keeps the focus while its animation
// runs (GO is off until the go is shown) instead of dropping it to <body>.
const box = $("mirror");
const title = $("screen-title");
/** @type {Map<string, HTMLButtonElement | HTMLInputElement>} */
const buttons = new Map(); // control id -> button
/** @type {string | null} */
let screen = null; // the current screen's id; null before the first
/** @type {string | null} */
let marked = null; // the id of the control the scene last marked `focused` (the keys act on it)

// A swipe that starts on a mirror button (which the canvas never sees) scrolls as one on the
// canvas does: past SLOP px it goes to the scene as the distance moved, a wheel's dy (the
// content follows the finger), and the click it ends in is dropped: a swipe presses nothing.
const SLOP = 8;
/** @type {{ last: number, moved: boolean } | null} */
let swipe = null;
let swiped = false; // the last press was a swipe: the click it may end in is not a press
/** @param {PointerEvent} e */
function swiping(e) {
  if (!swipe) return;
  if (!swipe.moved && Math.abs(e.clientY - swipe.last) < SLOP) return;
  swipe.moved = true;
  queue.push({ type: "wheel", dy: swipe.last - e.clientY });
  swipe.last = e.clientY;
}
/** @param {PointerEvent} e */
function endSwipe(e) {
  swiping(e);
  if (swipe) swiped = swipe.moved;
  swipe = null;
}
box.addEventListener("pointerdown", (e) => {
  swipe = { last: e.clientY, moved: false };
  swiped = false;
});
window.addEventListener("pointermove", swiping);
window.addEventListener("pointerup", endSwipe);
window.addEventListener("pointercancel", endSwipe);

const off = (/** @type {HTMLElement} */ b) => b.getAttribute("aria-disabled") === "true";

// A control with `input` (an amount: "decimal") is a real <input>, so a phone shows its
// number keyboard: its text goes to the scene as the player types, Enter activates it.
/**
 * @param {string} id
 * @param {string} kind the field's inputmode ("decimal")
 * @returns {HTMLInputElement}
 */
function field(id, kind) {
  let f = buttons.get(id);
  if (!(f instanceof HTMLInputElement)) {
    f?.remove();
    f = document.createElement("input");
    f.type = "text";
    f.inputMode = kind;
    f.autocomplete = "off";
    f.dataset.control = id;
    const made = f;
    made.addEventListener("focus", () => queue.push({ type: "focus", control: id }));
    made.addEventListener("input", () =>
      queue.push({ type: "input", control: id, value: made.value }),
    );
    made.addEventListener("keydown", (e) => {
      if (e.key === "Enter") queue.push({ type: "activate", control: id });
    });
    buttons.set(id, f);
  }
  return f;
}

/**
 * @param {string} id
 * @returns {HTMLButtonElement}
 */
function button(id) {
  let b = buttons.get(id);
  if (b instanceof HTMLInputElement) {
    b.remove();
    buttons.delete(id);
    b = undefined;
  }
  if (!b) {
    b = document.createElement("button");
    b.type = "button";
    b.dataset.control = id;
    // The scene learns which control has the focus (a Tab onto a Directional Arrow picks it).
    b.addEventListener("focus", () => queue.push({ type: "focus", control: id }));
    const made = b;
    // Off, or the end of a swipe: nothing (a key's click, detail 0, always presses).
    made.addEventListener("click", (e) => {
      if (!off(made) && !(swiped && e.detail > 0)) queue.push({ type: "activate", control: id });
    });
    buttons.set(id, b);
  }
  return b;
}

// Put the buttons in `wanted` order, without ever moving the focused one (moving a node
// blurs it): the others are placed around it.
/** @param {HTMLElement[]} wanted */
function order(wanted) {
  const now = box.children;
  if (now.length === wanted.length && wanted.every((b, i) => now[i] === b)) return;
  const at = wanted.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  if (at < 0 || document.activeElement?.parentNode !== box) {
    box.append(...wanted);
    return;
  }
  const kept = wanted[at];
  kept.before(...wanted.slice(0, at));
  kept.after(...wanted.slice(at + 1));
}

// Screen titles for the heading, by the scene's name (engine/ui: Flow.register).
/** @type {Record<string, string>} */
const TITLES = {
  lobby: "Games",
  "my-games": "My Games",
  main: "Main Game",
  howto: "How to Play",
  rules: "Rules and Prizes",
  outcome: "Play finished",
  check: "System check",
};
/**
 * @param {string} id
 * @param {string} game
 */
function heading(id, game) {
  if (id === "lobby") return document.title;
  if (id === "splash" || !(id in TITLES)) return game || document.title;
  return game ? `${game}: ${TITLES[id]}` : TITLES[id];
}

// Mirror a frame's controls; `where` is {id, game} of the screen they belong to. When a new
// screen comes (or the focused control goes away) and the focus was in the mirror or
// nowhere, the focus moves to the screen's first control, or to the one the scene marks
// `focused`; the first screen takes no focus (a player Tabs into the page). When the scene
// marks another control (Left/Right move Power Puck Shot's ring) while the focus is in the
// mirror, the focus follows it, so Enter/Space press the control the scene shows picked.
/**
 * @param {Control[]} controls
 * @param {ScreenShown | null} where
 */
export function mirror(controls, where) {
  const focused = document.activeElement;
  const inMirror = focused !== null && box.contains(focused);
  const free = inMirror || focused === null || focused === document.body;
  const wanted = controls.map((c) => {
    if (c.input) {
      const f = field(c.id, c.input);
      if (f.getAttribute("aria-label") !== c.label) f.setAttribute("aria-label", c.label);
      if (document.activeElement !== f && f.value !== c.value) f.value = c.value || "";
      const [x, y, w, h] = c.rect;
      Object.assign(f.style, { left: x + "px", top: y + "px", width: w + "px", height: h + "px" });
      return f;
    }
    const b = button(c.id);
    if (b.textContent !== c.label) {
      b.textContent = c.label;
      b.setAttribute("aria-label", c.label);
    }
    if (c.enabled) b.removeAttribute("aria-disabled");
    else b.setAttribute("aria-disabled", "true");
    const [x, y, w, h] = c.rect;
    Object.assign(b.style, { left: x + "px", top: y + "px", width: w + "px", height: h + "px" });
    return b;
  });
  for (const [id, b] of buttons) {
    if (!wanted.includes(b)) {
      b.remove();
      buttons.delete(id);
    }
  }
  order(wanted);
  const first = screen === null;
  const changed = where && where.id !== screen;
  if (changed) {
    screen = where.id;
    title.textContent = heading(where.id, where.game);
    title.hidden = false;
  }
  const lost = inMirror && !focused.isConnected;
  const mark = controls.find((c) => c.focused);
  // The marked control's element was made above, with the others.
  const target = /** @type {HTMLElement} */ (mark ? buttons.get(mark.id) : wanted[0]);
  const moved = mark !== undefined && mark.id !== marked && inMirror && focused.isConnected;
  marked = mark ? mark.id : null;
  if (free && wanted.length && ((changed && !first) || lost || moved)) {
    if (document.activeElement !== target) target.focus({ preventScroll: true });
  }
}

/** @param {string[]} lines */
export function narrate(lines) {
  const log = $("log");
  for (const line of lines) {
    const p = document.createElement("p");
    p.textContent = line;
    log.appendChild(p);
  }
  // Keep a whole play's narration as a transcript (a long play says well over 50 things).
  while (log.childElementCount > 500) log.firstElementChild?.remove();
}
