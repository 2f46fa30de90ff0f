// The shell's real request operations (web/shell/js/bridge.js) run through a table of cases
// against a real endpoint (tests/endpoint/test_bridge.py runs the same table through
// backends/native.py). Reads {"api": URL, "cases": [...]} on stdin; prints one transcript per
// case. Node lacks the page's storage and document: those are small stand-ins; the network is
// Node's own fetch, wrapped only to lose an answer on purpose (the request still arrives).
import { readFileSync } from "node:fs";

/** localStorage and sessionStorage as a browser keeps them, in memory. */
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
  clear() {
    this.items.clear();
  }
}

const request = JSON.parse(readFileSync(0, "utf8"));
const config = { api: request.api, game: { games: [] } };
const page = /** @type {any} */ (globalThis);
page.window = globalThis;
page.addEventListener = () => {}; // no page events arrive here
page.localStorage = new MemoryStorage();
page.sessionStorage = new MemoryStorage();
if (!("navigator" in globalThis)) page.navigator = {};
page.document = {
  getElementById: (/** @type {string} */ id) =>
    id === "lottery-config" ? { textContent: JSON.stringify(config) } : null,
};

let loseNext = false;
/** @type {Set<Promise<unknown>>} */
const inFlight = new Set();
/** @type {(input: string | URL | Request, init?: RequestInit) => Promise<Response>} */
const realFetch = globalThis.fetch;
/** @type {typeof realFetch} */
globalThis.fetch = (input, init) => {
  const lose = loseNext;
  loseNext = false;
  const sent = realFetch(input, init).then(async (response) => {
    if (!lose) return response;
    await response.arrayBuffer(); // the endpoint answered; the answer never arrives
    throw new TypeError("fetch failed");
  });
  const settled = sent.catch(() => {});
  inFlight.add(settled);
  settled.then(() => inFlight.delete(settled));
  return sent;
};
/** Wait until no request the shell sent (a progress save sends without waiting) is open. */
async function quiet() {
  while (inFlight.size) await Promise.all([...inFlight]);
}

// The page's modules, typed in their own scope (web/shell/tsconfig.json), not Node's.
const shellModule = (/** @type {string} */ name) =>
  import(new URL(`../../web/shell/js/${name}`, import.meta.url).href);
const { perform } = await shellModule("bridge.js");
const { store } = await shellModule("store.js");
const { queue } = await shellModule("state.js");

let id = 0;
/** One request through the shell's entry point, as Python's frame hands it over. */
async function shell(/** @type {Record<string, unknown>} */ req) {
  id += 1;
  perform([{ ...req, id }]);
  for (;;) {
    const at = queue.findIndex(
      (/** @type {{type: string, id?: unknown}} */ event) =>
        event.type === "reply" && event.id === id,
    );
    if (at >= 0) {
      const [reply] = queue.splice(at, 1);
      await quiet();
      return { ok: reply.ok, body: reply.body };
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** The same account, from another device: a plain request with the shell's bearer token. */
async function elsewhere(
  /** @type {{method: string, path: string, body?: unknown, key?: boolean}} */ step,
) {
  /** @type {Record<string, string>} */
  const headers = { Authorization: `Bearer ${store.get("bearer")}` };
  if (step.key) headers["Idempotency-Key"] = crypto.randomUUID();
  if (step.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await realFetch(request.api + step.path, {
    method: step.method,
    headers,
    body: step.body === undefined ? undefined : JSON.stringify(step.body),
  });
  return { status: response.status, body: await response.json() };
}

const transcripts = [];
for (const steps of request.cases) {
  page.localStorage.clear(); // a new browser: a new guest account
  page.sessionStorage.clear();
  const transcript = [];
  let last = null; // the play number a step's path names as {last}
  for (const step of steps) {
    let seen;
    if (step.elsewhere) {
      seen = await elsewhere({
        ...step.elsewhere,
        path: step.elsewhere.path.replace("{last}", last),
      });
    } else {
      loseNext = Boolean(step.lose_answer);
      const req = { ...step.shell };
      if (req.play_number === "{last}") req.play_number = last;
      seen = await shell(req);
    }
    if (seen.body && Number.isInteger(seen.body.play_number)) last = seen.body.play_number;
    transcript.push(seen);
  }
  transcripts.push(transcript);
}
process.stdout.write(JSON.stringify(transcripts));
