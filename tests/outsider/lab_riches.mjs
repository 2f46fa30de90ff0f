// An outsider's Lab Riches generator (models lab-riches/1, /2 and /3), written from
// docs/books.md ("Rebuilding a Lab Riches book from its seed", its sections "Model
// `lab-riches/2`: a losing play is a random play that lost" and "Model `lab-riches/3`: the
// procedure's order, every meter box, motifs at the start, no cap") and docs/rng.md alone,
// never from the engine: the lists and steps 1-5 (a composition's plan) in lab_riches_plan.mjs,
// the random plays, step 6 (the events) and the book here.
// tests/test_outsider_rebuild.py holds it to the engine's books, byte for byte.
//
//   node tests/outsider/lab_riches.mjs MODEL COMPOSITION_JSON SEED_HEX   -> one book's JSON
//   node tests/outsider/lab_riches.mjs < requests.jsonl                  -> one book a line
// where each request line is {"model": ..., "composition": [...], "seed": "<32 hex digits>"}.

import { dumps, serve, Stream } from "./common.mjs";
import {
  boxAt,
  constructPlan,
  EXTRA_GOES_VALUES,
  isSymbol,
  LAYOUTS,
  LIGHTNING_VALUES,
  METER_BOXES,
  PRIZE_BOXES,
  sameAward,
  startRow,
  stopWeights,
  symbolBytes,
  SYMBOLS,
} from "./lab_riches_plan.mjs";

/** @typedef {import("./lab_riches_plan.mjs").Award} Award */
/** @typedef {import("./lab_riches_plan.mjs").Prize} Prize */
/** @typedef {import("./lab_riches_plan.mjs").Plan} Plan */

// ---- the generator, step by step ------------------------------------------------------

const MODELS = ["lab-riches/1", "lab-riches/2", "lab-riches/3"];
const RANDOM_PLAYS = 64;

/**
 * @param {string} model
 * @param {Prize[]} composition
 * @param {string} seedHex
 */
export function buildBook(model, composition, seedHex) {
  if (!MODELS.includes(model)) {
    throw new Error(
      `only models lab-riches/1, lab-riches/2 and lab-riches/3 are documented: ${model}`,
    );
  }
  const seed = Buffer.from(seedHex, "hex");
  if (seed.length !== 16 || seed.toString("hex") !== seedHex.toLowerCase()) {
    throw new Error("the seed must be 32 hex digits");
  }
  const stream = new Stream(Buffer.concat([Buffer.from(model, "utf8"), Buffer.from([0]), seed]));
  // Model 3 differs from model 2 in four places (docs/books.md): the start row (S), no cap on
  // goes, the Bonus Game before the locks, and a meter_box event for every box reached.
  const m3 = model === "lab-riches/3";
  let plan = null;
  if (model !== "lab-riches/1" && composition.length === 0) {
    for (let play = 0; play < RANDOM_PLAYS && plan === null; play++) plan = randomPlay(stream, m3);
  }
  plan ??= constructPlan(stream, composition, m3);
  const events = playEvents(stream, plan, m3);

  // Step 7: the bytes.
  return dumps({
    schema: 1,
    game: "lab-riches",
    model,
    prize_pence: composition.reduce((s, p) => s + p.pence, 0),
    composition,
    seed: seed.toString("hex"),
    events,
  });
}

// Models lab-riches/2 and /3, a losing play: one random play by steps R1-R4; its plan if it
// won nothing, else null (its draws are spent).
/**
 * @param {Stream} stream
 * @param {boolean} m3
 * @returns {Plan | null}
 */
