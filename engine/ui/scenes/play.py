"""The window a book plays in, what every game's main screen shares.

The book player (engine/ui/player.py) plays the flow's current book; at the end the end message
offers FINISH (TRY AGAIN when a finish did not go through: the connection was lost) and a
toggle to put the message aside and see the final board; Rules and Prizes and the settings
(faster animations, sound) are there while the play runs. A game's main screen gives its
layout, the controls that act on its book (GO, the Directional Arrows) and its drawing.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from engine.ui.app import App
from engine.ui.flow import Flow
from engine.ui.input import Control
from engine.ui.player import BookPlayer
from engine.ui.screen import Screen

Rect = tuple[float, float, float, float]


class Sized(Protocol):
    """A layout: made for one window size."""

    @property
    def width(self) -> float: ...
    @property
    def height(self) -> float: ...


L = TypeVar("L", bound=Sized)


class PlayScreen(Screen, Generic[L]):
    """Plays the flow's current book from its resume index to the end message and FINISH."""

    name = "main"

    def __init__(self, flow: Flow) -> None:
        super().__init__(flow)
        self.player = BookPlayer(flow)
        self._lay: L | None = None
        self.board = False  # at the end: the end message put aside to see the final board

    def enter(self, app: App) -> None:
        """Load the flow's play (new or resumed) and say where it starts; coming back from
        Rules keeps the place."""
        super().enter(app)
        if not self.player.load():
            return
        self.board = False
        play = self.flow.play
        if play is not None and self.player.shown > 0:
            self.flow.say(f"Resumed play number {play.play_number}{self.resumed_at()}.")
        self.player.announce()

    def resumed_at(self) -> str:
        """Where a resumed play picks up, in words after the play number ('' to say nothing)."""
        return ""

    def update(self, dt: float) -> bool:
        """Advance the book player."""
        return self.player.update(dt)

    def make_layout(self, width: float, height: float) -> L:
        """The game's layout for a window size."""
        raise NotImplementedError

    def layout(self) -> L:
        """The layout for the current size (cached per size)."""
        w, h = self.size()
        if self._lay is None or (self._lay.width, self._lay.height) != (w, h):
            self._lay = self.make_layout(w, h)
        return self._lay

    def ended(self) -> bool:
        """True at rest after the book's last event: the end message shows."""
        return self.player.finished()

    def end_controls(self, y: float, board_gap: float) -> list[Control]:
        """FINISH (or TRY AGAIN) at y, and the board toggle board_gap below it, centred."""
        lay = self.layout()
        w = lay.width
        bw, vw = min(300.0, w * 0.7), min(220.0, w * 0.6)
        label = "TRY AGAIN" if self.flow.error else "FINISH"
        view = "See the message" if self.board else "See the board"
        return [
            Control("finish", label, (w - bw) / 2, y, bw, 60, not self.flow.busy),
            Control("board", view, (w - vw) / 2, y + board_gap, vw, 44),
        ]

    def setting_controls(self, rules: Rect, speed: Rect, sound: Rect) -> list[Control]:
        """Rules and Prizes, Faster animations and (where the backend has audio) Sound."""
        settings = self.flow.settings
        fast, sound_on = ("on" if on else "off" for on in (settings.fast, settings.sound))
        out = [
            Control("rules", "Rules and Prizes", *rules),
            Control("speed", f"Faster animations: {fast}", *speed),
        ]
        if settings.audio:
            out.append(Control("sound", f"Sound: {sound_on}", *sound))
        return out

    def activate(self, control: str) -> None:
        """FINISH, the board toggle, Rules and the settings."""
        if control == "finish":
            self.flow.finish()
        elif control == "board":  # put the end message aside (or back) to see what won
            self.board = not self.board
            self.flow.say("The final board." if self.board else "The end message.")
        elif control == "rules":
            self.flow.go("rules")
        elif control == "speed":
            self.flow.toggle("fast")
        elif control == "sound":
            self.flow.toggle("sound")
