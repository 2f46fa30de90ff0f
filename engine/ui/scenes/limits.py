"""Limits: the player's daily and weekly spend limits, from the lobby.

The endpoint keeps and enforces them (docs/api.md, `/api/limits`): lowering a limit takes
effect at once, raising or removing one only 24 hours later, and a purchase over a limit is
refused with what is left and when it resets. This screen shows each limit, what has been
spent against it and any change waiting, and an amount field per period: the player types
the limit in pounds, whole pounds or pounds and pence (engine/money.py parse_pounds), and Set
asks for it; what cannot be a limit is said plainly under the limit instead.

In the browser the field is a real <input inputmode="decimal"> of the mirror (a phone shows its
number keys), which sends its text as it changes (`Typed`); in the native window the keys type
into the field that was clicked or tabbed to (digits, '.', Backspace, Enter to set).
"""

from __future__ import annotations

from typing import Any

from engine.money import format_pounds, parse_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.input import MAX_TYPED, Control, Event, Focus, Key, Reply, Typed
from engine.ui.scenes.site import GAP, HEADER, Lobby, backdrop, header
from engine.ui.screen import Page
from engine.ui.scroll import Scroll
from engine.ui.widgets import GOLD, MIN_TARGET, button, close_button

PERIODS = (("daily", "Daily"), ("weekly", "Weekly"))
BOX, STRIDE = 206.0, 220.0  # a period's panel: its height, and from one panel's top to the next
TYPABLE = set("0123456789.,£")  # the keys a native window types into an amount


