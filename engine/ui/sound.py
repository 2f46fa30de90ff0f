"""Sound cues: the names scenes play, and each one's notes for the backends to synthesise.

Python decides when a cue sounds (a scene calls `App.cue` at the moment its animation shows
something); a backend decides nothing but how to make the notes audible: the browser shell with
Web Audio oscillators (web/shell/js/sound.js, which reads `notes_json()`), pygame with 16-bit
samples computed in pure Python (backends/pygame_sound.py). No audio files.

Each note rises linearly to its gain in `ATTACK` seconds, then decays exponentially to
`FLOOR` of it by its end; a note with `to` slides exponentially from `freq` to `to`. The sum
of a cue's notes is scaled by `MASTER`, so nothing is loud.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Literal

Wave = Literal["sine", "triangle", "square", "sawtooth"]
MASTER = 0.2
ATTACK = 0.005
FLOOR = 0.001


@dataclass(frozen=True)
class Note:
    """One oscillator: starts `at` seconds into its cue and lasts `length` seconds."""

    at: float
    length: float
    freq: float
    wave: Wave = "sine"
    gain: float = 1.0
    to: float | None = None

    def to_json(self) -> dict[str, object]:
        """The note as the shell reads it: its fields by name."""
        return asdict(self)


def _arpeggio(freqs: tuple[float, ...], step: float, length: float, gain: float) -> list[Note]:
    return [Note(k * step, length, f, "triangle", gain) for k, f in enumerate(freqs)]


C5, E5, G5, C6, E6 = 523.25, 659.25, 783.99, 1046.5, 1318.51
CUES: dict[str, tuple[Note, ...]] = {
    # a control pressed (PLAY, Rules and Prizes, a setting, FINISH...)
    "press": (Note(0.0, 0.05, 880.0, "triangle", 0.5),),
    # GO pressed: a rising swoop
    "go": (Note(0.0, 0.16, 392.0, "triangle", 0.7, to=784.0), Note(0.1, 0.12, 1174.66, gain=0.3)),
    # one column of the grid highlighted
    "column": (Note(0.0, 0.07, 660.0, gain=0.45),),
    # a symbol locks: a clunk and a ting
    "lock": (Note(0.0, 0.06, 196.0, "square", 0.25), Note(0.02, 0.14, C6, "triangle", 0.5)),
    # a prize highlighted: a completed row, a paying meter box, an Instant Prize arriving
    "row": (*_arpeggio((C5, E5, G5), 0.09, 0.12, 0.6), Note(0.27, 0.3, C6, "triangle", 0.6)),
    # a number reaches the Power Surge Prize Meter, or a box without a prize lights
    "meter": (
        Note(0.0, 0.22, 220.0, "sawtooth", 0.25, to=880.0),
        Note(0.18, 0.1, 1760.0, gain=0.3),
    ),
    # extra goes fly to GOES
    "goes": (
        Note(0.0, 0.25, 440.0, gain=0.5, to=1320.0),
        Note(0.22, 0.12, 1320.0, "triangle", 0.4),
    ),
    # BONUS GAME ACTIVATED
    "bonus": (
        *_arpeggio((392.0, C5, E5), 0.12, 0.14, 0.5),
        Note(0.36, 0.45, G5, "triangle", 0.5),
        Note(0.0, 0.8, 196.0, gain=0.3),
    ),
    # the Bonus Game light moves on one segment
    "tick": (Note(0.0, 0.025, 1567.98, "triangle", 0.3),),
    # the light comes to rest
    "rest": (Note(0.0, 0.35, E6, gain=0.5), Note(0.0, 0.25, 1975.53, gain=0.2)),
    # the end message with a win
    "win": (
        *_arpeggio((C5, E5, G5, C6), 0.1, 0.15, 0.5),
        *(Note(0.42, 0.7, f, "triangle", 0.3) for f in (C5, E5, G5)),
        Note(0.42, 0.7, C6, gain=0.3),
    ),
    # the end message without one: two soft falling notes
    "nowin": (Note(0.0, 0.22, 440.0, gain=0.4), Note(0.2, 0.4, 349.23, gain=0.35)),
}


def notes_json() -> str:
    """Every cue's notes and the envelope's figures, as JSON for the browser shell."""
    cues = {name: [n.to_json() for n in notes] for name, notes in CUES.items()}
    return json.dumps(
        {"master": MASTER, "attack": ATTACK, "floor": FLOOR, "cues": cues}, separators=(",", ":")
    )
