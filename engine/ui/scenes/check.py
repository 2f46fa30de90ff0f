"""The system check: proves Python draws, animates and hears input on this device."""

from __future__ import annotations

import math
import sys

from engine.ui.app import App
from engine.ui.draw import Canvas, Font, LinearGradient
from engine.ui.input import Activate, Control, Event, Key
from engine.ui.widgets import button


class CheckScene:
    """A title, a spinning atom and a TAP button that counts presses."""

    name = "check"

    def __init__(self) -> None:
        self.app: App | None = None
        self.taps = 0
        self.angle = 0.0

    def enter(self, app: App) -> None:
        """Remember the app and announce readiness."""
        self.app = app
        app.narrate("Python is ready")

    def _tap(self) -> None:
        self.taps += 1
        if self.app is not None:
            plural = "time" if self.taps == 1 else "times"
            self.app.narrate(f"Tapped {self.taps} {plural}")

    def handle(self, event: Event) -> None:
        """TAP (button, Enter or Space) counts a press."""
        tapped = isinstance(event, Activate) and event.control == "tap"
        if tapped or (isinstance(event, Key) and event.key in ("Enter", " ")):
            self._tap()

    def update(self, dt: float) -> bool:
        """Spin the atom."""
        self.angle = (self.angle + dt * 1.5) % (2 * math.pi)
        return True

    def _size(self) -> tuple[float, float]:
        if self.app is None:
            return 1280.0, 720.0
        return self.app.width, self.app.height

    def controls(self) -> list[Control]:
        """The TAP button, centred in the lower part of the screen."""
        w, h = self._size()
        bw, bh = min(260.0, w * 0.6), 64.0
        return [Control("tap", "TAP", (w - bw) / 2, h * 0.78 - bh / 2, bw, bh)]

    def draw(self, canvas: Canvas) -> None:
        """Background, title, atom, counter and the button."""
        w, h = canvas.width, canvas.height
        canvas.clear(LinearGradient(0, 0, 0, h, ((0.0, "#0b2a4a"), (1.0, "#12405f"))))
        unit = min(w, h)
        canvas.text(
            "LAB RICHES", w / 2, h * 0.12, Font(unit * 0.08, "display", True), fill="#ffd54a"
        )
        version = f"Python {sys.version_info.major}.{sys.version_info.minor} is drawing this"
        canvas.text(version, w / 2, h * 0.2, Font(unit * 0.035), fill="#cfe8ff")
        cx, cy, r = w / 2, h * 0.47, unit * 0.18
        canvas.circle(cx, cy, r * 0.16, fill="#ff5d73")
        for k in range(3):
            canvas.save()
            canvas.translate(cx, cy)
            canvas.rotate(self.angle + k * math.pi / 3)
            orbit = [
                (r * math.cos(t / 24 * 2 * math.pi), r * 0.38 * math.sin(t / 24 * 2 * math.pi))
                for t in range(24)
            ]
            canvas.path(orbit, stroke="#7fd4ff", line_width=max(2.0, unit * 0.006))
            canvas.circle(orbit[(k * 8) % 24][0], orbit[(k * 8) % 24][1], r * 0.06, fill="#ffffff")
            canvas.restore()
        canvas.text(f"Taps: {self.taps}", w / 2, h * 0.68, Font(unit * 0.05, "body", True))
        for control in self.controls():
            button(canvas, control)
