// Sound: plays the cues a frame names ("sounds") and loops the music bed it names ("music"),
// synthesised with a Web Audio graph from the notes Python describes (engine/ui/sound.py): a
// voice per note (an oscillator, or noise through a band-pass filter; a low-pass where the note
// has a cutoff; a gain envelope), the cues into the effects bus, the bed into the music bus,
// each bus at the player's volume ("volumes"), both into the master gain. No audio file,
// nothing fetched. Python decides when a cue sounds and which bed loops, and names them only
// while the player has sound on. Browsers let audio start only after a user gesture, so the
// AudioContext is made (or resumed) only once the player has pressed or tapped something with
// sound on (the splash's Sound on is such a press), never before. Without Web Audio, sound
// stays off and the game offers no sound settings.
import { stats } from "./state.js";

const AudioContextClass = window.AudioContext || window.webkitAudioContext;
export const audioAvailable = typeof AudioContextClass === "function";
const AHEAD_S = 1.5; // a bed's next loop is scheduled this long before it starts
const FADE_S = 0.3; // a bed stopping fades out over this

/** @type {SoundBook} */
let book = { master: 0.2, floor: 0.001, q: 1.2, cues: {}, beds: {} };
let wanted = false; // the player's setting, as Python last said
let gestured = false; // a trusted press, tap or key since the page loaded
/** @type {AudioContext | null} */
let context = null;
/** @type {{master: GainNode, effects: GainNode, music: GainNode, noise: AudioBuffer} | null} */
let graph = null;
let bed = ""; // the bed Python names now
let volumes = [0, 0]; // the music's and the effects' gains Python gives
/** @type {{name: string, next: number, out: GainNode} | null} */
let loop = null; // the bed looping now: its name, when its next pass starts, its fader
/** @type {ReturnType<typeof setInterval> | null} */
let pump = null;
/** @type {SoundStats} */
const sounds = {
  played: 0,
  last: null,
  counts: {},
  context: "none",
  music: "",
  loops: 0,
  voices: 0,
  volumes: [0, 0],
};
stats.sounds = sounds; // window.lottery.stats.sounds, what the tests read

function noteState() {
  sounds.context = context ? context.state : "none";
}

// The graph: master, the two buses, a second of white noise the noise voices read.
/** @param {AudioContext} ctx */
function build(ctx) {
  const master = ctx.createGain();
  master.gain.value = book.master;
  master.connect(ctx.destination);
  const effects = ctx.createGain();
  const music = ctx.createGain();
  effects.connect(master);
  music.connect(master);
  const noise = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate);
  const data = noise.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  return { master, effects, music, noise };
}

// Make or wake the AudioContext, only when the player wants sound and has made a gesture.
function wake() {
  if (!wanted || !gestured || !audioAvailable) return false;
  try {
    if (!context) {
      context = new /** @type {typeof AudioContext} */ (AudioContextClass)(); // audioAvailable
      graph = build(context);
      setVolumes();
      context.addEventListener("statechange", noteState);
    }
    if (context.state === "suspended") context.resume().catch(() => {});
  } catch (error) {
    console.warn("sound:", error);
    wanted = false;
    context = null;
    graph = null;
  }
  noteState();
  return context !== null;
}

for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(
    type,
    (e) => {
      if (e.isTrusted) {
        gestured = true;
        wake();
      }
    },
    { capture: true },
  );
}

// The notes of every cue and bed, read once from Python before the first frame.
/** @param {string} json engine/ui/sound.py notes_json */
export function setNotes(json) {
  book = JSON.parse(json);
  if (graph) graph.master.gain.value = book.master;
}

// The player's setting: on makes or resumes the context (after a gesture), off suspends it.
/** @param {boolean} [on] */
export function want(on) {
  wanted = !!on && audioAvailable;
  if (wanted) wake();
  else if (context && context.state === "running") context.suspend().then(noteState, () => {});
  noteState();
}

// One voice at `at` on the context's clock into `out`; the graph exists (wake() made it).
/**
 * @param {number} at
 * @param {Note} n
 * @param {AudioNode} out
 */
