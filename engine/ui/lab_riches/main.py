"""The Main Game Play Window (with the Bonus Game and the end message): plays a book in order.

The scene never computes an outcome. GO starts the next event that waits for the player (a
`go` or a `bonus_row`); the events after it play by themselves, each with its animation,
narration and sound cues, until the next one that waits. The index reached at each rest is
saved, so a reload resumes at the same event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.lab_riches.replay import Replay, State
from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.input import Control, Event, Key
from engine.ui.lab_riches import art, bonus, cues, paint
from engine.ui.lab_riches.common import draw_controls, panel
from engine.ui.lab_riches.flow import Flow
from engine.ui.lab_riches.layout import Layout, layout
from engine.ui.lab_riches.narrate import narrate
from engine.ui.lab_riches.screens import Screen

WAITS_FOR_GO = ("go", "bonus_row")
DURATION = {
    "start": 0.0,
    "go": 1.5,
    "prize_boxes": 0.8,
    "lock": 0.45,
    "row_win": 1.4,
    "segments": 1.5,
    "meter_box": 0.8,
    "extra_goes": 1.1,
    "bonus_activated": 2.0,
    "bonus_row": 2.4,
    "instant": 1.2,
    "bonus_end": 0.4,
    "end": 0.6,
}
AWARD_PAUSE = 1.6  # extra time for 'BONUS GAME … YOU HAVE WON' on the final bonus_row


def duration(event: Mapping[str, Any]) -> float:
    """Seconds the event's animation lasts at normal speed."""
    base = DURATION[str(event["type"])]
    if event["type"] == "bonus_row" and event["award"] != "up":
        base += AWARD_PAUSE
    return base


