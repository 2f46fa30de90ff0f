"""The outcome screen every game shows after FINISH, in the game's look.

What a finished play shows is the same whatever the game: the Play Number, the Prize Amount
(named as engine/ui/celebration.py grades it: a win, or no more than the price 'YOUR £3.00
BACK') and the new balance, then PLAY AGAIN, ALL GAMES back to the lobby, and Rules and Prizes
(which closes back here). The buttons stand under the card: in a row where the window is
wide, one under another on a phone; the card takes the height left above them. A free TRY
shows no amount at all: it says the play was free and won nothing.
"""

from __future__ import annotations

from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.celebration import Grade, grade
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.flow import Flow
from engine.ui.input import Control
from engine.ui.look import Look
from engine.ui.presentation import FREE_RESULT
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
        if self.flow.mode == "try":
            self.flow.say(f"{FREE_RESULT}: no money is staked or won.")

    def card(self) -> tuple[float, float, float, float]:
        """The outcome card's (x, y, w, h): above the buttons."""
        w, h = self.size()
        pw = min(w - 24, 560.0)
        y = h * 0.16
        top = min(c.y for c in self.controls())
        return (w - pw) / 2, y, pw, max(0.0, min(h * 0.5, 340.0, top - y - h * 0.03))

    def controls(self) -> list[Control]:
        """PLAY AGAIN, ALL GAMES and Rules and Prizes: a row on a wide window, else a column."""
        w, h = self.size()
        bh = max(MIN_TARGET, min(64.0, h * 0.08))
        gap, margin = bh * 0.3, max(8.0, bh * 0.5)
        buttons = (("again", "PLAY AGAIN"), ("lobby", "ALL GAMES"), ("rules", "Rules and Prizes"))
        n = len(buttons)
        if w >= h * 1.1:
            bw = min(320.0, (w * 0.92 - (n - 1) * gap) / n)
            x, y = (w - n * bw - (n - 1) * gap) / 2, min(h * 0.72, h - margin - bh)
            boxes = [(x + k * (bw + gap), y) for k in range(n)]
        else:
            bw = min(320.0, w * 0.8)
            y = min(h * 0.72, h - margin - n * bh - (n - 1) * gap)
            boxes = [((w - bw) / 2, y + k * (bh + gap)) for k in range(n)]
        return [
            Control(i, label, bx, by, bw, bh)
            for (i, label), (bx, by) in zip(buttons, boxes, strict=True)
        ]

    def activate(self, control: str) -> None:
        """Back to the splash for another play."""
        if control == "again":
            self.flow.play = None
            self.flow.go("splash")
        elif control == "lobby":
            self.flow.open_page()
        elif control == "rules":
            self.flow.go("rules")

    def draw(self, canvas: Canvas) -> None:
        """The outcome card."""
        w, h = canvas.width, canvas.height
        self.look.backdrop(canvas, w, h)
        play = self.flow.play
        done = self.flow.finished or {}
        free = self.flow.mode == "try"
        prize = 0 if free else int(done.get("prize_pence", 0))
        x, y, pw, ph = self.card()
        g = grade(prize, self.flow.game, free=free)
        self.look.panel(canvas, x, y, pw, ph, glow=g >= Grade.WIN)
        big = Font(min(40.0, pw * 0.08), "display", True)
        head = {
            Grade.NONE: "FREE TRY OVER" if free else "NOT A WINNER THIS TIME",
            Grade.PRICE_BACK: f"YOUR {format_pounds(prize)} BACK",
        }.get(g, "YOU WON")
        canvas.text(head, w / 2, y + ph * 0.2, fit_text(canvas, head, big, pw - 30),
                    fill=self.look.gold)  # fmt: skip
        amount = FREE_RESULT if free else format_pounds(prize)
        font = Font(big.size * (0.8 if free else 1.2), "display", True)
        canvas.text(amount, w / 2, y + ph * 0.42, fit_text(canvas, amount, font, pw - 30))
        number = f"Play Number {play.play_number}" if play else ""
        body = Font(min(20.0, pw * 0.045), "body", True)
        canvas.text(number, w / 2, y + ph * 0.64, body, fill="#cfe8ff")
        canvas.text(status_line(self.flow), w / 2, y + ph * 0.82, body, fill="#ffffff")
        draw_controls(canvas, self.controls())
