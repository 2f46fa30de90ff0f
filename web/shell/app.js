// The shell: boots Python (Pyodide, from this site) behind an HTML splash, then runs the
// frame loop. Python draws; this file only replays its drawing batches on the canvas,
// forwards input, mirrors the controls as real buttons and keeps the narration log.
performance.mark("lottery-shell");
const config = JSON.parse(document.getElementById("lottery-config").textContent);
const $ = (id) => document.getElementById(id);
const stats = { frames: 0, frameAt: [], pythonMs: [], drawMs: [], bootStart: performance.now(), readyMs: null, errors: [], boot: null, snapshot: null };
window.lottery = { config, stats, ready: false };

// ---- splash and failure -------------------------------------------------------------
function setProgress(fraction, text) {
  const pct = Math.max(3, Math.min(100, Math.round(fraction * 100)));
  $("bar-fill").style.width = pct + "%";
  document.querySelector("#splash .bar").setAttribute("aria-valuenow", String(pct));
  if (text) $("splash-text").textContent = text;
}

let failed = false;
function fail(message, error) {
  if (failed) return;
  failed = true;
  if (error) console.warn("boot failed:", error);
  stats.errors.push(String(message));
  $("splash").hidden = true;
  $("failure-text").textContent = message;
  $("failure").hidden = false;
  $("failure-retry").onclick = () => location.reload();
}

function explain(error) {
  const text = String(error && error.message ? error.message : error);
  if (/fetch|network|404|load/i.test(text)) {
    return "A file of the game could not be downloaded. Check your connection and try again.";
  }
  return "Something went wrong while starting the game (" + text.slice(0, 160) + "). Please try again.";
}

// ---- downloads with progress ----------------------------------------------------------
// Pyodide fetches its own files; wrapping fetch during boot lets the bar show real bytes.
const expected = config.sizes; // path -> uncompressed bytes
const received = {};
const totalBytes = Object.values(expected).reduce((a, b) => a + b, 0);
function bytesProgress() {
  const got = Object.values(received).reduce((a, b) => a + b, 0);
  setProgress(0.05 + 0.8 * (got / totalBytes), "Downloading the game…");
}
const plainFetch = window.fetch.bind(window);
function countingFetch(input, init) {
  const url = new URL(input instanceof Request ? input.url : String(input), location.href);
  return plainFetch(input, init).then((response) => {
    const key = url.pathname;
    if (!(key in expected) || !response.ok || !response.body) {
      if (!response.ok && key in expected) {
        // Pyodide swallows some download errors and would wait forever: fail here, clearly.
        const error = new Error(`HTTP ${response.status} loading ${key}`);
        fail(explain(error), error);
        throw error;
      }
      return response;
    }
    // Count bytes on a clone and hand Pyodide the original response: a response keeps its
    // URL, so Chromium can reuse its compiled-WebAssembly cache on the next visit.
    const reader = response.clone().body.getReader();
    received[key] = 0;
    (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received[key] += value.byteLength;
        bytesProgress();
      }
    })().catch(() => {});
    return response;
  });
}

// ---- drawing ---------------------------------------------------------------------------
const canvas = $("screen");
// Opaque: every frame paints the whole canvas, so the compositor need not blend it.
const ctx = canvas.getContext("2d", { alpha: false });
const FONTS = {
  display: "'Lab Display', 'Arial Black', system-ui, sans-serif",
  body: "'Lab Body', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
};
const images = {};
let dpr = 1;
let size = { width: 0, height: 0 };

function fontString(size, family, bold) {
  return `${bold ? "700 " : ""}${size}px ${FONTS[family] || FONTS.body}`;
}
window.lotteryMeasureText = (s, px, family, bold) => {
  ctx.font = fontString(px, family, bold);
  return ctx.measureText(s).width;
};

// A batch (backends/canvas.py, docs/drawing.md) is a Float64Array of opcodes, each followed
// by its numbers; strings and gradients are indices into `table`, which Python extends (and
// restarts at base 0) frame by frame; -1 is "none".
const table = [];
function updateTable({ base, add }) {
  if (base === 0) table.length = 0;
  if (base !== table.length) throw new Error(`drawing table out of step: base ${base}, have ${table.length}`);
  for (const e of add) {
    if (typeof e === "string") { table.push(e); continue; }
    const [x0, y0, x1, y1, stops] = e.g;
    const g = ctx.createLinearGradient(x0, y0, x1, y1);
    for (const [o, c] of stops) g.addColorStop(o, c);
    table.push(g);
  }
}

