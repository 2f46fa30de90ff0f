"""The presentation contract: what a game's UI package (engine/ui/<package>/) provides.

The shared machinery (engine/ui/flow.py, player.py, screen.py, widgets.py) plays any game's
book through these tables, one handler per event type, so a game's UI package holds only its
screens, layout, art, narration and cues. Each exports one `PRESENTATION`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.book import Book, Event
from engine.game import Game
from engine.ui.look import Look
from engine.ui.motion import Motion
from engine.ui.sound import Cues

if TYPE_CHECKING:
    from engine.ui.app import Scene
    from engine.ui.flow import Flow

Timeline = tuple[tuple[float, str], ...]  # (share of the event's animation 0..1, cue name)
Narrator = Callable[[Event, Any], list[str]]  # (event, replay state after it) -> sentences
CueTimer = Callable[[Event, Motion], Timeline]  # (event, how it may move now) -> its cues
Duration = Callable[[Event], float]
Preparer = Callable[[Book, Event, "int | None"], Event]  # (book, event, the player's choice)


def cue_at(progress: float, cue: str) -> CueTimer:
    """A timer for an event that sounds one cue at one moment of its animation."""
    return lambda _event, _motion: ((progress, cue),)


def silent(event: Event, motion: Motion) -> Timeline:
    """A timer for an event that makes no sound."""
    return ()


def ending(event: Event, motion: Motion) -> Timeline:
    """The end message's cue, as it shows: 'win' when the book's total is a prize, else 'nowin'
    (both shared, engine/ui/sound.py)."""
    return ((1.0, "win" if int(event["total"]) else "nowin"),)


def as_is(book: Book, event: Event, choice: int | None) -> Event:
    """An event the screens show as the book has it (no choice changes how it looks)."""
    return event


@dataclass(frozen=True, eq=False)
class Presentation:
    """A game's screens and the per-event tables the book player reads."""

    game: Game
    start: Callable[[Flow], Scene]  # register every screen with the flow; return the first
    narration: Mapping[str, Narrator]  # event type -> its sentences for the aria-live log
    cues: Mapping[str, CueTimer]  # event type -> when its sound cues play
    durations: Mapping[str, Duration]  # event type -> seconds its animation lasts
    sounds: Cues  # the notes of this game's own cues
    prompt: Callable[[Event | None], str] = field(default=lambda _next: "")
    # what to say at a rest: the next event waits for the player (None: the play is over)
    prepare: Preparer = field(default=as_is)
    # the event as the screens play it: the book's, plus what the player's choice makes of it
    # (Power Puck Shot: the path of the arrow picked). Durations, cues, narration and drawing
    # all read the prepared event; it never changes what the book reveals.
    look: Look | None = None  # the game's look: the lobby draws its card in it
    rules_text: tuple[str, ...] = ()  # its Rules and Prizes words (the lobby opens them too)

    def narrate(self, event: Event, state: Any) -> list[str]:
        """The sentences for one event, given the state after it."""
        return self.narration[str(event["type"])](event, state)

    def timeline(self, event: Event, motion: Motion | None = None) -> Timeline:
        """The event's cues and the progress at which each sounds (a cue may follow a movement
        whose steps depend on the motion allowed: Lab Riches' Bonus Game light)."""
        return self.cues[str(event["type"])](event, motion or Motion())

    def duration(self, event: Event) -> float:
        """Seconds the event's animation lasts at normal speed."""
        return self.durations[str(event["type"])](event)
