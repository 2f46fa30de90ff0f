// Requests from Python: network, the token's signature, storage. Python does no I/O: a frame
// may carry requests ({id, op, ...}); each answer goes back as a {type: "reply", id, ok, body}
// event. See docs/drawing.md for the operations.
// Its parts: js/store.js (localStorage), js/endpoint.js (one request, the token's check),
// js/session.js (the session and the reality check's clock), js/progress.js (an unfinished play).
import { ApiFailure, b64urlBytes, call, text, verifyToken } from "./endpoint.js";
import { unfinished } from "./progress.js";
import { rebaseSessionClock, sessionClock, theSession } from "./session.js";
import { verifyEd25519 } from "./signature.js";
import { want } from "./sound.js";
import { config, queue } from "./state.js";
import { store } from "./store.js";

function uuid() {
  return crypto.randomUUID
    ? crypto.randomUUID()
    : String(Date.now()) + Math.random().toString(16).slice(2);
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
    // against the published keys, and the root and kind (paid or try) published for its pool;
    // once a checkpoint covers the sale, the site's log policy, the checkpoint this browser
    // kept (keep_checkpoint) and the consistency proof between the two sizes. The steps run in
    // Python (engine/ui/scenes/verify.py, verify_log.py), which asks check_signatures next.
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
    const log = detail.log || null;
    const seen = log ? /** @type {LogSeen | null} */ (store.get("log.checkpoint")) : null;
    /** @type {unknown} */
    let consistency = null;
    if (log && seen && seen.size !== log.size) {
      const [old, now] = [Math.min(seen.size, log.size), Math.max(seen.size, log.size)];
      consistency = await call("GET", `/api/log/consistency?old=${old}&new=${now}`).catch(
        (error) => {
          if (error instanceof ApiFailure && error.code === "network") throw error;
          return null; // the step says no proof came
        },
      );
    }
    return {
      detail,
      signature,
      payload,
      published: { root: published.root, kind: published.kind },
      policy: log ? await text("/log/policy") : null,
      seen: seen ? seen.checkpoint : null,
      consistency,
    };
  },
  async check_signatures(req) {
    // Ed25519 signatures Python cannot check in the browser (a checkpoint's, its witnesses'):
    // each {key, message, signature} in base64, answered true or false in order.
    const bytes = (/** @type {string} */ b64) => b64urlBytes(b64);
    const url = (/** @type {string} */ b64) =>
      b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const ok = await Promise.all(
      (req.items || []).map((item) =>
        verifyEd25519(url(item.key), bytes(item.key), bytes(item.signature), bytes(item.message))
          .then((good) => good === true)
          .catch(() => false),
      ),
    );
    return { ok };
  },
  async keep_checkpoint(req) {
    // The newest checkpoint of the public log VERIFY has checked, kept on this device: the next
    // VERIFY asks for a proof that the log's history since extends it (a split view fails).
    store.set("log.checkpoint", { size: Number(req.size), checkpoint: String(req.checkpoint) });
    return {};
  },
  async remaining(req) {
    // Prizes remaining per tier of the game's current pool, counted from the public log up to
    // its newest checkpoint (Rules and Prizes shows them; absent when the endpoint says none).
    return call("GET", `/api/pools/${encodeURIComponent(req.game)}/remaining`);
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
  async protections() {
    return call("GET", "/api/protections");
  },
  async protect(req) {
    // A break, a self-exclusion (after its plain-words screen: understood), or play asked back
    // after an exclusion's term: the endpoint stops paid play and TRY on every device.
    if (!["break", "exclusion", "return"].includes(req.what))
      throw new ApiFailure("invalid_request", "Unknown protection " + req.what);
    /** @type {{length?: string, understood?: boolean}} */
    const fields = {};
    if (req.length !== undefined) fields.length = req.length;
    if (req.understood !== undefined) fields.understood = req.understood;
    return call("POST", `/api/protections/${req.what}`, fields);
  },
  async my_data() {
    // Everything the endpoint keeps about the account, saved as a JSON file by the browser.
    const data = /** @type {{account: {id: string}, plays?: unknown[]}} */ (
      await call("GET", "/api/account/data")
    );
    const name = `lottery-account-${data.account.id}.json`;
    const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    return { saved: true, name, plays: (data.plays || []).length };
  },
  async close_account() {
    // The account closed (plays settled, balance paid out, every device unlinked): this
    // browser forgets its session, so the next page starts a new guest.
    const closed = /** @type {object} */ (
      await call("POST", "/api/account/close", { confirm: true })
    );
    store.drop("bearer");
    store.set("session", false);
    return closed;
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
    // One setting a request: faster animations, sound, or the music's or effects' volume.
    for (const key of /** @type {const} */ (["fast", "sound"]))
      if (key in req) store.set(key, !!req[key]);
    for (const key of /** @type {const} */ (["music", "effects"]))
      if (key in req) store.set(key, Number(req[key]));
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
