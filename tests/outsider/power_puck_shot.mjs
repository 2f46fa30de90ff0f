// An outsider's Power Puck Shot generator (model power-puck-shot/3), written from docs/books.md
// ("Rebuilding a Power Puck Shot book from its seed") and docs/rng.md alone, never from the
// engine. tests/test_outsider_rebuild_power_puck_shot.py holds it to the engine's books, byte
// for byte.
//
//   node tests/outsider/power_puck_shot.mjs MODEL COMPOSITION_JSON SEED_HEX  -> one book's JSON
//   node tests/outsider/power_puck_shot.mjs < requests.jsonl                 -> one book a line
// where each request line is {"model": ..., "composition": [...], "seed": "<32 hex digits>"}
// and the composition's parts come in their canonical order.

import { dumps, serve, Stream } from "./common.mjs";

// ---- Inputs, stream and lists ------------------------------------------------------------

const MODEL = "power-puck-shot/3";
const COLOURS = ["dark-blue", "purple", "orange", "light-blue", "red", "green", "pink", "yellow"];
const BOOSTABLE = COLOURS.slice(0, 7);
/** @type {Record<string, number[]>} */
const LADDERS = {
  "dark-blue": [500, 600, 800, 1000],
  purple: [600, 800, 1000, 1200],
  orange: [1000, 1200, 1500, 2000],
  "light-blue": [1500, 2000, 2500, 3000],
  red: [2500, 3000, 4000, 5000],
  green: [10000, 15000, 25000, 50000],
  pink: [50000, 100000, 150000, 500000],
  yellow: [50000000, 50000000, 50000000, 50000000],
};
const PIPS_PER_SHOT = [
  12341, 2842, 7033, 9402, 7473, 6840, 5396, 4416, 3480, 2756, 1666, 1024, 544, 228, 74, 20,
];
/** @type {Array<[string, number]>} */
const MAIN_WEIGHTS = [
  ["bonus", 40],
  ["prize", 14],
  ["square:dark-blue", 44],
  ["square:purple", 38],
  ["square:orange", 34],
  ["square:light-blue", 28],
  ["square:red", 22],
  ["square:green", 18],
  ["square:pink", 10],
  ["square:yellow", 8],
];
/** @type {Array<[string, number]>} */
const BONUS_WEIGHTS = [
  ["booster", 64],
  ["squares", 96],
  ["prize", 52],
  ["extra", 20],
  ["power", 24],
];
const AMOUNTS = [100, 200, 300, 500, 1000, 2000, 5000, 10000];
const ATTEMPTS = 64;
const MOST_SHOTS = 40;
const MOST_PIPS = 16;

/** @type {(weights: Array<[string, number]>) => string[]} */
const spread = (weights) => weights.flatMap(([token, w]) => Array(w).fill(token));
const BONUS_TABLE = spread(BONUS_WEIGHTS);

/** @param {Stream} s */
function pips(s) {
  let x = s.below(65535);
  for (let i = 0; i < PIPS_PER_SHOT.length; i++) {
    if (x < PIPS_PER_SHOT[i]) return i + 1;
    x -= PIPS_PER_SHOT[i];
  }
  throw new Error("unreachable");
}

/** @param {number} motifs */
function bonusPucks(motifs) {
  if (motifs < 3) return 0;
  return motifs === 3 ? 1 : motifs === 4 ? 2 : 3;
}
/** @type {Record<number, number>} */
const MOTIFS_FOR = { 1: 3, 2: 4, 3: 5 };
/** @type {(list: string[], item: string) => number} */
const count = (list, item) => list.filter((x) => x === item).length;

// ---- Step 2: a random play -----------------------------------------------------------------

// A composition's parts (docs/books.md), as the request's JSON gives them.
/**
 * @typedef {{feature: "row", colour: string, boosts: number, pence: number}
 *   | {feature: "pot", pucks: number, pence: number}
 *   | BonusPart} Part
 * @typedef {{feature: "bonus", pucks: number, pence: number, boosters?: string,
 *   extra_pucks?: number, power_pucks?: number, squares?: string, symbols?: number}} BonusPart
 * @typedef {{power: boolean, reveals: string[], game: number | null}} Shot
 * @typedef {{main: Shot[], games: string[][][], meter: number, fills: boolean,
 *   prize: number[]}} Play
 */

/**
 * @param {Stream} s
 * @param {Set<string>} leftOut
 * @param {number | null} host
 * @param {string[]} forced
 * @param {number} forcedPucks
 * @returns {Play | null}
 */
