"""The presentation contract: what a game's UI package (engine/ui/<package>/) provides.

The shared machinery (engine/ui/flow.py, player.py, screen.py, widgets.py) plays any game's
book through these tables, one handler per event type, so a game's UI package holds only its
screens, layout, art, narration and cues. Each exports one `PRESENTATION`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.book import Event
from engine.game import Game
from engine.ui.motion import Motion
from engine.ui.sound import Cues

if TYPE_CHECKING:
    from engine.ui.app import Scene
    from engine.ui.flow import Flow

Timeline = tuple[tuple[float, str], ...]  # (share of the event's animation 0..1, cue name)
Narrator = Callable[[Event, Any], list[str]]  # (event, replay state after it) -> sentences
CueTimer = Callable[[Event, Motion], Timeline]  # (event, how it may move now) -> its cues
Duration = Callable[[Event], float]


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
