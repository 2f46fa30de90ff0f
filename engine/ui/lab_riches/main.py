"""The Main Game Play Window (with the Bonus Game and the end message): plays a book in order.

The scene never computes an outcome: the shared book player (engine/ui/player.py) plays the
book; GO starts the next event that waits for it (a `go` or a `bonus_row`), and this scene
draws the moment the player has reached. REVEAL ALL presses GO for the player, at each rest,
until the end: the same events at the same pace (no faster, none cut short; the outcome was
fixed at purchase), and once asked for it cannot be stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.lab_riches import GAME
from engine.lab_riches.replay import State
from engine.money import format_pounds
from engine.ui import celebration, fanfare, widgets
from engine.ui.celebration import Grade, end_seconds
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.input import Control, Event, Key
from engine.ui.lab_riches import art, bonus, intro, meter, paint
from engine.ui.lab_riches.layout import Layout, layout
from engine.ui.lab_riches.panels import panel
from engine.ui.presentation import FREE_RESULT, header_note
from engine.ui.scenes.play import PlayScreen
from engine.ui.widgets import draw_controls

SECONDS = {
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
}
AWARD_PAUSE = 1.6  # extra time for 'BONUS GAME … YOU HAVE WON' on the final bonus_row


def _bonus_row(event: Mapping[str, Any]) -> float:
    return SECONDS["bonus_row"] + (AWARD_PAUSE if event["award"] != "up" else 0.0)


def _fixed(seconds: float) -> Callable[[Mapping[str, Any]], float]:
    return lambda _event: seconds


# Seconds each event's animation lasts at normal speed.
DURATIONS: dict[str, Callable[[Mapping[str, Any]], float]] = {
    **{kind: _fixed(seconds) for kind, seconds in SECONDS.items()},
    "bonus_row": _bonus_row,
    "end": end_seconds(GAME),  # the celebration's length (engine/ui/celebration.py)
}


def prompt(upcoming: Mapping[str, Any] | None) -> str:
    """What to say when the play comes to rest before upcoming (None: at the end)."""
    if upcoming is None:
        return "Press FINISH to complete your play."
    return (
        f"Press GO for {'the Bonus Game' if upcoming['type'] == 'bonus_row' else 'your next go'}."
    )


END_FOOT = 170.0  # below its text, the end message holds FINISH, a note and the board toggle


def end_box(w: float, h: float) -> tuple[float, float, float, float]:
    """The end message's text area (x, y, w, h): widgets.end_box, with END_FOOT under it."""
    return widgets.end_box(w, h, END_FOOT)


