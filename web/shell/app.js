// The shell's page side. Python runs in a worker (worker.js: Pyodide, drawing on an
// OffscreenCanvas), so the page's own thread never runs a long task; the page keeps what only
// it can do: the HTML splash, the input, the accessibility mirror and narration
// (js/controls.js), Python's requests for the network and storage (js/bridge.js), sound
// (js/sound.js), and the frame clock. See docs/drawing.md, "The worker".
// tools/build/dist.py bundles this file and its imports into one module with esbuild.
import { config, $, stats, queue, record } from "./js/state.js";
import { mirror, narrate } from "./js/controls.js";
import { answering, askEarly, earlyAnswers, perform, usedEarly } from "./js/bridge.js";
import { audioAvailable, mix, play, setNotes, want } from "./js/sound.js";
import { explain, fail, setProgress } from "./js/splash.js";
import { store } from "./js/store.js";
import { compileWasm, keepRuntimeCode, restoringRuntime } from "./js/runtime.js";

// The page preloads the scripts the worker's start waits on (tools/dist.py, as="fetch"): take
// each preload up here, so the worker's own requests find them in the HTTP cache and no
// preload is left unused (Chromium warns of each).
for (const link of document.querySelectorAll('link[rel="preload"][as="fetch"]')) {
  const href = /** @type {HTMLLinkElement} */ (link).href;
  fetch(href, { credentials: "same-origin" })
    .then((response) => response.arrayBuffer())
    .catch(() => {}); // the worker asks for it again: a failure shows there
}

const canvas = /** @type {HTMLCanvasElement} */ ($("screen"));
/** @type {Worker} */
let worker; // made by boot(), before anything posts to it
/** @type {StartParams} */
let params = {}; // what Python starts with (startParams)
let stopped = false;

/**
 * @param {string} message for the player (the failure card)
 * @param {unknown} [error] what went wrong, for the console
 */
function stop(message, error) {
  stopped = true;
  fail(message, error);
}

// ---- the frame clock ---------------------------------------------------------------------
// Each animation frame asks the worker for one frame, with the input and replies queued since
// the last; while the worker is still busy with a frame, the next is skipped (not queued), so a
// slow frame never piles up work. What the frame asks of the page is done when it answers.
/** @type {number | null} */
let inFlight = null; // the rAF time of the frame the worker is running
/** @param {number} now */
function tick(now) {
  if (stopped) return;
  requestAnimationFrame(tick);
  if (inFlight !== null) return;
  inFlight = now;
  worker.postMessage({ type: "frame", now, events: queue.splice(0, queue.length) });
}

/** @param {Extract<WorkerMessage, {type: "frame"}>} frame the worker's answer to a frame (the
 * first, which the worker runs as soon as the game starts, to none) */
function framed({ now, out, drew, drawMs }) {
  inFlight = null;
  if (out.controls) mirror(out.controls, out.screen);
  if (out.layout) window.lottery.layout = out.layout; // ?layout=1: the layout test reads it
  if (out.say.length) narrate(out.say);
  if (out.requests?.length) perform(out.requests);
  if (out.sounds?.length) play(out.sounds);
  if (out.volumes) mix(out.music, out.volumes);
  stats.frames += 1;
  record(stats.frameAt, now); // the frame this answers was in flight
  if (drew) {
    record(stats.pythonMs, out.ms);
    record(stats.drawMs, drawMs);
  }
  if (!window.lottery.ready) {
    window.lottery.ready = true;
    stats.readyMs = performance.now();
    performance.mark("lottery-ready");
    $("splash").hidden = true;
    document.body.dataset.ready = "1";
    registerServiceWorker();
    worker.postMessage({ type: "ready" });
    requestAnimationFrame(tick); // the frame clock starts with the first frame shown
    setTimeout(settle, SETTLE_AT_MOST_MS);
  }
  // Playable: the answers Python waited for at its start (the session, a game's unfinished
  // play) have reached it and it asked for nothing more. Now the worker takes the snapshot.
  if (!out.requests?.length && !answering() && !queue.some((e) => e.type === "reply")) settle();
}

// The worker takes the interpreter snapshot once the page is playable, or at the latest this
// long after the first frame (an answer that never comes must not cost the next visit its
// snapshot).
const SETTLE_AT_MOST_MS = 5000;
let settled = false;
function settle() {
  if (settled || stopped) return;
  settled = true;
  worker.postMessage({ type: "settled" });
}

function registerServiceWorker() {
  if ("serviceWorker" in navigator && location.protocol !== "file:" && config.serviceWorker) {
    navigator.serviceWorker
      .register(config.serviceWorker)
      .catch((e) => console.warn("service worker:", e));
  }
}

// The stage's size goes to the worker (the backing store) and to Python (the layout).
function stageSize() {
  const box = $("stage").getBoundingClientRect();
  return { width: box.width, height: box.height, dpr: window.devicePixelRatio || 1 };
}
function resized() {
  const size = stageSize();
  worker.postMessage({ type: "size", ...size });
  queue.push({ type: "resize", width: size.width, height: size.height });
}

// The reduced-motion preference, followed live: a change reaches Python with the next frame.
const reducedMotion =
  typeof window.matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;