function finish(fill, stroke, lineWidth) {
  if (fill >= 0) { ctx.fillStyle = table[fill]; ctx.fill(); }
  if (stroke >= 0) { ctx.strokeStyle = table[stroke]; ctx.lineWidth = lineWidth; ctx.stroke(); }
}

const CLEAR = 1, RECT = 2, CIRCLE = 3, PATH = 4, TEXT = 5, IMAGE = 6, SAVE = 7, RESTORE = 8,
  TRANSLATE = 9, SCALE = 10, ROTATE = 11, ALPHA = 12, CLIP = 13;

function runBatch(d) {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.globalAlpha = 1;
  let i = 0;
  while (i < d.length) {
    switch (d[i]) {
      case CLEAR:
        ctx.fillStyle = table[d[i + 1]]; ctx.fillRect(0, 0, size.width, size.height); i += 2; break;
      case RECT:
        ctx.beginPath();
        if (d[i + 8] > 0) ctx.roundRect(d[i + 1], d[i + 2], d[i + 3], d[i + 4], d[i + 8]);
        else ctx.rect(d[i + 1], d[i + 2], d[i + 3], d[i + 4]);
        finish(d[i + 5], d[i + 6], d[i + 7]); i += 9; break;
      case CIRCLE:
        ctx.beginPath(); ctx.arc(d[i + 1], d[i + 2], d[i + 3], 0, Math.PI * 2);
        finish(d[i + 4], d[i + 5], d[i + 6]); i += 7; break;
      case PATH: {
        const closed = d[i + 5] !== 0, end = i + 6 + 2 * d[i + 1];
        ctx.beginPath(); ctx.moveTo(d[i + 6], d[i + 7]);
        for (let k = i + 8; k < end; k += 2) ctx.lineTo(d[k], d[k + 1]);
        if (closed) ctx.closePath();
        finish(closed ? d[i + 2] : -1, d[i + 3], d[i + 4]); i = end; break;
      }
      case TEXT:
        ctx.font = fontString(d[i + 4], table[d[i + 5]], d[i + 6] !== 0); ctx.fillStyle = table[d[i + 7]];
        ctx.textAlign = table[d[i + 8]]; ctx.textBaseline = table[d[i + 9]];
        ctx.fillText(table[d[i + 1]], d[i + 2], d[i + 3]); i += 10; break;
      case IMAGE: {
        const img = images[table[d[i + 1]]];
        if (img && img.complete) ctx.drawImage(img, d[i + 2], d[i + 3], d[i + 4], d[i + 5]);
        i += 6; break;
      }
      case SAVE: ctx.save(); i += 1; break;
      case RESTORE: ctx.restore(); i += 1; break;
      case TRANSLATE: ctx.translate(d[i + 1], d[i + 2]); i += 3; break;
      case SCALE: ctx.scale(d[i + 1], d[i + 2]); i += 3; break;
      case ROTATE: ctx.rotate(d[i + 1]); i += 2; break;
      case ALPHA: ctx.globalAlpha *= d[i + 1]; i += 2; break;
      case CLIP: ctx.beginPath(); ctx.rect(d[i + 1], d[i + 2], d[i + 3], d[i + 4]); ctx.clip(); i += 5; break;
      default: throw new Error(`unknown drawing opcode ${d[i]} at ${i}`);
    }
  }
}

