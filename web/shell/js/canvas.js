// Drawing, in the worker: replays Python's batches (backends/canvas.py, docs/drawing.md) on the
// OffscreenCanvas the page handed over (transferControlToOffscreen). The page measures its stage
// and sends the size; nothing here touches the DOM.
/** @type {OffscreenCanvas} */
let canvas;
/** @type {OffscreenCanvasRenderingContext2D} */
let ctx;
/** @type {Record<string, string>} */
export const FONTS = {
  display: "'Lab Display', 'Arial Black', system-ui, sans-serif",
  body: "'Lab Body', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
};
let dpr = 1;
let size = { width: 0, height: 0 };

/** @param {OffscreenCanvas} offscreen the page's canvas, transferred */
export function attach(offscreen) {
  canvas = offscreen;
  // Opaque: every frame paints the whole canvas, so the compositor need not blend it.
  ctx = /** @type {OffscreenCanvasRenderingContext2D} */ (
    canvas.getContext("2d", { alpha: false })
  );
}

// The stage's size in CSS pixels and the device's pixel ratio: the backing store follows.
/**
 * @param {number} width
 * @param {number} height
 * @param {number} ratio
 * @returns {{width: number, height: number}} the backing store's size in device pixels
 */
export function resize(width, height, ratio) {
  dpr = ratio || 1;
  size = { width, height };
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  return { width: canvas.width, height: canvas.height };
}

/**
 * @param {number} size
 * @param {string} family
 * @param {boolean} bold
 */
function fontString(size, family, bold) {
  return `${bold ? "700 " : ""}${size}px ${FONTS[family] || FONTS.body}`;
}
// Python (backends/browser.py) measures text through this global of the worker.
/** @type {(s: string, px: number, family: string, bold: boolean) => number} */
globalThis.lotteryMeasureText = (s, px, family, bold) => {
  ctx.font = fontString(px, family, bold);
  return ctx.measureText(s).width;
};

// A batch (backends/canvas.py, docs/drawing.md) is a Float64Array of opcodes, each followed
// by its numbers; strings and gradients are indices into `table`, which Python extends (and
// restarts at base 0) frame by frame; -1 is "none".
/** @type {(string | CanvasGradient)[]} */
const table = [];
/** @param {TableUpdate} update */
function updateTable({ base, add }) {
  if (base === 0) table.length = 0;
  if (base !== table.length)
    throw new Error(`drawing table out of step: base ${base}, have ${table.length}`);
  for (const e of add) {
    if (typeof e === "string") {
      table.push(e);
      continue;
    }
    const [x0, y0, x1, y1, stops] = e.g;
    const g = ctx.createLinearGradient(x0, y0, x1, y1);
    for (const [o, c] of stops) g.addColorStop(o, c);
    table.push(g);
  }
}

/**
 * Fill and stroke the path with the table's paints (-1: not that one).
 * @param {number} fill
 * @param {number} stroke
 * @param {number} lineWidth
 */
function finish(fill, stroke, lineWidth) {
  if (fill >= 0) {
    ctx.fillStyle = table[fill];
    ctx.fill();
  }
  if (stroke >= 0) {
    ctx.strokeStyle = table[stroke];
    ctx.lineWidth = lineWidth;
    ctx.stroke();
  }
}

const CLEAR = 1,
  RECT = 2,
  CIRCLE = 3,
  PATH = 4,
  TEXT = 5,
  SAVE = 6,
  RESTORE = 7,
  TRANSLATE = 8,
  SCALE = 9,
  ROTATE = 10,
  ALPHA = 11,
  CLIP = 12,
  IMAGE = 13;

// The art (assets/, docs/drawing.md "Pictures"): each key's atlas and its frame in the atlas's
// pixels, added by `addPictures` before the screen that draws them.
/** @type {Map<string, {atlas: CanvasImageSource, frame: number[]}>} */
const pictures = new Map();
/**
 * @param {CanvasImageSource} atlas a decoded atlas (an ImageBitmap)
 * @param {Record<string, number[]>} frames each key's [x, y, w, h] in logical px
 * @param {number} ratio the atlas's pixels per logical px
 */
