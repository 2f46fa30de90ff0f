"""A purchase refused for a spend limit, shown large and plain on the game's panel: which limit
is reached, what is left of it, when it resets (in the player's time zone, written as every
screen writes a time: Visit.when) and that nothing was charged, with Limits (the
lobby's Limits page) and Back (where the player was). A purchase refused because no daily and
weekly limits were chosen yet (LOTTERY_LIMITS_REQUIRED, docs/endpoint.md) says so, and Limits
takes the player to choose them. A purchase refused after an hour of play (cooling_off), or a
purchase or TRY refused during the player's break or self-exclusion (break_taken,
self_excluded), says when play resumes, with Back only. The text shrinks (to 18 px at
the least) until the panel ends above the buttons, as on a phone held sideways.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.money import format_pounds
from engine.ui.app import App, Scene
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.flow import Flow
from engine.ui.input import Control
from engine.ui.screen import Screen
from engine.ui.widgets import MIN_TARGET, draw_controls, wrap

# the refusals this screen shows; the last two stop TRY too (docs/player.md, Take a break)
CODES = ("limit_reached", "limits_required", "cooling_off", "break_taken", "self_excluded")
STOPPED = ("cooling_off", "break_taken", "self_excluded")  # no limit to see to: Back only
KEPT = "Nothing was charged; an unfinished play can still be finished."


def refusal_lines(body: dict[str, Any], when: Callable[[object], str]) -> tuple[str, list[str]]:
    """The screen's title and its lines, from the refusal's facts (its times written by when)."""
    until = when(body.get("until"))
    if body.get("code") == "break_taken":
        return "YOU ARE TAKING A BREAK", [
            "You chose to take a break from play: no paid plays and no free plays (TRY).",
            *([f"Play comes back on {until}."] if until else []),
            KEPT,
        ]
    if body.get("code") == "self_excluded":
        if until:
            said = f"You have excluded yourself from play until {until}."
        else:
            said = (
                "Your self-exclusion has ended. To play again, ask for it in Account, then "
                "wait 24 hours."
            )
        return "YOU ARE SELF-EXCLUDED", [said, "No paid plays and no free plays (TRY).", KEPT]
    if body.get("code") == "cooling_off":
        resumes = when(body.get("resumes_at"))
        return "TAKE A BREAK", [
            "Your play session has ended: take a break.",
            *([f"You can buy plays again at {resumes}."] if resumes else []),
            KEPT,
        ]
    if body.get("code") == "limits_required":
        missing = [str(p) for p in body.get("missing") or ["daily", "weekly"]]
        need = " and a ".join(missing)
        return "CHOOSE YOUR LIMITS", [
            f"Before a paid play, choose a {need} spend limit.",
            "Nothing was charged. Free plays (TRY) need no limit.",
        ]
    period = "weekly" if body.get("period") == "weekly" else "daily"
    left = body.get("left_pence")
    amount = (
        format_pounds(left) if isinstance(left, int) and not isinstance(left, bool) else "£0.00"
    )
    span = "this week" if period == "weekly" else "today"
    lines = [f"You have {amount} left to spend {span}."]
    resets = when(body.get("resets_at"))
    if resets:
        lines.append(f"Your {period} limit resets on {resets}.")
    lines.append("Nothing was charged.")
    return f"{period.upper()} LIMIT REACHED", lines


class RefusalScene(Screen):
    """A spend-limit refusal; Limits or Back."""

    name = "refusal"

    def __init__(self, flow: Flow, back: Scene, body: dict[str, Any]) -> None:
        super().__init__(flow)
        self.back = back
        self.title, self.lines = refusal_lines(body, flow.when)
        self.limits = body.get("code") not in STOPPED  # a limit to see to, on Limits

    def enter(self, app: App) -> None:
        """Say it all."""
        super().enter(app)
        self.flow.say(f"{self.title.capitalize()}. " + " ".join(self.lines))

    def controls(self) -> list[Control]:
        """Limits (for a limit), Back."""
        w, h = self.size()
        bw, bh = min(360.0, w * 0.8), max(MIN_TARGET, 56.0)
        y = min(h * 0.62, h - 2 * bh - 40)
        back = Control("return", "Back to the game", (w - bw) / 2, y + bh + 16, bw, bh)
        if not self.limits:
            return [Control("return", back.label, back.x, y, bw, bh)]
        return [Control("limits", "Go to my spend limits", (w - bw) / 2, y, bw, bh), back]

    def activate(self, control: str) -> None:
        """The lobby's Limits page, or back where the player was."""
        if control == "limits" and self.limits:
            self.flow.open_page(page="limits")
        elif control in ("return", "close") and self.app is not None:
            self.app.switch(self.back)

    def panel(
        self, canvas: Canvas
    ) -> tuple[tuple[float, float, float, float], Font, Font, list[str]]:
        """The panel's box (x, y, w, h) above the buttons, its title's font, its text's font
        (as large as lets the panel end above the buttons) and its rows."""
        w = canvas.width
        top = self.controls()[0].y
        pw = min(w - 24, 620.0)
        big = fit_text(canvas, self.title, Font(min(40.0, pw * 0.08), "display", True), pw - 30)
        size = min(26.0, max(18.0, pw * 0.05))
        while True:
            body = Font(size, "body", True)
            rows = [
                " ".join(token for token, _ in row)
                for line in self.lines
                for row in wrap(canvas, line, body, pw - 30)
            ]
            ph = big.size * 2.2 + body.size * 1.35 * len(rows) + body.size
            if size <= 18.0 or ph <= top - 24:
                break
            size = max(18.0, size - 1.0)
        return ((w - pw) / 2, max(8.0, (top - 16 - ph) / 2), pw, ph), big, body, rows

    def draw(self, canvas: Canvas) -> None:
        """The refusal on the game's panel, in large type."""
        w = canvas.width
        look = self.game_backdrop(canvas)
        (x, y, pw, ph), big, body, rows = self.panel(canvas)
        look.panel(canvas, x, y, pw, ph)
        canvas.text(self.title, w / 2, y + big.size * 1.2, big, fill=look.gold)
        for k, row in enumerate(rows):
            ty = y + big.size * 2.2 + body.size * 1.35 * (k + 0.5)
            canvas.text(row, w / 2, ty, body, fill="#ffffff")
        draw_controls(canvas, self.controls())
