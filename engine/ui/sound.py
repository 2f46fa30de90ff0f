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
    return [Note(k * step, length, f, "triangle", gain) for k, f in enumerate(freqs)]


C5, E5, G5, C6 = 523.25, 659.25, 783.99, 1046.5
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
