"""The outcome screen every game shows after FINISH, in the game's look.

What a finished play shows is the same whatever the game: the Play Number, the Prize Amount
and the new balance, then PLAY AGAIN, or ALL GAMES back to the lobby.
"""

from __future__ import annotations

from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.flow import Flow
from engine.ui.input import Control
from engine.ui.look import Look
from engine.ui.screen import Screen, status_line
from engine.ui.widgets import MIN_TARGET, draw_controls


class OutcomeScene(Screen):
    """After FINISH: the Play Number, the Prize Amount and the new balance."""

    name = "outcome"

    def __init__(self, flow: Flow, look: Look) -> None:
        super().__init__(flow)
        self.look = look

    def enter(self, app: App) -> None:
        """Say the result and the new balance."""
        super().enter(app)
        play = self.flow.play
        if play is not None:
            self.flow.say(f"Play number {play.play_number} finished.")

    def controls(self) -> list[Control]:
        """PLAY AGAIN, and ALL GAMES under it."""
        w, h = self.size()
        bw, bh = min(320.0, w * 0.8), max(MIN_TARGET, min(64.0, h * 0.08))
        y = min(h * 0.72, h - 2 * bh - bh * 0.6)
        return [Control("again", "PLAY AGAIN", (w - bw) / 2, y, bw, bh),
                Control("lobby", "ALL GAMES", (w - bw) / 2, y + bh * 1.3, bw, bh)]  # fmt: skip

    def activate(self, control: str) -> None:
        """Back to the splash for another play."""
        if control == "again":
            self.flow.play = None
            self.flow.go("splash")
        elif control == "lobby":
            self.flow.open_page()

    def draw(self, canvas: Canvas) -> None:
        """The outcome card."""
        w, h = canvas.width, canvas.height
        self.look.backdrop(canvas, w, h)
        play = self.flow.play
        done = self.flow.finished or {}
        prize = int(done.get("prize_pence", 0))
        pw, ph = min(w - 24, 560.0), min(h * 0.5, 340.0)
        x, y = (w - pw) / 2, h * 0.16
        self.look.panel(canvas, x, y, pw, ph, glow=prize > 0)
        big = Font(min(40.0, pw * 0.08), "display", True)
        head = "YOU WON" if prize else "NOT A WINNER THIS TIME"
        canvas.text(head, w / 2, y + ph * 0.2, fit_text(canvas, head, big, pw - 30),
                    fill=self.look.gold)  # fmt: skip
        amount = format_pounds(prize)
        canvas.text(amount, w / 2, y + ph * 0.42, Font(big.size * 1.2, "display", True))
        number = f"Play Number {play.play_number}" if play else ""
        body = Font(min(20.0, pw * 0.045), "body", True)
        canvas.text(number, w / 2, y + ph * 0.64, body, fill="#cfe8ff")
        canvas.text(status_line(self.flow), w / 2, y + ph * 0.82, body, fill="#ffffff")
        draw_controls(canvas, self.controls())