export function addPictures(atlas, frames, ratio) {
  for (const [key, [x, y, w, h]] of Object.entries(frames)) {
    pictures.set(key, { atlas, frame: [x * ratio, y * ratio, w * ratio, h * ratio] });
  }
}

/** @param {Float64Array} d a frame's opcodes and their numbers */
function runBatch(d) {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.globalAlpha = 1;
  let i = 0;
  while (i < d.length) {
    switch (d[i]) {
      case CLEAR:
        ctx.fillStyle = table[d[i + 1]];
        ctx.fillRect(0, 0, size.width, size.height);
        i += 2;
        break;
      case RECT:
        ctx.beginPath();
        if (d[i + 8] > 0) ctx.roundRect(d[i + 1], d[i + 2], d[i + 3], d[i + 4], d[i + 8]);
        else ctx.rect(d[i + 1], d[i + 2], d[i + 3], d[i + 4]);
        finish(d[i + 5], d[i + 6], d[i + 7]);
        i += 9;
        break;
      case CIRCLE:
        ctx.beginPath();
        ctx.arc(d[i + 1], d[i + 2], d[i + 3], 0, Math.PI * 2);
        finish(d[i + 4], d[i + 5], d[i + 6]);
        i += 7;
        break;
      case PATH: {
        const closed = d[i + 5] !== 0,
          end = i + 6 + 2 * d[i + 1];
        ctx.beginPath();
        ctx.moveTo(d[i + 6], d[i + 7]);
        for (let k = i + 8; k < end; k += 2) ctx.lineTo(d[k], d[k + 1]);
        if (closed) ctx.closePath();
        finish(closed ? d[i + 2] : -1, d[i + 3], d[i + 4]);
        i = end;
        break;
      }
      case TEXT:
        // The text, its family, align and baseline are strings of the table (backends/canvas.py).
        ctx.font = fontString(d[i + 4], /** @type {string} */ (table[d[i + 5]]), d[i + 6] !== 0);
        ctx.fillStyle = table[d[i + 7]];
        ctx.textAlign = /** @type {CanvasTextAlign} */ (table[d[i + 8]]);
        ctx.textBaseline = /** @type {CanvasTextBaseline} */ (table[d[i + 9]]);
        ctx.fillText(/** @type {string} */ (table[d[i + 1]]), d[i + 2], d[i + 3]);
        i += 10;
        break;
      case SAVE:
        ctx.save();
        i += 1;
        break;
      case RESTORE:
        ctx.restore();
        i += 1;
        break;
      case TRANSLATE:
        ctx.translate(d[i + 1], d[i + 2]);
        i += 3;
        break;
      case SCALE:
        ctx.scale(d[i + 1], d[i + 2]);
        i += 3;
        break;
      case ROTATE:
        ctx.rotate(d[i + 1]);
        i += 2;
        break;
      case ALPHA:
        ctx.globalAlpha *= d[i + 1];
        i += 2;
        break;
      case CLIP:
        ctx.beginPath();
        ctx.rect(d[i + 1], d[i + 2], d[i + 3], d[i + 4]);
        ctx.clip();
        i += 5;
        break;
      case IMAGE: {
        // An atlas picture by key (a string of the table); one not loaded draws nothing.
        const picture = pictures.get(/** @type {string} */ (table[d[i + 1]]));
        if (picture) {
          const [sx, sy, sw, sh] = picture.frame;
          ctx.drawImage(picture.atlas, sx, sy, sw, sh, d[i + 2], d[i + 3], d[i + 4], d[i + 5]);
        }
        i += 6;
        break;
      }
      default:
        throw new Error(`unknown drawing opcode ${d[i]} at ${i}`);
    }
  }
}

// Python's numbers are read in place (a view of WebAssembly memory), released once drawn.
/**
 * @param {TableUpdate} update
 * @param {() => PyProxy} pyBatch backends.browser.batch: the frame's numbers (an array.array('d'))
 */
export function drawFrame(update, pyBatch) {
  updateTable(update);
  const numbers = pyBatch();
  const view = numbers.getBuffer("f64");
  try {
    runBatch(view.data);
  } finally {
    view.release();
    numbers.destroy();
  }
}
