// The shapes the shell's scripts share (the page, its worker, Python's JSON), for the type
// check only (tsconfig.json and tsconfig.worker.json); not shipped. A global script, no import
// or export: the JSDoc of every file names these types as they are. The endpoint's answers the
// page reads: api.d.ts.

// ---- the build's configuration (tools/build/dist.py writes it into index.html) ------------
/** One game on sale: its zip of screens, fetched only when that game is opened. */
interface GameEntry {
  id: string;
  /** The page's title until Python draws. */
  name: string;
  zip: string;
  bytes: number;
  /** The shared zip's packages this game's zip adds modules to (engine.ui: its screens). */
  packages: string[];
}
/** A web font the worker loads into its own font set (config.fonts, from critical.css). */
interface FontEntry {
  family: string;
  weight: number;
  url: string;
}
/** One page's atlas of the art (tools/atlas.py, docs/drawing.md "Pictures"). */
interface ArtEntry {
  /** Each key's [x, y, w, h] in logical px. */
  frames: Record<string, number[]>;
  /** The WebP atlas by pixel ratio ("1", "2"), and its bytes. */
  urls: Record<string, string>;
  bytes: Record<string, number>;
}

interface ShellConfig {
  /** The endpoint's origin, "" for the site's own. */
  api: string;
  pyodide: {
    index: string;
    mjs: string;
    /** The runtime a returning visit starts from (js/runtime.js). */
    eager: string;
    /** Pyodide's WebAssembly, which a returning visit compiles on a second worker (js/runtime.js). */
    wasm: string;
    stdlib: string;
    /** Pyodide's lock file's "info", passed on as it is (arbitrary JSON to the shell). */
    lockInfo: unknown;
  };
  /** `register`: the packages of the games registered beyond the registry's own, if any. */
  game: { zip: string; module: string; games: GameEntry[]; register?: string[] };
  worker: string;
  /** The throwaway worker that has the eager runtime's compiled code kept (js/runtime.js). */
  runtimeCache: string;
  /** This release (its files and page), as the service worker's cache names it. */
  release: string;
  ed25519: string;
  fonts: FontEntry[];
  /** The art's atlases by page: "lobby" and each game's id. */
  art: Record<string, ArtEntry>;
  /** Uncompressed bytes by path, for the download's progress. */
  sizes: Record<string, number>;
  serviceWorker: string;
  /** Read by the shell, not written by tools/build/dist.py: absent, the defaults hold
   * (90 s; on). */
  bootTimeoutMs?: number;
  snapshot?: boolean;
}

/** window.lottery.stats: figures the tests and benchmarks read; the worker adds its own. */
interface Stats {
  frames: number;
  frameAt: number[];
  pythonMs: number[];
  drawMs: number[];
  bootStart: number;
  readyMs: number | null;
  errors: string[];
  boot: string | null;
  snapshot: string | null;
  /** Set by js/sound.js as it loads. */
  sounds?: SoundStats;
  /** Where the worker's start went (its `timings` message), once the first frame is shown. */
  worker?: WorkerTimeline;
  /** What the worker notes (canvas, fonts, workerBytes, modules, snapshotMs, ...). */
  [figure: string]: unknown;
}
/** What the page's sound did: cues played, the last, each one's count, the context's state,
 * the bed looping, its passes scheduled, the voices made and the buses' gains. */
interface SoundStats {
  played: number;
  last: string | null;
  counts: Record<string, number>;
  context: string;
  music: string;
  loops: number;
  voices: number;
  volumes: [number, number];
}
/** The query parameters Python starts with (app.js startParams), all strings. */
type StartParams = Record<string, string>;

