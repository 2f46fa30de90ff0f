"""Limits: the player's daily and weekly spend limits, from the lobby.

The endpoint keeps and enforces them (docs/api.md, `/api/limits`): lowering a limit takes
effect at once, raising or removing one only 24 hours later, and a purchase over a limit is
refused with what is left and when it resets. This screen shows each limit, what has been
spent against it and any change waiting, and changes a limit a step at a time.
"""

from __future__ import annotations

from typing import Any

from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.input import Control, Reply
from engine.ui.scenes.site import GAP, HEADER, Lobby, backdrop, header
from engine.ui.screen import Page
from engine.ui.widgets import GOLD, MIN_TARGET, button, close_button

STEP = 500  # a press raises or lowers a limit by £5
FIRST = 5_000  # lowering "no limit" sets £50
PERIODS = (("daily", "Daily"), ("weekly", "Weekly"))


class LimitsScene(Page):
    """Each period's limit, spend and reset time, with Lower, Raise and No limit."""

    name = "limits"
    flow: Lobby

    def __init__(self, lobby: Lobby) -> None:
        super().__init__(lobby)
        self.limits: dict[str, dict[str, Any]] = {}

    def enter(self, app: App) -> None:
        """Fetch the limits."""
        super().enter(app)
        self.flow.busy = "Loading your limits…"
        app.request("limits", {}, self._on_limits)

    def _on_limits(self, reply: Reply) -> None:
        self.flow.busy = ""
        if not reply.ok:
            self.flow.error = str(reply.body.get("message") or "Your limits could not be loaded.")
            self.flow.say(self.flow.error)
            return
        self.flow.error = ""
        self.limits = {k: v for k, v in reply.body.items() if isinstance(v, dict)}
        for key, _ in PERIODS:
            self.flow.say(self.describe(key))

    def facts(self, key: str) -> list[str]:
        """One period's limit as lines: the limit, what is spent and left, any change waiting."""
        period = self.limits.get(key, {})
        limit = period.get("limit_pence")
        name = dict(PERIODS)[key]
        spent = format_pounds(int(period.get("spent_pence") or 0))
        lines = [f"{name} limit: " + ("none" if limit is None else format_pounds(int(limit)))]
        if limit is None:
            lines.append(f"Spent {spent}")
        else:
            left = format_pounds(int(period.get("left_pence") or 0))
            lines.append(
                f"Spent {spent}, {left} left until {self.flow.when(period.get('resets_at'))}"
            )
        pending = period.get("pending")
        if isinstance(pending, dict):
            to = pending.get("limit_pence")
            wanted = "no limit" if to is None else format_pounds(int(to))
            lines.append(f"Changing to {wanted} on {self.flow.when(pending.get('effective_at'))}")
        return lines

    def describe(self, key: str) -> str:
        """One period's limit in words."""
        return ". ".join(self.facts(key)) + "."

    def _box(self, k: int) -> tuple[float, float, float, float]:
        w, _ = self.size()
        bw = min(w - 2 * GAP, 620.0)
        return (w - bw) / 2, HEADER + 10 + k * 190, bw, 176

    def controls(self) -> list[Control]:
        """Close, then for each period: Lower, Raise, No limit."""
        w, _ = self.size()
        out = [Control("close", "Back to the games", w - 62, 10, 52, 52)]
        if not self.limits:
            return out
        for k, (key, name) in enumerate(PERIODS):
            x, y, bw, bh = self._box(k)
            third = (bw - 4 * 10) / 3
            by = y + bh - MIN_TARGET - 12
            low = name.lower()
            out += [
                Control(
                    f"lower:{key}", f"Lower the {low} limit by £5", x + 10, by, third, MIN_TARGET
                ),
                Control(
                    f"raise:{key}",
                    f"Raise the {low} limit by £5",
                    x + 20 + third,
                    by,
                    third,
                    MIN_TARGET,
                ),
                Control(
                    f"none:{key}", f"No {low} limit", x + 30 + 2 * third, by, third, MIN_TARGET
                ),
            ]
        return out

    def activate(self, control: str) -> None:
        """Ask the endpoint for a new limit (it decides when it takes effect), or go back."""
        kind, _, key = control.partition(":")
        if kind == "close":
            self.flow.error = ""
            self.flow.go("lobby")
            return
        if self.app is None or key not in self.limits or self.flow.busy:
            return
        period = self.limits[key]
        pending = period.get("pending")
        now = period.get("limit_pence")
        if isinstance(pending, dict):  # the change already asked for is the one to step from
            now = pending.get("limit_pence")
        wanted: int | None
        if kind == "none":
            wanted = None
        elif kind == "lower":
            wanted = FIRST if now is None else max(0, int(now) - STEP)
        else:
            wanted = None if now is None else int(now) + STEP
        self.flow.busy = "Saving your limit…"
        self.app.request("set_limits", {f"{key}_pence": wanted}, self._on_limits)

    def draw(self, canvas: Canvas) -> None:
        """A panel per period: its limit, spend, reset and any change waiting."""
        w, h = canvas.width, canvas.height
        backdrop(canvas, w, h)
        header(canvas, w, "LIMITS", self.flow)
        big = Font(min(20.0, max(14.0, w * 0.04)), "body", True)
        small = Font(big.size * 0.8, "body", False)
        for k, (key, _name) in enumerate(PERIODS):
            if key not in self.limits:
                continue
            x, y, bw, bh = self._box(k)
            canvas.rect(x, y, bw, bh, fill="#ffffff14", radius=12)
            title, *rest = self.facts(key)
            canvas.text(title, x + bw / 2, y + 24, fit_text(canvas, title, big, bw - 20), fill=GOLD)
            for n, line in enumerate(rest):
                ty = y + 56 + n * small.size * 1.7
                canvas.text(line, x + bw / 2, ty, fit_text(canvas, line, small, bw - 20))
        for c in self.controls():
            if c.id == "close":
                close_button(canvas, c)
            else:
                kind = c.id.partition(":")[0]
                short = {"lower": "−£5", "raise": "+£5", "none": "No limit"}[kind]
                button(canvas, Control(c.id, short, c.x, c.y, c.w, c.h, c.enabled))
