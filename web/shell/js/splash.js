// The HTML splash's progress bar, and the failure card that replaces a blank page.
import { $, stats } from "./state.js";

let shown = 0;
// The bar only moves forward (a late download chunk does not pull it back).
/**
 * @param {number} fraction of the way, 0 to 1
 * @param {string} [text]
 */
export function setProgress(fraction, text) {
  const pct = Math.max(3, Math.min(100, Math.round(fraction * 100)));
  if (pct < shown) return;
  shown = pct;
  $("bar-fill").style.width = pct + "%";
  document.querySelector("#splash .bar")?.setAttribute("aria-valuenow", String(pct));
  if (text) $("splash-text").textContent = text;
}

let failed = false;
/**
 * @param {string} message for the player
 * @param {unknown} [error] what went wrong, for the console
 */
export function fail(message, error) {
  if (failed) return;
  failed = true;
  if (error) console.warn("boot failed:", error);
  stats.errors.push(String(message));
  $("splash").hidden = true;
  $("failure-text").textContent = message;
  $("failure").hidden = false;
  $("failure-retry").onclick = () => location.reload();
  $("failure-retry").focus();
}

/**
 * The failure card's sentence for what stopped the start.
 * @param {any} error anything thrown or said (an Error, a worker's message string, ...)
 * @returns {string}
 */
export function explain(error) {
  const text = String(error?.message ? error.message : error);
  if (/fetch|network|404|load/i.test(text)) {
    return "A file of the game could not be downloaded. Check your connection and try again.";
  }
  return (
    "Something went wrong while starting the game (" + text.slice(0, 160) + "). Please try again."
  );
}
