// Requests from Python: network, the token's signature, storage. Python does no I/O: a frame
// may carry requests ({id, op, ...}); each answer goes back as a {type: "reply", id, ok, body}
// event. See docs/drawing.md for the operations.
import { want } from "./sound.js";
import { verifyEd25519 } from "./signature.js";
import { config, queue } from "./state.js";

const api = (/** @type {string} */ path) => (config.api || "") + path;
// The shell's settings and progress in localStorage ("lottery.<key>"), as JSON.
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

class ApiFailure extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {Record<string, unknown>} [detail]
   */
  constructor(code, message, detail = {}) {
    super(message);
    this.code = code;
    this.detail = detail; // what a refusal carries for the page to show (a spend limit's)
  }
}

// The facts of a spend-limit refusal the page shows large (engine/ui/scenes/refusal.py): which
// limit, what is left, when it resets in the player's local time; or the limits still missing.
/**
 * @param {ApiError} err
 * @returns {Record<string, unknown>}
 */
function limitDetail(err) {
  if (err.code === "limits_required") return { missing: err.missing || [] };
  if (err.code !== "limit_reached") return {};
  return { period: err.period, left_pence: err.left_pence, resets_local: localTime(err.resets_at) };
}

// The endpoint sends a time with every refusal that names one ("Invalid Date" if not).
const localTime = (/** @type {string | undefined} */ iso) =>
  new Date(/** @type {string} */ (iso)).toLocaleString(undefined, {
    dateStyle: "medium",
    timeStyle: "short",
  });

// The session credential. On the site's own origin it is the HttpOnly cookie. When the endpoint
// is on another origin (config.api), the cookie may never reach it (another site's cookies are
// not sent), so the token POST /api/session returns is kept here and sent as a bearer token.
/** @returns {Record<string, string>} */
function credential() {
  const token = config.api ? store.get("bearer") : null;
  return typeof token === "string" && token ? { Authorization: "Bearer " + token } : {};
}

/**
 * One request to the endpoint; a refusal or a lost connection throws an ApiFailure.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body] sent as JSON
 * @param {Record<string, string>} [headers]
 * @returns {Promise<unknown>} the answer's JSON (each caller names the shape docs/api.md gives it)
 */
async function call(method, path, body, headers = {}) {
  let response;
  const sent = { ...credential(), ...headers };
  try {
    response = await fetch(api(path), {
      method,
      credentials: "include",
      headers: body === undefined ? sent : { "Content-Type": "application/json", ...sent },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiFailure(
      "network",
      "The connection failed. Check your connection and try again: you will not be charged twice.",
    );
  }
  // A refusal's JSON is {error: {code, message, ...}} (docs/api.md); a proxy's may be anything.
  /** @type {{error?: ApiError} & ApiError} */
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = {};
  }
  if (!response.ok) {
    const err = data.error || data;
    const message =
      response.status === 402
        ? "Insufficient funds: your balance does not cover this play."
        : err.code === "limit_reached"
          ? limitMessage(err)
          : err.code === "cooling_off"
            ? coolingMessage(err)
            : err.message || `The server answered ${response.status}.`;
    throw new ApiFailure(err.code || `http_${response.status}`, message, limitDetail(err));
  }
  return data;
}

// A purchase over a spend limit, in plain words: which limit, what is left, when it resets.
/** @param {ApiError} err */
function limitMessage(err) {
  const pounds = (/** @type {number} */ p) => "£" + (p / 100).toFixed(2);
  const when = localTime(err.resets_at);
  const left = Number.isInteger(err.left_pence)
    ? `${pounds(/** @type {number} */ (err.left_pence))} left`
    : "nothing left";
  return `Your ${err.period || "spend"} limit is reached: ${left} until ${when}. Nothing was charged.`;
}

// A purchase refused after the account's play session (every device's), in plain words: when
// play can resume, in the player's own time; an unfinished play can still be finished.
/** @param {ApiError} err */
function coolingMessage(err) {
  const when = new Date(/** @type {string} */ (err.resumes_at)).toLocaleTimeString(undefined, {
    timeStyle: "short",
  });
  return `Your play session has ended: take a break. You can buy plays again at ${when}. Nothing was charged; an unfinished play can still be finished.`;
}

/** @param {string} text base64url */
function b64urlBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
}

