"""The window a book plays in, what every game's main screen shares.

The book player (engine/ui/player.py) plays the flow's current book; at the end the end message
offers FINISH (TRY AGAIN when a finish did not go through: the connection was lost) and a
toggle to put the message aside and see the final board; HOW TO PLAY, Rules and Prizes and the
settings (faster animations, sound) are there while the play runs. HOW TO PLAY and Rules and
Prizes open over the play and close back to it at the point it was: the book player does not
move while they show, and nothing it plays depends on them. A game's main screen gives its
layout, the controls that act on its book (GO, the Directional Arrows) and its drawing.

REVEAL ALL (a game that offers it: Lab Riches) hands the rest of a play to the screen, which
takes each waiting action itself after the same rest a replay takes, to the end: every event
plays whole, at the pace the player's own setting gives, and it cannot be stopped.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from engine.ui.app import App
from engine.ui.draw import Canvas
from engine.ui.flow import Flow
from engine.ui.input import Control
from engine.ui.player import BookPlayer
from engine.ui.presentation import header_note
from engine.ui.screen import Screen

Rect = tuple[float, float, float, float]


class Sized(Protocol):
    """A layout: made for one window size."""

    @property
    def width(self) -> float: ...
    @property
    def height(self) -> float: ...


L = TypeVar("L", bound=Sized)


REPLAY_REST = 0.9  # seconds a replay rests before it takes the player's next action itself


class PlayScreen(Screen, Generic[L]):
    """Plays the flow's current book from its resume index to the end message and FINISH.

    In a replay the screen takes each of the player's actions itself, after a rest, with the
    choices the endpoint recorded (so Power Puck Shot draws the same paths); Pause stops it
    at the next rest and Step takes one action. A game gives `play_controls` (its action
    controls, as its presentation declares them: Presentation.controls, and the settings) and
    `replay_step`.
    """

    name = "main"

    def __init__(self, flow: Flow) -> None:
        super().__init__(flow)
        self.player = BookPlayer(flow)
        self._lay: L | None = None
        self.board = False  # at the end: the end message put aside to see the final board
        self.paused = False  # a replay: stopped at rests until Play or Step
        self.rest = 0.0  # a replay or REVEAL ALL: seconds at the current rest
        self.revealing = False  # REVEAL ALL asked for: the screen acts for the player to the end

    def enter(self, app: App) -> None:
        """Load the flow's play (new or resumed) and say where it starts; coming back from
        Rules keeps the place."""
        super().enter(app)
        if not self.player.load():
            return
        self.board = False
        self.revealing = self.player.hands_free = False
        play = self.flow.play
        if play is not None and self.player.shown > 0:
            self.flow.say(f"Resumed play number {play.play_number}{self.resumed_at()}.")
        self.player.announce()

    def resumed_at(self) -> str:
        """Where a resumed play picks up, in words after the play number ('' to say nothing)."""
        return ""

    def update(self, dt: float) -> bool:
        """Advance the book player; a replay (or REVEAL ALL) takes the next action after a
        rest."""
        hands_free = self.revealing or (self.flow.mode == "replay" and not self.paused)
        if hands_free and self.player.waiting() is not None:
            self.rest += dt * self.flow.speed
            if self.rest >= REPLAY_REST:
                self.step()
            return True
        return self.player.update(dt)

    def reveal_all(self) -> None:
        """REVEAL ALL: from now on the screen takes each waiting action itself (the first at
        once), to the end of the play; said, and not to be stopped."""
        if self.revealing or self.ended() or self.flow.mode == "replay":
            return
        self.revealing = self.player.hands_free = True
        self.rest = REPLAY_REST
        self.flow.say("Revealing all: the rest of your play is revealed for you.")

    def at_rest(self) -> bool:
        """Between two events (a go, a shot) or at the end: not in the middle of one."""
        return self.player.current is None

    def step(self) -> None:
        """A replay: take the player's next action, with the choice recorded for it."""
        self.rest = 0.0
        if self.player.waiting() is not None:
            self.replay_step(self.player.choice(self.player.shown + 1))

    def replay_step(self, choice: int | None) -> None:
        """Take the waiting action as the player took it (a game may press its own way)."""
        wanted = self.player.waiting()
        if wanted is not None:
            # A play recorded before choices were kept has none: the first option is drawn.
            fallback = 0 if wanted.choices and choice is None else choice
            self.player.press(wanted.name, fallback, replaying=True)

    def play_controls(self) -> list[Control]:
        """The game's controls: its actions (or FINISH at the end) and the settings."""
        raise NotImplementedError

    def controls(self) -> list[Control]:
        """The game's controls; in a replay, Pause (or Play) and Step where its actions are,
        and at the end ALL GAMES instead of FINISH."""
        out = self.play_controls()
        if self.flow.mode != "replay":
            return out
        acts = self.flow.presentation.controls.acts
        actions = [c for c in out if acts(c.id) or c.id == "finish"]
        rest = [c for c in out if c not in actions]
        if not actions:
            return out
        x = min(c.x for c in actions)
        y = min(c.y for c in actions)
        w = max(c.x + c.w for c in actions) - x
        h = max(48.0, min(64.0, max(c.y + c.h for c in actions) - y))
        if self.ended():
            return [Control("finish", "ALL GAMES", x, y, w, h), *rest]
        half = (w - 10) / 2
        toggle = Control("pause", "Play on" if self.paused else "Pause", x, y, half, h)
        step = Control("step", "Step", x + half + 10, y, half, h, self.paused)
        return [toggle, step, *rest]

    def draw_over(self, canvas: Canvas) -> None:
        """No TRY or REPLAY badge over the Main Game: its header says so where the balance
        stands (presentation.header_note; the badge covered the game's name and the balance
        on a phone)."""
        if not header_note(self.flow.mode):
            super().draw_over(canvas)

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

    def setting_controls(self, howto: Rect, rules: Rect, speed: Rect, sound: Rect) -> list[Control]:
        """HOW TO PLAY, Rules and Prizes, Faster animations and (where the backend has audio)
        Sound."""
        settings = self.flow.settings
        fast, sound_on = ("on" if on else "off" for on in (settings.fast, settings.sound))
        out = [
            Control("howto", "HOW TO PLAY", *howto),
            Control("rules", "Rules and Prizes", *rules),
            Control("speed", f"Faster animations: {fast}", *speed),
        ]
        if settings.audio:
            out.append(Control("sound", f"Sound: {sound_on}", *sound))
        return out

    def activate(self, control: str) -> None:
        """FINISH, the board toggle, How To Play, Rules and the settings; a replay's Pause and
        Step."""
        if control == "pause":
            self.paused = not self.paused
            self.flow.say("Replay paused." if self.paused else "Replay playing on.")
        elif control == "step":
            self.step()
        elif control == "finish":
            self.flow.finish()
        elif control == "board":  # put the end message aside (or back) to see what won
            self.board = not self.board
            self.flow.say("The final board." if self.board else "The end message.")
        elif control in ("howto", "rules"):
            self.flow.go(control)
        elif control == "speed":
            self.flow.toggle("fast")
        elif control == "sound":
            self.flow.toggle("sound")
