"""The reality check: when the endpoint says one is due (every 20 minutes of the account's run
of play, on every device: docs/endpoint.md, Play time), or at the latest after each hour of play
in a browser session, the game stops at its next rest and shows how long the player has played
and what they have spent, net of prizes, with Keep playing (back where they were) and Stop (to
the lobby). Showing it acknowledges the endpoint's check for the account (engine/ui/visit.py).
The browser session's hour is kept by the shell (sessionStorage), so moving between games does
not reset it.
"""

from __future__ import annotations

from engine.money import format_pounds
from engine.ui.app import App, Scene
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.flow import Flow
from engine.ui.input import Control
from engine.ui.screen import Screen
from engine.ui.widgets import MIN_TARGET, draw_controls


def duration(seconds: float) -> str:
    """'1 hour 5 minutes', '2 hours', '12 minutes', '40 seconds'."""
    if seconds < 60:
        return f"{int(seconds)} second{'s' if int(seconds) != 1 else ''}"
    minutes = int(seconds // 60)
    hours, minutes = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if minutes or not hours:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    return " ".join(parts)


class RealityScene(Screen):
    """Time played and net spend; Keep playing or Stop."""

    name = "reality"

    def __init__(self, flow: Flow, back: Scene) -> None:
        super().__init__(flow)
        self.back = back
        self.lines: tuple[str, str] = ("", "")

    def enter(self, app: App) -> None:
        """Work out what to say, and say it."""
        super().enter(app)
        played = duration(self.flow.run_s() or 0.0)
        spend = self.flow.net_spend()
        if spend is None:
            money = ""
        elif spend >= 0:
            money = f"Net spend in this session: {format_pounds(spend)}."
        else:
            money = f"Net win in this session: {format_pounds(-spend)}."
        self.lines = (f"You have played for {played} in this session.", money)
        self.flow.say("Reality check. " + " ".join(line for line in self.lines if line))

    def controls(self) -> list[Control]:
        """Keep playing, Stop."""
        w, h = self.size()
        bw = min(320.0, w * 0.8)
        y = h * 0.6
        return [
            Control("keep", "Keep playing", (w - bw) / 2, y, bw, max(MIN_TARGET, 56)),
            Control("stop", "Stop", (w - bw) / 2, y + 72, bw, max(MIN_TARGET, 56)),
        ]

    def activate(self, control: str) -> None:
        """Back where the player was, or to the lobby."""
        if control == "keep" and self.app is not None:
            self.flow.say("Playing on.")
            self.app.switch(self.back)
        elif control == "stop":
            self.flow.open_page()

    def draw(self, canvas: Canvas) -> None:
        """The check on the game's panel."""
        w, h = canvas.width, canvas.height
        look = self.game_backdrop(canvas)
        pw, ph = min(w - 24, 560.0), min(h * 0.4, 260.0)
        x, y = (w - pw) / 2, h * 0.14
        look.panel(canvas, x, y, pw, ph)
        title = "REALITY CHECK"
        big = fit_text(canvas, title, Font(min(36.0, pw * 0.08), "display", True), pw - 30)
        canvas.text(title, w / 2, y + ph * 0.22, big, fill=look.gold)
        body = Font(min(20.0, pw * 0.045), "body", True)
        for k, line in enumerate(self.lines):
            canvas.text(
                line, w / 2, y + ph * (0.5 + 0.2 * k), fit_text(canvas, line, body, pw - 30)
            )
        draw_controls(canvas, self.controls())
