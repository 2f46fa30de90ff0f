// What every part of the shell shares: the build's configuration, the figures the tests and
// benchmarks read (window.lottery.stats), and the queue of events for Python's next frame.
performance.mark("lottery-shell");
/** The page's element of this id: index.html has each one the shell asks for. @type {(id: string) => HTMLElement} */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @type {ShellConfig} */
export const config = JSON.parse($("lottery-config").textContent || "{}");
/** @type {Stats} */
export const stats = {
  frames: 0,
  frameAt: [],
  pythonMs: [],
  drawMs: [],
  bootStart: performance.now(),
  readyMs: null,
  errors: [],
  boot: null,
  snapshot: null,
};
window.lottery = { config, stats, ready: false };
// Input, resizes and answers to Python's requests, handed to Python with the next frame.
/** @type {ShellEvent[]} */
export const queue = [];

// Append to one of the stats' series, keeping the newest 1,000 to 2,000 values.
/**
 * @param {number[]} series
 * @param {number} value
 */
export function record(series, value) {
  series.push(value);
  if (series.length > 2000) series.splice(0, 1000);
}
