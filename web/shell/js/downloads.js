// Downloads with progress, in the worker: Pyodide fetches its own files; wrapping fetch while
// Python starts lets the page's bar show real bytes (sent to the page at most every 40 ms).
export const plainFetch = globalThis.fetch.bind(globalThis);

// A fetch that counts the bytes of the files in `expected` (path -> uncompressed bytes) and
// calls report(fraction received); a 404 of one of them calls failed(error) at once (Pyodide
// swallows some download errors and would wait forever).
/**
 * @param {Record<string, number>} expected
 * @param {(fraction: number) => void} report
 * @param {(error: Error) => void} failed
 * @returns {typeof fetch}
 */
export function countingFetch(expected, report, failed) {
  /** @type {Record<string, number>} */
  const received = {};
  const totalBytes = Object.values(expected).reduce((a, b) => a + b, 0);
  let last = 0;
  /** @param {boolean} force */
  function progress(force) {
    const now = performance.now();
    if (!force && now - last < 40) return;
    last = now;
    report(Object.values(received).reduce((a, b) => a + b, 0) / totalBytes);
  }
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    return plainFetch(input, init).then((response) => {
      const key = url.pathname;
      if (!(key in expected) || !response.ok || !response.body) {
        if (!response.ok && key in expected) {
          const error = new Error(`HTTP ${response.status} loading ${key}`);
          failed(error);
          throw error;
        }
        return response;
      }
      // Count bytes on a clone and hand Pyodide the original response: a response keeps its
      // URL, so Chromium can reuse its compiled-WebAssembly cache on the next visit.
      const body = response.clone().body;
      if (!body) return response; // nothing to count (an empty answer)
      const reader = body.getReader();
      received[key] = 0;
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            progress(true);
            return;
          }
          received[key] += value.byteLength;
          progress(false);
        }
      })().catch(() => {});
      return response;
    });
  };
}

// Start downloads before they are asked for: the first fetch of each of `urls` is handed the
// response already under way (once); any other goes to `fetcher`. The worker starts
// Pyodide's WebAssembly and standard library so while it reads the interpreter snapshot from
// Cache Storage (which Pyodide's start must wait for: restore or start afresh): a cold visit
// in Firefox waited up to 0.5 s for that read before the downloads began (docs/build.md).
/**
 * @param {typeof fetch} fetcher
 * @param {string[]} urls
 * @returns {typeof fetch}
 */
export function fetchAhead(fetcher, urls) {
  /** @param {RequestInfo | URL} input */
  const key = (input) =>
    new URL(input instanceof Request ? input.url : String(input), location.href).href;
  const waiting = new Map(urls.map((url) => [key(url), fetcher(url)]));
  for (const started of waiting.values()) started.catch(() => {}); // reported when asked for
  return (input, init) => {
    const started = waiting.get(key(input));
    if (started === undefined) return fetcher(input, init);
    waiting.delete(key(input));
    return started;
  };
}
