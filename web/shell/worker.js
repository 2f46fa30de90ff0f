// The game's worker: Python (Pyodide) runs here, off the page's main thread, and draws on the
// page's canvas through an OffscreenCanvas, so no long Python task ever blocks the page's input,
// scrolling or painting. The page (app.js) owns the DOM: the splash, the accessibility mirror,
// the narration, sound, storage and the network; this worker owns Python and the pixels.
//
// Messages (docs/drawing.md, "The worker"):
//   page -> worker  {type: "boot", config, canvas, size, params, origin, runtime}  once, the canvas
//                                                                  transferred; runtime: js/runtime.js
//                   {type: "size", width, height, dpr}             the stage was resized
//                   {type: "frame", now, events}                   run one frame (events for Python)
//                   {type: "ready"}                                the first frame is shown
//                   {type: "settled"}                              the page is playable: take and keep the snapshot
//                   {type: "answer", name, ok, body}               an answer asked as the page started (js/bridge.js)
//   worker -> page  {type: "progress", fraction, text}            the splash's bar
//                   {type: "stats", ...}                            boot / snapshot / canvas / fonts / modules figures
//                   {type: "mark", name, at}                        a performance mark (epoch ms)
//                   {type: "used", names}                           the answers Python started with (spent)
//                   {type: "started", notes}                        Python is ready; the sound cues' notes
//                   {type: "frame", now, out, drew, drawMs}         what the frame asks of the page (the
//                                                                   first, run by the worker after "started")
//                   {type: "fail", error, running}                 Python could not start, or stopped
//                   {type: "timings", origin, resources, spans}    the worker's downloads and start (js/timings.js)
// tools/build/dist.py bundles this file and its imports (js/canvas.js, js/snapshot.js,
// js/downloads.js, js/timings.js, js/zips.js) into one module with esbuild.
import { addPictures, attach, drawFrame, FONTS, resize } from "./js/canvas.js";
import { countingFetch, plainFetch } from "./js/downloads.js";
import {
  configure,
  keepSnapshot,
  snapshotDue,
  snapshots,
  startPython,
  takeSnapshot,
} from "./js/snapshot.js";
import { span, timeWebAssembly, timings } from "./js/timings.js";
import { findGames, gameZip, SHARED_ZIP } from "./js/zips.js";

/** @type {(message: WorkerMessage) => void} */
const post = (message) => postMessage(message);
/** @type {(figures: object) => void} */
const note = (figures) => post({ type: "stats", ...figures });
// A performance mark on the page's timeline (docs/build.md), from this worker's clock.
/** @type {(name: string) => void} */
const mark = (name) => post({ type: "mark", name, at: performance.timeOrigin + performance.now() });
mark("lottery-worker"); // this script runs (the page made the worker at lottery-shell)
let failed = false;
// `running`: the game had started (the page says the play is safe); otherwise it could not start.
/**
 * @param {any} error anything thrown, or an Error (its message is what the page shows)
 * @param {boolean} [running]
 */
function fail(error, running = false) {
  if (failed) return;
  failed = true;
  post({ type: "fail", error: String(error?.message ? error.message : error), running });
}

/** @type {BrowserModule | null} */
let browser = null; // backends.browser, once imported
/** @type {Pyodide | null} */
let python = null; // Pyodide, while a snapshot of it is due (a fresh start)
/** @type {() => unknown} */
let modules = () => null; // how many modules are in sys.modules (the load benchmark's figure)
// The answers to Python's first requests that the page asked as it started, by request name
// ({ok, body}), kept until Python starts with them; null once it has.
/** @type {Record<string, {ok: boolean, body: object}> | null} */
let answers = {};

// The canvas measures text in Python: the web fonts the page declares must be loaded here too
// (a worker has its own font set) before the first frame.
// stats.fonts says what became of each ([family, weight, status]). The fonts text is measured
// with, named for Python (backends.browser.start: a restored interpreter keeps the widths it
// measured with the same ones): the canvas's font stacks, and each face's file and status.
/**
 * @param {FontEntry[]} faces
 * @returns {Promise<string>}
 */
