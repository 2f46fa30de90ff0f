// An outsider's Power Puck Shot paths, written from docs/books.md ("The path of a shot") and
// docs/rng.md alone, never from the engine. tests/test_outsider_rebuild_power_puck_shot.py
// holds it to the engine's paths, point for point.
//
//   node tests/outsider/power_puck_shot_paths.mjs < requests.jsonl   -> one path's JSON a line
// where each request line is {"seed": "<32 hex digits>", "shot": n, "arrow": 0-5, "reveals": n}.

import { readFileSync } from "node:fs";

import { Stream } from "./common.mjs";

/** @type {(a: number, m: number) => number} */
const mod = (a, m) => ((a % m) + m) % m;
/** @type {(u: number) => number} */
const fold = (u) => (mod(u, 32) > 16 ? 32 - mod(u, 32) : mod(u, 32));
/** @type {(v: number) => number} */
const round6 = (v) => {
  const r = Math.round(v * 1e6) / 1e6;
  return r === 0 ? 0 : r;
};
/** @type {(x: number) => number} */
const bits = (x) => {
  let n = 0;
  for (let v = x; v; v >>= 1) n += v & 1;
  return n;
};
/** @type {(square: number) => number} */
const pocketBit = (square) => 1 << (square < 4 ? square : square - 8);
const POINTS = [1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15];
const POCKETS = [0, 1, 2, 3, 12, 13, 14, 15];

/**
 * @param {boolean} up
 * @param {number} q
 * @param {number} n
 */
function crossing(up, q, n) {
  const end = fold(q + n);
  if (end % 4 === 0) return null;
  const n2 = 64 + n * n;
  const norm = Math.sqrt(n2);
  const y0 = up ? 3 : 1;
  const s = up ? -1 : 1;
  const walls = [];
  const [low, high] = [Math.min(q, q + n), Math.max(q, q + n)];
  const ws = [];
  for (let w = -64; w <= 64; w += 16) ws.push(w);
  if (n <= 0) ws.reverse();
  for (const w of ws) {
    if (low < w && w < high)
      walls.push([Math.floor(fold(w) / 4), round6((y0 * n + s * 2 * (w - q)) / n)]);
  }
  const keyed = [];
  for (const k of [1, 3]) {
    const row = up ? (k === 1 ? 2 : 1) : k === 1 ? 1 : 2;
    const a = 4 * q + k * n;
    const b = a - mod(a - 8, 16);
    for (const i of [b, b + 16]) {
      const o = i - a;
      if (4 * 529 * n2 < 10000 * o * o && 10000 * o * o < 4 * 729 * n2) return null;
      if (4 * o * o < n2) {
        const m = mod(i, 128);
        const c = Math.floor((m < 64 ? m : 128 - m) / 16);
        keyed.push([(o + k * n) * n + 64 * k, 4 * row + c]);
      }
    }
  }
  keyed.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const pips = [];
  let mask = 0;
  for (const [key, square] of keyed) {
    if (mask & (1 << (square - 4))) continue;
    mask |= 1 << (square - 4);
    pips.push([square, key / (16 * norm)]);
  }
  const out = walls.length % 2 ? -n : n;
  return {
    up,
    end,
    walls,
    pips,
    mask,
    length: norm / 4,
    pocket: up ? Math.floor(end / 4) : 12 + Math.floor(end / 4),
    exit: [out / norm, (up ? -8 : 8) / norm],
  };
}

/** @typedef {NonNullable<ReturnType<typeof crossing>>} Leg */
/** @type {Map<string, Leg[]>} */
const TABLE = new Map();
for (const up of [true, false]) {
  for (const q of POINTS) {
    const list = [];
    for (let n = -16; n <= 16; n++) {
      const c = crossing(up, q, n);
      if (c) list.push(c);
    }
    TABLE.set(`${up}/${q}`, list);
  }
}
const LAUNCH = [-6, -3, -1, 1, 3, 6].map((n) => crossing(true, 8, n));

/**
 * @param {number} a
 * @param {number} b
 * @returns {number}
 */
function gcd(a, b) {
  return b ? gcd(b, a % b) : a;
}

/**
 * @param {Stream | null} s
 * @param {number} arrow
 * @param {number} reveals
 * @param {number} budget
 * @returns {Leg[] | null}
 */