// ---- Python's frame (backends/browser.py) ---------------------------------------------------
/** A linear gradient of the drawing table: x0, y0, x1, y1 and its [offset, colour] stops. */
type Gradient = { g: [number, number, number, number, [number, string][]] };
/** The drawing table's update for a frame (backends/canvas.py, docs/drawing.md). */
interface TableUpdate {
  base: number;
  add: (string | Gradient)[];
}
/** A control of the scene, mirrored as a <button> (or an <input> for a field). */
interface Control {
  id: string;
  label: string;
  rect: [number, number, number, number];
  enabled: boolean;
  focused?: boolean;
  /** "decimal": a text field for an amount, mirrored as an <input>. */
  input?: string;
  value?: string;
}
/** The screen the controls belong to: the mirror's heading. */
interface ScreenShown {
  id: string;
  game: string;
}
/** A sound's voice (engine/ui/sound.py Note). */
interface Note {
  at: number;
  length: number;
  freq: number;
  wave: "sine" | "triangle" | "square" | "sawtooth" | "noise";
  gain: number;
  to: number | null;
  cutoff: number | null;
  attack: number;
}
/** A music bed: one loop's notes (engine/ui/sound.py Bed). */
interface Bed {
  period: number;
  notes: Note[];
}
/** Every cue's notes, every bed and the envelope's figures (engine/ui/sound.py notes_json). */
interface SoundBook {
  master: number;
  floor: number;
  q: number;
  cues: Record<string, Note[]>;
  beds: Record<string, Bed>;
}
/** browser.frame()'s answer. */
interface FrameOut {
  ms: number;
  /** Not null when the frame drew; the worker deletes it before the page gets the frame. */
  cmds?: TableUpdate | null;
  controls: Control[] | null;
  screen: ScreenShown | null;
  say: string[];
  requests: ShellRequest[];
  sounds: string[];
  /** The music bed looping now ("" for none) and the music's and effects' gains. */
  music: string;
  volumes: [number, number];
  /** ?layout=1: what the layout test measures (its own JSON, read by the test alone). */
  layout?: unknown;
}

// ---- the bridge: Python's requests and their answers (js/bridge.js, docs/drawing.md) --------
/** The choices of a play's events that waited for one, in order (docs/books.md). */
type Choices = unknown[];
/** Each operation's fields, as App.request sends them. */
interface RequestFields {
  session: {};
  purchase: { game: string };
  resume: { game: string };
  save: { game: string; play_number: number; index: number; choices?: Choices };
  finish: { game: string; play_number: number; choices?: Choices };
  try: { game: string };
  recall: { play_number: number };
  reality_seen: {};
  code: {};
  signin: { balance_pence?: number };
  logout: { every?: boolean };
  verify_play: { play_number: number };
  check_signatures: { items?: { key: string; message: string; signature: string }[] };
  keep_checkpoint: { size: number; checkpoint: string };
  remaining: { game: string };
  limits: {};
  set_limits: { daily_pence?: number | null; weekly_pence?: number | null };
  protections: {};
  protect: { what: "break" | "exclusion" | "return"; length?: string; understood?: boolean };
  my_data: {};
  close_account: {};
  plays: { cursor?: string; limit?: number };
  open: { params?: Record<string, string | number | boolean> };
  pref: { fast?: boolean; sound?: boolean; music?: number; effects?: number };
}
/** A request as Python's JSON gives it: the shell reads the fields its operation names. */
type ShellRequest = { id: string; op: string; [field: string]: unknown };
/** A refusal, word for word for the player: {code, message} and what the page shows of it. */
interface Failure {
  code: string;
  message: string;
  [detail: string]: unknown;
}
/** An operation's outcome, as Python's reply carries it (and the page's early answers). */
type Answer = { ok: true; body: object } | { ok: false; body: Failure };

// ---- input for Python's next frame (engine/ui/input.py event_from_json) ---------------------
type ShellEvent =
  | { type: "down" | "move" | "up"; x: number; y: number }
  | { type: "wheel"; dy: number }
  | { type: "key"; key: string }
  | { type: "activate" | "focus"; control: string }
  | { type: "input"; control: string; value: string }
  | { type: "resize"; width: number; height: number }
  | { type: "motion"; reduced: boolean }
  | { type: "reply"; id: string; ok: boolean; body: object };

// ---- the page and the worker (worker.js, docs/drawing.md "The worker") ----------------------
/** The stage's size in CSS pixels and the device's pixel ratio. */
interface StageSize {
  width: number;
  height: number;
  dpr: number;
}
type PageMessage =
  | {
      type: "boot";
      config: ShellConfig;
      canvas: OffscreenCanvas;
      size: StageSize;
      params: StartParams;
      origin: number; // the page's performance.timeOrigin: frames' `now` on the page's clock
      runtime: string | null; // the runtime a restoring start imports (js/runtime.js); set: a `wasm` message follows
    }
  | { type: "wasm"; module: WebAssembly.Module | null }
  | ({ type: "size" } & StageSize)
  | { type: "frame"; now: number; events: ShellEvent[] }
  | { type: "ready" }
  | { type: "settled" }
  | ({ type: "answer"; name: string } & Answer);