/** @type {PublicKey[] | null} */
let keySet = null;
// The outcome token is a JWS signed with Ed25519; its key must be one /api/keys publishes
// (WebCrypto's Ed25519, or the fallback where the browser has none: js/signature.js).
/**
 * @param {string} token
 * @returns {Promise<unknown>} the token's payload (JSON that Python reads: engine/payload.py)
 */
async function verifyToken(token) {
  const parts = String(token).split(".");
  if (parts.length !== 3)
    throw new ApiFailure("bad_token", "This play could not be verified, so it cannot be shown.");
  try {
    /** @type {{alg?: string, kid?: string}} */
    const header = JSON.parse(new TextDecoder().decode(b64urlBytes(parts[0])));
    if (!keySet) keySet = /** @type {KeySet} */ (await call("GET", "/api/keys")).keys || [];
    const jwk = keySet.find((k) => k.kid === header.kid);
    if (header.alg !== "EdDSA" || !jwk) throw new Error("unknown key");
    const ok = await verifyEd25519(
      jwk.x,
      b64urlBytes(jwk.x),
      b64urlBytes(parts[2]),
      new TextEncoder().encode(parts[0] + "." + parts[1]),
    );
    if (!ok) throw new Error("bad signature");
    return JSON.parse(new TextDecoder().decode(b64urlBytes(parts[1])));
  } catch (error) {
    if (error instanceof ApiFailure && error.code === "network") throw error;
    throw new ApiFailure("bad_token", "This play could not be verified, so it cannot be shown.");
  }
}

function uuid() {
  return crypto.randomUUID
    ? crypto.randomUUID()
    : String(Date.now()) + Math.random().toString(16).slice(2);
}

// Whether this browser may hold a session: it started one here ("session" in localStorage),
// or a service worker of an earlier visit controls the page (a player from before the flag
// existed), or nothing can be remembered. A browser that never started one has no cookie:
// asking for the wallet would only earn a 401, so a first visit starts a session at once.
function mayHaveSession() {
  if (store.get("session")) return true;
  if ("serviceWorker" in navigator && navigator.serviceWorker.controller) return true;
  store.set("session", false);
  return store.get("session") !== false; // storage that keeps nothing: ask the endpoint
}

// The browser session's clock for the reality check: when this tab's session began and the
// balance then (sessionStorage: it lasts while the tab does, across the site's pages).
const BEGAN = "lottery.session-began";
/** @returns {SessionBegan | null} */
function sessionBegan() {
  try {
    return JSON.parse(sessionStorage.getItem(BEGAN) ?? "null");
  } catch {
    return null;
  }
}
/** @param {SessionBegan} began */
function keepBegan(began) {
  try {
    sessionStorage.setItem(BEGAN, JSON.stringify(began));
  } catch {
    /* private mode */
  }
}
/** @param {number} balance */
function sessionClock(balance) {
  let began = sessionBegan();
  if (!began || typeof began.at !== "number") {
    began = { at: Date.now(), balance_pence: balance };
    keepBegan(began);
  }
  return {
    elapsed_ms: Math.max(0, Date.now() - began.at),
    start_balance_pence: began.balance_pence,
  };
}
// Signing in to another account mid-session: the net spend (the start balance less the
// balance) carries on, so the start moves by the change of balance.
/**
 * @param {unknown} before the balance before, as Python knows it (an integer, or not known)
 * @param {unknown} after
 */
function rebaseSessionClock(before, after) {
  const began = sessionBegan();
  if (
    !began ||
    !Number.isInteger(began.balance_pence) ||
    !Number.isInteger(before) ||
    !Number.isInteger(after)
  )
    return;
  keepBegan({
    ...began,
    // Integers, checked above.
    balance_pence:
      began.balance_pence + /** @type {number} */ (after) - /** @type {number} */ (before),
  });
}

async function newSession() {
  store.drop("bearer"); // an expired one must not be sent with the request that replaces it
  const made = /** @type {SessionMade} */ (await call("POST", "/api/session", {}));
  if (config.api && made.token) store.set("bearer", made.token);
  store.set("session", true);
  return { balance_pence: made.balance_pence };
}

// The session and its wallet: found again, or started (a first visit, or an expired session).
/** @returns {Promise<Wallet>} */
async function openSession() {
  if (!mayHaveSession()) return newSession();
  try {
    const wallet = /** @type {Wallet} */ (await call("GET", "/api/wallet"));
    store.set("session", true);
    return wallet;
  } catch (error) {
    if (!(error instanceof ApiFailure) || error.code !== "unauthenticated") throw error; // the session expired: start anew
    return newSession();
  }
}

