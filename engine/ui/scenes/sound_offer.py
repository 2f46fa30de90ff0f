"""The splash's offer of sound: Sound on and Sound off, and with sound on the music's and the
effects' volumes, in the top-left corner (engine/ui/scenes/splash.py places the picture clear of
them).

The chosen one of Sound on / Sound off is drawn pressed; the press is the gesture browsers wait
for before they play anything. Each press of a volume turns it a step down, from silence back
to full (engine/ui/settings.py). The shell keeps the choice (docs/sound.md).
"""

from __future__ import annotations

from engine.ui.draw import Canvas
from engine.ui.input import Control
from engine.ui.settings import Settings
from engine.ui.visit import Visit
from engine.ui.widgets import MIN_TARGET, button

IDS = ("sound-on", "sound-off", "music", "effects")
MARGIN, GAP = 8.0, 4.0  # from the screen's edges, and between two controls
Box = tuple[float, float, float, float]


def boxes(w: float, cols: int = 2) -> list[Box]:
    """The corner's (x, y, w, h): Sound on and Sound off side by side, and under them the
    volumes (or all four in a row: `cols` 4), clear of a top-right HOW TO PLAY."""
    share = 0.6 if cols == 4 else 0.55
    bw = max(MIN_TARGET, min(120.0, (w * share - 2 * MARGIN - (cols - 1) * GAP) / cols))
    return [(MARGIN + (k % cols) * (bw + GAP), MARGIN + (k // cols) * (MIN_TARGET + GAP), bw,
             MIN_TARGET) for k in range(4)]  # fmt: skip


def controls(settings: Settings, w: float, cols: int) -> list[Control]:
    """Sound on, Sound off and, with sound on, the volumes (none where there is no audio)."""
    if not settings.audio:
        return []
    at = boxes(w, cols)
    out = [Control("sound-on", "Sound on", *at[0]), Control("sound-off", "Sound off", *at[1])]
    if settings.sound:
        out += [Control("music", f"Music {settings.music}%", *at[2]),
                Control("effects", f"Effects {settings.effects}%", *at[3])]  # fmt: skip
    return out


def activate(visit: Visit, control: str) -> bool:
    """Act on one of the offer's controls; False for any other control."""
    if control in ("sound-on", "sound-off"):
        visit.choose("sound", control == "sound-on")
    elif control in ("music", "effects"):
        visit.turn_down("music" if control == "music" else "effects")
    else:
        return False
    return True


def draw(canvas: Canvas, shown: list[Control], settings: Settings) -> None:
    """The offer's controls among `shown`, the chosen one pressed."""
    chosen = "sound-on" if settings.sound else "sound-off"
    for c in shown:
        if c.id in IDS:
            button(canvas, c, pressed=c.id == chosen)