// Python's numbers are read in place (a view of WebAssembly memory), released once drawn.
function drawFrame(update, pyBatch) {
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

// ---- input and the accessibility mirror ------------------------------------------------
const queue = [];
function fitCanvas() {
  const box = $("stage").getBoundingClientRect();
  dpr = window.devicePixelRatio || 1;
  size = { width: box.width, height: box.height };
  canvas.width = Math.round(box.width * dpr);
  canvas.height = Math.round(box.height * dpr);
  queue.push({ type: "resize", width: box.width, height: box.height });
}
new ResizeObserver(fitCanvas).observe($("stage"));

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
function mirror(controls) {
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

function narrate(lines) {
  const log = $("log");
  for (const line of lines) {
    const p = document.createElement("p");
    p.textContent = line;
    log.appendChild(p);
  }
  // Keep a whole play's narration as a transcript (a long play says well over 50 things).
  while (log.childElementCount > 500) log.firstElementChild.remove();
}

// ---- requests from Python: network, the token's signature, storage ----------------------
// Python does no I/O: a frame may carry requests ({id, op, ...}); each answer goes back as a
// {type: "reply", id, ok, body} event. See docs/drawing.md for the operations.
const api = (path) => (config.api || "") + path;
const store = {
  get(key) { try { return JSON.parse(localStorage.getItem("lottery." + key)); } catch { return null; } },
  set(key, value) { try { localStorage.setItem("lottery." + key, JSON.stringify(value)); } catch { /* private mode */ } },
  drop(key) { try { localStorage.removeItem("lottery." + key); } catch { /* private mode */ } },
};

class ApiFailure extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

async function call(method, path, body, headers = {}) {
  let response;
  try {
    response = await plainFetch(api(path), {
      method,
      credentials: "include",
      headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiFailure("network", "The connection failed. Check your connection and try again: you will not be charged twice.");
  }
  let data = {};
  try { data = await response.json(); } catch { data = {}; }
  if (!response.ok) {
    const err = data.error || data;
    const message = response.status === 402
      ? "Insufficient funds: your balance does not cover this play."
      : (err.message || `The server answered ${response.status}.`);
    throw new ApiFailure(err.code || `http_${response.status}`, message);
  }
  return data;
}

function b64urlBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
}

let keySet = null;
// The outcome token is a JWS signed with Ed25519; its key must be one /api/keys publishes.
async function verifyToken(token) {
  const parts = String(token).split(".");
  if (parts.length !== 3) throw new ApiFailure("bad_token", "This play could not be verified, so it cannot be shown.");
  try {
    const header = JSON.parse(new TextDecoder().decode(b64urlBytes(parts[0])));
    if (!keySet) keySet = (await call("GET", "/api/keys")).keys || [];
    const jwk = keySet.find((k) => k.kid === header.kid);
    if (header.alg !== "EdDSA" || !jwk) throw new Error("unknown key");
    const key = await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: jwk.x }, { name: "Ed25519" }, false, ["verify"]);
    const ok = await crypto.subtle.verify({ name: "Ed25519" }, key, b64urlBytes(parts[2]), new TextEncoder().encode(parts[0] + "." + parts[1]));
    if (!ok) throw new Error("bad signature");
    return JSON.parse(new TextDecoder().decode(b64urlBytes(parts[1])));
  } catch (error) {
    if (error instanceof ApiFailure && error.code === "network") throw error;
    throw new ApiFailure("bad_token", "This play could not be verified, so it cannot be shown.");
  }
}

function uuid() {
  return crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(16).slice(2);
}

const ops = {
  async session() {
    try {
      return await call("GET", "/api/wallet");
    } catch (error) {
      if (error.code !== "unauthenticated") throw error;
      const made = await call("POST", "/api/session", {});
      return { balance_pence: made.balance_pence };
    }
  },
  async purchase(req) {
    // One Idempotency-Key per intended purchase, kept until the play is safely stored: a retry
    // after a lost answer (or a reload) replays the same purchase and is charged once.
    const slot = "purchase-key." + req.game;
    let key = store.get(slot);
    if (!key) { key = uuid(); store.set(slot, key); }
    const bought = await call("POST", "/api/plays", { game: req.game }, { "Idempotency-Key": key });
    const payload = await verifyToken(bought.token);
    store.set("progress." + req.game, { play_number: bought.play_number, token: bought.token, index: 0 });
    store.drop(slot);
    return { ...bought, payload };
  },
  async resume(req) {
    const mine = store.get("progress." + req.game);
    const list = await call("GET", "/api/plays?status=unfinished");
    const open = (list.plays || []).find((p) => p.game === req.game);
    if (!open) { store.drop("progress." + req.game); return { found: false }; }
    let token = mine && mine.play_number === open.play_number ? mine.token : null;
    const index = mine && mine.play_number === open.play_number ? mine.index : 0;
    if (!token) token = (await call("GET", `/api/plays/${open.play_number}`)).token;
    const payload = await verifyToken(token);
    store.set("progress." + req.game, { play_number: open.play_number, token, index });
    return { found: true, play_number: open.play_number, token, payload, index };
  },
  async save(req) {
    for (const game of ["lab-riches"]) {
      const mine = store.get("progress." + game);
      if (mine && mine.play_number === req.play_number) store.set("progress." + game, { ...mine, index: req.index });
    }
    return {};
  },
  async finish(req) {
    const done = await call("POST", `/api/plays/${req.play_number}/finish`, {});
    store.drop("progress.lab-riches");
    return done;
  },
  async pref(req) {
    store.set("fast", !!req.fast);
    return {};
  },
};

function perform(requests) {
  for (const req of requests) {
    const op = ops[req.op];
    const reply = (ok, body) => queue.push({ type: "reply", id: req.id, ok, body });
    if (!op) { reply(false, { code: "unknown_op", message: "Unknown request " + req.op }); continue; }
    op(req).then(
      (body) => reply(true, body || {}),
      (error) => {
        if (!(error instanceof ApiFailure)) console.warn(req.op, error);
        reply(false, { code: error.code || "error", message: error.message || String(error) });
      },
    );
  }
}

// ---- the frame loop ----------------------------------------------------------------------
function loop(pyFrame, pyBatch, onReady) {
  function tick(now) {
    const events = queue.splice(0, queue.length);
    let out;
    try {
      out = JSON.parse(pyFrame(now, JSON.stringify(events)));
      if (out.cmds) {
        const drawStart = performance.now();
        drawFrame(out.cmds, pyBatch);
        stats.drawMs.push(performance.now() - drawStart);
      }
    } catch (error) {
      console.error(error);
      fail("The game stopped unexpectedly. Your play is safe: reload to continue.", error);
      return;
    }
    if (out.controls) mirror(out.controls);
    if (out.say.length) narrate(out.say);
    if (out.requests && out.requests.length) perform(out.requests);
    stats.frames += 1;
    stats.frameAt.push(now);
    if (stats.frameAt.length > 2000) stats.frameAt.splice(0, 1000);
    if (out.cmds) stats.pythonMs.push(out.ms);
    if (stats.pythonMs.length > 2000) stats.pythonMs.splice(0, 1000);
    if (stats.drawMs.length > 2000) stats.drawMs.splice(0, 1000);
    if (!window.lottery.ready) {
      window.lottery.ready = true;
      stats.readyMs = performance.now();
      performance.mark("lottery-ready");
      $("splash").hidden = true;
      document.body.dataset.ready = "1";
      registerServiceWorker();
      onReady();
    }
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
}

function registerServiceWorker() {
  if ("serviceWorker" in navigator && location.protocol !== "file:" && config.serviceWorker) {
    navigator.serviceWorker.register(config.serviceWorker).catch((e) => console.warn("service worker:", e));
  }
}

// ---- the interpreter snapshot: a returning visit skips starting CPython ---------------------
// The first visit starts Python the long way, imports the game, and keeps a memory snapshot
// of that interpreter (Pyodide's makeMemorySnapshot) in Cache Storage; the next visit restores
// it instead (docs/build.md). The key names the exact runtime, standard library and game zip,
// so a new release never restores an old interpreter; a snapshot that fails to restore is
// dropped and Python starts the long way.
const SNAPSHOT_CACHE = "lottery-python-snapshot";
const snapshotKey = new URL(
  "/python-snapshot?" + new URLSearchParams({ runtime: config.pyodide.mjs, stdlib: config.pyodide.stdlib, game: config.game.zip }),
  location.href,
).href;
// Most of the interpreter's 31 MB of memory is untouched zero pages: the stored form keeps only
// the 64 KiB pages that hold something (about 13 MB): [magic, length, count, page indices...]
// as 32-bit words, then those pages.
const PAGE = 65536, PACKED = 0x4c525031; // "LRP1"
function packSnapshot(bytes) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  const kept = [];
  for (let page = 0; page * PAGE < bytes.length; page += 1) {
    const end = Math.min(words.length, ((page + 1) * PAGE) >> 2);
    for (let w = (page * PAGE) >> 2; w < end; w += 1) if (words[w] !== 0) { kept.push(page); break; }
  }
  const head = new Uint32Array([PACKED, bytes.length, kept.length, ...kept]);
  return new Blob([head, ...kept.map((page) => bytes.subarray(page * PAGE, (page + 1) * PAGE))]);
}
function unpackSnapshot(packed) {
  const head = new Uint32Array(packed.buffer, 0, 3);
  if (packed.byteLength < 12 || head[0] !== PACKED) throw new Error("not a packed snapshot");
  const [, length, count] = head;
  const pages = new Uint32Array(packed.buffer, 12, count);
  const bytes = new Uint8Array(length);
  let at = 12 + 4 * count;
  for (const page of pages) {
    const size = Math.min(PAGE, length - page * PAGE);
    bytes.set(packed.subarray(at, at + size), page * PAGE);
    at += size;
  }
  if (at !== packed.byteLength) throw new Error("snapshot length does not match its pages");
  return bytes;
}

const snapshots = {
  usable: typeof caches === "object" && window.isSecureContext && config.snapshot !== false,
  async load() {
    if (!this.usable) return null;
    try {
      const hit = await (await caches.open(SNAPSHOT_CACHE)).match(snapshotKey);
      return hit ? unpackSnapshot(new Uint8Array(await hit.arrayBuffer())) : null;
    } catch (error) {
      console.warn("snapshot read:", error);
      await this.drop();
      return null;
    }
  },
  async save(bytes) {
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const old of await cache.keys()) await cache.delete(old); // one release's snapshot only
    await cache.put(snapshotKey, new Response(packSnapshot(bytes), { headers: { "Content-Type": "application/octet-stream" } }));
  },
  async drop() {
    try { await caches.delete(SNAPSHOT_CACHE); } catch { /* nothing to drop */ }
  },
};