// ---- asked early -------------------------------------------------------------------------
// What a page's Python asks for first, and waits for before PLAY is enabled: the session
// (GET /api/wallet, or POST /api/session on a first visit) and, on a game's page to play, its
// unfinished play (GET /api/plays?status=unfinished, then the token checked). `askEarly` runs
// those very operations as the page starts, while Pyodide downloads and boots. Each answer
// ({ok, body}, an error word for word) goes to the worker as it comes (`earlyAnswers`), which
// hands the ones it has to Python with its start, so PLAY is enabled in Python's first frame
// (`usedEarly`: those are spent); one that comes later answers Python's first request of that
// name instead. Only the first of each: a retry asks afresh.
/** @type {{session: Promise<Answer> | null, resume: Promise<Answer | null> | null}} */
const early = { session: null, resume: null }; // promises of {ok, body} (resume: or null)
/** @type {string | null} */
let earlyGame = null; // the game whose unfinished play early.resume looks for
/**
 * An operation's outcome as Python's reply carries it: a refusal's sentence for the player.
 * @param {Promise<unknown>} promise
 * @returns {Promise<Answer>}
 */
const answered = (promise) =>
  promise.then(
    (body) => ({ ok: true, body: body || {} }),
    (error) => {
      if (!(error instanceof ApiFailure)) console.warn("shell request:", error);
      return {
        ok: false,
        body: {
          ...(error.detail || {}),
          code: error.code || "error",
          message: error.message || String(error),
        },
      };
    },
  );
/** @type {(answer: Answer) => object} */
const unwrap = ({ ok, body }) => {
  if (!ok) throw new ApiFailure(body.code, body.message);
  return body;
};
/** @param {StartParams} params */
export function askEarly(params) {
  if (params.scene === "check") return; // the system check opens no session
  const session = answered(theSession());
  early.session = session;
  const game = (config.game?.games || []).some((g) => g.id === params.game);
  if (game && params.mode !== "try" && !params.replay) {
    // Not under a session that did not open: then Python's own look asks (after its retry).
    earlyGame = params.game;
    early.resume = session.then((opened) => (opened.ok ? answered(unfinished(params.game)) : null));
  }
}
/** @param {(name: string, answer: Answer) => void} deliver */
export function earlyAnswers(deliver) {
  for (const name of /** @type {(keyof typeof early)[]} */ (Object.keys(early))) {
    const asked = early[name];
    if (asked)
      asked.then((answer) => {
        if (answer && early[name] === asked) deliver(name, answer);
      });
  }
}
/** @param {string[]} names */
export function usedEarly(names) {
  for (const name of names)
    if (name in early) early[/** @type {keyof typeof early} */ (name)] = null;
}

async function theSession() {
  const wallet = await openSession();
  return { ...wallet, session: sessionClock(wallet.balance_pence) };
}

// The choices kept with a play's progress: a list, the choice of each event that waited for one,
// in order. An older shell stored {"<event index>": choice}: such progress is read here, in the
// order of its events, and stored back as a list (by unfinished, once).
/**
 * @param {unknown} kept as stored (JSON: a list, or an older shell's object, or anything)
 * @returns {Choices}
 */
function choiceList(kept) {
  if (Array.isArray(kept)) return kept;
  if (!kept || typeof kept !== "object") return [];
  return Object.keys(kept)
    .map(Number)
    .filter(Number.isInteger)
    .sort((a, b) => a - b)
    .map((i) => /** @type {Record<number, unknown>} */ (kept)[i]);
}

// The game's unfinished play, if any, with its token checked and where it got to.
/** @param {string} game */
async function unfinished(game) {
  const mine = /** @type {Progress | null} */ (store.get("progress." + game));
  const list = /** @type {PlayList} */ (await call("GET", "/api/plays?status=unfinished"));
  const open = (list.plays || []).find((p) => p.game === game);
  if (!open) {
    store.drop("progress." + game);
    return { found: false };
  }
  const same = mine && mine.play_number === open.play_number;
  let token = same ? mine.token : null;
  let index = same ? mine.index : 0;
  let choices = same ? choiceList(mine.choices) : [];
  if (!token) {
    // Bought or played on another device: the endpoint keeps how far it got and the choices.
    const detail = /** @type {PlayDetail} */ (await call("GET", `/api/plays/${open.play_number}`));
    token = detail.token;
    /** @type {NonNullable<PlayDetail["progress"]>} */
    const kept = detail.progress || {};
    index = Number.isInteger(kept.event) ? /** @type {number} */ (kept.event) : 0;
    choices = choiceList(kept.choices);
  }
  const payload = await verifyToken(token);
  store.set("progress." + game, { play_number: open.play_number, token, index, choices });
  return { found: true, play_number: open.play_number, token, payload, index, choices };
}

