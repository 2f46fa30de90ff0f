// Input (pointer and keys) for Python, the accessibility mirror of the scene's controls as real
// buttons, the screen's heading, and the aria-live narration log (docs/drawing.md).
import { $, queue } from "./state.js";

const canvas = $("screen"); // drawn by the worker; its events are the page's

function pointer(kind) {
  return (e) => {
    const r = canvas.getBoundingClientRect();
    queue.push({ type: kind, x: e.clientX - r.left, y: e.clientY - r.top });
  };
}
canvas.addEventListener("pointerdown", pointer("down"));
canvas.addEventListener("pointermove", pointer("move"));
canvas.addEventListener("pointerup", pointer("up"));
window.addEventListener("keydown", (e) => {
  // A focused mirror button turns Enter/Space into its own click; do not send them twice.
  if (e.target instanceof HTMLButtonElement && (e.key === "Enter" || e.key === " ")) return;
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
const buttons = new Map(); // control id -> button
let screen = null; // the current screen's id; null before the first

const off = (b) => b.getAttribute("aria-disabled") === "true";

function button(id) {
  let b = buttons.get(id);
  if (!b) {
    b = document.createElement("button");
    b.type = "button";
    b.dataset.control = id;
    const made = b;
    made.addEventListener("click", () => { if (!off(made)) queue.push({ type: "activate", control: id }); }); // off: nothing
    buttons.set(id, b);
  }
  return b;
}

// Put the buttons in `wanted` order, without ever moving the focused one (moving a node
// blurs it): the others are placed around it.
function order(wanted) {
  const now = box.children;
  if (now.length === wanted.length && wanted.every((b, i) => now[i] === b)) return;
  const at = wanted.indexOf(document.activeElement);
  if (at < 0 || document.activeElement.parentNode !== box) { box.append(...wanted); return; }
  const kept = wanted[at];
  kept.before(...wanted.slice(0, at));
  kept.after(...wanted.slice(at + 1));
}

// Screen titles for the heading, by the scene's name (engine/ui: Flow.register).
const TITLES = { lobby: "Games", "my-games": "My Games", main: "Main Game", howto: "How to Play", rules: "Rules and Prizes", outcome: "Play finished", check: "System check" };
function heading(id, game) {
  if (id === "lobby") return document.title;
  if (id === "splash" || !(id in TITLES)) return game || document.title;
  return game ? `${game}: ${TITLES[id]}` : TITLES[id];
}

// Mirror a frame's controls; `where` is {id, game} of the screen they belong to. When a new
// screen comes (or the focused control goes away) and the focus was in the mirror or
// nowhere, the focus moves to the screen's first control; the first screen takes no focus
// (a player Tabs into the page).
export function mirror(controls, where) {
  const focused = document.activeElement;
  const inMirror = focused !== null && box.contains(focused);
  const free = inMirror || focused === null || focused === document.body;
  const wanted = controls.map((c) => {
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
    if (!wanted.includes(b)) { b.remove(); buttons.delete(id); }
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
  if (free && wanted.length && ((changed && !first) || lost)) wanted[0].focus({ preventScroll: true });
}

export function narrate(lines) {
  const log = $("log");
  for (const line of lines) {
    const p = document.createElement("p");
    p.textContent = line;
    log.appendChild(p);
  }
  // Keep a whole play's narration as a transcript (a long play says well over 50 things).
  while (log.childElementCount > 500) log.firstElementChild.remove();
}
