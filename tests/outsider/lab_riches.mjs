// An outsider's Lab Riches generator (models lab-riches/1, /2 and /3), written from
// docs/books.md ("Rebuilding a Lab Riches book from its seed", its sections "Model
// `lab-riches/2`: a losing play is a random play that lost" and "Model `lab-riches/3`: the
// procedure's order, every meter box, motifs at the start, no cap") and docs/rng.md alone,
// never from the engine.
// tests/test_outsider_rebuild.py holds it to the engine's books, byte for byte.
//
//   node tests/outsider/lab_riches.mjs MODEL COMPOSITION_JSON SEED_HEX   -> one book's JSON
//   node tests/outsider/lab_riches.mjs < requests.jsonl                  -> one book a line
// where each request line is {"model": ..., "composition": [...], "seed": "<32 hex digits>"}.

import { dumps, serve, Stream } from "./common.mjs";

// ---- docs/books.md: the lists ---------------------------------------------------------

const SYMBOLS = ["flask", "beaker", "microscope", "atom", "test-tube", "magnet", "dna", "burner"];
const PRIZE_BOXES = [300, 500, 1000, 2000, 5000, 10000, 50000];
const LIGHTNING_VALUES = [1, 2, 3, 4, 5];
const EXTRA_GOES_VALUES = [1, 2, 3];
// An award of the Bonus Game, a segment of a layout's row: [kind, value].
/** @typedef {[string, number]} Award */
/** @type {Award[][]} */
const LAYOUTS = [
  [
    ["up", 0],
    ["segments", 1],
    ["up", 0],
    ["extra-goes", 1],
    ["up", 0],
    ["segments", 2],
    ["instant", 300],
    ["instant", 500],
  ],
  [
    ["up", 0],
    ["segments", 2],
    ["instant", 500],
    ["up", 0],
    ["extra-goes", 1],
    ["segments", 3],
    ["instant", 1000],
    ["extra-goes", 2],
  ],
  [
    ["up", 0],
    ["segments", 3],
    ["instant", 1000],
    ["extra-goes", 2],
    ["up", 0],
    ["segments", 4],
    ["instant", 2000],
  ],
  [
    ["up", 0],
    ["segments", 4],
    ["instant", 2000],
    ["extra-goes", 3],
    ["segments", 5],
    ["instant", 5000],
  ],
  [
    ["segments", 5],
    ["instant", 5000],
    ["extra-goes", 3],
    ["instant", 2000],
    ["segments", 3],
  ],
];
// Meter boxes: [first segment, last segment, prize pence].
/** @type {Array<[number, number, number]>} */
const METER_BOXES = [
  [1, 7, 0],
  [8, 11, 400],
  [12, 15, 600],
  [16, 19, 1000],
  [20, 22, 5000],
  [23, 24, 100000],
  [25, 25, 25000000],
];
const METER_RANGES = new Map([
  [0, [0, 7]],
  [400, [8, 11]],
  [600, [12, 15]],
  [1000, [16, 19]],
  [5000, [20, 22]],
  [100000, [23, 24]],
  [25000000, [25, 25]],
]);

/** @type {(stream: Stream, n: number) => number[]} */
const symbolBytes = (stream, n) => [...stream.read(n)].map((b) => b % 8);
/** @type {(square: string | null) => boolean} */
const isSymbol = (square) => SYMBOLS.includes(/** @type {string} */ (square));
/** @type {(a: Award, b: Award) => boolean} */
const sameAward = (a, b) => a[0] === b[0] && a[1] === b[1];

/** @param {number} meter */
function boxAt(meter) {
  const i = METER_BOXES.findIndex(([first, last]) => first <= meter && meter <= last);
  return i < 0 ? null : i;
}

// Stop-row weights: the count of the award in row i, times the up segments of every row below,
// times the length of every row above (docs/books.md, step 6.9; the table there lists them).
/** @param {Award} award */
function stopWeights(award) {
  return LAYOUTS.map((layout, i) => {
    let w = layout.filter((seg) => sameAward(seg, award)).length;
    LAYOUTS.forEach((other, j) => {
      if (j < i) w *= other.filter((seg) => seg[0] === "up").length;
      else if (j > i) w *= other.length;
    });
    return w;
  });
}

// ---- the generator, step by step ------------------------------------------------------

const MODELS = ["lab-riches/1", "lab-riches/2", "lab-riches/3"];
const RANDOM_PLAYS = 64;

