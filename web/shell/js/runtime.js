// Pyodide's runtime for a returning visit (docs/build.md, "The runtime's compiled code").
// Chromium keeps a script's compiled code beside the service worker's cached copy, but only the
// functions compiled by the time it keeps it: a returning visit compiled most of Pyodide's
// JavaScript (pyodide.asm.mjs, 1.2 MB) again, function by function, as it restored Python. The
// build ships a second copy whose first line asks V8 to compile every function at once
// (tools/build/dist.py, EAGER_RUNTIME). Once a release, after a visit that leaves Python's snapshot
// (or restores one), a throwaway worker (runtime-cache.js) imports that copy through the
// service worker, off the game's thread, and Chromium keeps all of its code; from the next
// visit on, a start that restores the snapshot imports that copy and reads the code back.
// Until then, where there is no service worker and outside Chromium, starts import Pyodide's
// own copy, as ever.
import { config, stats } from "./state.js";
import { store } from "./store.js";

const KEPT = "runtimeCode"; // the release whose eager runtime's code is kept

/** @returns {string | null} the runtime a start that restores Python imports (null: Pyodide's own) */
export function restoringRuntime() {
  return store.get(KEPT) === config.release ? config.pyodide.eager : null;
}

let asked = false;

// Once a snapshot is kept or restored: have the eager runtime's code kept for this release,
// if it is not yet, as soon as a service worker controls the page (after a first visit's
// install). stats.runtimeCode says how it went ("keeping", "kept", "failed").
export function keepRuntimeCode() {
  if (asked || store.get(KEPT) === config.release || !config.runtimeCache) return;
  // The hint is V8's: only Chromium's browsers gain. They alone have navigator.userAgentData;
  // Firefox and WebKit keep Pyodide's own copy and start no extra worker (WebKitGTK's page
  // crashed once on a reload in the first test run with it; cause unknown).
  if (!("userAgentData" in navigator)) return;
  const service = navigator.serviceWorker;
  if (!service || typeof Worker !== "function") return;
  asked = true;
  if (service.controller) compileRuntime();
  else service.addEventListener("controllerchange", compileRuntime, { once: true });
}

function compileRuntime() {
  stats.runtimeCode = "keeping";
  /** @type {(error: unknown) => void} */
  const failed = (error) => {
    stats.runtimeCode = "failed";
    console.warn("runtime code not kept:", error);
  };
  /** @type {Worker} */
  let helper;
  try {
    helper = new Worker(config.runtimeCache, { type: "module", name: "lottery-runtime-cache" });
  } catch (error) {
    failed(error);
    return;
  }
  helper.onmessage = ({ data }) => {
    helper.terminate();
    if (!data.ok) return failed(data.error);
    store.set(KEPT, config.release);
    stats.runtimeCode = "kept";
  };
  helper.onerror = (event) => {
    event.preventDefault();
    helper.terminate();
    failed(event.message || "the worker did not load");
  };
  helper.postMessage({ url: config.pyodide.eager });
}

// A start booted with a restoring runtime (the runtime's code kept: Chromium, a returning visit)
// has Pyodide's WebAssembly compiled by a second worker beside the game's, made just after it:
// Chromium reads the compiled code back on that worker's thread, not the game's, while the
// game's worker loads Pyodide's scripts and reads the snapshot. The module goes to the game's
// worker ({type: "wasm"}), or null if it could not be compiled (Pyodide then compiles its own).
/** @param {Worker} game the game's worker, booted with `runtime: restoringRuntime()` set */
export function compileWasm(game) {
  /** @type {Worker | null} */
  let helper = null;
  /** @param {WebAssembly.Module | null} module */
  const send = (module) => {
    helper?.terminate();
    game.postMessage({ type: "wasm", module });
  };
  try {
    helper = new Worker(config.runtimeCache, { type: "module", name: "lottery-wasm" });
  } catch (error) {
    console.warn("wasm:", error);
    send(null);
    return;
  }
  helper.onmessage = ({ data }) => send(data.ok ? data.module : null);
  helper.onerror = (event) => {
    event.preventDefault();
    send(null);
  };
  helper.postMessage({ url: config.pyodide.wasm, compile: true });
}