async function startPython(loadPyodide, stored) {
  const options = {
    indexURL: config.pyodide.index,
    stdLibURL: config.pyodide.stdlib,
    lockFileContents: JSON.stringify({ info: config.pyodide.lockInfo, packages: {} }),
    env: { HOME: "/home/pyodide" },
  };
  const snapshot = await stored;
  if (snapshot) {
    try {
      const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      stats.boot = "snapshot";
      return pyodide;
    } catch (error) {
      console.warn("snapshot did not restore; starting Python afresh:", error);
      await snapshots.drop();
    }
  }
  stats.boot = "fresh";
  return loadPyodide({ ...options, _makeSnapshot: snapshots.usable });
}

// Taken after the game's modules are imported and before the game starts, while every
// JavaScript object Python holds can still be named; saved once the first frame is up.
function takeSnapshot(pyodide) {
  if (stats.boot !== "fresh" || !snapshots.usable) {
    stats.snapshot = stats.boot === "snapshot" ? "restored" : "unavailable";
    return null;
  }
  try {
    return pyodide.makeMemorySnapshot();
  } catch (error) {
    console.warn("no snapshot:", error);
    stats.snapshot = "failed";
    return null;
  }
}

function keepSnapshot(bytes) {
  if (!bytes) return;
  stats.snapshot = "saving";
  snapshots.save(bytes).then(
    () => { stats.snapshot = "saved"; },
    (error) => { console.warn("snapshot not saved:", error); stats.snapshot = "failed"; },
  );
}

