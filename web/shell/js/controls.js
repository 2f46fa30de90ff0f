// Input (pointer and keys) for Python, the accessibility mirror of the scene's controls as real
// buttons, and the aria-live narration log.
import { canvas } from "./canvas.js";
import { $, queue } from "./state.js";

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

const mirrorButtons = new Map();
export function mirror(controls) {
  const seen = new Set();
  for (const c of controls) {
    seen.add(c.id);
    let b = mirrorButtons.get(c.id);
    if (!b) {
      b = document.createElement("button");
      b.type = "button";
      b.dataset.control = c.id;
      b.addEventListener("click", () => queue.push({ type: "activate", control: c.id }));
      $("mirror").appendChild(b);
      mirrorButtons.set(c.id, b);
    }
    b.textContent = c.label;
    b.setAttribute("aria-label", c.label);
    b.disabled = !c.enabled;
    const [x, y, w, h] = c.rect;
    Object.assign(b.style, { left: x + "px", top: y + "px", width: w + "px", height: h + "px" });
  }
  for (const [id, b] of mirrorButtons) {
    if (!seen.has(id)) { b.remove(); mirrorButtons.delete(id); }
  }
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
