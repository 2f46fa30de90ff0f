// The worker's own timeline, for the load benchmark (docs/build.md, "Figures"): what the worker
// downloaded (its resource timing: Pyodide's module and runtime, the WebAssembly, the standard
// library, the game's zips) and how long its steps took (WebAssembly's compile and instantiate,
// Python's start), sent to the page with the first frame. The page's resource timing does not
// see a worker's requests, and a benchmark's driver may not reach the worker's realm (Firefox's
// WebDriver BiDi did not), so the worker tells the page.
/** @type {[string, number, number][]} */
const spans = [];

// A step of the start: its name, and its start and end (this worker's performance.now()).
/**
 * @param {string} name
 * @param {number} start
 * @param {number} [end]
 */
export function span(name, start, end = performance.now()) {
  spans.push([name, start, end]);
}

// Time each WebAssembly compile and instantiate Pyodide asks for until `restore()` is called
// (spans `wasm-instantiateStreaming`: download and compile together, or `wasm-instantiate`).
export function timeWebAssembly() {
  const wasm = /** @type {any} */ (WebAssembly);
  const originals = {
    instantiate: wasm.instantiate,
    instantiateStreaming: wasm.instantiateStreaming,
  };
  for (const [name, original] of Object.entries(originals)) {
    if (typeof original !== "function") continue;
    /** @param {unknown[]} args */
    wasm[name] = (...args) => {
      const start = performance.now();
      const done = original.apply(wasm, args);
      done.then(
        () => span(`wasm-${name}`, start),
        () => span(`wasm-${name}-failed`, start),
      );
      return done;
    };
  }
  return () => Object.assign(wasm, originals);
}

// The timeline so far: this worker's time origin (epoch ms), each request
// [path, start, first byte, end, bytes transferred, body bytes] and each span [name, start, end],
// in ms from that origin.
/** @returns {WorkerTimings} */
export function timings() {
  const resources = performance.getEntriesByType("resource").map((entry) => {
    const r = /** @type {PerformanceResourceTiming} */ (entry);
    const path = new URL(r.name).pathname;
    /** @type {WorkerTimings["resources"][number]} */
    const request = [
      path,
      r.startTime,
      r.responseStart,
      r.responseEnd,
      r.transferSize,
      r.encodedBodySize,
    ];
    return request;
  });
  return { origin: performance.timeOrigin, resources, spans: spans.slice() };
}