async function boot() {
  if (typeof WebAssembly !== "object" || typeof ReadableStream !== "function") {
    fail("This browser cannot run the game (it lacks WebAssembly). Please update it or use another browser.");
    return;
  }
  setProgress(0.04, "Downloading the game…");
  // The canvas measures text in Python: the web fonts must be ready before the first frame.
  const fonts = Promise.all(["700 20px 'Lab Display'", "400 20px 'Lab Body'", "700 20px 'Lab Body'"]
    .map((font) => document.fonts.load(font))).catch((e) => console.warn("fonts:", e));
  const stored = snapshots.load(); // read while Pyodide's module loads
  window.fetch = countingFetch;
  let pyodide;
  try {
    const { loadPyodide } = await import(config.pyodide.mjs);
    performance.mark("lottery-pyodide-module");
    const gameZip = countingFetch(config.game.zip).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status} loading ${config.game.zip}`);
      return r.arrayBuffer();
    });
    pyodide = await startPython(loadPyodide, stored);
    performance.mark("lottery-python-started");
    setProgress(0.9, "Starting the game…");
    pyodide.FS.writeFile("/lottery.zip", new Uint8Array(await gameZip));
  } catch (error) {
    fail(explain(error), error);
    return;
  } finally {
    window.fetch = plainFetch;
  }
  try {
    pyodide.runPython("import sys\nif '/lottery.zip' not in sys.path: sys.path.insert(0, '/lottery.zip')");
    const browser = pyodide.pyimport(config.game.module);
    const snapshot = takeSnapshot(pyodide);
    performance.mark("lottery-game-imported");
    await fonts;
    const params = Object.fromEntries(new URLSearchParams(location.search));
    params.api = config.api;
    if (window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches) params.reducedMotion = "1";
    if (!("fast" in params) && store.get("fast")) params.fast = "1";
    const box = $("stage").getBoundingClientRect();
    browser.start(box.width, box.height, JSON.stringify(params));
    loop(browser.frame, browser.batch, () => keepSnapshot(snapshot));
  } catch (error) {
    // A restored interpreter that cannot start the game is not kept: "Try again" starts afresh.
    if (stats.boot === "snapshot") await snapshots.drop();
    fail(explain(error), error);
  }
}

window.addEventListener("unhandledrejection", (e) => stats.errors.push(String(e.reason)));
setTimeout(() => {
  if (!window.lottery.ready) fail("The game is taking too long to start. Check your connection and try again.");
}, config.bootTimeoutMs || 90000);
boot();
