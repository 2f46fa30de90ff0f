// The page's bridge (web/shell/js/bridge.js) performing requests Python sends, in Node: reads
// {"requests": [...], "stored": {key: value}} on stdin, prints {"replies": [...], "stored": {...}}
// (localStorage after them). Node lacks the page's storage and document: small stand-ins; its
// WebCrypto has Ed25519, as the browsers the page supports natively do (js/signature.js).
import { readFileSync } from "node:fs";

class MemoryStorage {
  constructor() {
    /** @type {Map<string, string>} */
    this.items = new Map();
  }
  /** @param {string} key */
  getItem(key) {
    return this.items.has(key) ? /** @type {string} */ (this.items.get(key)) : null;
  }
  /** @param {string} key @param {string} value */
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  /** @param {string} key */
  removeItem(key) {
    this.items.delete(key);
  }
}

const input = JSON.parse(readFileSync(0, "utf8"));
const page = /** @type {any} */ (globalThis);
page.window = globalThis;
page.addEventListener = () => {};
page.localStorage = new MemoryStorage();
page.sessionStorage = new MemoryStorage();
for (const [key, value] of Object.entries(input.stored || {}))
  page.localStorage.setItem(key, JSON.stringify(value));
page.document = {
  getElementById: (/** @type {string} */ id) =>
    id === "lottery-config"
      ? { textContent: JSON.stringify({ api: input.api || "", game: { games: [] } }) }
      : null,
};
// The page's modules, typed in their own scope (web/shell/tsconfig.json), not Node's.
const shellModule = (/** @type {string} */ name) =>
  import(new URL(`../web/shell/js/${name}`, import.meta.url).href);
const { perform, answering } = await shellModule("bridge.js");
const { queue } = await shellModule("state.js");
perform(input.requests);
while (answering()) await new Promise((resolve) => setTimeout(resolve, 5));
const stored = Object.fromEntries(
  [...page.localStorage.items].map(([key, value]) => [key, JSON.parse(value)]),
);
console.log(JSON.stringify({ replies: queue, stored }));
