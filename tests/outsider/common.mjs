// The outsiders' shared pieces, written from docs/rng.md (the random stream, version 1) and
// docs/books.md (a book's bytes), never from the engine: used by lab_riches.mjs and
// power_puck_shot.mjs.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

// ---- docs/rng.md: the random stream, version 1 ------------------------------------------

const DOMAIN = Buffer.from("lottery-rng/v1", "ascii");

export class Stream {
  /** @param {Buffer} seed */
  constructor(seed) {
    this.prefix = Buffer.concat([DOMAIN, seed]);
    this.counter = 0n;
    this.buf = Buffer.alloc(0);
    this.pos = 0;
  }

  block() {
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(this.counter);
    this.counter += 1n;
    return createHash("sha256").update(this.prefix).update(counter).digest();
  }

  /**
   * @param {number} count
   * @returns {Buffer}
   */
  read(count) {
    while (this.buf.length - this.pos < count) {
      this.buf = Buffer.concat([this.buf.subarray(this.pos), this.block()]);
      this.pos = 0;
    }
    const out = this.buf.subarray(this.pos, this.pos + count);
    this.pos += count;
    return out;
  }

  /**
   * @param {number} p
   * @param {number} q
   */
  chance(p, q) {
    return this.below(q) < p;
  }

  /**
   * @param {number} n
   * @returns {number}
   */
  below(n) {
    if (!(n >= 1)) throw new Error(`below(${n})`);
    const k = n <= 256 ? 1 : Math.ceil((n - 1).toString(2).length / 8);
    if (k > 6) throw new Error("below(): bound too large for this implementation");
    const span = 2 ** (8 * k);
    const limit = span - (span % n);
    for (;;) {
      const bytes = this.read(k);
      let x = 0;
      for (const b of bytes) x = x * 256 + b;
      if (x < limit) return x % n;
    }
  }

  /**
   * @param {number} a
   * @param {number} b
   */
  between(a, b) {
    return a + this.below(b - a + 1);
  }

  /**
   * @template T
   * @param {readonly T[]} seq
   * @returns {T}
   */
  choice(seq) {
    return seq[this.below(seq.length)];
  }

  /** @param {number[]} weights */
  weighted(weights) {
    let x = this.below(weights.reduce((s, w) => s + w, 0));
    for (let i = 0; i < weights.length; i++) {
      if (x < weights[i]) return i;
      x -= weights[i];
    }
    throw new Error("unreachable");
  }

  /** @param {unknown[]} list shuffled in place */
  shuffle(list) {
    for (let i = list.length - 1; i >= 1; i--) {
      const j = this.below(i + 1);
      [list[i], list[j]] = [list[j], list[i]];
    }
  }

  /**
   * @template T
   * @param {readonly T[]} seq
   * @param {number} k
   * @returns {T[]}
   */
  sample(seq, k) {
    const pool = [...seq];
    for (let i = 0; i < k; i++) {
      const j = i + this.below(pool.length - i);
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    return pool.slice(0, k);
  }
}

// Python's json.dumps(value, separators=(",", ":"), sort_keys=True) for the values a book holds.
/**
 * @param {unknown} value
 * @returns {string}
 */
export function dumps(value) {
  if (Array.isArray(value)) return `[${value.map(dumps).join(",")}]`;
  if (typeof value === "string") {
    if (!/^[\x20-\x7e]*$/.test(value) || /["\\]/.test(value)) {
      throw new Error(`a string outside the documented set: ${JSON.stringify(value)}`);
    }
    return `"${value}"`;
  }
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a count: ${value}`);
    return String(value);
  }
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${dumps(k)}:${dumps(/** @type {Record<string, unknown>} */ (value)[k])}`).join(",")}}`;
  }
  throw new Error(`cannot write ${value}`);
}

// ---- the command line ------------------------------------------------------------------

// `node X.mjs MODEL COMPOSITION_JSON SEED_HEX` prints one book; with no arguments, one book a
// line for each request line {"model", "composition", "seed"} on stdin.
/**
 * @param {(model: string, composition: any, seedHex: string) => string} buildBook composition:
 *   the request's JSON, as the engine's test gives it
 * @param {string[]} argv
 * @param {string} usage
 */
export function serve(buildBook, argv, usage) {
  if (argv.length === 3) {
    process.stdout.write(`${buildBook(argv[0], JSON.parse(argv[1]), argv[2])}\n`);
    return;
  }
  if (argv.length !== 0) {
    process.stderr.write(`usage: ${usage} MODEL COMPOSITION_JSON SEED_HEX | < requests\n`);
    process.exitCode = 2;
    return;
  }
  /** @type {string[]} */
  const out = [];
  for (const line of readFileSync(0, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const request = JSON.parse(line);
    out.push(buildBook(request.model, request.composition, request.seed));
  }
  process.stdout.write(out.map((book) => `${book}\n`).join(""));
}
