// Downloads with progress: Pyodide fetches its own files; wrapping fetch during boot lets the
// bar show real bytes.
import { config } from "./state.js";
import { explain, fail, setProgress } from "./splash.js";

const expected = config.sizes; // path -> uncompressed bytes
const received = {};
const totalBytes = Object.values(expected).reduce((a, b) => a + b, 0);
let drawing = false;
// Chunks arrive far more often than the screen refreshes: the bar moves once a frame at most.
function bytesProgress() {
  if (drawing) return;
  drawing = true;
  requestAnimationFrame(() => {
    drawing = false;
    const got = Object.values(received).reduce((a, b) => a + b, 0);
    setProgress(0.05 + 0.8 * (got / totalBytes), "Downloading the game…");
  });
}
export const plainFetch = window.fetch.bind(window);
export function countingFetch(input, init) {
  const url = new URL(input instanceof Request ? input.url : String(input), location.href);
  return plainFetch(input, init).then((response) => {
    const key = url.pathname;
    if (!(key in expected) || !response.ok || !response.body) {
      if (!response.ok && key in expected) {
        // Pyodide swallows some download errors and would wait forever: fail here, clearly.
        const error = new Error(`HTTP ${response.status} loading ${key}`);
        fail(explain(error), error);
        throw error;
      }
      return response;
    }
    // Count bytes on a clone and hand Pyodide the original response: a response keeps its
    // URL, so Chromium can reuse its compiled-WebAssembly cache on the next visit.
    const reader = response.clone().body.getReader();
    received[key] = 0;
    (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received[key] += value.byteLength;
        bytesProgress();
      }
    })().catch(() => {});
    return response;
  });
}
