"""Sound for the pygame backend: the cues' notes (engine/ui/sound.py) played through pygame.mixer.

Samples are 16-bit, computed in pure Python (numpy is not a dependency) the first time a cue
plays and kept. Where the mixer cannot start (no audio device, as on a headless CI machine)
the player stays silent rather than failing.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable

import pygame

from engine.ui.sound import ATTACK, FLOOR, MASTER, Cues, Note

RATE = 22050


def _wave(kind: str, phase: float) -> float:
    """One oscillator's value at a phase in [0, 1)."""
    if kind == "sine":
        return math.sin(2 * math.pi * phase)
    if kind == "triangle":
        return 4 * abs(phase - 0.5) - 1
    if kind == "square":
        return 1.0 if phase < 0.5 else -1.0
    return 2 * phase - 1  # sawtooth


def _level(note: Note, t: float) -> float:
    """The note's envelope t seconds in: a linear attack, then an exponential decay to FLOOR."""
    if t < ATTACK:
        return note.gain * t / ATTACK
    return note.gain * FLOOR ** ((t - ATTACK) / max(1e-9, note.length - ATTACK))


def samples(notes: Iterable[Note], rate: int = RATE) -> array[int]:
    """A cue's notes mixed as signed 16-bit mono samples, scaled by MASTER."""
    notes = tuple(notes)
    mix = [0.0] * (math.ceil(max(n.at + n.length for n in notes) * rate) + 1)
    for note in notes:
        start, phase = round(note.at * rate), 0.0
        ratio = (note.to or note.freq) / note.freq
        for i in range(round(note.length * rate)):
            t = i / rate
            phase = (phase + note.freq * ratio ** (t / note.length) / rate) % 1.0
            mix[start + i] += _wave(note.wave, phase) * _level(note, t)
    peak = 32767 * MASTER
    return array("h", (max(-32767, min(32767, round(v * peak))) for v in mix))


class SoundPlayer:
    """Plays a frame's cues through pygame.mixer, or nothing when there is no audio device."""

    def __init__(self, cues: Cues) -> None:
        self.cues = cues  # every cue's notes (engine.ui.games.sounds())
        self.channels = 0
        self.played = 0
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        try:
            if pygame.mixer.get_init() != (RATE, -16, 1):
                pygame.mixer.quit()
                pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            rate, size, channels = pygame.mixer.get_init() or (0, 0, 0)
        except pygame.error:
            return
        if (rate, size) == (RATE, -16):
            self.channels = channels

    @property
    def available(self) -> bool:
        """True when the mixer started with a format these samples fit."""
        return self.channels > 0

    def play(self, cues: Iterable[str]) -> None:
        """Start each cue (silently nothing without a mixer)."""
        if not self.available:
            return
        for name in cues:
            sound = self._sounds.get(name)
            if sound is None:
                mono = samples(self.cues[name])
                frames = array("h", (v for v in mono for _ in range(self.channels)))
                sound = self._sounds[name] = pygame.mixer.Sound(buffer=frames.tobytes())
            sound.play()
            self.played += 1
