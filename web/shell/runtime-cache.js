// A throwaway worker that compiles Pyodide's runtime off the game's thread (js/runtime.js makes
// it, for one job, and ends it once it has answered; docs/build.md):
// - once a release, after a visit is playable, it imports the runtime a returning visit starts
//   from, through the service worker, so that Chromium compiles it whole (its first line asks
//   for that) and keeps the compiled code beside the release's cached copy: the next visit's
//   start reads that code back instead of compiling Pyodide's JavaScript function by function;
// - on such a returning visit, made beside the game's worker, it compiles Pyodide's
//   WebAssembly, whose compiled code Chromium then reads back on this thread, not the game's,
//   and the page hands the module to the game's worker.
//   page -> worker  {url}               the runtime to import (same origin: the worker-src and
//                                       script-src policies allow nothing else)
//                   {url, compile}      the WebAssembly to compile
//   worker -> page  {ok, error?}        imported, or why not
//                   {ok, module?, error?} compiled (a WebAssembly.Module), or why not
/** @param {MessageEvent<{url: string, compile?: boolean}>} event */
self.onmessage = ({ data }) => {
  if (data.compile) {
    WebAssembly.compileStreaming(fetch(data.url)).then(
      (module) => postMessage({ ok: true, module }),
      (error) => postMessage({ ok: false, error: String(error) }),
    );
    return;
  }
  import(data.url).then(
    () => postMessage({ ok: true }),
    (error) => postMessage({ ok: false, error: String(error) }),
  );
};