function randomPlay(stream, m3) {
  // R1: the start row (model 3: S).
  const top = [m3 ? startRow(stream) : symbolBytes(stream, 4).map((s) => SYMBOLS[s])];
  // R2: the goes.
  let total = 6;
  /** @type {Map<number, Award>} */
  const triggers = new Map();
  for (let go = 1; go <= total; go++) {
    for (;;) {
      /** @type {Array<string | null>} */
      const row = [null, null, null, null];
      let v = 0;
      if (stream.chance(36, 256)) {
        const c = stream.below(4);
        const value = stream.choice(EXTRA_GOES_VALUES);
        if (m3 || total + value <= 15) {
          row[c] = `extra-goes/${value}`;
          v = value;
        }
      }
      for (let c = 0; c < 4; c++) {
        if (row[c] !== null) continue;
        const b = stream.below(256);
        if (b < 18) row[c] = `lightning/${stream.choice(LIGHTNING_VALUES)}`;
        else if (b < 34) row[c] = "bonus";
        else row[c] = SYMBOLS[symbolBytes(stream, 1)[0]];
      }
      let award = null;
      if (row.filter((square) => square === "bonus").length >= 3) {
        for (const layout of LAYOUTS) {
          award = stream.choice(layout);
          if (award[0] !== "up") break;
        }
        // LAYOUTS is not empty: the loop drew an award.
        const more =
          /** @type {Award} */ (award)[0] === "extra-goes" ? /** @type {Award} */ (award)[1] : 0;
        if (triggers.size >= 2 || (!m3 && total + v + more > 15)) continue;
      }
      total += v + (award !== null && award[0] === "extra-goes" ? award[1] : 0);
      if (award !== null) triggers.set(go, award);
      top.push(row);
      break;
    }
  }
  // R3: the locks.
  const G = [0, 1, 2, 3].map((c) => {
    const goes = [];
    for (let g = 1; g <= total; g++) if (isSymbol(top[g][c])) goes.push(g);
    return goes;
  });
  const lock = [];
  for (let r = 0; r < 5; r++) {
    lock.push(
      G.map((goes) => {
        let found = 0;
        for (const g of goes) {
          const b = stream.read(1)[0];
          if (found === 0 && b % 8 === 0) found = g;
        }
        return found;
      }),
    );
  }
  // R4: the Prize Boxes.
  const boxes = [];
  for (let r = 0; r < 5; r++) boxes.push(stream.choice(PRIZE_BOXES));
  // Does it win?
  if (lock.some((row) => Math.min(...row) > 0)) return null;
  let segments = 0;
  for (let g = 1; g <= total; g++) {
    for (const square of /** @type {string[]} */ (top[g])) {
      const [kind, n] = square.split("/");
      if (kind === "lightning") segments += Number(n);
    }
  }
  for (const [kind, value] of triggers.values()) {
    if (kind === "segments") segments += value;
    if (kind === "instant") return null;
  }
  if (segments >= 8) return null;
  return { top, total, triggers, lock, boxes };
}

// Step 6: the events of a plan.
/**
 * @param {Stream} stream
 * @param {Plan} plan
 * @param {boolean} m3
 */