// A composition's prizes (docs/books.md), as the request's JSON gives them.
/** @typedef {{feature: string, pence: number}} Prize */
// A plan: the Top Rows (row 0 the start row; every square drawn by the end), the goes, each
// go's Bonus Game award, when each grid square locks (0: never) and the Prize Boxes.
/**
 * @typedef {{top: Array<Array<string | null>>, total: number, triggers: Map<number, Award>,
 *   lock: number[][], boxes: number[]}} Plan
 */

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

// Model 3's S, the inactive start row (in place of step 3.1 and R1): a Top Row drawn as R2.1-2
// draw one, with no cap, drawn again while it shows 3 or more bonus motifs.
/** @param {Stream} stream */
function startRow(stream) {
  for (;;) {
    /** @type {Array<string | null>} */
    const row = [null, null, null, null];
    if (stream.chance(36, 256)) {
      const c = stream.below(4);
      row[c] = `extra-goes/${stream.choice(EXTRA_GOES_VALUES)}`;
    }
    for (let c = 0; c < 4; c++) {
      if (row[c] !== null) continue;
      const b = stream.below(256);
      if (b < 18) row[c] = `lightning/${stream.choice(LIGHTNING_VALUES)}`;
      else if (b < 34) row[c] = "bonus";
      else row[c] = SYMBOLS[symbolBytes(stream, 1)[0]];
    }
    if (row.filter((square) => square === "bonus").length < 3) return row;
  }
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

// Steps 1-5: the plan built for a composition (model 1, and models 2 and 3's winning
// compositions).
/**
 * @param {Stream} stream
 * @param {Prize[]} composition
 * @param {boolean} m3
 * @returns {Plan}
 */
function constructPlan(stream, composition, m3) {
  const R = composition.filter((p) => p.feature === "row").map((p) => p.pence);
  const I = composition.filter((p) => p.feature === "instant").map((p) => p.pence);
  const meters = composition.filter((p) => p.feature === "meter").map((p) => p.pence);
  const [low, high] = /** @type {number[]} */ (METER_RANGES.get(meters.length ? meters[0] : 0));

  // Step 1: the Bonus Games' awards.
  /** @type {Award[]} */
  const awards = I.map((p) => ["instant", p]);
  if (awards.length < 2 && stream.below(256) < 21) {
    let award = null;
    for (let attempt = 0; attempt < 12 && award === null; attempt++) {
      let seg = null;
      for (const layout of LAYOUTS) {
        seg = stream.choice(layout);
        if (seg[0] !== "up") break;
      }
      // LAYOUTS is not empty: the loop drew a segment.
      const drawn = /** @type {Award} */ (seg);
      if (drawn[0] === "extra-goes" || (drawn[0] === "segments" && drawn[1] <= high)) award = seg;
    }
    awards.push(award ?? ["extra-goes", 1]);
  }

  // Step 2: the goes.
  const pending = [...awards];
  stream.shuffle(pending);
  let reserve = pending.filter((a) => a[0] === "extra-goes").reduce((s, a) => s + a[1], 0);
  let total = 6;
  /** @type {Map<number, Award>} */
  const triggers = new Map();
  /** @type {Map<number, number>} */
  const extras = new Map();
  for (let go = 1; go <= total; go++) {
    if (pending.length) {
      const x = stream.below(total - go + 1);
      if (x < pending.length) {
        const award = /** @type {Award} */ (pending.pop()); // x < pending.length
        triggers.set(go, award);
        if (award[0] === "extra-goes") {
          total += award[1];
          reserve -= award[1];
        }
      }
    }
    if (stream.below(256) < 36) {
      const v = stream.choice(EXTRA_GOES_VALUES);
      if (m3 || total + v + reserve <= 15) {
        extras.set(go, v);
        total += v;
      }
    }
  }

  // Step 3: the Top Rows.
  /** @type {Array<Array<string | null>>} */
  const top = [];
  top.push(m3 ? startRow(stream) : symbolBytes(stream, 4).map((s) => SYMBOLS[s]));
  for (let g = 1; g <= total; g++) top.push([null, null, null, null]);
  for (let g = 1; g <= total; g++) {
    if (triggers.has(g)) {
      const keep = stream.below(4);
      for (let c = 0; c < 4; c++) if (c !== keep) top[g][c] = "bonus";
      if (extras.has(g)) top[g][keep] = `extra-goes/${extras.get(g)}`;
    } else if (extras.has(g)) {
      top[g][stream.below(4)] = `extra-goes/${extras.get(g)}`;
    }
  }
  let B = 0;
  for (const [kind, value] of triggers.values()) if (kind === "segments") B += value;
  const free = [];
  for (let g = 1; g <= total; g++) {
    for (let c = 0; c < 4; c++) if (top[g][c] === null) free.push([g, c]);
  }
  const freeCount = [0, 0, 0, 0];
  for (const [, c] of free) freeCount[c] += 1;
  let left = null;
  for (let attempt = 0; attempt < 12; attempt++) {
    const bytes = stream.read(free.length);
    const hits = free.filter((_, i) => bytes[i] < 18);
    const values = hits.map(() => stream.choice(LIGHTNING_VALUES));
    const sum = B + values.reduce((s, v) => s + v, 0);
    if (!(low <= sum && sum <= high)) continue;
    const counts = [...freeCount];
    for (const [, c] of hits) counts[c] -= 1;
    if (Math.min(...counts) >= 1) {
      hits.forEach(([g, c], i) => {
        top[g][c] = `lightning/${values[i]}`;
      });
      left = counts;
      break;
    }
  }
  if (left === null) {
    const target = stream.between(Math.max(low - B, 0), high - B);
    const order = [...free];
    stream.shuffle(order);
    left = [...freeCount];
    let remaining = target;
    outer: for (const floor of [2, 1]) {
      for (const [g, c] of order) {
        if (remaining === 0) break outer;
        if (top[g][c] === null && left[c] > floor) {
          const v = stream.between(Math.min(4, remaining), Math.min(5, remaining));
          top[g][c] = `lightning/${v}`;
          left[c] -= 1;
          remaining -= v;
        }
      }
    }
  }
  const plain = [];
  for (let g = 1; g <= total; g++) if (!triggers.has(g)) plain.push(g);
  const decoys = new Map(plain.map((g) => [g, 0]));
  const decoyBytes = stream.read(4 * plain.length);
  for (let k = 0; k < decoyBytes.length; k++) {
    if (decoyBytes[k] >= 16) continue;
    const g = plain[Math.floor(k / 4)];
    const c = k % 4;
    if (top[g][c] === null && (decoys.get(g) ?? 0) < 2 && left[c] > 1) {
      top[g][c] = "bonus";
      left[c] -= 1;
      decoys.set(g, (decoys.get(g) ?? 0) + 1);
    }
  }
  const empties = left.reduce((s, n) => s + n, 0);
  const fill = symbolBytes(stream, empties);
  let next = 0;
  for (let g = 1; g <= total; g++) {
    for (let c = 0; c < 4; c++) if (top[g][c] === null) top[g][c] = SYMBOLS[fill[next++]];
  }
  if (next !== empties) throw new Error("the empty squares do not add up to the sum of left");

  // Step 4: which rows win, and the Prize Boxes.
  const winners = stream.sample([0, 1, 2, 3, 4], R.length);
  const boxes = [];
  for (let r = 0; r < 5; r++) boxes.push(stream.choice(PRIZE_BOXES));
  winners.forEach((row, i) => {
    boxes[row] = R[i];
  });

  // Step 5: when each grid square locks.
  const G = [0, 1, 2, 3].map((c) => {
    const goes = [];
    for (let g = 1; g <= total; g++) if (isSymbol(top[g][c])) goes.push(g);
    return goes;
  });
  /** @type {(columns: number[]) => number[]} */
  const matchDraw = (columns) => {
    const bytes = stream.read(columns.reduce((s, c) => s + G[c].length, 0));
    let at = 0;
    return columns.map((c) => {
      let found = 0;
      for (let i = 0; i < G[c].length; i++) {
        if (found === 0 && bytes[at + i] % 8 === 0) found = G[c][i];
      }
      at += G[c].length;
      return found;
    });
  };
  const lock = [];
  for (let r = 0; r < 5; r++) {
    let row = matchDraw([0, 1, 2, 3]);
    if (winners.includes(r)) {
      for (let pass = 0; pass < 12; pass++) {
        const missing = [0, 1, 2, 3].filter((c) => row[c] === 0);
        if (!missing.length) break;
        const again = matchDraw(missing);
        missing.forEach((c, i) => {
          row[c] = again[i];
        });
      }
      row = row.map((go, c) => (go !== 0 ? go : stream.choice(G[c])));
    } else {
      let stopped = false;
      for (let pass = 0; pass < 12; pass++) {
        if (row.includes(0)) {
          stopped = true;
          break;
        }
        row = matchDraw([0, 1, 2, 3]);
      }
      if (!stopped) row[stream.below(4)] = 0;
    }
    lock.push(row);
  }
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
