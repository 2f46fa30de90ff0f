"""Sound for the pygame backend: the cues and music beds of engine/ui/sound.py through pygame.mixer.

The same voices as the browser's Web Audio graph (web/shell/js/sound.js), computed in pure
Python (numpy is not a dependency) as 16-bit samples: oscillators, noise through a band-pass
filter, a low-pass filter where a note has a cutoff (both RBJ biquads, as Web Audio's
BiquadFilterNode), the same envelope. A cue's samples are made the first time it plays and
kept; a bed's loop is made once, on a thread so the window keeps running, then loops on its own
channel. Cues play at the effects volume, the bed at the music volume. Where the mixer cannot
start (no audio device, as on a headless CI machine) the player stays silent rather than failing.
"""

from __future__ import annotations

import math
import threading
from array import array
from collections.abc import Iterable, Mapping

import pygame

from engine.ui.sound import FLOOR, MASTER, NOISE_Q, Bed, Cues, Note

RATE = 22050
LOW_Q = 10 ** (1 / 20)  # Web Audio's low-pass Q of 1 dB, as a linear quality
RETUNE = 32  # a sliding filter's coefficients are worked out again every RETUNE samples


def _wave(kind: str, phase: float) -> float:
    """One oscillator's value at a phase in [0, 1)."""
    if kind == "sine":
        return math.sin(2 * math.pi * phase)
    if kind == "triangle":
        return 4 * abs(phase - 0.5) - 1
    if kind == "square":
        return 1.0 if phase < 0.5 else -1.0
    return 2 * phase - 1  # sawtooth


def _biquad(kind: str, freq: float, q: float, rate: int) -> tuple[float, ...]:
    """An RBJ band-pass (0 dB peak) or low-pass filter's normalised (b0, b1, b2, a1, a2)."""
    w = 2 * math.pi * min(freq, rate * 0.45) / rate
    alpha, cos = math.sin(w) / (2 * q), math.cos(w)
    a0 = 1 + alpha
    low = (1 - cos) / 2
    b = (alpha, 0.0, -alpha) if kind == "bandpass" else (low, 2 * low, low)
    return (b[0] / a0, b[1] / a0, b[2] / a0, -2 * cos / a0, (1 - alpha) / a0)


