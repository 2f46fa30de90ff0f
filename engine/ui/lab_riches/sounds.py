"""The notes of Lab Riches' own sound cues (the shared ones are in engine/ui/sound.py) and its
music bed: a quiet electronic loop for a laboratory (bubbling arpeggios over a filtered pad,
a soft kick and ticking hats, eight seconds at 120 beats a minute).

When each cue sounds is engine/ui/lab_riches/cues.py.
"""

from __future__ import annotations

from engine.ui import sound as voice
from engine.ui.sound import C5, C6, E5, G5, Bed, Note

E6 = 1318.51
SOUNDS: dict[str, tuple[Note, ...]] = {
    # GO pressed: a rising swoop over a soft whoosh
    "go": (
        Note(0.0, 0.16, 392.0, "triangle", 0.6, to=784.0),
        Note(0.0, 0.16, 392.0, "sawtooth", 0.15, to=784.0, cutoff=2000.0),
        Note(0.1, 0.12, 1174.66, gain=0.3),
        *voice.whoosh(0.0, 0.2, 800.0, 4000.0, 0.2),
    ),
    # one column of the grid highlighted: a glassy blip
    "column": (Note(0.0, 0.07, 660.0, gain=0.4), Note(0.0, 0.05, 1320.0, "triangle", 0.12)),
    # a symbol locks: a clunk, a click and a ting
    "lock": (
        Note(0.0, 0.08, 196.0, "square", 0.2, cutoff=900.0),
        *voice.hat(0.0, 0.25, 3000.0),
        *voice.pluck(0.02, C6, 0.16, 0.4),
    ),
    # a prize highlighted: a completed row, a paying meter box, an Instant Prize arriving
    "row": (
        *voice.run(0.0, 0.09, (C5, E5, G5), 0.14, 0.45),
        *voice.pluck(0.27, C6, 0.35, 0.5),
        *voice.sparkle(0.27, 0.3, 0.08),
    ),
    # a number reaches the Power Surge Prize Meter, or a box without a prize lights: a charge
    "meter": (
        Note(0.0, 0.22, 220.0, "sawtooth", 0.25, to=880.0, cutoff=2500.0),
        *voice.whoosh(0.0, 0.22, 500.0, 5000.0, 0.15),
        Note(0.18, 0.1, 1760.0, gain=0.3),
    ),
    # extra goes fly to GOES
    "goes": (
        Note(0.0, 0.25, 440.0, gain=0.45, to=1320.0),
        *voice.whoosh(0.0, 0.25, 1000.0, 6000.0, 0.15),
        *voice.pluck(0.22, 1320.0, 0.14, 0.35),
    ),
    # BONUS GAME ACTIVATED: a run over a low hum and a thump
    "bonus": (
        *voice.run(0.0, 0.12, (392.0, C5, E5), 0.16, 0.4),
        *voice.pluck(0.36, G5, 0.45, 0.45),
        *voice.chord(0.0, 0.8, (196.0,), 0.15, "sawtooth", 800.0),
        *voice.kick(0.36, 0.4),
    ),
    # the Bonus Game light moves on one segment
    "tick": (Note(0.0, 0.025, 1567.98, "triangle", 0.3),),
    # the light comes to rest: a bell
    "rest": (
        Note(0.0, 0.35, E6, gain=0.45),
        Note(0.0, 0.25, 1975.53, gain=0.2),
        Note(0.0, 0.3, E6 * 2.76, gain=0.06),
    ),
}

BEAT = 0.5  # seconds: 120 beats a minute, four bars of four beats a loop
# A minor, F, C, G: each bar's chord (for the pad and the arpeggio) and its bass note
BARS = (
    ((220.0, 261.63, 329.63), 110.0),
    ((174.61, 220.0, 261.63), 87.31),
    ((261.63, 329.63, 392.0), 130.81),
    ((196.0, 246.94, 293.66), 98.0),
)
ARP = (0, 1, 2, 1, 2, 0, 1, 2)  # the chord tones an octave up, one an eighth of a beat


def _bar(k: int) -> tuple[Note, ...]:
    tones, root = BARS[k]
    at = k * 4 * BEAT
    arp = (Note(at + j * BEAT / 2, 0.14, tones[t] * 2, "triangle", 0.16, cutoff=2400.0)
           for j, t in enumerate(ARP))  # fmt: skip
    return (
        *voice.chord(at, 4 * BEAT, tones, 0.06, "sawtooth", 700.0, attack=0.6),
        *arp,
        *voice.bass(at, BEAT * 1.5, root, 0.18),
        *voice.bass(at + 2 * BEAT, BEAT * 1.5, root, 0.14),
        *voice.kick(at, 0.35),
        *voice.kick(at + 2 * BEAT, 0.3),
        *(n for b in range(4) for n in voice.hat(at + (b + 0.5) * BEAT, 0.08)),
        # a bubble rising in a flask, once a bar
        Note(at + 3.25 * BEAT, 0.18, 600.0 + 150 * k, "sine", 0.1, to=1600.0 + 200 * k),
    )


BED = Bed(16 * BEAT, tuple(n for k in range(4) for n in _bar(k)))
