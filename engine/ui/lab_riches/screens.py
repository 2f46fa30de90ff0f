"""Lab Riches screens around the play: the splash and the outcome."""

from __future__ import annotations

from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.input import Control
from engine.ui.lab_riches import art
from engine.ui.lab_riches.panels import panel
from engine.ui.screen import Screen, status_line
from engine.ui.widgets import MIN_TARGET, draw_controls


class SplashScene(Screen):
    """Game name, WIN UP TO the top prize, HOW TO PLAY and PLAY (or RESUME, or TRY AGAIN)."""

    name = "splash"

    def controls(self) -> list[Control]:
        """PLAY (or RESUME / TRY AGAIN), HOW TO PLAY, Rules and Prizes."""
        w, h = self.size()
        bw = min(320.0, w * 0.8)
        bh = max(MIN_TARGET, min(64.0, h * 0.08))
        x, y = (w - bw) / 2, h * 0.6
        if self.flow.resumable is not None:
            first = Control("resume", "RESUME", x, y, bw, bh)
        elif self.flow.error:
            first = Control("retry", "TRY AGAIN", x, y, bw, bh)
        else:
            ready = self.flow.balance is not None and not self.flow.busy
            first = Control("play", "PLAY", x, y, bw, bh, ready)
        gap = bh * 0.3
        return [
            first,
            Control("howto", "HOW TO PLAY", x, y + bh + gap, bw, bh),
            Control("rules", "Rules and Prizes", x, y + 2 * (bh + gap), bw, bh),
        ]

    def activate(self, control: str) -> None:
        """Route the splash buttons."""
        if control == "play":
            self.flow.purchase()
        elif control == "resume":
            self.flow.resume()
        elif control == "retry":
            self.flow.retry()
        elif control == "howto":
            self.flow.go("howto")
        elif control == "rules":
            self.flow.go("rules")

    def draw(self, canvas: Canvas) -> None:
        """Title art, the top prize message, status and buttons."""
        w, h = canvas.width, canvas.height
        art.backdrop(canvas, w, h)
        unit = min(w, h * 0.8)
        s = unit * 0.13
        for k, name in enumerate(("flask", "atom", "microscope", "test-tube", "beaker")):
            art.draw_square(canvas, name, w / 2 + (k - 2) * s * 1.25, h * 0.14, s)
        name = self.flow.game.name.upper()
        title = fit_text(canvas, name, Font(unit * 0.14, "display", True), w * 0.9)
        canvas.text(name, w / 2 + 3, h * 0.29 + 4, title, fill="#00000088")
        canvas.text(name, w / 2, h * 0.29, title, fill=art.GOLD)
        game = self.flow.game
        top = f"WIN UP TO {format_pounds(game.top_prize_pence, always_pence=False)}"
        win = fit_text(canvas, top, Font(unit * 0.075, "display", True), w * 0.9)
        canvas.text(top, w / 2, h * 0.4, win, fill="#ffffff")
        price = f"{format_pounds(game.price_pence)} a play"
        canvas.text(price, w / 2, h * 0.47, Font(max(14.0, unit * 0.035), "body", True),
                    fill="#cfe8ff")  # fmt: skip
        status = status_line(self.flow)
        if self.flow.resumable is not None:
            status = "You have an unfinished play: RESUME carries on where you left off."
        font = fit_text(canvas, status, Font(max(14.0, unit * 0.032), "body", True), w * 0.92)
        canvas.text(status, w / 2, h * 0.54, font, fill="#ff8a80" if self.flow.error else art.GOLD)
        draw_controls(canvas, self.controls())


class OutcomeScene(Screen):
    """After FINISH: the Play Number, the Prize Amount and the new balance."""

    name = "outcome"

    def enter(self, app: App) -> None:
        """Say the result and the new balance."""
        super().enter(app)
        play = self.flow.play
        if play is not None:
            self.flow.say(f"Play number {play.play_number} finished.")

    def controls(self) -> list[Control]:
        """PLAY AGAIN."""
        w, h = self.size()
        bw, bh = min(320.0, w * 0.8), max(MIN_TARGET, min(64.0, h * 0.08))
        return [Control("again", "PLAY AGAIN", (w - bw) / 2, h * 0.72, bw, bh)]

    def activate(self, control: str) -> None:
        """Back to the splash for another play."""
        if control == "again":
            self.flow.play = None
            self.flow.go("splash")

    def draw(self, canvas: Canvas) -> None:
        """The outcome card."""
        w, h = canvas.width, canvas.height
        art.backdrop(canvas, w, h)
        play = self.flow.play
        done = self.flow.finished or {}
        prize = int(done.get("prize_pence", 0))
        pw, ph = min(w - 24, 560.0), min(h * 0.5, 340.0)
        x, y = (w - pw) / 2, h * 0.16
        panel(canvas, x, y, pw, ph, glow=prize > 0)
        big = Font(min(40.0, pw * 0.08), "display", True)
        head = "YOU WON" if prize else "NOT A WINNER THIS TIME"
        canvas.text(head, w / 2, y + ph * 0.2, fit_text(canvas, head, big, pw - 30), fill=art.GOLD)
        amount = format_pounds(prize)
        canvas.text(amount, w / 2, y + ph * 0.42, Font(big.size * 1.2, "display", True))
        number = f"Play Number {play.play_number}" if play else ""
        body = Font(min(20.0, pw * 0.045), "body", True)
        canvas.text(number, w / 2, y + ph * 0.64, body, fill="#cfe8ff")
        canvas.text(status_line(self.flow), w / 2, y + ph * 0.82, body, fill="#ffffff")
        draw_controls(canvas, self.controls())
