"""The notes of Lab Riches' own sound cues (the shared ones are in engine/ui/sound.py).

When each one sounds is engine/ui/lab_riches/cues.py.
"""

from __future__ import annotations

from engine.ui.sound import C5, C6, E5, G5, Note, arpeggio

E6 = 1318.51
SOUNDS: dict[str, tuple[Note, ...]] = {
    # GO pressed: a rising swoop
    "go": (Note(0.0, 0.16, 392.0, "triangle", 0.7, to=784.0), Note(0.1, 0.12, 1174.66, gain=0.3)),
    # one column of the grid highlighted
    "column": (Note(0.0, 0.07, 660.0, gain=0.45),),
    # a symbol locks: a clunk and a ting
    "lock": (Note(0.0, 0.06, 196.0, "square", 0.25), Note(0.02, 0.14, C6, "triangle", 0.5)),
    # a prize highlighted: a completed row, a paying meter box, an Instant Prize arriving
    "row": (*arpeggio((C5, E5, G5), 0.09, 0.12, 0.6), Note(0.27, 0.3, C6, "triangle", 0.6)),
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
        *arpeggio((392.0, C5, E5), 0.12, 0.14, 0.5),
        Note(0.36, 0.45, G5, "triangle", 0.5),
        Note(0.0, 0.8, 196.0, gain=0.3),
    ),
    # the Bonus Game light moves on one segment
    "tick": (Note(0.0, 0.025, 1567.98, "triangle", 0.3),),
    # the light comes to rest
    "rest": (Note(0.0, 0.35, E6, gain=0.5), Note(0.0, 0.25, 1975.53, gain=0.2)),
}
