// One request to the endpoint and what its answer means for the page: the credential sent, a
// refusal turned into an ApiFailure with the player's sentence (a spend limit's or a cooling-off's
// facts too), and the outcome token checked against the keys /api/keys publishes. Used by
// js/bridge.js (the operations), js/session.js and js/progress.js.
import { verifyEd25519 } from "./signature.js";
import { config } from "./state.js";
import { store } from "./store.js";

const api = (/** @type {string} */ path) => (config.api || "") + path;

export class ApiFailure extends Error {
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
// limit, what is left, when it resets; when play resumes; or the limits still missing. Times go
// as the endpoint sent them: the game writes every time itself, one way (Visit.when).
/**
 * @param {ApiError} err
 * @returns {Record<string, unknown>}
 */
function limitDetail(err) {
  if (err.code === "limits_required") return { missing: err.missing || [] };
  if (err.code === "cooling_off") return { resumes_at: err.resumes_at };
  if (err.code !== "limit_reached") return {};
  return { period: err.period, left_pence: err.left_pence, resets_at: err.resets_at };
}

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
export async function call(method, path, body, headers = {}) {
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
            ? coolingMessage()
            : err.message || `The server answered ${response.status}.`;
    throw new ApiFailure(err.code || `http_${response.status}`, message, limitDetail(err));
  }
  return data;
}

/**
 * A text document of the endpoint's (the log's policy, c2sp.org/tlog-policy); null when the
 * endpoint serves none (404 or any refusal); a lost connection throws an ApiFailure.
 * @param {string} path
 * @returns {Promise<string | null>}
 */
export async function text(path) {
  let response;
  try {
    response = await fetch(api(path), { credentials: "include", headers: credential() });
  } catch {
    throw new ApiFailure("network", "The connection failed. Check your connection and try again.");
  }
  return response.ok ? response.text() : null;
}

// A purchase over a spend limit, in plain words: which limit, what is left (when it resets is
// on the game's own screen for it, engine/ui/scenes/refusal.py, as every time is written).
/** @param {ApiError} err */
function limitMessage(err) {
  const pounds = (/** @type {number} */ p) => "£" + (p / 100).toFixed(2);
  const left = Number.isInteger(err.left_pence)
    ? `${pounds(/** @type {number} */ (err.left_pence))} left`
    : "nothing left";
  return `Your ${err.period || "spend"} limit is reached: ${left}. Nothing was charged.`;
}

// A purchase refused after the account's play session (every device's), in plain words (when
// play can resume is on the game's screen for it); an unfinished play can still be finished.
function coolingMessage() {
  return "Your play session has ended: take a break. Nothing was charged; an unfinished play can still be finished.";
}

/** @param {string} text base64url */
export function b64urlBytes(text) {
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
export async function verifyToken(token) {
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
