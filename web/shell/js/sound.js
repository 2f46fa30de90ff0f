// Sound: plays the cues a frame names ("sounds"), synthesised with the Web Audio API from the
// notes Python describes (engine/ui/sound.py): an oscillator and a gain envelope per note, no
// audio file, nothing fetched. Python decides when a cue sounds and sends cues only while the
// player has sound on. Browsers let audio start only after a user gesture, so the AudioContext
// is made (or resumed) only once the player has pressed or tapped something with sound on,
// never before. Without Web Audio, sound stays off and the game offers no Sound setting.
import { stats } from "./state.js";

const AudioContextClass = window.AudioContext || window.webkitAudioContext;
export const audioAvailable = typeof AudioContextClass === "function";

/** @type {SoundBook} */
let book = { master: 0.2, attack: 0.005, floor: 0.001, cues: {} };
let wanted = false; // the player's setting, as Python last said
let gestured = false; // a trusted press, tap or key since the page loaded
/** @type {AudioContext | null} */
let context = null;
/** @type {GainNode | null} */
let master = null;
/** @type {SoundStats} */
const sounds = { played: 0, last: null, counts: {}, context: "none" };
stats.sounds = sounds; // window.lottery.stats.sounds, what the tests read

function noteState() {
  sounds.context = context ? context.state : "none";
}

// Make or wake the AudioContext, only when the player wants sound and has made a gesture.
function wake() {
  if (!wanted || !gestured || !audioAvailable) return false;
  try {
    if (!context) {
      context = new /** @type {typeof AudioContext} */ (AudioContextClass)(); // audioAvailable
      master = context.createGain();
      master.gain.value = book.master;
      master.connect(context.destination);
      context.addEventListener("statechange", noteState);
    }
    if (context.state === "suspended") context.resume().catch(() => {});
  } catch (error) {
    console.warn("sound:", error);
    wanted = false;
    context = null;
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

// The notes of every cue, read once from Python before the first frame.
/** @param {string} json engine/ui/sound.py notes_json */
export function setNotes(json) {
  book = JSON.parse(json);
  if (master) master.gain.value = book.master;
}

// The player's setting: on makes or resumes the context (after a gesture), off suspends it.
/** @param {boolean} [on] */
export function want(on) {
  wanted = !!on && audioAvailable;
  if (wanted) wake();
  else if (context && context.state === "running") context.suspend().then(noteState, () => {});
  noteState();
}

// A note at `at` on the context's clock; play() has woken the context (and its master gain).
/**
 * @param {number} at
 * @param {Note} n
 */
function note(at, n) {
  const osc = /** @type {AudioContext} */ (context).createOscillator();
  const gain = /** @type {AudioContext} */ (context).createGain();
  const peak = Math.max(n.gain, 0.0002);
  const end = at + n.length;
  osc.type = n.wave;
  osc.frequency.setValueAtTime(n.freq, at);
  if (n.to) osc.frequency.exponentialRampToValueAtTime(n.to, end);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.linearRampToValueAtTime(peak, at + book.attack);
  gain.gain.exponentialRampToValueAtTime(peak * book.floor, end);
  osc.connect(gain).connect(/** @type {GainNode} */ (master));
  osc.start(at);
  osc.stop(end + 0.01);
}

// Play a frame's cues (Python sends them only while sound is on).
/** @param {string[]} cues */
export function play(cues) {
  if (!cues.length) return;
  wanted = audioAvailable;
  if (!wake()) return;
  const now = /** @type {AudioContext} */ (context).currentTime + 0.01; // wake() made it
  for (const cue of cues) {
    for (const n of book.cues[cue] || []) note(now + n.at, n);
    sounds.played += 1;
    sounds.last = cue;
    sounds.counts[cue] = (sounds.counts[cue] || 0) + 1;
  }
}