def _filter(signal: list[float], kind: str, freqs: list[float], q: float, rate: int) -> None:
    """Filter signal in place; freqs gives the corner every RETUNE samples."""
    x1 = x2 = y1 = y2 = 0.0
    b0 = b1 = b2 = a1 = a2 = 0.0
    for i, x in enumerate(signal):
        if i % RETUNE == 0:
            b0, b1, b2, a1, a2 = _biquad(kind, freqs[i // RETUNE], q, rate)
        y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, x, y1, y
        signal[i] = y


def voice(note: Note, rate: int = RATE) -> list[float]:
    """One note's samples: its oscillator or filtered noise, low-passed, under its envelope."""
    count = round(note.length * rate)
    slide = ((note.to or note.freq) / note.freq) ** (1 / max(1, count))  # a step's pitch ratio
    if note.wave == "noise":
        seed, out = 22222, [0.0] * count  # white noise from a fixed generator: the same each time
        for i in range(count):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            out[i] = seed / 0x3FFFFFFF - 1.0
        bands = [note.freq * slide ** (k * RETUNE) for k in range(count // RETUNE + 1)]
        _filter(out, "bandpass", bands, NOISE_Q, rate)
    else:
        out, phase, freq = [0.0] * count, 0.0, note.freq
        for i in range(count):
            out[i] = _wave(note.wave, phase)
            phase = (phase + freq / rate) % 1.0
            freq *= slide
    if note.cutoff:
        _filter(out, "lowpass", [note.cutoff] * (count // RETUNE + 1), LOW_Q, rate)
    rise = max(1, round(note.attack * rate))
    fall = FLOOR ** (1 / max(1, count - rise))  # the decay's ratio a sample
    level = 0.0
    for i in range(count):
        level = note.gain * (i / rise) if i < rise else level * fall
        out[i] *= level
    return out


def _mixed(notes: Iterable[Note], length: int, wrap: bool, rate: int) -> array[int]:
    """Notes summed into `length` samples (wrapping round to the start for a loop), scaled by
    MASTER, as signed 16-bit values."""
    mix = [0.0] * length
    for note in notes:
        start = round(note.at * rate)
        for i, v in enumerate(voice(note, rate)):
            j = start + i
            if j < length:
                mix[j] += v
            elif wrap:
                mix[j % length] += v
    peak = 32767 * MASTER
    return array("h", (max(-32767, min(32767, round(v * peak))) for v in mix))


def samples(notes: Iterable[Note], rate: int = RATE) -> array[int]:
    """A cue's notes mixed as signed 16-bit mono samples, scaled by MASTER."""
    notes = tuple(notes)
    return _mixed(notes, math.ceil(max(n.at + n.length for n in notes) * rate) + 1, False, rate)


def loop_samples(bed: Bed, rate: int = RATE) -> array[int]:
    """One loop of a bed, its notes that run past the period wrapped round to its start (so it
    loops without a seam)."""
    return _mixed(bed.notes, round(bed.period * rate), True, rate)


class SoundPlayer:
    """Plays a frame's cues and loops its bed through pygame.mixer, or nothing when there is no
    audio device."""

    def __init__(self, cues: Cues, beds: Mapping[str, Bed] | None = None) -> None:
        self.cues = cues  # every cue's notes (engine.ui.games.sounds())
        self.beds = beds or {}  # every bed (engine.ui.games.beds())
        self.channels = 0
        self.played = 0
        self.music = ""  # the bed asked for
        self.volumes = (0.0, 0.0)
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._loops: dict[str, pygame.mixer.Sound] = {}
        self._looping: pygame.mixer.Channel | None = None
        try:
            if pygame.mixer.get_init() != (RATE, -16, 1):
                pygame.mixer.quit()
                pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            rate, size, channels = pygame.mixer.get_init() or (0, 0, 0)
        except pygame.error:
            return
        if (rate, size) == (RATE, -16):
            self.channels = channels
            pygame.mixer.set_reserved(1)  # channel 0 is the bed's; cues never take it

    @property
    def available(self) -> bool:
        """True when the mixer started with a format these samples fit."""
        return self.channels > 0

    def _sound(self, mono: array[int]) -> pygame.mixer.Sound:
        frames = array("h", (v for v in mono for _ in range(self.channels)))
        return pygame.mixer.Sound(buffer=frames.tobytes())

    def play(self, cues: Iterable[str]) -> None:
        """Start each cue at the effects volume (silently nothing without a mixer)."""
        if not self.available:
            return
        for name in cues:
            sound = self._sounds.get(name)
            if sound is None:
                sound = self._sounds[name] = self._sound(samples(self.cues[name]))
            sound.set_volume(self.volumes[1])
            sound.play()
            self.played += 1

    def mix(self, music: str, volumes: tuple[float, float]) -> None:
        """Loop the bed named (none for ""), at the music volume; cues at the effects volume."""
        self.volumes = volumes
        if not self.available:
            return
        if music != self.music:
            self.music = music
            pygame.mixer.Channel(0).fadeout(300)
            self._looping = None
            if music and music not in self._loops:
                threading.Thread(target=self._render, args=(music,), daemon=True).start()
        if music and self._looping is None and music in self._loops:
            self._looping = pygame.mixer.Channel(0)
            self._looping.play(self._loops[music], loops=-1, fade_ms=300)
        if self._looping is not None:
            self._looping.set_volume(volumes[0])

    def _render(self, name: str) -> None:
        self._loops[name] = self._sound(loop_samples(self.beds[name]))