// Each operation by name (docs/drawing.md), given its request's fields; its answer goes to Python.
/** @type {{[Op in keyof RequestFields]: (req: RequestFields[Op]) => Promise<unknown>}} */
const ops = {
  async session() {
    const asked = early.session;
    early.session = null;
    if (!asked) early.resume = null; // a later session: its own look for a play
    const answer = await (asked || answered(theSession()));
    if (!answer.ok) early.resume = null; // asked under a session that did not open
    return unwrap(answer);
  },
  async purchase(req) {
    // One Idempotency-Key per intended purchase, kept until the play is safely stored: a retry
    // after a lost answer (or a reload) replays the same purchase and is charged once.
    const slot = "purchase-key." + req.game;
    let key = /** @type {string | null} */ (store.get(slot));
    if (!key) {
      key = uuid();
      store.set(slot, key);
    }
    const bought = /** @type {Bought} */ (
      await call("POST", "/api/plays", { game: req.game }, { "Idempotency-Key": key })
    );
    const payload = await verifyToken(bought.token);
    store.set("progress." + req.game, {
      play_number: bought.play_number,
      token: bought.token,
      index: 0,
      choices: [],
    });
    store.drop(slot);
    return { ...bought, payload };
  },
  async resume(req) {
    const asked = req.game === earlyGame ? early.resume : null;
    early.resume = null;
    const answer = asked && (await asked);
    return answer ? unwrap(answer) : unfinished(req.game);
  },
  async save(req) {
    // Each game keeps its own unfinished play ("progress.<game>"): how far it got, the choices made.
    const mine = /** @type {Progress | null} */ (store.get("progress." + req.game));
    if (mine && mine.play_number === req.play_number) {
      store.set("progress." + req.game, { ...mine, index: req.index, choices: req.choices || [] });
    }
    // And at the endpoint, so the play resumes on another device at the same event. A lost
    // answer loses nothing: the next rest sends it again, and this device keeps its own.
    call("PUT", `/api/plays/${req.play_number}/progress`, {
      event: req.index,
      choices: req.choices || [],
    }).catch((error) => console.warn("progress not kept at the endpoint:", error.message));
    return {};
  },
  async finish(req) {
    const done = await call("POST", `/api/plays/${req.play_number}/finish`, {
      choices: req.choices || [],
    });
    const mine = /** @type {Progress | null} */ (store.get("progress." + req.game));
    if (mine && mine.play_number === req.play_number) store.drop("progress." + req.game);
    return done;
  },
  async try(req) {
    // A free play from the game's try pool: nothing is charged, paid or kept.
    const drawn = /** @type {Bought} */ (await call("POST", "/api/try", { game: req.game }));
    return { ...drawn, payload: await verifyToken(drawn.token) };
  },
  async recall(req) {
    // A finished play, to replay: the endpoint rebuilt its book and checked it against the
    // hash recorded at purchase; the token is checked here as at purchase.
    const play = /** @type {Bought} */ (
      await call("GET", `/api/plays/${Number(req.play_number)}/recall`)
    );
    return { ...play, payload: await verifyToken(play.token) };
  },
  async reality_seen() {
    // The reality check was shown: recorded for the account (every device's); the answer
    // says when the next one is due.
    return call("POST", "/api/play-time/reality-check", {});
  },
  async code() {
    // A one-time code (10 minutes) that signs this account in on another device.
    return call("POST", "/api/account/code", {});
  },
  async signin(req) {
    // Sign this browser in to the account of a code shown on another device.
    const typed = prompt(
      "The sign-in code shown on your other device (Account, Get a sign-in code):",
    );
    if (!typed?.trim()) return { cancelled: true };
    const made = /** @type {SessionMade} */ (
      await call("POST", "/api/session", { code: typed.trim().toUpperCase() })
    );
    if (config.api && made.token) store.set("bearer", made.token);
    store.set("session", true);
    rebaseSessionClock(req.balance_pence, made.balance_pence);
    return { balance_pence: made.balance_pence, session: sessionClock(made.balance_pence) };
  },
  async logout(req) {
    // Log this device out, or (every) every device of the account: the endpoint ends the
    // session(s) and clears the cookie; this browser forgets its token, so the next page
    // starts a new guest session (or signs in with a code).
    const path = req.every ? "/api/session/logout-all" : "/api/session/logout";
    const ended = /** @type {object} */ (await call("POST", path, {}));
    store.drop("bearer");
    store.set("session", false);
    return { ...ended, every: Boolean(req.every) };
  },
  async verify_play(req) {
    // VERIFY: the play's entry and proof, the token's signature checked here with WebCrypto
    // against the published keys, and the root and kind (paid or try) published for its pool
    // (the rest of the steps run in Python: engine/ui/scenes/verify.py).
    const detail = /** @type {PlayDetail} */ (
      await call("GET", `/api/plays/${Number(req.play_number)}`)
    );
    /** @type {{ok: boolean, kid?: string}} */
    let signature = { ok: false };
    /** @type {unknown} */
    let payload = null;
    try {
      payload = await verifyToken(detail.token);
      const header = JSON.parse(
        new TextDecoder().decode(b64urlBytes(String(detail.token).split(".")[0])),
      );
      signature = { ok: true, kid: header.kid };
    } catch (error) {
      if (error instanceof ApiFailure && error.code === "network") throw error;
    }
    const published = /** @type {Published} */ (
      await call(
        "GET",
        `/api/pools/${encodeURIComponent(detail.game)}/${encodeURIComponent(detail.pool.id)}`,
      )
    );
    return {
      detail,
      signature,
      payload,
      published: { root: published.root, kind: published.kind },
    };
  },
  async limits() {
    return call("GET", "/api/limits");
  },
  async set_limits(req) {
    // Lowering takes effect at once; the endpoint keeps a raise for 24 hours first.
    /** @type {RequestFields["set_limits"]} */
    const wanted = {};
    for (const key of /** @type {const} */ (["daily_pence", "weekly_pence"]))
      if (key in req) wanted[key] = req[key];
    return call("PUT", "/api/limits", wanted);
  },
  async plays(req) {
    // A page of My Games, newest first.
    const query = new URLSearchParams({ limit: String(req.limit || 20) });
    if (req.cursor) query.set("cursor", req.cursor);
    return call("GET", `/api/plays?${query}`);
  },
  async open(req) {
    // Another page of the site: the lobby (no parameters) or a game (?game=ID...). The
    // settings the shell keeps travel with the player (localStorage), not in the address.
    const wanted = new URLSearchParams();
    for (const [key, value] of Object.entries(req.params || {})) wanted.set(key, String(value));
    for (const key of ["fast", "realityCheck"]) {
      const now = new URLSearchParams(location.search).get(key);
      if (now !== null) wanted.set(key, now);
    }
    const query = wanted.toString();
    location.assign(location.pathname + (query ? "?" + query : ""));
    return {};
  },
  async pref(req) {
    // One setting a request: faster animations or sound.
    for (const key of /** @type {const} */ (["fast", "sound"]))
      if (key in req) store.set(key, !!req[key]);
    if ("sound" in req) want(req.sound);
    return {};
  },
};

let unanswered = 0; // requests performed whose answers are not yet queued for Python
export const answering = () => unanswered > 0;

// The requests of a frame, as Python's JSON gives them: each operation reads the fields it
// names (RequestFields), unchecked here as Python sends them (App.request).
/** @param {ShellRequest[]} requests */
export function perform(requests) {
  for (const req of requests) {
    const op =
      /** @type {Record<string, ((req: ShellRequest) => Promise<unknown>) | undefined>} */ (
        /** @type {unknown} */ (ops)
      )[req.op];
    unanswered += 1;
    /** @type {(ok: boolean, body: object) => void} */
    const reply = (ok, body) => {
      unanswered -= 1;
      queue.push({ type: "reply", id: req.id, ok, body });
    };
    if (!op) {
      reply(false, { code: "unknown_op", message: "Unknown request " + req.op });
      continue;
    }
    answered(op(req)).then(({ ok, body }) => reply(ok, body));
  }
}