class MainScene(Screen):
    """Plays the flow's current book from its resume index to the end message and FINISH."""

    name = "main"

    def __init__(self, flow: Flow) -> None:
        super().__init__(flow)
        self.replay: Replay | None = None
        self.shown = 0
        self.current: int | None = None
        self.t = 0.0
        self.heard = 0.0  # the current event's cues up to this progress have played
        self._lay: Layout | None = None

    def enter(self, app: App) -> None:
        """Load the flow's play (new or resumed); coming back from Rules keeps the place."""
        super().enter(app)
        play = self.flow.play
        if play is None or (self.replay is not None and play.replay is self.replay):
            return
        self.replay = play.replay
        self.shown, self.current, self.t = play.resume_index, None, 0.0
        state = self.replay.state_at(self.shown)
        if self.shown > 0:
            self.flow.say(f"Resumed play number {play.play_number} at go {state.go}.")
        event = self.replay.events[self.shown]
        for line in narrate(event, state):
            self.flow.say(line)
        if self.shown == 0:
            self.flow.save(0)

    # ---- timeline ------------------------------------------------------------------------
    def _next(self) -> Mapping[str, Any] | None:
        if self.replay is None or self.shown + 1 >= len(self.replay):
            return None
        return self.replay.events[self.shown + 1]

    def waiting(self) -> bool:
        """True when the next event waits for GO."""
        nxt = self._next()
        return self.current is None and nxt is not None and nxt["type"] in WAITS_FOR_GO

    def state(self) -> State | None:
        """The state drawn now: after the current event, or after the last one shown."""
        if self.replay is None:
            return None
        return self.replay.state_at(self.current if self.current is not None else self.shown)

    def _start(self, index: int) -> None:
        assert self.replay is not None
        self.current, self.t, self.heard = index, 0.0, -1.0
        event, state = self.replay.events[index], self.replay.state_at(index)
        for line in narrate(event, state):
            self.flow.say(line)
        self._sound(event, 0.0)

    def _sound(self, event: Mapping[str, Any], progress: float) -> None:
        for cue in cues.between(event, self.heard, progress):
            self.flow.cue(cue)
        self.heard = progress

    def press_go(self) -> None:
        """GO: start the next event that waits for the player."""
        if self.waiting():
            self._start(self.shown + 1)

    def update(self, dt: float) -> bool:
        """Advance the current event; chain the events that do not wait; save at each rest."""
        if self.current is None or self.replay is None:
            return False
        self.t += dt * self.flow.speed
        while self.current is not None:
            event = self.replay.events[self.current]
            length = duration(event)
            self._sound(event, min(1.0, self.t / length) if length > 0 else 1.0)
            if self.t < length:
                break
            self.t -= length
            self.shown, self.current = self.current, None
            nxt = self._next()
            if nxt is not None and nxt["type"] not in WAITS_FOR_GO:
                self._start(self.shown + 1)
                self.t = 0.0
            else:
                self.flow.save(self.shown)
                if nxt is not None:
                    prompt = "the Bonus Game" if nxt["type"] == "bonus_row" else "your next go"
                    self.flow.say(f"Press GO for {prompt}.")
                else:
                    self.flow.say("Press FINISH to complete your play.")
        return True

    # ---- controls --------------------------------------------------------------------------
    def layout(self) -> Layout:
        """The layout for the current size (cached per size)."""
        w, h = self.size()
        if self._lay is None or (self._lay.width, self._lay.height) != (w, h):
            self._lay = layout(w, h)
        return self._lay

    def _ended(self) -> bool:
        state = self.state()
        return state is not None and state.finished and self.current is None

    def controls(self) -> list[Control]:
        """GO (or FINISH at the end), Rules and Prizes, and the settings: speed and sound."""
        lay = self.layout()
        if self._ended():
            w, h = lay.width, lay.height
            bw = min(300.0, w * 0.7)
            busy = bool(self.flow.busy)
            return [Control("finish", "FINISH", (w - bw) / 2, h * 0.62, bw, 60, not busy)]
        fast, sound = ("on" if on else "off" for on in (self.flow.fast, self.flow.sound))
        out = [
            Control("go", "GO", *lay.go, self.waiting()),
            Control("rules", "Rules and Prizes", *lay.rules),
            Control("speed", f"Faster animations: {fast}", *lay.speed),
        ]
        if self.flow.audio:
            out.append(Control("sound", f"Sound: {sound}", *lay.sound))
        return out

    def activate(self, control: str) -> None:
        """Route GO, FINISH, Rules and the settings."""
        if control == "go":
            self.press_go()
        elif control == "finish":
            self.flow.finish()
        elif control == "rules":
            self.flow.go("rules")
        elif control == "speed":
            self.flow.toggle("fast")
        elif control == "sound":
            self.flow.toggle("sound")

    def handle(self, event: Event) -> None:
        """Space or Enter press GO (or FINISH); the rest as usual."""
        if isinstance(event, Key) and event.key in ("Enter", " "):
            self.press("finish" if self._ended() else "go")
        else:
            super().handle(event)

    # ---- drawing ------------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """The whole window for the current moment."""
        lay = self.layout()
        art.backdrop(canvas, lay.width, lay.height)
        state = self.state()
        paint.header(canvas, lay, self.flow.balance)
        if state is None or self.replay is None:
            return
        event = self.replay.events[self.current] if self.current is not None else None
        p = 1.0
        if event is not None:
            length = duration(event)
            p = min(1.0, self.t / length) if length > 0 else 1.0
        kind = event["type"] if event is not None else ""
        paint.cable(canvas, lay)
        paint.meter(canvas, lay, state, event, p)
        shown = state.bonus
        if (
            shown is not None
            and kind != "bonus_activated"
            and (shown.award is None or kind == "bonus_row")
        ):
            bonus.draw(canvas, lay, shown, event, p)
        else:
            paint.grid(canvas, lay, state, event, p)
            paint.prize_boxes(canvas, lay, state, event, p)
        paint.boxes(canvas, lay, state)
        paint.flying(canvas, lay, state, event, p)
        if kind == "bonus_activated":
            paint.banner(canvas, lay, ("BONUS GAME", "ACTIVATED"), p)
        controls = self.controls()
        if self._ended():
            self._end_message(canvas, lay, state)
        draw_controls(canvas, controls)

    def _end_message(self, canvas: Canvas, lay: Layout, state: State) -> None:
        w, h = lay.width, lay.height
        pw, ph = min(w * 0.92, 520.0), min(h * 0.42, 330.0)
        x, y = (w - pw) / 2, h * 0.62 - ph + 20
        panel(canvas, x - 4, y - 10, pw + 8, ph + 110, glow=True)
        big = Font(min(36.0, pw * 0.08), "display", True)
        head = "CONGRATULATIONS" if state.total else "GAME OVER"
        canvas.text(head, w / 2, y + ph * 0.14, fit_text(canvas, head, big, pw - 20),
                    fill=art.GOLD)  # fmt: skip
        body = Font(min(22.0, pw * 0.05), "body", True)
        prizes = state.rows_pence + state.meter_pence
        canvas.text(f"Prize(s): {format_pounds(prizes)}", w / 2, y + ph * 0.36, body)
        canvas.text(f"Instant Prizes: {format_pounds(state.instant_pence)}", w / 2,
                    y + ph * 0.52, body)  # fmt: skip
        total = f"TOTAL WON {format_pounds(state.total)}"
        canvas.text(total, w / 2, y + ph * 0.75, fit_text(canvas, total, big, pw - 20),
                    fill=art.GOLD)  # fmt: skip