function voice(at, n, out) {
  const ctx = /** @type {AudioContext} */ (context);
  const { noise } = /** @type {NonNullable<typeof graph>} */ (graph);
  const end = at + n.length;
  const peak = Math.max(n.gain, 0.0002);
  /** @type {AudioScheduledSourceNode} */
  let source;
  /** @type {AudioParam} */
  let pitch;
  /** @type {AudioNode} */
  let tail;
  if (n.wave === "noise") {
    const buffer = ctx.createBufferSource();
    buffer.buffer = noise;
    buffer.loop = true;
    const band = ctx.createBiquadFilter();
    band.type = "bandpass";
    band.Q.value = book.q;
    buffer.connect(band);
    [source, pitch, tail] = [buffer, band.frequency, band];
  } else {
    const osc = ctx.createOscillator();
    osc.type = n.wave;
    [source, pitch, tail] = [osc, osc.frequency, osc];
  }
  pitch.setValueAtTime(n.freq, at);
  if (n.to) pitch.exponentialRampToValueAtTime(n.to, end);
  if (n.cutoff) {
    const low = ctx.createBiquadFilter();
    low.type = "lowpass";
    low.frequency.value = n.cutoff;
    tail = tail.connect(low);
  }
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.linearRampToValueAtTime(peak, at + n.attack);
  gain.gain.exponentialRampToValueAtTime(peak * book.floor, end);
  tail.connect(gain).connect(out);
  source.start(at);
  source.stop(end + 0.01);
  sounds.voices += 1;
}

// Play a frame's cues (Python sends them only while sound is on).
/** @param {string[]} cues */
export function play(cues) {
  if (!cues.length) return;
  wanted = audioAvailable;
  if (!wake() || !graph) return;
  const now = /** @type {AudioContext} */ (context).currentTime + 0.01; // wake() made it
  for (const cue of cues) {
    for (const n of book.cues[cue] || []) voice(now + n.at, n, graph.effects);
    sounds.played += 1;
    sounds.last = cue;
    sounds.counts[cue] = (sounds.counts[cue] || 0) + 1;
  }
}

function setVolumes() {
  if (!graph || !context) return;
  graph.music.gain.setTargetAtTime(volumes[0], context.currentTime, 0.05);
  graph.effects.gain.setTargetAtTime(volumes[1], context.currentTime, 0.05);
}

// Stop the bed looping: its fader fades out, and what it scheduled plays on into silence.
function stopLoop() {
  if (!loop || !context) return;
  const { out } = loop;
  out.gain.setTargetAtTime(0, context.currentTime, FADE_S / 3);
  setTimeout(() => out.disconnect(), FADE_S * 3000);
  loop = null;
  sounds.music = "";
}

// Keep the named bed looping: its next pass scheduled AHEAD_S before it starts.
function keepLooping() {
  if (!context || !graph || context.state !== "running") return;
  if (loop && loop.name !== bed) stopLoop();
  const music = book.beds[bed];
  if (!music) return;
  const now = context.currentTime;
  if (!loop) {
    const out = context.createGain();
    out.connect(graph.music);
    loop = { name: bed, next: now + 0.05, out };
    sounds.music = bed;
  }
  if (loop.next < now) loop.next = now + 0.05; // the context was suspended meanwhile
  while (loop.next < now + AHEAD_S) {
    for (const n of music.notes) voice(loop.next + n.at, n, loop.out);
    loop.next += music.period;
    sounds.loops += 1;
  }
}

// A frame's mix: the bed to loop ("" for none) and the music's and effects' gains.
/**
 * @param {string} music
 * @param {[number, number]} gains
 */
export function mix(music, gains) {
  if (gains[0] !== volumes[0] || gains[1] !== volumes[1]) {
    volumes = gains;
    sounds.volumes = gains;
    setVolumes();
  }
  if (music === bed) return;
  bed = music;
  if (!bed) {
    stopLoop();
    if (pump !== null) clearInterval(pump);
    pump = null;
    return;
  }
  if (pump === null) pump = setInterval(keepLooping, 250);
  keepLooping();
}