class LimitsScene(Page):
    """Each period's limit, spend and reset time, with Lower, Raise and No limit."""

    name = "limits"
    scroll: Scroll
    flow: Lobby

    def __init__(self, lobby: Lobby) -> None:
        super().__init__(lobby)
        self.limits: dict[str, dict[str, Any]] = {}
        self.typed: dict[str, str] = {}  # a period's amount field's text
        self.problem: dict[str, str] = {}  # why what was typed cannot be set
        self.editing = ""  # the period whose field has the focus (native keys type into it)
        self.scroll = Scroll()  # below the header: the panels scroll on a short screen

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
        """A period's panel, in the scrolling content's coordinates."""
        w, _ = self.size()
        bw = min(w - 2 * GAP, 620.0)
        return (w - bw) / 2, 10 + k * STRIDE, bw, BOX

    def _place(self) -> None:
        _w, h = self.size()
        self.scroll.place(HEADER, h, 10 + len(PERIODS) * STRIDE if self.limits else 0.0)

    def controls(self) -> list[Control]:
        """Close, then for each period: Lower, Raise, No limit (where they show)."""
        w, _ = self.size()
        self._place()
        shown = [self.scroll.shown(c) for c in self.content_controls()]
        return [Control("close", "Back to the games", w - 62, 10, 52, 52), *shown]

    def content_controls(self) -> list[Control]:
        """Each period's amount field, Set and No limit, in the content's coordinates."""
        out: list[Control] = []
        if not self.limits:
            return out
        for k, (key, name) in enumerate(PERIODS):
            x, y, bw, bh = self._box(k)
            by, low = y + bh - MIN_TARGET - 12, name.lower()
            wide = (bw - 40) * 0.44
            third = (bw - 40 - wide) / 2
            out += [
                Control(
                    f"amount:{key}",
                    f"{name} limit in pounds",
                    x + 10,
                    by,
                    wide,
                    MIN_TARGET,
                    focused=self.editing == key,
                    field="decimal",
                    value=self.typed.get(key, ""),
                ),
                Control(f"set:{key}", f"Set the {low} limit", x + 20 + wide, by, third, MIN_TARGET),
                Control(
                    f"none:{key}", f"No {low} limit", x + 30 + wide + third, by, third, MIN_TARGET
                ),
            ]
        return out

    def handle(self, event: Event) -> None:
        """The amount fields' text (the mirror's, or a native window's keys), then as a page."""
        if isinstance(event, Typed) and event.control.startswith("amount:"):
            key = event.control.partition(":")[2]
            self.typed[key] = event.text
            self.problem.pop(key, None)
            return
        if isinstance(event, Focus):
            kind, _, key = event.control.partition(":")
            self.editing = key if kind == "amount" else ""
        if isinstance(event, Key) and self.editing and self.type_key(event.key):
            return
        super().handle(event)

    def type_key(self, key: str) -> bool:
        """A native window's key into the field being edited; True when it was used."""
        period, now = self.editing, self.typed.get(self.editing, "")
        if key in TYPABLE and len(now) < MAX_TYPED:
            self.typed[period] = now + key
        elif key == "Backspace":
            self.typed[period] = now[:-1]
        elif key == "Enter":
            self.activate(f"set:{period}")
            return True
        else:
            return False
        self.problem.pop(period, None)
        return True

    def activate(self, control: str) -> None:
        """Ask the endpoint for the limit typed (it decides when it takes effect), or none;
        or go back. A field activated (clicked in a native window, Enter in the browser's)
        is edited, or set when it already was."""
        kind, _, key = control.partition(":")
        if kind == "close":
            self.flow.error = ""
            self.flow.go("lobby")
            return
        if kind == "amount":
            if self.editing == key:
                self.activate(f"set:{key}")
            self.editing = key
            return
        if self.app is None or key not in self.limits or self.flow.busy:
            return
        wanted: int | None = None
        if kind == "set":
            try:
                wanted = parse_pounds(self.typed.get(key, ""))
            except ValueError as error:
                self.problem[key] = str(error)
                self.flow.say(f"{dict(PERIODS)[key]} limit not set: {error}")
                return
        self.typed.pop(key, None)
        self.problem.pop(key, None)
        self.flow.busy = "Saving your limit…"
        self.app.request("set_limits", {f"{key}_pence": wanted}, self._on_limits)

    def draw(self, canvas: Canvas) -> None:
        """A panel per period: its limit, spend, reset and any change waiting."""
        w, h = canvas.width, canvas.height
        backdrop(canvas, w, h)
        header(canvas, w, "LIMITS", self.flow)
        big = Font(min(20.0, max(14.0, w * 0.04)), "body", True)
        small = Font(big.size * 0.8, "body", False)
        self._place()
        self.scroll.begin(canvas, 0, w)
        for k, (key, _name) in enumerate(PERIODS):
            if key not in self.limits:
                continue
            x, y, bw, bh = self._box(k)
            canvas.rect(x, y, bw, bh, fill="#ffffff14", radius=12)
            title, *rest = self.facts(key)
            canvas.text(title, x + bw / 2, y + 24, fit_text(canvas, title, big, bw - 20), fill=GOLD)
            problem = self.problem.get(key)
            for n, line in enumerate([*rest, *([problem] if problem else [])]):
                ty = y + 56 + n * small.size * 1.7
                ink = "#ffb4a8" if line == problem else "#ffffff"
                canvas.text(line, x + bw / 2, ty, fit_text(canvas, line, small, bw - 20), fill=ink)
        for c in self.content_controls():
            if c.field:
                self.draw_field(canvas, c, small)
                continue
            short = {"set": "Set", "none": "No limit"}[c.id.partition(":")[0]]
            button(canvas, Control(c.id, short, c.x, c.y, c.w, c.h, c.enabled))
        self.scroll.end(canvas, w)
        close_button(canvas, self.controls()[0])

    def draw_field(self, canvas: Canvas, c: Control, font: Font) -> None:
        """An amount field: '£' and the text typed (a hint when empty), a caret when edited."""
        editing = c.focused
        canvas.rect(c.x, c.y, c.w, c.h, fill="#0b1230", stroke=GOLD if editing else "#cfe8ff",
                    line_width=3 if editing else 1.5, radius=8)  # fmt: skip
        text = c.value
        shown = f"£ {text}" + ("|" if editing else "") if text or editing else "£ amount"
        big = fit_text(canvas, shown, Font(font.size * 1.15, "body", True), c.w - 16)
        ink = "#ffffff" if text or editing else "#b8c4d6"
        canvas.text(shown, c.x + c.w / 2, c.y + c.h / 2, big, fill=ink)