async function loadFonts(faces) {
  if (!globalThis.fonts || typeof FontFace !== "function") {
    note({ fonts: "unavailable" }); // drawn in the fallback fonts (FONTS in js/canvas.js)
    return JSON.stringify([FONTS, "unavailable"]);
  }
  const loaded = faces.map(({ family, weight, url }) => {
    const face = new FontFace(family, `url(${JSON.stringify(url)})`, {
      weight: String(weight),
      display: "swap",
    });
    /** @type {FontFaceSet & Set<FontFace>} */ (globalThis.fonts).add(face);
    return face;
  });
  await Promise.all(loaded.map((face) => face.load())).catch((e) => console.warn("fonts:", e));
  note({ fonts: loaded.map((face) => [face.family.replace(/"/g, ""), face.weight, face.status]) });
  return JSON.stringify([FONTS, faces.map(({ url }, i) => [url, loaded[i].status])]);
}

// The games whose screens this page needs: the one its ?game= names, or, for the lobby (no
// game named), every game on sale (the lobby draws each card in its game's look). Their zips
// go beside the shared one; a game page never downloads another game's code (docs/build.md).
/**
 * @param {ShellConfig} config
 * @param {StartParams} params
 * @returns {GameEntry[]}
 */
function openedGames(config, params) {
  const games = config.game.games || [];
  const named = games.find((game) => game.id === params.game);
  return named ? [named] : games;
}

// The page's art (docs/drawing.md, "Pictures"): the lobby's atlas, or the opened game's, at the
// screen's pixel ratio (2 for any over 1), as [url, bytes, what to do with its image, and
// whether the first frame may be drawn without it: the lobby's cards, below].
/**
 * @param {ShellConfig} config
 * @param {StartParams} params
 * @param {GameEntry[]} games the games this page opens
 * @param {number} dpr
 * @returns {PageArt | null}
 */
function pageArt(config, params, games, dpr) {
  const page = games.length === 1 && games[0].id === params.game ? params.game : "lobby";
  const entry = config.art?.[page];
  if (!entry) return null;
  const ratio = dpr > 1 ? 2 : 1;
  return {
    url: entry.urls[ratio],
    bytes: entry.bytes[ratio],
    add: (image) => addPictures(image, entry.frames, ratio),
    later: page === "lobby",
  };
}
/** @typedef {{url: string, bytes: number, add: (image: ImageBitmap) => void, later: boolean}} PageArt */

// The lobby's atlas on a first visit (no snapshot stored), fetched once the page is playable
// (the page's `settled`) rather than before its first frame: its cards are drawn in their
// game's colours without their pictures until it arrives, then drawn again; one that does not
// arrive leaves them so (docs/build.md, "The first visit's bytes"). Null once asked for.
/** @type {PageArt | null} */
let laterArt = null;

// Fetched beside the zips and decoded off the thread; like a zip, an atlas that does not arrive
// stops the start (the failure card's "Try again"): its symbols would not be drawn.
/**
 * @param {{url: string, add: (image: ImageBitmap) => void} | null} art
 * @returns {Promise<void>}
 */
function loadArt(art) {
  if (!art || typeof createImageBitmap !== "function") return Promise.resolve();
  return globalThis
    .fetch(art.url)
    .then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status} loading ${art.url}`);
      return r.blob();
    })
    .then((blob) => createImageBitmap(blob))
    .then(art.add);
}

// The runtime's module function (`createPyodideModule`): the eager copy's, or, should it not
// load, null, and Pyodide imports its own.
/**
 * @param {string} url
 * @returns {Promise<CreatePyodideModule | null>}
 */
function runtimeModule(url) {
  return import(url).then(
    (module) => module.default,
    (error) => {
      console.warn("runtime:", error);
      return null;
    },
  );
}

// Pyodide's WebAssembly, which the page has compiled by another worker when it boots this one
// with a restoring runtime (js/runtime.js): the module it sends ({type: "wasm"}), or null (then
// Pyodide fetches and compiles its own).
/** @type {(module: WebAssembly.Module | null) => void} */
let wasmArrived = () => {};
let booted = 0; // when the boot message arrived (the span `wasm-received` runs from it)
/** @type {Promise<WebAssembly.Module | null>} */
const wasmCompiled = new Promise((resolve) => {
  wasmArrived = resolve;
});

/** @param {Extract<PageMessage, {type: "boot"}>} message */
async function boot({ config, canvas, size, params, origin, runtime }) {
  mark("lottery-boot"); // the page's boot message arrived
  booted = performance.now();
  attach(canvas);
  note({ canvas: resize(size.width, size.height, size.dpr) });
  const games = openedGames(config, params);
  configure(config, note, games);
  post({ type: "progress", fraction: 0.04, text: "Downloading the game…" });
  const urls = [config.game.zip, ...games.map((game) => game.zip)];
  const paths = [SHARED_ZIP, ...games.map(gameZip)];
  const art = pageArt(config, params, games, size.dpr);
  const sizes = Object.fromEntries(games.map((game) => [game.zip, game.bytes]));
  if (art && !art.later) sizes[art.url] = art.bytes;
  globalThis.fetch = countingFetch(
    { ...config.sizes, ...sizes },
    (got) => post({ type: "progress", fraction: 0.05 + 0.8 * got, text: "Downloading the game…" }),
    fail,
  );
  const reading = performance.now();
  const stored = snapshots.load(); // read while Pyodide's module loads, and Pyodide starts
  stored
    .then((found) => found?.pages)
    .then(
      () => span("snapshot-read", reading),
      () => {},
    );
  // A start that restores the snapshot imports the runtime whose compiled code Chromium keeps
  // (js/runtime.js), as soon as the snapshot is found: beside Pyodide's loader, not after it.
  const restoring = stored.then((found) => (found && runtime ? runtimeModule(runtime) : null));
  let began = performance.now();
  const loader = import(config.pyodide.mjs);
  loader.catch(() => {}); // a failure is reported where it is awaited
  // After the loader and the snapshot are asked for, which the start waits on: the worker's
  // first FontFace took its thread 5-15 ms (a returning visit's CPU profile,
  // docs/changelog.md).
  const fonts = loadFonts(config.fonts || []);
  /** @type {Pyodide} */
  let pyodide;
  let boot;
  /** @type {Promise<void>} */
  let pictures = Promise.resolve();
  const untimeWebAssembly = timeWebAssembly();
  try {
    // before the first screen, which draws them; the lobby's on a first visit after it
    pictures = art?.later
      ? stored.then(
          (found) => {
            if (found) return loadArt(art); // a returning visit: from the service worker's cache
            laterArt = art;
            note({ art: "later" });
          },
          () => {
            laterArt = art; // no snapshot to read: a start afresh
            note({ art: "later" });
          },
        )
      : loadArt(art);
    pictures.catch(() => {}); // a failure is reported where it is awaited
    // A game's zip is not preloaded by the page (which game is the URL's): start them now.
    const zips = urls.map((url) =>
      globalThis.fetch(url).then((r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status} loading ${url}`);
        return r.arrayBuffer();
      }),
    );
    for (const zip of zips) zip.catch(() => {}); // failures are reported where they are awaited
    const { loadPyodide } = await loader;
    span("pyodide-module", began);
    mark("lottery-pyodide-module");
    began = performance.now();
    ({ pyodide, boot } = await startPython(
      loadPyodide,
      stored,
      restoring,
      runtime ? wasmCompiled : undefined, // a runtime set: the page sends the WebAssembly
    ));
    span("python-start", began);
    mark("lottery-python-started");
    post({ type: "progress", fraction: 0.9, text: "Starting the game…" });
    began = performance.now();
    const loaded = await Promise.all(zips);
    span("zips-awaited", began);
    loaded.forEach((bytes, i) => {
      pyodide.FS.writeFile(paths[i], new Uint8Array(bytes));
    });
  } catch (error) {
    fail(error);
    return;
  } finally {
    globalThis.fetch = plainFetch;
    untimeWebAssembly();
  }
  try {
    // A restored snapshot has the games' zips found, and the game imported (its key names
    // these very zips): finding them again there had Python's compiler compiled anew on a first
    // return, when it was Python source (docs/changelog.md).
    if (boot === "fresh") findGames(pyodide, games, config.game.register);
    browser = pyodide.pyimport(config.game.module);
    modules = () => pyodide.pyimport("sys").modules.__len__();
    if (snapshotDue(boot)) python = pyodide;
    mark("lottery-game-imported");
    began = performance.now();
    const measuredWith = await fonts;
    span("fonts-awaited", began);
    began = performance.now();
    await pictures;
    span("art-awaited", began);
    const given = answers;
    answers = null;
    began = performance.now();
    browser.start(
      size.width,
      size.height,
      JSON.stringify(params),
      JSON.stringify(given),
      measuredWith,
    );
    post({ type: "used", names: Object.keys(given || {}) });
    const notes = browser.sound_notes();
    span("game-start", began);
    post({ type: "started", notes });
    // The first frame at once, not when the page's next animation frame asks for it (a message
    // each way and up to a frame's wait: 45-50 ms of a returning visit's start under load;
    // docs/changelog.md), with `now` on the page's clock like the frames it asks for.
    began = performance.now();
    frame({ type: "frame", now: performance.timeOrigin + performance.now() - origin, events: [] });
    span("first-frame", began);
  } catch (error) {
    // A restored interpreter that cannot start the game is not kept: "Try again" starts afresh.
    if (boot === "snapshot") await snapshots.drop();
    fail(error);
  }
}