function followReducedMotion() {
  if (reducedMotion)
    reducedMotion.addEventListener("change", (e) =>
      queue.push({ type: "motion", reduced: e.matches }),
    );
}

// What the query asks for, with the player's kept settings and what this browser can do.
function startParams() {
  const params = Object.fromEntries(new URLSearchParams(location.search));
  params.api = config.api;
  if (reducedMotion?.matches) params.reducedMotion = "1";
  if (!("fast" in params) && store.get("fast")) params.fast = "1";
  params.tz = String(-new Date().getTimezoneOffset()); // minutes east of UTC, for times shown
  if (!audioAvailable)
    params.audio = "0"; // no Web Audio: no Sound setting, silence
  else if (!("sound" in params) && store.get("sound")) params.sound = "1";
  for (const key of ["music", "effects"]) {
    const level = store.get(key); // a volume the player chose, per cent
    if (!(key in params) && typeof level === "number") params[key] = String(level);
  }
  return params;
}

// The opened game's name (the config lists the games on sale) titles the page and the loading
// splash before Python draws anything; the lobby (no game named) keeps the site's name.
/** @param {StartParams} params */
function nameThePage(params) {
  const games = config.game?.games || [];
  const game = games.find((g) => g.id === params.game);
  if (!game?.name) return;
  document.title = game.name;
  const heading = document.querySelector("#splash h1");
  if (heading) heading.textContent = game.name;
}

// The worker's downloads and steps (js/timings.js) on the page's timeline, in ms from the
// navigation like the page's marks: stats.worker (the load benchmark reads it).
/**
 * @param {Extract<WorkerMessage, {type: "timings"}>} timings
 * @returns {WorkerTimeline}
 */
function workerTimeline({ origin, resources, spans }) {
  /** @param {number} ms on the worker's clock */
  const at = (ms) => Math.round(ms + origin - performance.timeOrigin);
  return {
    downloads: resources.map(([path, start, firstByte, end, bytes, bodyBytes]) => ({
      path,
      start: at(start),
      firstByte: at(firstByte),
      end: at(end),
      bytes,
      bodyBytes,
    })),
    spans: spans.map(([name, start, end]) => ({ name, start: at(start), end: at(end) })),
  };
}

/** @param {MessageEvent<WorkerMessage>} event */
function heard({ data }) {
  switch (data.type) {
    case "frame":
      framed(data);
      break;
    case "progress":
      setProgress(data.fraction, data.text);
      break;
    case "stats": {
      const { type, ...figures } = data;
      Object.assign(stats, figures);
      // A snapshot a later visit will restore: its runtime's code kept for it (js/runtime.js)
      if (figures.snapshot === "saved" || figures.snapshot === "restored") keepRuntimeCode();
      break;
    }
    case "mark":
      performance.mark(data.name, { startTime: data.at - performance.timeOrigin });
      break;
    case "timings":
      stats.worker = workerTimeline(data);
      break;
    case "used":
      usedEarly(data.names);
      break; // answers Python started with
    case "started": {
      setNotes(data.notes);
      want(["1", "true", "yes", "on"].includes(String(params.sound).toLowerCase()));
      new ResizeObserver(resized).observe($("stage"));
      followReducedMotion();
      break; // the worker runs the first frame itself
    }
    case "fail":
      stop(
        data.running
          ? "The game stopped unexpectedly. Your play is safe: reload to continue."
          : explain(data.error),
        data.error,
      );
      break;
    default:
      // None of WorkerMessage's: a worker of another release.
      console.warn(
        "shell: unknown message from the worker",
        /** @type {{type: string}} */ (data).type,
      );
  }
}

function boot() {
  if (typeof WebAssembly !== "object" || typeof ReadableStream !== "function") {
    stop(
      "This browser cannot run the game (it lacks WebAssembly). Please update it or use another browser.",
    );
    return;
  }
  if (typeof Worker !== "function" || typeof canvas.transferControlToOffscreen !== "function") {
    stop(
      "This browser cannot run the game (it cannot draw from a worker). Please update it or use another browser.",
    );
    return;
  }
  setProgress(0.04, "Downloading the game…");
  params = startParams();
  nameThePage(params);
  try {
    worker = new Worker(config.worker, { type: "module", name: "lottery-python" });
  } catch (error) {
    stop(explain(error), error);
    return;
  }
  worker.onmessage = heard;
  worker.onerror = (e) => {
    e.preventDefault();
    stop(explain(e.message || "the game's worker did not load"), e.message);
  };
  const offscreen = canvas.transferControlToOffscreen();
  const size = stageSize();
  const origin = performance.timeOrigin; // the worker's first frame has `now` on this clock
  const runtime = restoringRuntime();
  worker.postMessage({ type: "boot", config, canvas: offscreen, size, params, origin, runtime }, [
    offscreen,
  ]);
  if (runtime) compileWasm(worker); // its WebAssembly too, on a second worker
  askEarly(params); // the session (and a game's unfinished play) while Python boots
  earlyAnswers((name, answer) => worker.postMessage({ type: "answer", name, ...answer }));
}

window.addEventListener("unhandledrejection", (e) => stats.errors.push(String(e.reason)));
setTimeout(() => {
  if (!window.lottery.ready)
    stop("The game is taking too long to start. Check your connection and try again.");
}, config.bootTimeoutMs || 90000);
boot();
