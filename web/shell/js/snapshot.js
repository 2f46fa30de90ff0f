// The interpreter snapshot: a returning visit skips starting CPython.
// The first visit starts Python the long way, imports the game, and keeps a memory snapshot
// of that interpreter (Pyodide's makeMemorySnapshot) in Cache Storage; the next visit restores
// it instead (docs/build.md). The key names the exact runtime, standard library, shared zip and
// the opened game's zip, so a new release never restores an old interpreter; a snapshot that fails to restore is
// dropped and Python starts the long way. All of it runs in the worker, off the page's thread
// (packing 31 MB blocked the page for 0.3-0.6 s when it ran there); `note` tells the page how
// the boot went (window.lottery.stats.boot and .snapshot).
const SNAPSHOT_CACHE = "lottery-python-snapshot";
/** @type {ShellConfig} */
let config; // configure() sets it and the key before any other use
/** @type {string} */
let snapshotKey;
/** @type {(figures: object) => void} */
let note = () => {};

// One snapshot per page (a game's holds that game's screens imported, the lobby's every game's),
// under a key naming the release's runtime, standard library and shared zip, and the games' zips.
let release = "";
/**
 * @param {ShellConfig} given
 * @param {(figures: object) => void} noteStats
 * @param {GameEntry[]} games the games this page opens
 */
export function configure(given, noteStats, games) {
  config = given;
  note = noteStats;
  const shared = {
    runtime: config.pyodide.mjs,
    stdlib: config.pyodide.stdlib,
    shared: config.game.zip,
  };
  release = new URLSearchParams(shared).toString();
  snapshotKey = new URL(
    "/python-snapshot?" +
      new URLSearchParams({ ...shared, game: games.map((game) => game.zip).join(" ") }),
    location.href,
  ).href;
  snapshots.usable =
    typeof caches === "object" && globalThis.isSecureContext && config.snapshot !== false;
}
// Most of the interpreter's 31 MB of memory is untouched zero pages: the stored form keeps only
// the 64 KiB pages that hold something (about 13 MB): [magic, length, count, page indices...]
// as 32-bit words, then those pages.
const PAGE = 65536,
  PACKED = 0x4c525031; // "LRP1"
/**
 * @param {Uint8Array<ArrayBuffer>} bytes
 * @returns {Blob}
 */
export function packSnapshot(bytes) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  /** @type {number[]} */
  const kept = [];
  for (let page = 0; page * PAGE < bytes.length; page += 1) {
    const end = Math.min(words.length, ((page + 1) * PAGE) >> 2);
    for (let w = (page * PAGE) >> 2; w < end; w += 1)
      if (words[w] !== 0) {
        kept.push(page);
        break;
      }
  }
  const head = new Uint32Array([PACKED, bytes.length, kept.length, ...kept]);
  return new Blob([head, ...kept.map((page) => bytes.subarray(page * PAGE, (page + 1) * PAGE))]);
}
// Pyodide's snapshot is its header (with a JSON of the JavaScript objects Python holds), then
// the interpreter's memory from the header's end on: the worker hands Pyodide the header alone
// and the pages to write straight into its memory (Pyodide's restore, edited by
// web/runtime/patch.py), not a 31 MB unpacked copy.
const HEADER = 48; // Pyodide's fixed part; its word 1 is where the memory starts
/**
 * The pages of a packed snapshot, checked whole before anything is written.
 * @param {Uint8Array<ArrayBuffer>} packed
 * @returns {SnapshotPages}
 */
export function readSnapshot(packed) {
  const head = new Uint32Array(packed.buffer, packed.byteOffset, Math.min(packed.length >> 2, 3));
  if (packed.byteLength < 12 || head[0] !== PACKED) throw new Error("not a packed snapshot");
  const [, length, count] = head;
  if (12 + 4 * count > packed.byteLength) throw new Error("snapshot cut short in its index");
  const pages = new Uint32Array(packed.buffer, packed.byteOffset + 12, count);
  /** @type {number[]} */
  const at = []; // where each page's bytes start in `packed`
  let end = 12 + 4 * count;
  for (let k = 0; k < count; k += 1) {
    if (pages[k] * PAGE >= length || (k > 0 && pages[k] <= pages[k - 1]))
      throw new Error("snapshot pages out of order");
    at[k] = end;
    end += Math.min(PAGE, length - pages[k] * PAGE);
  }
  if (end !== packed.byteLength) throw new Error("snapshot length does not match its pages");
  /**
   * Bytes `from` to `to` of the unpacked snapshot into `target` from its start; the gaps
   * between kept pages are zeroed below `dirty` only (above it `target` is known to be zero).
   * @param {Uint8Array} target
   * @param {number} from
   * @param {number} to
   * @param {number} dirty
   */
  function copy(target, from, to, dirty) {
    let zeroed = 0; // target's bytes up to here are written
    const zero = (/** @type {number} */ until) => {
      if (Math.min(until, dirty) > zeroed) target.fill(0, zeroed, Math.min(until, dirty));
    };
    for (let k = 0; k < count; k += 1) {
      const first = pages[k] * PAGE;
      const start = Math.max(first, from);
      const stop = Math.min(first + PAGE, length, to);
      if (start >= stop) continue;
      zero(start - from);
      target.set(packed.subarray(at[k] + start - first, at[k] + stop - first), start - from);
      zeroed = stop - from;
    }
    zero(to - from);
  }
  const whole = count > 0 && pages[0] === 0 && length >= HEADER; // Pyodide's header is there
  const memoryAt = whole
    ? new DataView(packed.buffer).getUint32(packed.byteOffset + at[0] + 4, true)
    : 0;
  if (memoryAt < HEADER || memoryAt > length) throw new Error("not an interpreter snapshot");
  const header = new Uint8Array(memoryAt);
  copy(header, 0, memoryAt, 0);
  return {
    head: header,
    length,
    write(memory, from, dirty) {
      if (length - from > memory.length)
        throw new Error("the snapshot is larger than the interpreter's memory");
      copy(memory, from, length, dirty);
    },
  };
}

