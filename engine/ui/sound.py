"""Sound cues and music beds: the names scenes play, and the notes the backends synthesise.

Python decides when a cue sounds (a scene calls `Flow.cue` at the moment its animation shows
something; each game's presentation declares its own cues beside the shared ones here) and
which music bed loops (a game's page names its bed while sound is on); a backend decides nothing
but how to make the notes audible: the browser shell with a Web Audio graph
(web/shell/js/sound.js, which reads `notes_json()`), pygame with 16-bit samples computed in pure
Python (backends/pygame_sound.py). No audio files: everything is described here as data.

A note is one voice: an oscillator, or noise through a band-pass filter centred on its `freq`,
optionally low-passed at `cutoff`. It rises linearly to its gain in `attack` seconds, then decays
exponentially to `FLOOR` of it by its end; `to` slides the pitch (or the noise's band)
exponentially from `freq` to `to`. Cues go to the effects bus, beds to the music bus; each bus
has the player's volume (engine/ui/settings.py) and both are scaled by `MASTER`.
The layered voices (a pluck, a pad, a kick...) are functions below that return several notes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Wave = Literal["sine", "triangle", "square", "sawtooth", "noise"]
WAVES: tuple[Wave, ...] = ("sine", "triangle", "square", "sawtooth", "noise")
MASTER = 0.2
ATTACK = 0.005
FLOOR = 0.001
NOISE_Q = 1.2  # the noise band-pass filter's quality: about an octave wide


@dataclass(frozen=True)
class Note:
    """One voice: starts `at` seconds into its cue and lasts `length` seconds."""

    at: float
    length: float
    freq: float
    wave: Wave = "sine"
    gain: float = 1.0
    to: float | None = None
    cutoff: float | None = None  # a low-pass filter's corner in Hz (None: unfiltered)
    attack: float = ATTACK

    def __post_init__(self) -> None:
        if not (self.length > self.attack > 0 and self.freq > 0 and self.gain > 0):
            raise ValueError(f"a note needs length > attack > 0 and a frequency: {self}")
        if self.wave not in WAVES:
            raise ValueError(f"unknown wave {self.wave!r}")

    def to_json(self) -> dict[str, object]:
        """The note as the shell reads it: its fields by name (its __dict__, copied: a tenth of
        the time `asdict` takes, which matters at the page's start)."""
        return dict(vars(self))


@dataclass(frozen=True)
class Bed:
    """A music bed: the notes of one loop of `period` seconds, played again and again."""

    period: float
    notes: tuple[Note, ...]

    def __post_init__(self) -> None:
        if not self.notes or any(n.at < 0 or n.at >= self.period for n in self.notes):
            raise ValueError("a bed's notes all start within its period")

    def to_json(self) -> dict[str, object]:
        """The bed as the shell reads it."""
        return {"period": self.period, "notes": [n.to_json() for n in self.notes]}


# ---- layered voices: each returns the notes of one sound with body ---------------------------
def pluck(at: float, freq: float, length: float, gain: float) -> tuple[Note, ...]:
    """A bright plucked note: a triangle, its octave and a low-passed sawtooth for bite."""
    return (
        Note(at, length, freq, "triangle", gain),
        Note(at, length * 0.6, freq * 2, "sine", gain * 0.3),
        Note(at, length * 0.5, freq, "sawtooth", gain * 0.25, cutoff=freq * 4),
    )


def run(at: float, step: float, freqs: tuple[float, ...], length: float, gain: float) -> list[Note]:
    """Plucked notes one after another, `step` seconds apart."""
    return [n for k, f in enumerate(freqs) for n in pluck(at + k * step, f, length, gain)]


def chord(
    at: float,
    length: float,
    freqs: tuple[float, ...],
    gain: float,
    wave: Wave = "triangle",
    cutoff: float | None = None,
    attack: float = 0.02,
) -> tuple[Note, ...]:
    """A held chord, each tone two slightly detuned voices (a chorus)."""
    return tuple(Note(at, length, f * d, wave, gain, None, cutoff, attack)
                 for f in freqs for d in (0.997, 1.003))  # fmt: skip


def sparkle(at: float, length: float, gain: float) -> tuple[Note, ...]:
    """High sine glints, one after another: the shimmer over a win."""
    glints = (2093.0, 2637.02, 3135.96, 4186.01)
    return tuple(Note(at + k * 0.05, length, f, "sine", gain) for k, f in enumerate(glints))


def kick(at: float, gain: float) -> tuple[Note, ...]:
    """A drum's thump: a sine falling fast, with a click of noise."""
    click = Note(at, 0.02, 3000.0, "noise", gain * 0.4)
    return (Note(at, 0.3, 160.0, "sine", gain, to=45.0), click)


def snare(at: float, gain: float) -> tuple[Note, ...]:
    """A snare or clap: a band of noise over a short low tone."""
    return (Note(at, 0.18, 1800.0, "noise", gain), Note(at, 0.1, 190.0, "triangle", gain * 0.5))


def hat(at: float, gain: float, freq: float = 8000.0) -> tuple[Note, ...]:
    """A hi-hat tick: a short, high band of noise."""
    return (Note(at, 0.05, freq, "noise", gain),)


def whoosh(at: float, length: float, start: float, end: float, gain: float) -> tuple[Note, ...]:
    """Noise whose band sweeps from `start` to `end` Hz, swelling in, then dying away."""
    return (Note(at, length, start, "noise", gain, to=end, attack=length * 0.6),)


def bass(at: float, length: float, freq: float, gain: float) -> tuple[Note, ...]:
    """A bass note: a low-passed sawtooth over a sine an octave down."""
    return (
        Note(at, length, freq, "sawtooth", gain, cutoff=freq * 5, attack=0.01),
        Note(at, length, freq / 2, "sine", gain * 0.8, attack=0.01),
    )


C5, E5, G5, C6 = 523.25, 659.25, 783.99, 1046.5
Cues = Mapping[str, tuple[Note, ...]]
Beds = Mapping[str, Bed]


def _shared() -> dict[str, tuple[Note, ...]]:
    return {
        # a control pressed (PLAY, Rules and Prizes, a setting, FINISH...): a soft click
        "press": (Note(0.0, 0.05, 880.0, "triangle", 0.45), *hat(0.0, 0.2, 5000.0)),
        # the end message with a win: a bright run onto a held chord with a shimmer
        "win": (
            *run(0.0, 0.1, (C5, E5, G5, C6), 0.3, 0.45),
            *chord(0.42, 0.9, (C5, E5, G5, C6), 0.22),
            *sparkle(0.42, 0.5, 0.18),
        ),
        # the end message without one: two soft falling notes
        "nowin": (Note(0.0, 0.22, 440.0, gain=0.4), Note(0.2, 0.4, 349.23, gain=0.35)),
        # a win of more than the price (the grading's "win"), as it is shown: a short lift
        "smallwin": (
            *run(0.0, 0.09, (G5, C6), 0.25, 0.4),
            *sparkle(0.12, 0.35, 0.12),
        ),
        # a big win (ten times the price or more): drums, a rising sweep and a brass chord
        "bigwin": (
            *kick(0.0, 0.5),
            *whoosh(0.0, 0.7, 400.0, 6000.0, 0.25),
            *kick(0.35, 0.4),
            *chord(0.7, 1.4, (261.63, C5, E5, G5, C6), 0.1, "sawtooth", 2400.0),
            *run(0.7, 0.06, (C5, E5, G5, C6), 0.3, 0.25),
            *sparkle(0.7, 1.0, 0.12),
            *snare(0.7, 0.35),
        ),
        # a top prize: the big win's hit, then a climbing fanfare over a long chord
        "topwin": (
            *kick(0.0, 0.5),
            *whoosh(0.0, 0.9, 300.0, 8000.0, 0.25),
            *snare(0.9, 0.4),
            *run(0.9, 0.1, (C5, E5, G5, C6, 1318.51, 1567.98), 0.35, 0.28),
            *chord(1.5, 2.2, (130.81, 261.63, C5, E5, G5), 0.09, "sawtooth", 2000.0),
            *sparkle(1.5, 1.6, 0.12),
            *kick(1.5, 0.45),
        ),
        # the amount counting up: one tick a step
        "countup": (Note(0.0, 0.035, 2093.0, "triangle", 0.25), *hat(0.0, 0.12, 9000.0)),
        # a burst of particles: a bright crackle
        "burst": (*whoosh(0.0, 0.25, 3000.0, 9000.0, 0.3), *sparkle(0.02, 0.3, 0.12)),
        # the price back (a return no bigger than the stake): no fanfare, one neutral tone
        "priceback": (Note(0.0, 0.3, 523.25, "sine", 0.35, cutoff=1500.0),),
    }


# The cues every game shares; a game's presentation adds its own (engine/ui/<game>/sounds.py).
# "win" and "nowin" end a play; "smallwin", "bigwin", "topwin", "countup", "burst" and
# "priceback" are the graded celebrations' cues (which plays when is the games' cues modules').
SHARED: dict[str, tuple[Note, ...]] = _shared()


def merge(*tables: Cues) -> dict[str, tuple[Note, ...]]:
    """One cue table from several; a name two tables give different notes is an error."""
    merged: dict[str, tuple[Note, ...]] = {}
    for table in tables:
        for name, notes in table.items():
            if merged.setdefault(name, notes) != notes:
                raise ValueError(f"the sound cue {name!r} is defined twice, differently")
    return merged


def notes_json(table: Cues, beds: Beds | None = None) -> str:
    """Every cue's notes, every bed and the envelope's figures, as JSON for the browser shell."""
    cues = {name: [n.to_json() for n in notes] for name, notes in table.items()}
    music = {name: bed.to_json() for name, bed in (beds or {}).items()}
    return json.dumps(
        {"master": MASTER, "floor": FLOOR, "q": NOISE_Q, "cues": cues, "beds": music},
        separators=(",", ":"),
    )
