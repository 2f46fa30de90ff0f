"""Sound cues: the names scenes play, and each one's notes for the backends to synthesise.

Python decides when a cue sounds (a scene calls `Flow.cue` at the moment its animation shows
something; each game's presentation declares its own cues beside the shared ones here); a
backend decides nothing but how to make the notes audible: the browser shell with
Web Audio oscillators (web/shell/js/sound.js, which reads `notes_json()`), pygame with 16-bit
samples computed in pure Python (backends/pygame_sound.py). No audio files.

Each note rises linearly to its gain in `ATTACK` seconds, then decays exponentially to
`FLOOR` of it by its end; a note with `to` slides exponentially from `freq` to `to`. The sum
of a cue's notes is scaled by `MASTER`, so nothing is loud.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
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


def arpeggio(freqs: tuple[float, ...], step: float, length: float, gain: float) -> list[Note]:
    """Notes one `step` apart, each `length` long, rising through freqs."""
    return [Note(k * step, length, f, "triangle", gain) for k, f in enumerate(freqs)]


C5, E5, G5, C6 = 523.25, 659.25, 783.99, 1046.5
E6, G6 = 1318.51, 1567.98
Cues = Mapping[str, tuple[Note, ...]]
# The cues every game shares; a game's presentation adds its own (engine/ui/<game>/sounds.py).
SHARED: dict[str, tuple[Note, ...]] = {
    # a control pressed (PLAY, Rules and Prizes, a setting, FINISH...)
    "press": (Note(0.0, 0.05, 880.0, "triangle", 0.5),),
    # the end message with a win
    "win": (
        *arpeggio((C5, E5, G5, C6), 0.1, 0.15, 0.5),
        *(Note(0.42, 0.7, f, "triangle", 0.3) for f in (C5, E5, G5)),
        Note(0.42, 0.7, C6, gain=0.3),
    ),
    # the end message without one: two soft falling notes
    "nowin": (Note(0.0, 0.22, 440.0, gain=0.4), Note(0.2, 0.4, 349.23, gain=0.35)),
    # a prize shown that is no bigger than the price (or any in a free TRY): marked, not
    # celebrated (engine/ui/celebration.py)
    "plain": (Note(0.0, 0.12, G5, "triangle", 0.4), Note(0.08, 0.2, C6, "triangle", 0.3)),
    # the end of a play that gives the price back, or of a free TRY: a plain, level chime (no
    # fanfare: a return no bigger than the stake is not celebrated, engine/ui/celebration.py)
    "over": (Note(0.0, 0.3, G5, "triangle", 0.35), Note(0.12, 0.45, C5, gain=0.3)),
    # a big win's full-screen celebration: a longer run, a held chord over a low root
    "big-win": (
        *arpeggio((C5, E5, G5, C6, E6, G6), 0.08, 0.16, 0.5),
        *(Note(0.5, 0.85, f, "triangle", 0.28) for f in (C5, E5, G5, C6)),
        Note(0.0, 1.35, 130.81, gain=0.3),
    ),
    # the top prize: the big win's run, then again a tone higher, and a held chord
    "top-prize": (
        *arpeggio((C5, E5, G5, C6, E6, G6), 0.06, 0.14, 0.5),
        *(
            Note(0.4 + n.at, n.length, n.freq * 9 / 8, n.wave, n.gain)
            for n in arpeggio((C5, E5, G5, C6, E6, G6), 0.06, 0.14, 0.5)
        ),
        *(Note(0.8, 0.55, f * 9 / 8, "triangle", 0.26) for f in (C5, E5, G5, C6)),
        Note(0.0, 1.35, 146.83, gain=0.3),
    ),
}


def merge(*tables: Cues) -> dict[str, tuple[Note, ...]]:
    """One cue table from several; a name two tables give different notes is an error."""
    merged: dict[str, tuple[Note, ...]] = {}
    for table in tables:
        for name, notes in table.items():
            if merged.setdefault(name, notes) != notes:
                raise ValueError(f"the sound cue {name!r} is defined twice, differently")
    return merged


def notes_json(table: Cues) -> str:
    """Every cue's notes and the envelope's figures, as JSON for the browser shell."""
    cues = {name: [n.to_json() for n in notes] for name, notes in table.items()}
    return json.dumps(
        {"master": MASTER, "attack": ATTACK, "floor": FLOOR, "cues": cues}, separators=(",", ":")
    )
