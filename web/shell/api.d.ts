// The endpoint's answers the page reads (docs/api.md; only the fields read here), and what the
// page keeps of them in the browser's storage: the page's request operations (js/bridge.js,
// js/endpoint.js, js/session.js, js/progress.js) name these. For the page's type check only
// (tsconfig.json; the worker makes no request to the endpoint); not shipped. Checked against the
// endpoint's answers and its OpenAPI document (tests/endpoint/http/test_shell_api_types.py).
// A global script, no import or export, like types.d.ts.

interface ApiError {
  code?: string;
  message?: string;
  /** limit_reached */
  period?: string;
  left_pence?: number;
  resets_at?: string;
  /** limits_required */
  missing?: string[];
  /** cooling_off */
  resumes_at?: string;
}
interface Wallet {
  balance_pence: number;
}
/** POST /api/session: the bearer token too when the endpoint is on another origin. */
interface SessionMade {
  balance_pence: number;
  token?: string;
}
/** A public key that signs outcome tokens (a JWK, Ed25519: x is its base64url bytes). */
interface PublicKey {
  kid: string;
  x: string;
}
/** GET /api/keys */
interface KeySet {
  keys?: PublicKey[];
}
/** GET /api/plays?status=unfinished */
interface PlayList {
  plays?: { game: string; play_number: number }[];
}
/** GET /api/plays/{n}: the play's entry, proof and pool (the rest goes to Python as it is);
 * `log` null until a checkpoint of the public log covers the sale. */
interface PlayDetail {
  game: string;
  token: string;
  pool: { id: string };
  log?: { index: number; size: number; proof: string } | null;
  progress?: { event?: number; choices?: unknown };
}
/** POST /api/plays, POST /api/try, GET /api/plays/{n}/recall: a play and its token. */
interface Bought {
  play_number: number;
  token: string;
}
/** GET /api/pools/{game}/{id}: the pool's published root and kind. */
interface Published {
  root: string;
  kind: string;
}
/** The start of this tab's browser session, as keepBegan stores it (sessionStorage). */
interface SessionBegan {
  at: number;
  balance_pence: number;
}
/** The newest checkpoint of the public log VERIFY checked ("lottery.log.checkpoint"): its
 * size and its signed note. */
interface LogSeen {
  size: number;
  checkpoint: string;
}
/** What this device keeps of a game's unfinished play ("lottery.progress.<game>"). */
interface Progress {
  play_number: number;
  token: string;
  index: number;
  choices: unknown;
}
