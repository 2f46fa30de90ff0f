// The shell's real canvas.js replaying one batch Python recorded (tests/test_canvas_ops.py):
// reads {"width", "height", "table": {base, add}, "numbers": [...], "atlas", "frames", "ratio"}
// on stdin and prints, as
// JSON, every call and property set the batch made on the 2D context, in order. Node has no
// canvas, so the context is a recorder; everything else is the shipped module.
import { readFileSync } from "node:fs";

/** @type {Array<Array<unknown>>} */
const calls = [];
const gradients = new Map();

/** A CanvasGradient's stand-in, named in the log by the order it was made. */
function gradient(/** @type {number[]} */ ...args) {
  const made = { stops: /** @type {Array<[number, string]>} */ ([]) };
  gradients.set(made, gradients.size);
  calls.push(["createLinearGradient", ...args]);
  return {
    addColorStop: (/** @type {number} */ o, /** @type {string} */ c) => made.stops.push([o, c]),
    made,
  };
}

/** Names what the log shows of a value: a gradient by its number and stops. */
const shown = (/** @type {any} */ value) =>
  value?.made ? { gradient: gradients.get(value.made), stops: value.made.stops } : value;

/** @type {Record<string | symbol, unknown>} */
const state = {}; // what was set reads back (ctx.globalAlpha *= a)
const context = new Proxy(state, {
  get(_target, name) {
    if (name in state) return state[name];
    if (name === "createLinearGradient") return gradient;
    if (name === "measureText") return (/** @type {string} */ s) => ({ width: s.length });
    return (/** @type {unknown[]} */ ...args) => calls.push([String(name), ...args]);
  },
  set(_target, name, value) {
    state[name] = value;
    calls.push(["set", String(name), shown(value)]);
    return true;
  },
});

const request = JSON.parse(readFileSync(0, "utf8"));
// The worker's module, typed in its own scope (web/shell/tsconfig.worker.json), not Node's.
const shellCanvas = new URL("../web/shell/js/canvas.js", import.meta.url).href;
const { addPictures, attach, drawFrame, resize } = await import(shellCanvas);
const offscreen = { width: 0, height: 0, getContext: () => context };
attach(/** @type {any} */ (offscreen));
resize(request.width, request.height, 1);
// An atlas's stand-in (Node decodes no image), named in the log by request.atlas.
addPictures(/** @type {any} */ ({ atlas: request.atlas }), request.frames, request.ratio);
calls.length = 0; // the frame's calls only
const numbers = {
  getBuffer: () => ({ data: Float64Array.from(request.numbers), release: () => {} }),
  destroy: () => {},
};
try {
  drawFrame(request.table, () => numbers);
  process.stdout.write(JSON.stringify({ calls }));
} catch (error) {
  process.stdout.write(JSON.stringify({ calls, error: String(error) }));
}