function route(s, arrow, reveals, budget) {
  const first = /** @type {NonNullable<(typeof LAUNCH)[number]>} */ (LAUNCH[arrow]); // none is null
  const c = first.pips.length;
  if (c >= reveals) return c === reveals ? [first] : null;
  let left = budget;
  /** @type {(leg: Leg, mask: number, hits: number, count: number) => Leg[] | null} */
  const after = (leg, mask, hits, count) => {
    left -= 1;
    if (left < 0) return null;
    const options = /** @type {Leg[]} */ (TABLE.get(`${!leg.up}/${leg.end}`)); // each end: a list
    const m = options.length;
    let order = [...Array(m).keys()];
    if (s) {
      const start = s.below(m);
      let strides = [];
      for (let x = 1; x < m; x++) if (gcd(x, m) === 1) strides.push(x);
      if (!strides.length) strides = [1];
      const stride = strides[s.below(strides.length)];
      order = order.map((i) => (start + i * stride) % m);
    }
    if (16 - bits(mask) - bits(hits) - (reveals - count) <= 1) {
      const fresh = (/** @type {number} */ i) => bits(options[i].mask & ~mask);
      order = order
        .map((i, at) => [i, at])
        .sort((x, y) => fresh(y[0]) - fresh(x[0]) || x[1] - y[1])
        .map(([i]) => i);
    }
    for (const i of order) {
      const next = options[i];
      const got = count + bits(next.mask & ~mask);
      if (got === reveals) return [next];
      const bit = pocketBit(next.pocket);
      if (got > reveals || hits & bit) continue;
      const rest = after(next, mask | next.mask, hits | bit, got + 1);
      if (rest) return [next, ...rest];
      if (left < 0) return null;
    }
    return null;
  };
  const rest = after(first, first.mask, pocketBit(first.pocket), c + 1);
  return rest ? [first, ...rest] : null;
}

/**
 * @param {string} seedHex
 * @param {number} shot
 * @param {number} arrow
 * @param {number} reveals
 */
export function shotPath(seedHex, shot, arrow, reveals) {
  const number = Buffer.alloc(4);
  number.writeUInt32BE(shot);
  const s = new Stream(
    Buffer.concat([
      Buffer.from("power-puck-shot/path/1\0", "ascii"),
      Buffer.from(seedHex, "hex"),
      number,
      Buffer.from([arrow, reveals]),
    ]),
  );
  const legs = route(s, arrow, reveals, 200) || route(null, arrow, reveals, 10000);
  if (!legs) throw new Error(`no path of ${reveals} reveals from arrow ${arrow}`);
  const points = [[2, 3]];
  const kinds = ["launch"];
  /** @type {{square: number, at: number}[]} */
  const found = [];
  /** @type {number[]} */
  const hits = [];
  let mask = 0;
  let done = 0;
  legs.forEach((leg, i) => {
    for (const w of leg.walls) {
      points.push(w);
      kinds.push("wall");
    }
    for (const [square, at] of leg.pips) {
      if (!(mask & (1 << (square - 4)))) found.push({ square, at: round6(done + at) });
    }
    mask |= leg.mask;
    done += leg.length;
    const [x, y] = [leg.end / 4, leg.up ? 1 : 3];
    if (i < legs.length - 1) {
      points.push([x, y]);
      kinds.push("bumper");
      found.push({ square: leg.pocket, at: round6(done) });
      hits.push(leg.pocket);
    } else {
      points.push([round6(x + 0.2 * leg.exit[0]), round6(y + 0.2 * leg.exit[1])]);
      kinds.push("drop");
      done += 0.2;
    }
  });
  const pocket = legs[legs.length - 1].pocket;
  const free = POCKETS.filter((p) => !hits.includes(p) && p !== pocket);
  const shown = new Set(hits);
  const bytes = s.read(free.length);
  free.forEach((p, i) => {
    if (bytes[i] < 64) shown.add(p);
  });
  if (!shown.size) shown.add(s.choice(free));
  return {
    arrow,
    points,
    kinds,
    bumpers: [...shown].sort((a, b) => a - b),
    reveals: found,
    pocket,
    length: round6(done),
  };
}

const out = [];
for (const line of readFileSync(0, "utf8").split("\n")) {
  if (!line.trim()) continue;
  const r = JSON.parse(line);
  out.push(JSON.stringify(shotPath(r.seed, r.shot, r.arrow, r.reveals)));
}
process.stdout.write(out.map((p) => `${p}\n`).join(""));
