// A throwaway worker (js/runtime.js makes it once a release, after a visit is playable): it
// imports the runtime a returning visit starts from, through the service worker, so that
// Chromium compiles it whole (its first line asks for that) off the game's thread and keeps the
// compiled code beside the release's cached copy. The next visit's start reads that code back
// instead of compiling Pyodide's JavaScript function by function (docs/build.md).
//   page -> worker  {url}           the runtime to import (same origin: the worker-src and
//                                   script-src policies allow nothing else)
//   worker -> page  {ok, error?}    imported, or why not
/** @param {MessageEvent<{url: string}>} event */
self.onmessage = ({ data }) => {
  import(data.url).then(
    () => postMessage({ ok: true }),
    (error) => postMessage({ ok: false, error: String(error) }),
  );
};
