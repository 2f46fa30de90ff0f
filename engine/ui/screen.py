"""What every screen shares: the app, the visit (a game's flow, or the lobby's), controls and
key handling."""

from __future__ import annotations

from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.flow import Flow
from engine.ui.input import Activate, Control, Event, Key, ReducedMotion
from engine.ui.look import Look
from engine.ui.scroll import Scroll
from engine.ui.visit import Visit
from engine.ui.widgets import GOLD


class Page:
    """A screen of the site: subclasses give `name`, `controls`, `activate` and `draw`.
    `flow` is the visit the screen belongs to (a game's screens have the game's Flow)."""

    name = "screen"
    scroll: Scroll | None = None  # a screen whose content may not fit sets its own

    def __init__(self, flow: Visit) -> None:
        self.flow = flow
        self.app: App | None = None

    def content_controls(self) -> list[Control]:
        """The controls that scroll with the content, in content coordinates (none here)."""
        return []

    def scroll_area(self) -> list[float] | None:
        """The scrolling area as the layout test reads it, if the screen has one."""
        return None if self.scroll is None else self.scroll.area()

    def enter(self, app: App) -> None:
        """Remember the app."""
        self.app = app
        self.flow.attach(app)

    def size(self) -> tuple[float, float]:
        """The window size."""
        return (self.app.width, self.app.height) if self.app else (1280.0, 720.0)

    def update(self, dt: float) -> bool:
        """Static screens do not animate."""
        return False

    def controls(self) -> list[Control]:
        """No controls by default."""
        return []

    def activate(self, control: str) -> None:
        """React to a control."""

    def own_cue(self, control: str) -> bool:
        """True for a control whose press sounds its own cue instead of the click (none here)."""
        return False

    def press(self, control: str) -> None:
        """Act on a control; one on screen and enabled clicks (but one with its own cue)."""
        clicks = not self.own_cue(control) and any(
            c.id == control and c.enabled for c in self.controls()
        )
        self.activate(control)
        if clicks:  # after acting, so turning sound on is heard and turning it off is not
            self.flow.cue("press")

    def handle(self, event: Event) -> None:
        """Controls by pointer or mirror; Enter/Space press the first enabled control; the keys,
        the wheel and a drag scroll a screen whose content does not fit."""
        if self.scroll is not None and self.scroll.handle(event, self.content_controls()):
            return
        if isinstance(event, Activate):
            self.press(event.control)
        elif isinstance(event, Key) and event.key in ("Enter", " "):
            first = next((c for c in self.controls() if c.enabled), None)
            if first is not None:
                self.press(first.id)
        elif isinstance(event, Key) and event.key == "Escape":
            self.press("close")
        elif isinstance(event, ReducedMotion) and event.on != self.flow.settings.reduced_motion:
            self.flow.settings.reduced_motion = event.on  # the system's setting, followed live
            self.flow.say(f"Reduced motion {'on' if event.on else 'off'}")

    def draw(self, canvas: Canvas) -> None:
        """A plain dark screen (each game's screens draw their own)."""
        canvas.rect(0, 0, canvas.width, canvas.height, fill="#000000")


class Screen(Page):
    """A screen of a game: its flow knows the game and the play."""

    flow: Flow

    def __init__(self, flow: Flow) -> None:
        super().__init__(flow)

    def own_cue(self, control: str) -> bool:
        """The game's controls that sound their own cue (Presentation.controls: Lab Riches' GO)."""
        return control in self.flow.presentation.controls.own_cue

    def game_backdrop(self, canvas: Canvas) -> Look:
        """The game's backdrop over the whole screen; its look, for the panel drawn on it."""
        look = self.flow.presentation.cover.look
        look.backdrop(canvas, canvas.width, canvas.height)
        return look

    def at_rest(self) -> bool:
        """True when nothing the player started is still animating (a reality check may come)."""
        return True

    def check_in(self) -> None:
        """After each frame: at a rest, show the reality check when one is due (not in a
        replay, which is no play)."""
        interrupts = self.flow.interrupts  # (the rooms give the reality check: open_rooms)
        if interrupts is None or self.flow.mode == "replay":
            return
        if self.flow.reality_due() and self.at_rest():
            self.flow.reality_shown()
            if self.app is not None:
                self.app.switch(interrupts.reality(self.flow, self))

    def draw_over(self, canvas: Canvas) -> None:
        """Above everything, on every screen of a TRY or a REPLAY, what the page is for."""
        label = self.flow.mode_label
        if not label:
            return
        w = canvas.width
        font = fit_text(canvas, label, Font(15.0, "body", True), w - 40)
        bw = min(w - 16, canvas.measure(label, font) + 28)
        canvas.rect((w - bw) / 2, 4, bw, 24, fill="#000000cc", stroke=GOLD, line_width=1.5,
                    radius=12)  # fmt: skip
        canvas.text(label, w / 2, 16, font, fill=GOLD)


def status_line(flow: Visit) -> str:
    """The line under a screen's title: what is happening, what went wrong, or the balance."""
    if flow.busy:
        return flow.busy
    if flow.error:
        return flow.error
    return "" if flow.balance is None else f"Balance {format_pounds(flow.balance)}"
