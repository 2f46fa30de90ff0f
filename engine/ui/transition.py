"""Screen changes as transitions: the screen that was showing gives way to the new one.

When `App.switch` changes the scene, the new scene takes over at once (its controls, its input,
its narration, its animations: a transition delays nothing and changes nothing it shows), and
for SECONDS the screen that was showing is drawn over it, fading out as it grows a little
towards the player, so the new screen shows through it. With reduced motion the old screen
only fades, in REDUCED_SECONDS. Once the transition is over, nothing more is drawn for it: a
screen at rest stops drawing again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine.ui.draw import Canvas
from engine.ui.motion import ease_out

SECONDS = 0.3
REDUCED_SECONDS = 0.15
GROWS = 0.06  # the old screen grows by this share of its size as it fades


def length(reduced: bool) -> float:
    """How long a screen change lasts (a page turning too: engine/ui/scenes/paged.py)."""
    return REDUCED_SECONDS if reduced else SECONDS


class Drawn(Protocol):
    """What a transition draws: a scene."""

    def draw(self, canvas: Canvas) -> None:
        """Draw the whole scene."""


@dataclass
class Transition:
    """The old screen fading away over the new one; `elapsed` in seconds."""

    outgoing: Drawn
    reduced: bool = False
    elapsed: float = 0.0

    @property
    def seconds(self) -> float:
        """How long it lasts."""
        return length(self.reduced)

    def advance(self, dt: float) -> bool:
        """Move on by dt seconds; False once it is over."""
        self.elapsed += dt
        return self.elapsed < self.seconds

    def share(self) -> float:
        """How far it has gone, 0..1."""
        return min(1.0, self.elapsed / self.seconds) if self.seconds > 0 else 1.0

    def opacity(self) -> float:
        """The old screen's opacity now: 1 at the switch, 0 at the end (eased)."""
        return 1.0 - ease_out(self.share())

    def draw_outgoing(self, canvas: Canvas) -> None:
        """The old screen over the new one (drawn first), as far faded as the transition is."""
        fade = self.opacity()
        if fade <= 0.0:
            return
        w, h = canvas.width, canvas.height
        canvas.save()
        canvas.alpha(fade)
        if not self.reduced:
            grow = 1.0 + GROWS * ease_out(self.share())
            canvas.translate(w / 2, h / 2)
            canvas.scale(grow, grow)
            canvas.translate(-w / 2, -h / 2)
        self.outgoing.draw(canvas)
        canvas.restore()
