// A game's unfinished play, to resume: this device's progress for the same play comes before
// the endpoint's kept progress, the endpoint's for a play this device has none of; the token is
// checked either way (tests/endpoint/test_bridge.py pins the precedence). Used by js/bridge.js.
import { call, verifyToken } from "./endpoint.js";
import { store } from "./store.js";

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
export async function unfinished(game) {
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