function playEvents(stream, { top, total, triggers, lock, boxes }, m3) {
  const asRows = (/** @type {Array<string | null>} */ flat) =>
    [0, 1, 2, 3, 4].map((r) => flat.slice(4 * r, 4 * r + 4));
  /** @type {Array<Record<string, unknown>>} */
  const events = [];
  let goesLeft = 6;
  let meter = 0;
  let rowsPence = 0;
  let instantPence = 0;
  /** @type {(n: number, where: Record<string, unknown>) => void} */
  const addSegments = (n, where) => {
    const before = boxAt(meter);
    meter += n;
    events.push({ type: "segments", ...where, count: n, meter });
    const now = boxAt(meter);
    if (now === before) return;
    // Models 1 and 2: the box lit after it; model 3: every box from the one after `before`.
    const first = /** @type {number} */ (m3 ? (before === null ? 0 : before + 1) : now);
    for (let box = first; box <= /** @type {number} */ (now); box++) {
      events.push({ type: "meter_box", box, pence: METER_BOXES[box][2] });
    }
  };
  // Step 6.2.9, the Bonus Game of a GO with a trigger (model 3: straight after the go event
  // and prize_boxes, before the locks; models 1 and 2: after the Top Row's motifs).
  const bonusGame = (/** @type {number} */ go) => {
    if (!triggers.has(go)) return;
    const award = /** @type {Award} */ (triggers.get(go));
    events.push({ type: "bonus_activated", go });
    const s = stream.weighted(stopWeights(award));
    for (let i = 0; i <= s; i++) {
      /** @type {number[]} */
      const spots = [];
      LAYOUTS[i].forEach((seg, j) => {
        if (i < s ? seg[0] === "up" : sameAward(seg, award)) spots.push(j);
      });
      const landed = stream.choice(spots);
      const [shown, value] = LAYOUTS[i][landed];
      events.push({ type: "bonus_row", row: i, landed, award: shown, value });
    }
    const [kind, value] = award;
    if (kind === "instant") {
      instantPence += value;
      events.push({ type: "instant", pence: value });
    } else if (kind === "segments") {
      addSegments(value, { source: "bonus" });
    } else {
      goesLeft += value;
      events.push({ type: "extra_goes", source: "bonus", count: value, goes_left: goesLeft });
    }
    events.push({ type: "bonus_end" });
  };
  const start = symbolBytes(stream, 20).map((s) => SYMBOLS[s]);
  events.push({ type: "start", goes_left: goesLeft, grid: asRows(start), top: top[0] });
  for (let go = 1; go <= total; go++) {
    goesLeft -= 1;
    const fresh = symbolBytes(stream, 20);
    const grid = [];
    for (let k = 0; k < 20; k++) {
      const r = Math.floor(k / 4);
      const c = k % 4;
      const at = lock[r][c];
      if (at > 0 && at <= go) {
        grid.push(top[at][c]);
        continue;
      }
      const target = SYMBOLS.indexOf(/** @type {string} */ (top[go][c]));
      if (target >= 0 && fresh[k] === target) {
        const x = stream.below(7);
        grid.push(SYMBOLS[x < target ? x : x + 1]);
      } else {
        grid.push(SYMBOLS[fresh[k]]);
      }
    }
    events.push({ type: "go", go, goes_left: goesLeft, top: top[go], grid: asRows(grid) });
    if (go === 1) events.push({ type: "prize_boxes", amounts: boxes });
    if (m3) bonusGame(go);
    for (let c = 0; c < 4; c++) {
      for (let r = 0; r < 5; r++) {
        if (lock[r][c] === go)
          events.push({ type: "lock", row: r, col: c, symbol: grid[4 * r + c] });
      }
    }
    for (let r = 0; r < 5; r++) {
      if (Math.min(...lock[r]) > 0 && Math.max(...lock[r]) === go) {
        events.push({ type: "row_win", row: r, pence: boxes[r] });
        rowsPence += boxes[r];
      }
    }
    // Every square of a plan's Top Rows is drawn (a string) by now.
    /** @type {string[]} */ (top[go]).forEach((square, c) => {
      const [kind, number] = square.split("/");
      if (kind === "lightning") addSegments(Number(number), { source: "top", col: c });
      else if (kind === "extra-goes") {
        goesLeft += Number(number);
        events.push({
          type: "extra_goes",
          source: "top",
          col: c,
          count: Number(number),
          goes_left: goesLeft,
        });
      }
    });
    if (!m3) bonusGame(go);
  }
  const lit = boxAt(meter);
  const meterPence = lit === null ? 0 : METER_BOXES[lit][2];
  events.push({
    type: "end",
    rows_pence: rowsPence,
    meter,
    meter_pence: meterPence,
    instant_pence: instantPence,
    total: rowsPence + meterPence + instantPence,
  });
  events.forEach((event, i) => {
    event.index = i;
  });
  return events;
}

serve(buildBook, process.argv.slice(2), "lab_riches.mjs");