function randomPlay(s, leftOut, host, forced, forcedPucks) {
  const table = spread(MAIN_WEIGHTS.filter(([t]) => !leftOut.has(t.slice("square:".length))));
  const squares = Object.fromEntries(COLOURS.map((c) => [c, 0]));
  const boosts = Object.fromEntries(COLOURS.map((c) => [c, 0]));
  let meter = 0;
  let pucks = 4;
  let power = 0;
  let normal = 0;
  /** @type {Shot[]} */
  const main = [];
  /** @type {string[][][]} */
  const games = [];
  const mainPip = () => (table.length === 256 ? table[s.read(1)[0]] : table[s.below(table.length)]);
  const bonusPip = () => {
    for (;;) {
      const kind = BONUS_TABLE[s.read(1)[0]];
      if (kind === "booster") {
        const rows = BOOSTABLE.filter((c) => !leftOut.has(c) && squares[c] < 12 && boosts[c] < 3);
        if (rows.length) {
          const c = s.choice(rows);
          boosts[c] += 1;
          return `booster:${c}`;
        }
      } else if (kind === "squares") {
        const n = s.choice([1, 2, 3]);
        const rows = BOOSTABLE.filter((c) => !leftOut.has(c) && squares[c] + n < 12);
        if (rows.length) {
          const c = s.choice(rows);
          squares[c] += n;
          return `squares:${c}:${n}`;
        }
      } else {
        if (kind === "prize") meter += 1;
        return kind;
      }
    }
  };
  while (pucks + power > 0) {
    if (main.length === MOST_SHOTS) return null;
    const isPower = power > 0;
    if (isPower) power -= 1;
    else pucks -= 1;
    const times = isPower ? 2 : 1;
    const n = pips(s);
    const reveals = [];
    for (let i = 0; i < n; i++) reveals.push(mainPip());
    const hosting = !isPower && normal === host;
    if (hosting) {
      const short = Math.max(0, MOTIFS_FOR[forcedPucks] - count(reveals, "bonus"));
      if (n + short > MOST_PIPS) return null;
      for (let i = 0; i < short; i++) reveals.push("bonus");
      s.shuffle(reveals);
    }
    if (!isPower) normal += 1;
    for (const r of reveals) {
      if (r.startsWith("square:")) squares[r.slice(7)] += times;
      else if (r === "prize") meter += times;
    }
    const shot = { power: isPower, reveals, game: /** @type {number | null} */ (null) };
    const k = bonusPucks(count(reveals, "bonus") * times);
    if (k > 0) {
      const game = [];
      for (let p = 0; p < k; p++) {
        const m = pips(s);
        const awards = [];
        for (let i = 0; i < m; i++) awards.push(bonusPip());
        game.push(awards);
      }
      if (hosting) {
        for (const award of forced) {
          const room = game.filter((awards) => awards.length < MOST_PIPS);
          if (!room.length) return null;
          s.choice(room).push(award);
        }
        meter += count(forced, "prize");
      }
      const all = game.flat();
      pucks += count(all, "extra");
      power += count(all, "power");
      shot.game = games.length;
      games.push(game);
    }
    main.push(shot);
  }
  const fills = COLOURS.some((c) => squares[c] >= 12);
  return { main, games, meter, fills, prize: [] };
}

// ---- Steps 1, 3 and 4 --------------------------------------------------------------------

/** @param {Part[]} composition */
function read(composition) {
  /** @type {Array<[string, number]>} */
  const rows = [];
  /** @type {[number, number] | null} */
  let pot = null;
  /** @type {BonusPart | null} */
  let bonus = null;
  for (const part of composition) {
    if (part.feature === "row") rows.push([part.colour, part.boosts]);
    else if (part.feature === "pot") pot = [part.pucks, part.pence];
    else if (part.feature === "bonus") bonus = part;
  }
  return { rows, pot, bonus };
}

/** @param {BonusPart} bonus */
function forcedAwards(bonus) {
  /** @type {string[]} */
  const out = [];
  const list = (/** @type {string | undefined} */ text) => (text ? String(text).split(",") : []);
  for (const c of list(bonus.boosters)) out.push(`booster:${c}`);
  for (let i = 0; i < (bonus.extra_pucks || 0); i++) out.push("extra");
  for (let i = 0; i < (bonus.power_pucks || 0); i++) out.push("power");
  for (const item of list(bonus.squares)) out.push(`squares:${item}`);
  for (let i = 0; i < (bonus.symbols || 0); i++) out.push("prize");
  return out;
}

/**
 * @param {Stream} s
 * @param {ReturnType<typeof read>} goal
 */
function attempt(s, goal) {
  if (!goal.rows.length && !goal.pot && !goal.bonus) {
    const play = randomPlay(s, new Set(), null, [], 0);
    return play && !play.fills && play.meter <= 5 ? play : null;
  }
  const host = goal.bonus ? s.below(3) : null;
  const forced = goal.bonus ? forcedAwards(goal.bonus) : [];
  const leftOut = new Set(goal.rows.map(([c]) => c));
  const play = randomPlay(s, leftOut, host, forced, goal.bonus ? goal.bonus.pucks : 0);
  if (!play || play.fills) return null;
  const target = goal.pot ? 5 + goal.pot[0] : 5;
  if (play.meter > target) return null;
  const normal = play.main.map((shot, i) => (shot.power ? -1 : i)).filter((i) => i >= 0);
  const after = host === null ? -1 : normal[host];
  /** @type {Set<number>} */
  const touched = new Set();
  const room = (/** @type {number} */ i) => play.main[i].reveals.length < MOST_PIPS;
  for (const [colour] of goal.rows) {
    const given = forced
      .filter((a) => a.startsWith(`squares:${colour}:`))
      .reduce((sum, a) => sum + Number(a.split(":")[2]), 0);
    for (let k = 0; k < 12 - given; k++) {
      const places = normal.filter((i) => i > after && room(i));
      if (!places.length) return null;
      const at = s.choice(places);
      play.main[at].reveals.push(`square:${colour}`);
      touched.add(at);
    }
  }
  if (goal.pot) {
    for (let k = play.meter; k < target; k++) {
      const places = normal.filter(room);
      if (!places.length) return null;
      const at = s.choice(places);
      play.main[at].reveals.push("prize");
      touched.add(at);
    }
    play.meter = target;
  }
  for (const at of [...touched].sort((a, b) => a - b)) s.shuffle(play.main[at].reveals);
  return play;
}

