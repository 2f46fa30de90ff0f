// What the shell adds to the page's window, for the type check (tsconfig.json); not shipped.
// The shapes shared by the page and the workers are in types.d.ts.
interface Window {
  /** The build's configuration and the figures the tests and benchmarks read (js/state.js). */
  lottery: { config: ShellConfig; stats: Stats; ready: boolean; layout?: unknown };
  /** Safari before 14.1 names the Web Audio context so (js/sound.js). */
  webkitAudioContext?: typeof AudioContext;
}
