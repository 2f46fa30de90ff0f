// An outsider's Lab Riches generator (tests/outsider/lab_riches.mjs), its first half: the
// lists of docs/books.md and steps 1-5, the plan built for a composition (model 1, and models 2
// and 3's winning compositions), with model 3's start row. Written from docs/books.md and
// docs/rng.md alone, never from the engine.

/** @typedef {import("./common.mjs").Stream} Stream */

// ---- docs/books.md: the lists ---------------------------------------------------------

export const SYMBOLS = [
  "flask",
  "beaker",
  "microscope",
  "atom",
  "test-tube",
  "magnet",
  "dna",
  "burner",
];
export const PRIZE_BOXES = [300, 500, 1000, 2000, 5000, 10000, 50000];
export const LIGHTNING_VALUES = [1, 2, 3, 4, 5];
export const EXTRA_GOES_VALUES = [1, 2, 3];
// An award of the Bonus Game, a segment of a layout's row: [kind, value].
/** @typedef {[string, number]} Award */
/** @type {Award[][]} */
export const LAYOUTS = [
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
export const METER_BOXES = [
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
export const symbolBytes = (stream, n) => [...stream.read(n)].map((b) => b % 8);
/** @type {(square: string | null) => boolean} */
export const isSymbol = (square) => SYMBOLS.includes(/** @type {string} */ (square));
/** @type {(a: Award, b: Award) => boolean} */
export const sameAward = (a, b) => a[0] === b[0] && a[1] === b[1];

/** @param {number} meter */
export function boxAt(meter) {
  const i = METER_BOXES.findIndex(([first, last]) => first <= meter && meter <= last);
  return i < 0 ? null : i;
}

// Stop-row weights: the count of the award in row i, times the up segments of every row below,
// times the length of every row above (docs/books.md, step 6.9; the table there lists them).
/** @param {Award} award */
export function stopWeights(award) {
  return LAYOUTS.map((layout, i) => {
    let w = layout.filter((seg) => sameAward(seg, award)).length;
    LAYOUTS.forEach((other, j) => {
      if (j < i) w *= other.filter((seg) => seg[0] === "up").length;
      else if (j > i) w *= other.length;
    });
    return w;
  });
}

// A composition's prizes (docs/books.md), as the request's JSON gives them.
/** @typedef {{feature: string, pence: number}} Prize */
// A plan: the Top Rows (row 0 the start row; every square drawn by the end), the goes, each
// go's Bonus Game award, when each grid square locks (0: never) and the Prize Boxes.
/**
 * @typedef {{top: Array<Array<string | null>>, total: number, triggers: Map<number, Award>,
 *   lock: number[][], boxes: number[]}} Plan
 */

// Model 3's S, the inactive start row (in place of step 3.1 and R1): a Top Row drawn as R2.1-2
// draw one, with no cap, drawn again while it shows 3 or more bonus motifs.
/** @param {Stream} stream */
export function startRow(stream) {
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

// Steps 1-5: the plan built for a composition (model 1, and models 2 and 3's winning
// compositions).
/**
 * @param {Stream} stream
 * @param {Prize[]} composition
 * @param {boolean} m3
 * @returns {Plan}
 */
export function constructPlan(stream, composition, m3) {
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
