// The shell: boots Python (Pyodide, from this site) behind an HTML splash, then runs the
// frame loop. Python draws; the shell only replays its drawing batches on the canvas
// (js/canvas.js), forwards input, mirrors the controls as real buttons (js/controls.js),
// performs Python's requests (js/bridge.js), plays its sound cues (js/sound.js) and keeps the
// interpreter snapshot (js/snapshot.js).
// tools/dist.py bundles this file and its imports into one module with esbuild.
import { config, $, stats, queue, record } from "./js/state.js";
import { drawFrame } from "./js/canvas.js";
import { mirror, narrate } from "./js/controls.js";
import { perform, store } from "./js/bridge.js";
import { countingFetch, plainFetch } from "./js/downloads.js";
import { keepSnapshot, snapshots, startPython, takeSnapshot } from "./js/snapshot.js";
import { audioAvailable, play, setNotes, want } from "./js/sound.js";
import { explain, fail, setProgress } from "./js/splash.js";

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
        record(stats.drawMs, performance.now() - drawStart);
      }
    } catch (error) {
      console.error(error);
      fail("The game stopped unexpectedly. Your play is safe: reload to continue.", error);
      return;
    }
    if (out.controls) mirror(out.controls, out.screen);
    if (out.say.length) narrate(out.say);
    if (out.requests && out.requests.length) perform(out.requests);
    if (out.sounds && out.sounds.length) play(out.sounds);
    stats.frames += 1;
    record(stats.frameAt, now);
    if (out.cmds) record(stats.pythonMs, out.ms);
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
    if (!audioAvailable) params.audio = "0"; // no Web Audio: no Sound setting, silence
    else if (!("sound" in params) && store.get("sound")) params.sound = "1";
    setNotes(browser.sound_notes());
    want(["1", "true", "yes", "on"].includes(String(params.sound).toLowerCase()));
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
