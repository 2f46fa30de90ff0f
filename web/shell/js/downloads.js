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
