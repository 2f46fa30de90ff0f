"""The frame loop shared by every backend: input, update, draw, then what the shell mirrors.

A backend calls `App.frame(now_ms, events, canvas)` once per display frame. The App hands
input to the current scene (pointer taps on a control become `Activate`), advances it by
the elapsed time, draws it when something changed, and returns the actionable controls, the
narration for the accessibility mirror, the shell's requests and the sound cues to play.
Scenes change only through `App.switch`; after the first frame, a change is a transition
(engine/ui/transition.py): the new scene takes over at once and the old one is drawn fading
over it for a moment, so frames are drawn until the transition is over, then none at rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.ui.draw import Canvas
from engine.ui.input import Activate, Control, Event, Pointer, Reply, Resize
from engine.ui.transition import Transition

MAX_STEP_S = 0.1  # a long pause (tab hidden) must not fast-forward an animation

# An answer the shell had before Python asked (ok, body): see App.
Answer = tuple[bool, dict[str, Any]]


class Scene(Protocol):
    """One screen: splash, how to play, main game, bonus, end..."""

    name: str

    def enter(self, app: App) -> None:
        """Called once when the scene becomes current."""

    def handle(self, event: Event) -> None:
        """React to one input event."""

    def update(self, dt: float) -> bool:
        """Advance animations by dt seconds; True while anything is moving."""
        ...

    def draw(self, canvas: Canvas) -> None:
        """Draw the whole scene."""

    def controls(self) -> list[Control]:
        """The controls a person can act on now."""
        ...


@dataclass
class FrameResult:
    """What one frame produced besides the drawing."""

    drew: bool
    controls: list[Control] | None  # None when unchanged since the last frame
    narration: list[str] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    sounds: list[str] = field(default_factory=list)  # cue names (engine/ui/sound.py)
    music: str = ""  # the music bed looping now (a game's id), "" for none
    volumes: tuple[float, float] = (0.0, 0.0)  # the music's and the effects' gains, 0..1


class App:
    """Owns the current scene and the frame loop's bookkeeping.

    `answered`: answers the shell already has for requests not yet made, by operation (the
    browser's page asks for the session and the unfinished play as it starts: docs/build.md).
    The first request of such an operation is not sent; its answer reaches its callback at the
    start of the next frame, and what that callback asks in turn in the same frame, so the
    first frame can show the screen those answers make.
    """

    def __init__(
        self,
        scene: Scene,
        width: float,
        height: float,
        answered: Mapping[str, Answer] | None = None,
    ) -> None:
        self.width = width
        self.height = height
        self.scene = scene
        self._last_ms: float | None = None
        self.clock_s = 0.0  # the frame clock (the shell's, in seconds), for what counts real time
        self._dirty = True
        self._pressed: str | None = None
        self._controls: list[Control] = []
        self._published: list[dict[str, object]] | None = None
        self._narration: list[str] = []
        self._requests: list[dict[str, Any]] = []
        self._sounds: list[str] = []
        self._music = ""
        self._volumes = (0.0, 0.0)
        self._waiting: dict[str, Callable[[Reply], None]] = {}
        self._next_request = 0
        self._answered: dict[str, Answer] = dict(answered or {})
        self._ready: list[Reply] = []  # answers given before their requests, for the next frame
        self._shown = False  # a frame has been drawn (the first scene comes without a transition)
        self.transition: Transition | None = None  # the screen change under way, if any
        scene.enter(self)

    def switch(self, scene: Scene) -> None:
        """Make scene the current one (the only way screens change): at once, with the one
        that was showing fading over it for a moment (a transition) once a frame has shown."""
        if self._shown:
            self.transition = Transition(self.scene, reduced=_reduced(scene))
        self.scene = scene
        self._pressed = None
        self._dirty = True
        scene.enter(self)

    def changing(self) -> bool:
        """True while the screen changes: a transition, or the scene's own (a page turning)."""
        own = getattr(self.scene, "changing", None)
        return self.transition is not None or (own is not None and bool(own()))

    def narrate(self, text: str) -> None:
        """Queue a sentence for the aria-live log."""
        self._narration.append(text)

    def cue(self, name: str) -> None:
        """Queue a sound cue for this frame (the same cue twice in a frame sounds once).

        The flow checks the name against the game's cue table (engine/ui/sound.py)."""
        if name not in self._sounds:
            self._sounds.append(name)

    def mix(self, music: str, volumes: tuple[float, float]) -> None:
        """The music bed to loop ("" for none) and the music's and effects' gains, from now on."""
        self._music, self._volumes = music, volumes

    def request(self, op: str, data: dict[str, Any], on_reply: Callable[[Reply], None]) -> str:
        """Ask the shell to perform an operation (I/O stays out of Python); returns its id."""
        self._next_request += 1
        rid = f"r{self._next_request}"
        self._waiting[rid] = on_reply
        answer = self._answered.pop(op, None)
        if answer is None:
            self._requests.append({"id": rid, "op": op, **data})
        else:
            self._ready.append(Reply(rid, *answer))
        return rid

    def invalidate(self) -> None:
        """Ask for a redraw on the next frame."""
        self._dirty = True

    def _route(self, event: Event) -> None:
        if isinstance(event, Reply):
            callback = self._waiting.pop(event.id, None)
            if callback is not None:
                self._dirty = True
                callback(event)
            return
        if isinstance(event, Resize):
            self.width, self.height = event.width, event.height
        elif isinstance(event, Pointer):
            hit = next(
                (c for c in self._controls if c.enabled and c.contains(event.x, event.y)), None
            )
            if event.kind == "down":
                self._pressed = hit.id if hit else None
            elif event.kind == "up":
                pressed, self._pressed = self._pressed, None
                if hit is not None and hit.id == pressed:
                    self.scene.handle(Activate(hit.id))
                    return
        elif isinstance(event, Activate):
            enabled = {c.id for c in self._controls if c.enabled}
            if event.control not in enabled:
                return
        self.scene.handle(event)

    def frame(self, now_ms: float, events: Iterable[Event], canvas: Canvas) -> FrameResult:
        """Run one frame: input, update, draw; return what the shell mirrors, performs, plays."""
        dt = 0.0 if self._last_ms is None else max(0.0, (now_ms - self._last_ms) / 1000.0)
        self._last_ms = now_ms
        self.clock_s = now_ms / 1000.0
        ended = self.transition is not None and not self.transition.advance(min(dt, MAX_STEP_S))
        if ended:  # this frame draws the new scene alone; the next, at rest, draws nothing
            self.transition = None
        had_input = False
        while self._ready:  # and what their callbacks ask that was answered too
            had_input = True
            ready, self._ready = self._ready, []
            for reply in ready:
                self._route(reply)
        for event in events:
            had_input = True
            self._route(event)
        moving = self.scene.update(min(dt, MAX_STEP_S))
        check_in = getattr(self.scene, "check_in", None)  # a screen that may be interrupted
        if check_in is not None:
            check_in()
        drew = moving or had_input or self._dirty or ended or self.transition is not None
        if drew:
            self._dirty = False
            self._shown = True
            self.scene.draw(canvas)
            if self.transition is not None:
                self.transition.draw_outgoing(canvas)
            over = getattr(self.scene, "draw_over", None)  # what a screen shows above it all
            if over is not None:
                over(canvas)
        self._controls = self.scene.controls()
        published = [c.to_json() for c in self._controls]
        changed = published != self._published
        self._published = published
        narration, self._narration = self._narration, []
        requests, self._requests = self._requests, []
        sounds, self._sounds = self._sounds, []
        controls = list(self._controls) if changed else None
        return FrameResult(drew, controls, narration, requests, sounds, self._music, self._volumes)


def _reduced(scene: Scene) -> bool:
    """Whether the player wants reduced motion (the setting of the scene's visit, if it has one)."""
    settings = getattr(getattr(scene, "flow", None), "settings", None)
    return bool(getattr(settings, "reduced_motion", False))
