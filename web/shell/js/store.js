// The shell's settings and progress in localStorage ("lottery.<key>"), as JSON: one home for
// what this browser keeps across pages and visits (the bearer token, the session flag, each
// game's unfinished play and its purchase's Idempotency-Key, the player's preferences, the
// release whose runtime code is kept: js/runtime.js, the public log's newest checkpoint VERIFY
// checked: js/bridge.js).
export const store = {
  /**
   * @param {string} key
   * @returns {unknown} what was stored (arbitrary JSON: the caller knows what its key holds), or null
   */
  get(key) {
    try {
      return JSON.parse(localStorage.getItem("lottery." + key) ?? "null");
    } catch {
      return null;
    }
  },
  /**
   * @param {string} key
   * @param {unknown} value
   */
  set(key, value) {
    try {
      localStorage.setItem("lottery." + key, JSON.stringify(value));
    } catch {
      /* private mode */
    }
  },
  /** @param {string} key */
  drop(key) {
    try {
      localStorage.removeItem("lottery." + key);
    } catch {
      /* private mode */
    }
  },
};
