// Pyodide's WebAssembly, downloaded and compiled as soon as `start()` is called instead of once
// Pyodide's runtime (pyodide.asm.mjs) is loaded and asks for it (docs/build.md, "Figures"): the
// worker starts it on a first visit once it finds no snapshot, so the 2.7 MB download runs while
// Pyodide's scripts are fetched. Without `start()`, Pyodide's own fetch and instantiation run.
// Pyodide fetches the file itself (its `instantiateWasm`): the fetch made here hands it the
// response already being compiled, and `WebAssembly.instantiateStreaming` given that response
// instantiates the compiled module (what Pyodide asked for: {module, instance}).

/**
 * @param {string} url pyodide.asm.wasm's
 * @param {typeof fetch} fetcher the fetch to download it with (the worker's counting one)
 * @returns {{fetch: typeof fetch, start: () => Promise<unknown> | null, restore: () => void}}
 *   the fetch to give Pyodide, the start of the compile (its promise), and the undoing of
 *   the change to WebAssembly
 */
export function compileEarly(url, fetcher) {
  const wasm = /** @type {any} */ (globalThis).WebAssembly;
  if (
    typeof wasm?.compileStreaming !== "function" ||
    typeof wasm.instantiateStreaming !== "function"
  )
    return { fetch: fetcher, start: () => null, restore: () => {} }; // Pyodide's own way
  const href = new URL(url, location.href).href;
  /** @type {Promise<Response> | null} */
  let response = null;
  /** @type {Promise<WebAssembly.Module> | null} */
  let compiled = null;
  let handed = false;
  /** @type {typeof fetch} */
  const fetching = (input, init) => {
    const asked = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (handed || response === null || asked.href !== href) return fetcher(input, init);
    handed = true; // once: a second start (a snapshot that did not restore) fetches afresh
    return response;
  };
  const original = wasm.instantiateStreaming;
  /**
   * @param {Promise<Response> | Response} source
   * @param {WebAssembly.Imports} imports
   */
  wasm.instantiateStreaming = async (source, imports) => {
    if (source !== response || compiled === null) return original.call(wasm, source, imports);
    /** @type {WebAssembly.Module} */
    let module;
    try {
      module = await compiled;
    } catch (error) {
      // e.g. served with another type than application/wasm: compile the bytes instead (the
      // early response's body may be spent, so ask again).
      console.warn("WebAssembly compile:", error);
      const bytes = await (await fetcher(href)).arrayBuffer();
      return wasm.instantiate(bytes, imports);
    }
    return { module, instance: await wasm.instantiate(module, imports) };
  };
  return {
    fetch: fetching,
    start: () => {
      if (compiled !== null) return compiled;
      response = fetcher(href);
      compiled = wasm.compileStreaming(response);
      compiled?.catch(() => {}); // a failure is met where Pyodide instantiates (above)
      return compiled;
    },
    restore: () => {
      wasm.instantiateStreaming = original;
    },
  };
}
