"""The £500K Power Puck Shot Main Game Play Window, with the Bonus Game, the Prize Game and the
end message: plays a book in order.

The scene never computes an outcome: the shared book player (engine/ui/player.py) plays the
book. A Directional Arrow (a click, a tap, keys 1–6, or Left/Right then Space/Enter) starts the
next shot with the arrow as the player's choice; the choice only picks the path drawn
(timing.prepare), never what the pips reveal. The painters are in paint.py.
"""

from __future__ import annotations

from typing import Any

from engine.power_puck_shot.replay import State
from engine.ui.draw import Canvas
from engine.ui.flow import Flow
from engine.ui.input import Control, Event, Focus, Key
from engine.ui.power_puck_shot import messages, meter, paint, table
from engine.ui.power_puck_shot.layout import ARROWS, Layout, layout
from engine.ui.power_puck_shot.narrate import ARROW_NAMES
from engine.ui.scenes.play import PlayScreen
from engine.ui.widgets import draw_controls

SHOOT = "shoot-"  # the arrows' control ids: shoot-0 (steep left) ... shoot-5 (steep right)


class MainScene(PlayScreen[Layout]):
    """Plays the flow's current book from its resume index to the end message and FINISH."""

    def __init__(self, flow: Flow) -> None:
        super().__init__(flow)
        self.selected = 2  # the arrow Left/Right move to and Space/Enter shoot
        self.clock = 0.0  # seconds on screen: the bumpers spin by it

    def make_layout(self, width: float, height: float) -> Layout:
        """Power Puck Shot's layout (layout.py)."""
        return layout(width, height)

    def state(self) -> State | None:
        """The state drawn now."""
        state: State | None = self.player.state()
        return state

    def shoot(self, arrow: int, *, replaying: bool = False) -> None:
        """A Directional Arrow: shoot the next puck along it."""
        if 0 <= arrow < ARROWS and self.player.press("shoot", arrow, replaying=replaying):
            self.selected = arrow

    def replay_step(self, choice: int | None) -> None:
        """A replay's own shot, along the arrow the player chose."""
        self.shoot(choice if choice is not None else 0, replaying=True)

    def update(self, dt: float) -> bool:
        """Advance the book player; the bumpers keep spinning while a shot is on the table."""
        self.clock += dt * self.flow.speed
        return super().update(dt)

    # ---- controls --------------------------------------------------------------------------
    def play_controls(self) -> list[Control]:
        """The six arrows (or FINISH at the end), Rules and Prizes, and the settings."""
        lay = self.layout()
        if self.ended() and self.board:
            return self.board_controls(lay)
        if self.ended():
            _, y, _, ph = messages.end_box(lay.width, lay.height)
            return self.end_controls(y + ph - 20, 106)
        ready = self.player.waiting() is not None
        picked = self.selected  # ringed, and focused: Space/Enter on its button shoot it
        arrows = [
            Control(f"{SHOOT}{k}", f"Shoot {ARROW_NAMES[k]}", *lay.arrows[k], ready, k == picked)
            for k in range(ARROWS)
        ]
        return [*arrows, *self.setting_controls(lay.howto, lay.rules, lay.speed, lay.sound)]

    def board_controls(self, lay: Layout) -> list[Control]:
        """The final board shown: FINISH and 'See the message' side by side where the arrows
        and the counter were, off the grid, the meter and the Prize Table."""
        finish, view = self.end_controls(0.0, 0.0)
        left = lay.arrows[0][0]
        span = lay.arrows[-1][0] + lay.arrows[-1][2] - left
        top, gap = lay.arrows[0][1], 8.0
        h = max(48.0, min(60.0, lay.pucks[1] + lay.pucks[3] - top))
        half = (span - gap) / 2
        return [Control(finish.id, finish.label, left, top, half, h, finish.enabled),
                Control(view.id, view.label, left + half + gap, top, half, h)]  # fmt: skip

    def press(self, control: str) -> None:
        """An arrow shoots (its own sound); the rest as every screen."""
        if control.startswith(SHOOT):
            self.shoot(int(control[len(SHOOT) :]))
        else:
            super().press(control)

    def handle(self, event: Event) -> None:
        """1–6 shoot that arrow; Left/Right pick one and Space/Enter shoot it (or FINISH); an
        arrow's mirror button taking the focus (Tab) picks it too, so the gold ring and the
        browser's focus are on one arrow and a focused button's Enter shoots the ringed one."""
        if isinstance(event, Focus) and event.control.startswith(SHOOT):
            self.selected = int(event.control[len(SHOOT) :])
        elif isinstance(event, Key) and event.key in ("Enter", " "):
            if self.ended():
                self.press("finish")
            else:
                self.shoot(self.selected)
        elif isinstance(event, Key) and event.key in ("ArrowLeft", "ArrowRight"):
            step = -1 if event.key == "ArrowLeft" else 1
            self.selected = max(0, min(ARROWS - 1, self.selected + step))
            self.flow.say(f"Arrow {self.selected + 1}: {ARROW_NAMES[self.selected]}.")
        elif isinstance(event, Key) and event.key in "123456" and len(event.key) == 1:
            self.shoot(int(event.key) - 1)
        else:
            super().handle(event)

    # ---- drawing ------------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """The whole window for the current moment."""
        lay = self.layout()
        shown = self.moment()
        if shown is None:
            paint.backdrop(canvas, lay, "main")
            paint.header(canvas, lay, self.flow, None)
            return
        state = shown.state
        look = shown.stage
        paint.backdrop(canvas, lay, look)
        paint.header(canvas, lay, self.flow, shown)
        meter.meter(canvas, lay, shown)
        table.table(canvas, lay, shown, self.flow.mode == "try")
        paint.grid(canvas, lay, shown, look)
        controls = [c for c in self.controls() if not c.id.startswith(SHOOT)]
        ready = self.player.waiting() is not None
        paint.arrows(canvas, lay, look, self.selected, ready, not self.ended())
        if not (self.ended() and self.board):  # its place holds FINISH then
            paint.counter(canvas, lay, shown)
        paint.flights(canvas, lay, shown)
        ending = shown.kind == "end" and not self.board  # the end message shows as it runs,
        if ending:  # over the settings; at rest FINISH and the board's toggle stand on it
            draw_controls(canvas, controls)
        if ending or (self.ended() and not self.board):
            messages.end_message(canvas, lay, self.flow, state, shown.p, shown.m)
        if not ending:
            draw_controls(canvas, controls)
        messages.banners(canvas, lay, shown)  # over everything, the controls included

    def moment(self) -> paint.Moment | None:
        """The moment drawn now: the state, the event animating and how far (None before the
        play is loaded)."""
        state = self.state()
        if state is None:
            return None
        event = self.player.event()
        before: Any = self.player.before()
        return paint.Moment(state, before, event, self.player.progress(),
                            self.flow.motion(event), self.clock, self._last_shot())  # fmt: skip

    def _last_shot(self) -> dict[str, Any] | None:
        """The latest shot at or before the moment drawn (its reveals stay on the grid)."""
        player = self.player
        if player.replay is None:
            return None
        index = player.current if player.current is not None else player.shown
        for k in range(index, -1, -1):
            if player.replay.events[k]["type"] == "shot":
                return dict(player.prepared(k))
        return None