class MainScene(PlayScreen[Layout]):
    """Plays the flow's current book from its resume index to the end message and FINISH."""

    action_ids = ("go", "reveal")  # a replay's Pause and Step stand where GO and REVEAL ALL do

    def resumed_at(self) -> str:
        """A resumed play picks up at a go."""
        state = self.state()
        return "" if state is None else f" at go {state.go}"

    def make_layout(self, width: float, height: float) -> Layout:
        """Lab Riches' layout (layout.py)."""
        return layout(width, height)

    def state(self) -> State | None:
        """The state drawn now."""
        state: State | None = self.player.state()
        return state

    def press_go(self) -> None:
        """GO: start the next event that waits for the player."""
        self.player.press("go")

    # ---- controls --------------------------------------------------------------------------
    def play_controls(self) -> list[Control]:
        """GO (or FINISH at the end), HOW TO PLAY, Rules and Prizes, and the settings."""
        lay = self.layout()
        if self.ended() and self.board:  # FINISH where GO was, the toggle where Rules was:
            finish, view = self.end_controls(0.0, 0.0)  # off the board they let a player see
            return [Control(finish.id, finish.label, *lay.go, finish.enabled),
                    Control(view.id, view.label, *lay.rules)]  # fmt: skip
        if self.ended():  # both inside the end message's panel (see _end_message)
            _, y, _, ph = end_box(lay.width, lay.height)
            return self.end_controls(y + ph - 20, 106)
        ready = self.player.waiting() is not None and not self.revealing
        go = Control("go", "GO", *lay.go, ready)
        reveal = Control("reveal", "REVEAL ALL", *lay.reveal, not self.revealing)
        return [go, reveal, *self.setting_controls(lay.howto, lay.rules, lay.speed, lay.sound)]

    def activate(self, control: str) -> None:
        """GO; FINISH, Rules and the settings as every game."""
        if control == "go":
            self.press_go()
        elif control == "reveal":
            self.reveal_all()
        else:
            super().activate(control)

    def handle(self, event: Event) -> None:
        """Space or Enter press GO (or FINISH); the rest as usual."""
        if isinstance(event, Key) and event.key in ("Enter", " "):
            self.press("finish" if self.ended() else "go")
        else:
            super().handle(event)

    # ---- drawing ------------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """The whole window for the current moment."""
        lay = self.layout()
        art.backdrop(canvas, lay.width, lay.height)
        state = self.state()
        paint.header(
            canvas, lay, self.flow.balance, header_note(self.flow.mode), self.flow.header_figures
        )
        if state is None:
            return
        event, p = self.player.event(), self.player.progress()
        kind = event["type"] if event is not None else ""
        m = self.flow.motion(event)
        paint.cable(canvas, lay)
        meter.meter(canvas, lay, state, event, p, m)
        shown = state.bonus  # the Bonus Game's window, faded in and out over the board (intro)
        window = intro.window_shown(event, p) if shown is not None else 0.0
        if shown is None or (shown.award is not None and kind != "bonus_row"):
            window = 0.0
        if window < 1.0:
            paint.grid(canvas, lay, state, event, p, m)
            paint.prize_boxes(canvas, lay, state, event, p, m)
            if kind == "bonus_activated":
                intro.motifs(canvas, lay, state, p, m)
        if shown is not None and window > 0.0:
            canvas.save()
            canvas.alpha(window)
            bonus.draw(canvas, lay, shown, event, p, m)
            canvas.restore()
        # A counter changes when its animation lands: extra goes reach GOES, an Instant Prize
        # reaches INSTANT WINS (and TOTAL WON), not at the start of their flights.
        landing = kind in paint.LANDS_IN_A_BOX and p < paint.LAND
        paint.boxes(
            canvas, lay, self.player.before() if landing else state, self.flow.mode == "try"
        )
        controls = self.controls()
        if kind == "end" and not self.board:  # it shows as the end event runs, over GO
            draw_controls(canvas, controls)
            self._end_message(canvas, lay, state, p)
        elif self.ended() and not self.board:  # FINISH and the board's toggle: on it
            self._end_message(canvas, lay, state, p)
            draw_controls(canvas, controls)
        else:
            draw_controls(canvas, controls)
        # What flies passes the buttons beside the Prize Boxes (on its way round them): over them.
        paint.flying(canvas, lay, state, event, p, m)
        # The messages that pause the play lie over everything, the controls included.
        if kind == "bonus_activated":
            intro.banner(canvas, lay, p, m)
        bonus.result(canvas, lay, event, p, m)

    def _end_message(self, canvas: Canvas, lay: Layout, state: State, p: float) -> None:
        """The end message at progress p of the end event (1 at rest): graded by the play's
        total (engine/ui/celebration.py), its amount counting up to it, with the
        celebration the grade earns behind and over it (engine/ui/fanfare.py)."""
        w, h = lay.width, lay.height
        x, y, pw, ph = end_box(w, h)
        free = self.flow.mode == "try"  # a free TRY: no celebration and no amount won
        g = celebration.grade(state.total, GAME, free=free)
        m = self.flow.motion(self.player.event())
        box = (x - 4, y - 10, pw + 8, ph + END_FOOT)  # FINISH, a note and the board's toggle
        fanfare.behind(canvas, w, h, box, g, p, m)
        panel(canvas, *box, glow=g >= Grade.WIN)
        # the burst flies out from the amount as it lands, behind the words
        fanfare.front(canvas, w / 2, y + ph * 0.75, min(pw * 0.6, h * 0.4), g, p, m,
                      celebration.COUNTED)  # fmt: skip
        big = Font(min(36.0, pw * 0.08), "display", True)
        head = "FREE TRY OVER" if free else celebration.headline(g, state.total)
        scale = fanfare.heading_scale(g, p, m)
        head_font = fit_text(canvas, head, Font(big.size * scale, "display", True), pw - 20)
        canvas.text(head, w / 2, y + ph * 0.14, head_font, fill=art.GOLD)
        body = Font(min(22.0, pw * 0.05), "body", True)
        prizes = state.rows_pence + state.meter_pence
        if free:
            canvas.text("No money is staked or won.", w / 2, y + ph * 0.44, body)
        else:
            canvas.text(f"Prize(s): {format_pounds(prizes)}", w / 2, y + ph * 0.36, body)
            canvas.text(f"Instant Prizes: {format_pounds(state.instant_pence)}", w / 2,
                        y + ph * 0.52, body)  # fmt: skip
        band = min(big.size * 1.6, 2 * (ph * 0.25 - 22))  # clear of FINISH below it
        fanfare.plaque(canvas, w / 2, y + ph * 0.75, pw - 16, band, g)
        shown = celebration.counted(state.total, g, p)
        total = FREE_RESULT.upper() if free else celebration.total_line(g, shown)
        font = Font(min(big.size, band * 0.8), "display", True)  # inside its band
        canvas.text(total, w / 2, y + ph * 0.75, fit_text(canvas, total, font, pw - 16 - band),
                    fill=art.GOLD)  # fmt: skip
        # Under FINISH: what is happening ("Recording your play…") or why it did not go through.
        note = self.flow.error or self.flow.busy
        if note:
            small = fit_text(canvas, note, Font(min(18.0, pw * 0.04), "body", True), pw - 24)
            colour = "#ffb4a8" if self.flow.error else "#cfe8ff"
            canvas.text(note, w / 2, y + ph + 70, small, fill=colour)
