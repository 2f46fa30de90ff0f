"""The notes of £500K Power Puck Shot's own sound cues (the shared ones are in
engine/ui/sound.py; none of these names is one Lab Riches uses, so `merge` takes all three) and
its music bed: arena energy (stomp, stomp, clap over a driving bass, power-chord stabs and a
stadium organ's call, four bars at 128 beats a minute).

When each one sounds is decided by the game's cue timers, at the moment its animation shows it.
"""

from __future__ import annotations

from engine.ui import sound as voice
from engine.ui.sound import C5, C6, E5, G5, Bed, Note

A4, D5, A5, D6, E6, G6 = 440.0, 587.33, 880.0, 1174.66, 1318.51, 1567.98
SOUNDS: dict[str, tuple[Note, ...]] = {
    # a puck struck: a knock, a slap of noise and a short whoosh away
    "shoot": (
        *voice.kick(0.0, 0.3),
        *voice.hat(0.0, 0.3, 2500.0),
        Note(0.01, 0.14, 300.0, "triangle", 0.4, to=900.0),
        *voice.whoosh(0.01, 0.18, 1500.0, 5000.0, 0.15),
    ),
    # a pip reveals a symbol: a small bright blip
    "pip": (Note(0.0, 0.06, D6, "triangle", 0.35), Note(0.0, 0.04, D6 * 2, gain=0.1)),
    # a spinning bumper hit: a springy boing with a clack
    "bumper": (
        Note(0.0, 0.12, 330.0, "square", 0.18, to=660.0, cutoff=2500.0),
        Note(0.05, 0.1, A5, "triangle", 0.35, to=D6),
        *voice.hat(0.0, 0.2, 4000.0),
    ),
    # the puck drops into a pocket: a falling plop and a thud
    "drop": (Note(0.0, 0.16, 520.0, "triangle", 0.4, to=180.0), *voice.kick(0.1, 0.25)),
    # a coloured square lands in the Prize Table
    "fill": (*voice.pluck(0.0, E6, 0.07, 0.25), Note(0.03, 0.08, G6, gain=0.2)),
    # a row completed: a rising chord with a crowd's cheer of noise
    "full": (
        *voice.run(0.0, 0.08, (D5, 739.99, A5), 0.14, 0.4),
        *voice.pluck(0.24, D6, 0.35, 0.45),
        *voice.chord(0.24, 0.35, (A5,), 0.12),
        *voice.whoosh(0.2, 0.5, 900.0, 1400.0, 0.12),
    ),
    # BONUS GAME!: a fanfare over a low hum and a stomp
    "bonus-game": (
        *voice.run(0.0, 0.1, (A4, D5, 739.99, A5), 0.16, 0.4),
        *voice.pluck(0.4, D6, 0.5, 0.4),
        *voice.chord(0.0, 0.9, (146.83,), 0.12, "sawtooth", 700.0),
        *voice.kick(0.4, 0.45),
        *voice.snare(0.4, 0.25),
    ),
    # a Bonus Game award lands: a two-note chime
    "award": (*voice.pluck(0.0, A5, 0.12, 0.4), Note(0.08, 0.2, E6, gain=0.35)),
    # a row's amount rises: an upward slide and a ting
    "boost": (
        Note(0.0, 0.2, 440.0, "sawtooth", 0.15, to=1320.0, cutoff=3000.0),
        *voice.whoosh(0.0, 0.2, 800.0, 6000.0, 0.12),
        *voice.pluck(0.18, E6, 0.14, 0.35),
    ),
    # a puck added to the Pucks Left counter: a quick pop up
    "puck": (
        Note(0.0, 0.08, 392.0, "triangle", 0.45, to=784.0),
        Note(0.07, 0.1, G5, gain=0.3),
    ),
    # RESULT! PRIZE GAME UNLOCKED!: a bright run, a held chord and a crowd's roar
    "prize-game": (
        *voice.run(0.0, 0.08, (C5, E5, G5, C6, E6), 0.15, 0.35),
        *voice.chord(0.4, 0.6, (C5, E5, G5), 0.12),
        *voice.whoosh(0.3, 0.8, 700.0, 1600.0, 0.15),
        *voice.kick(0.4, 0.4),
    ),
    # 'POWER PUCK ALL SYMBOLS X2': a charge rising to a double chord
    "power": (
        Note(0.0, 0.3, 220.0, "sawtooth", 0.2, to=880.0, cutoff=3000.0),
        *voice.whoosh(0.0, 0.3, 400.0, 6000.0, 0.2),
        *voice.pluck(0.28, A5, 0.3, 0.3),
        Note(0.28, 0.3, E6, gain=0.25),
        *voice.kick(0.28, 0.4),
    ),
    # an amount flies into the PRIZE POT: coins
    "pot": (
        Note(0.0, 0.08, 1975.53, "triangle", 0.3),
        Note(0.07, 0.18, 2637.02, "triangle", 0.25),
        Note(0.0, 0.1, 987.77, gain=0.2),
        *voice.hat(0.0, 0.15, 7000.0),
    ),
}

BEAT = 60 / 128  # seconds: four bars of four beats a loop
# D minor, B flat, F, C: each bar's bass note (an octave under the power chord's root)
ROOTS = (73.42, 58.27, 87.31, 65.41)
ORGAN = ((0.0, D5), (0.5, D5), (1.0, 698.46), (1.5, D5), (2.5, A5), (3.0, 698.46))  # bar 4


def _bar(k: int) -> tuple[Note, ...]:
    at, root = k * 4 * BEAT, ROOTS[k]
    stomps = (n for b in (0.0, 0.5, 2.0, 2.5) for n in voice.kick(at + b * BEAT, 0.4))
    claps = (n for b in (1.0, 3.0) for n in voice.snare(at + b * BEAT, 0.22))
    drive = (n for j in range(8) for n in voice.bass(at + j * BEAT / 2, BEAT * 0.45, root, 0.1))
    organ = (
        (Note(at + b * BEAT, BEAT * 0.45, f, "square", 0.07, cutoff=2200.0) for b, f in ORGAN)
        if k == 3
        else ()
    )
    power = (root * 4, root * 6, root * 8)  # the root, its fifth and its octave
    return (
        *stomps,
        *claps,
        *drive,
        *voice.chord(at, BEAT * 1.5, power, 0.05, "sawtooth", 1400.0, attack=0.01),
        *organ,
    )


BED = Bed(16 * BEAT, tuple(n for k in range(4) for n in _bar(k)))