type WorkerMessage =
  | { type: "progress"; fraction: number; text: string }
  | { type: "stats"; [figure: string]: unknown }
  | { type: "mark"; name: string; at: number }
  | { type: "used"; names: string[] }
  | { type: "started"; notes: string }
  | { type: "frame"; now: number; out: FrameOut; drew: boolean; drawMs: number }
  | { type: "fail"; error: string; running: boolean }
  | ({ type: "timings" } & WorkerTimings);

/** The worker's own timeline (js/timings.js), in ms from its time origin (epoch ms): each
 * request [path, start, first byte, end, bytes transferred, body bytes], each step
 * [name, start, end]. */
interface WorkerTimings {
  origin: number;
  resources: [string, number, number, number, number, number][];
  spans: [string, number, number][];
}
/** The same on the page's timeline (ms from navigation): window.lottery.stats.worker. */
interface WorkerTimeline {
  downloads: {
    path: string;
    start: number;
    firstByte: number;
    end: number;
    bytes: number;
    bodyBytes: number;
  }[];
  spans: { name: string; start: number; end: number }[];
}

// ---- Pyodide, as far as the worker uses it ------------------------------------------------
/** A Python object seen from JavaScript (a PyProxy): what the shell calls on it. */
interface PyProxy {
  destroy(): void;
  getBuffer(type: "f64"): { data: Float64Array; release(): void };
}
interface Pyodide {
  FS: { writeFile(path: string, data: Uint8Array): void };
  /** A module: backends.browser (or another the config names), sys, engine.games, or a
   * package whose `__path__` a game's zip extends. */
  pyimport(name: string): BrowserModule & StartModules;
  makeMemorySnapshot(): Uint8Array<ArrayBuffer>;
}
/** What the worker's start reads of the other modules it imports (sys, a package): called,
 * never compiled from source. */
interface StartModules {
  path: { insert(index: number, item: string): void };
  modules: { __len__(): number };
  __path__: { append(item: string): void };
  /** engine.games: a game's package added to the registry (config.game.register). */
  register(name: string): unknown;
}
/** backends/browser.py as the worker calls it. */
interface BrowserModule {
  start(width: number, height: number, params: string, answered: string, fonts: string): void;
  frame(now: number, events: string): string;
  batch(): PyProxy;
  sound_notes(): string;
  redraw(): void;
}
/** A stored snapshot read back (js/snapshot.js): Pyodide's header whole, the rest as pages. */
interface SnapshotPages {
  /** Pyodide's header and its JSON: what Pyodide is handed as the snapshot. */
  head: Uint8Array<ArrayBuffer>;
  /** The unpacked snapshot's length: header and memory. */
  length: number;
  /** The snapshot's bytes from `from` on into `memory` from its start, the gaps between the
   * pages zeroed below `dirty` (web/runtime/patch.py: Pyodide's restore calls it). */
  write(memory: Uint8Array, from: number, dirty: number): void;
}
/** pyodide.mjs's loadPyodide, with the options the shell gives it. */
type LoadPyodide = (options: {
  indexURL: string;
  stdLibURL: string;
  lockFileContents: string;
  env: Record<string, string>;
  // Pyodide awaits them just before its restore, so its start need not wait for the read
  _loadSnapshot?: Uint8Array<ArrayBuffer> | Promise<Uint8Array<ArrayBuffer>>;
  /** Ours (web/runtime/patch.py): the pages Pyodide's restore writes into its memory. */
  _snapshotPages?: Promise<SnapshotPages>;
  _makeSnapshot?: boolean;
  /** The runtime's module function, if not the one Pyodide imports from indexURL. */
  createPyodideModule?: CreatePyodideModule;
  /** Ours (web/runtime/patch.py): the WebAssembly compiled by another worker (null: that
   * failed, and Pyodide fetches and compiles its own). */
  _wasmModule?: Promise<WebAssembly.Module | null>;
}) => Promise<Pyodide>;
/** pyodide.asm.mjs's default export (opaque to the shell: only handed back to Pyodide). */
type CreatePyodideModule = (settings: object) => Promise<unknown>;