// Python's itertools.combinations_with_replacement(AMOUNTS, pucks), those adding up to pence.
/**
 * @param {number} pucks
 * @param {number} pence
 */
function ways(pucks, pence) {
  /** @type {number[][]} */
  const out = [];
  /** @type {(from: number, left: number, sum: number, chosen: number[]) => void} */
  const walk = (from, left, sum, chosen) => {
    if (left === 0) {
      if (sum === pence) out.push([...chosen]);
      return;
    }
    for (let i = from; i < AMOUNTS.length; i++)
      walk(i, left - 1, sum + AMOUNTS[i], [...chosen, AMOUNTS[i]]);
  };
  walk(0, pucks, 0, []);
  return out;
}

// ---- Step 5: the events --------------------------------------------------------------------

/** @param {Play} play */
function events(play) {
  /** @type {Array<Record<string, unknown>>} */
  const out = [{ type: "start", pucks: 4 }];
  const squares = Object.fromEntries(COLOURS.map((c) => [c, 0]));
  const boosts = Object.fromEntries(COLOURS.map((c) => [c, 0]));
  let meter = 0;
  let shotNo = 0;
  let rows = 0;
  for (const shot of play.main) {
    out.push({
      type: "shot",
      game: "main",
      shot: shotNo++,
      reveals: shot.reveals,
      power: shot.power,
    });
    const times = shot.power ? 2 : 1;
    const filled = [];
    for (const r of shot.reveals) {
      if (r.startsWith("square:")) {
        const c = r.slice(7);
        squares[c] += times;
        if (squares[c] === 12) filled.push(c);
      } else if (r === "prize") meter += times;
    }
    for (const c of filled) {
      const pence = LADDERS[c][boosts[c]];
      rows += pence;
      out.push({ type: "row_won", colour: c, pence });
    }
    if (shot.game === null) continue;
    const game = play.games[shot.game];
    out.push({
      type: "bonus_start",
      pucks: game.length,
      motifs: count(shot.reveals, "bonus") * times,
    });
    let extra = 0;
    let power = 0;
    for (const awards of game) {
      out.push({ type: "shot", game: "bonus", shot: shotNo++, reveals: awards });
      for (const a of awards) {
        if (a.startsWith("booster:")) boosts[a.slice(8)] += 1;
        else if (a.startsWith("squares:")) {
          const [, c, n] = a.split(":");
          squares[c] += Number(n);
        } else if (a === "extra") extra += 1;
        else if (a === "power") power += 1;
        else if (a === "prize") meter += 1;
      }
    }
    out.push({ type: "bonus_end", extra_pucks: extra, power_pucks: power });
  }
  let pot = 0;
  if (play.prize.length) {
    out.push({ type: "prize_start", pucks: play.prize.length, symbols: meter });
    for (const amount of play.prize) {
      out.push({ type: "shot", game: "prize", shot: shotNo++, reveals: [`pot:${amount}`] });
      pot += amount;
    }
  }
  out.push({ type: "end", rows, pot, total: rows + pot });
  out.forEach((event, i) => {
    event.index = i;
  });
  return out;
}

/**
 * @param {string} model
 * @param {Part[]} composition
 * @param {string} seedHex
 */
export function buildBook(model, composition, seedHex) {
  if (model !== MODEL) throw new Error(`this outsider builds ${MODEL} only, not ${model}`);
  const s = new Stream(
    Buffer.concat([Buffer.from("power-puck-shot/book/3\0", "ascii"), Buffer.from(seedHex, "hex")]),
  );
  const goal = read(composition);
  /** @type {Play | null} */
  let play = null;
  for (let k = 0; k < ATTEMPTS && !play; k++) play = attempt(s, goal);
  if (!play)
    throw new Error("all 64 attempts failed: model 2's construction is not specified here");
  if (goal.pot) {
    const amounts = [...s.choice(ways(goal.pot[0], goal.pot[1]))];
    s.shuffle(amounts);
    play.prize = amounts;
  }
  const prize = composition.reduce((sum, part) => sum + part.pence, 0);
  return dumps({
    schema: 1,
    game: "power-puck-shot",
    model,
    prize_pence: prize,
    composition,
    seed: seedHex,
    events: events(play),
  });
}

serve(buildBook, process.argv.slice(2), "power_puck_shot.mjs");