// A snapshot found in the cache, its bytes still being read and checked.
/** @typedef {{pages: Promise<SnapshotPages>}} FoundSnapshot */

export const snapshots = {
  usable: false,
  // Whether a snapshot is kept, as soon as the cache says so, and then its pages (a promise):
  // Pyodide's start need not wait for the 13 MB read, only its restore does.
  /** @returns {Promise<FoundSnapshot | null>} */
  async load() {
    if (!this.usable) return null;
    try {
      const hit = await (await caches.open(SNAPSHOT_CACHE)).match(snapshotKey);
      if (!hit) return null;
      const pages = hit.arrayBuffer().then((read) => readSnapshot(new Uint8Array(read)));
      pages.catch(() => {}); // met where Pyodide awaits it: the start goes on afresh
      return { pages }; // (a promise returned bare would be awaited with this one)
    } catch (error) {
      console.warn("snapshot read:", error);
      await this.drop();
      return null;
    }
  },
  /** @param {Uint8Array<ArrayBuffer>} bytes */
  async save(bytes) {
    const cache = await caches.open(SNAPSHOT_CACHE);
    // This release's snapshots only, one per game: the others' stay, older releases' go.
    for (const old of await cache.keys()) {
      const params = new URL(old.url).searchParams;
      const game = params.get("game");
      params.delete("game");
      if (params.toString() !== release || old.url === snapshotKey || game === null)
        await cache.delete(old);
    }
    await cache.put(
      snapshotKey,
      new Response(packSnapshot(bytes), {
        headers: { "Content-Type": "application/octet-stream" },
      }),
    );
  },
  async drop() {
    try {
      await caches.delete(SNAPSHOT_CACHE);
    } catch {
      /* nothing to drop */
    }
  },
};

/**
 * @param {LoadPyodide} loadPyodide pyodide.mjs's
 * @param {Promise<FoundSnapshot | null>} stored the snapshot kept, if any (snapshots.load)
 * @param {Promise<CreatePyodideModule | null>} restoring the runtime a restore starts from
 *   (js/runtime.js), if not Pyodide's own
 * @param {Promise<WebAssembly.Module | null>} [wasm] Pyodide's WebAssembly, compiled by another
 *   worker (js/runtime.js), if it is
 * @returns {Promise<{pyodide: Pyodide, boot: "snapshot" | "fresh"}>}
 */
export async function startPython(loadPyodide, stored, restoring, wasm) {
  const options = {
    _wasmModule: wasm,
    indexURL: config.pyodide.index,
    stdLibURL: config.pyodide.stdlib,
    lockFileContents: JSON.stringify({ info: config.pyodide.lockInfo, packages: {} }),
    env: { HOME: "/home/pyodide" },
  };
  const snapshot = await stored;
  if (snapshot) {
    try {
      const { pages } = snapshot;
      const runtime = await restoring;
      const pyodide = await loadPyodide({
        ...options,
        ...(runtime ? { createPyodideModule: runtime } : {}),
        _loadSnapshot: pages.then((read) => read.head),
        _snapshotPages: pages,
      });
      note({ boot: "snapshot" });
      return { pyodide, boot: "snapshot" };
    } catch (error) {
      console.warn("snapshot did not restore; starting Python afresh:", error);
      await snapshots.drop();
    }
  }
  note({ boot: "fresh" });
  return {
    pyodide: await loadPyodide({ ...options, _makeSnapshot: snapshots.usable }),
    boot: "fresh",
  };
}

// Whether this boot takes a snapshot: a fresh start where snapshots can be kept does, once the
// page is playable; otherwise stats.snapshot says why not (restored, or unavailable).
/** @param {"snapshot" | "fresh"} boot */
export function snapshotDue(boot) {
  if (boot === "fresh" && snapshots.usable) return true;
  note({ snapshot: boot === "snapshot" ? "restored" : "unavailable" });
  return false;
}

// Taken once the page is playable (the game started and answered), off the time a player
// waits; every JavaScript object Python still holds must be one Pyodide can name again (the
// `js` module and what is reached from it). Saved at once.
/**
 * @param {Pyodide} pyodide
 * @returns {Uint8Array<ArrayBuffer> | null}
 */
export function takeSnapshot(pyodide) {
  try {
    const began = performance.now();
    const bytes = pyodide.makeMemorySnapshot();
    note({ snapshotMs: Math.round(performance.now() - began), snapshotBytes: bytes.length });
    return bytes;
  } catch (error) {
    console.warn("no snapshot:", error);
    note({ snapshot: "failed" });
    return null;
  }
}

/** @param {Uint8Array<ArrayBuffer> | null} bytes */
export function keepSnapshot(bytes) {
  if (!bytes) return;
  note({ snapshot: "saving" });
  snapshots.save(bytes).then(
    () => note({ snapshot: "saved" }),
    (error) => {
      console.warn("snapshot not saved:", error);
      note({ snapshot: "failed" });
    },
  );
}
