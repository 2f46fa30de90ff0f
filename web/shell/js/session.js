// The browser's session with the endpoint: found again or started (POST /api/session), and
// the tab's clock for the reality check (when the session began, the balance then), moved on
// by a sign-in to another account so the net spend carries on. Used by js/bridge.js.
import { ApiFailure, call } from "./endpoint.js";
import { config } from "./state.js";
import { store } from "./store.js";

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
export function sessionClock(balance) {
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
export function rebaseSessionClock(before, after) {
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

// The session opened (or started) with its clock, as Python's "session" request answers.
export async function theSession() {
  const wallet = await openSession();
  return { ...wallet, session: sessionClock(wallet.balance_pence) };
}