/** @param {Extract<PageMessage, {type: "frame"}>} message */
function frame({ now, events }) {
  if (failed || browser === null) return;
  /** @type {FrameOut} */
  let out;
  let drawMs = 0;
  try {
    out = JSON.parse(browser.frame(now, JSON.stringify(events)));
    if (out.cmds) {
      const drawStart = performance.now();
      drawFrame(out.cmds, browser.batch);
      drawMs = performance.now() - drawStart;
    }
  } catch (error) {
    console.error(error);
    fail(error, true);
    return;
  }
  const drew = out.cmds !== null;
  delete out.cmds; // the page needs to know that it drew, not what
  post({ type: "frame", now, out, drew, drawMs });
}

/** @param {MessageEvent<PageMessage>} event */
self.onmessage = ({ data }) => {
  switch (data.type) {
    case "boot":
      boot(data);
      break;
    case "size":
      note({ canvas: resize(data.width, data.height, data.dpr) });
      break;
    case "frame":
      frame(data);
      break;
    case "wasm":
      span("wasm-received", booted);
      wasmArrived(data.module);
      break;
    case "answer":
      if (answers) answers[data.name] = { ok: data.ok === true, body: data.body || {} };
      break;
    case "ready": {
      // What this worker downloaded (Pyodide and the game), the modules Python holds at the
      // first frame, and where the worker's start went, for the load benchmark.
      const bytes = performance
        .getEntriesByType("resource")
        .reduce((sum, r) => sum + /** @type {PerformanceResourceTiming} */ (r).transferSize, 0);
      note({ workerBytes: bytes, modules: modules() });
      post({ type: "timings", ...timings() });
      break;
    }
    case "settled": {
      if (laterArt) {
        // stats.art: "later" (not asked for yet), "asked", then "drawn" or "failed"
        note({ art: "asked" });
        loadArt(laterArt).then(
          () => {
            browser?.redraw();
            note({ art: "drawn" });
          },
          (error) => {
            console.warn("art:", error);
            note({ art: "failed" });
          },
        );
        laterArt = null;
      }
      // The interpreter snapshot, taken once the page is playable rather than before its first
      // frame (docs/build.md): off the time a player waits. A restored one starts the game
      // again (backends.browser.start replaces the app the snapshot holds).
      if (failed || python === null) break;
      keepSnapshot(takeSnapshot(python));
      python = null;
      mark("lottery-snapshot");
      break;
    }
    default:
      console.warn("worker: unknown message", /** @type {{type: string}} */ (data).type);
  }
};
