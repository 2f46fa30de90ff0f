"""The presentation contract: what a game's UI package (engine/ui/<package>/) provides.

The shared machinery (engine/ui/flow.py, player.py, screen.py, widgets.py) plays any game's
book through these tables, one handler per event type, so a game's UI package holds only its
screens, layout, art, narration and cues. Each exports one `PRESENTATION`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.book import Book, Event
from engine.game import Game
from engine.ui.look import Look
from engine.ui.motion import Motion
from engine.ui.sound import Bed, Cues

if TYPE_CHECKING:
    from engine.ui.app import Scene
    from engine.ui.flow import Flow

Timeline = tuple[tuple[float, str], ...]  # (share of the event's animation 0..1, cue name)
# (share of the event's animation 0..1 at which the screen shows it, the sentence saying it)
Said = list[tuple[float, str]]
Narrator = Callable[[Event, Any], Said]  # (event, replay state after it) -> its sentences, timed
CueTimer = Callable[[Event, Motion], Timeline]  # (event, how it may move now) -> its cues
Duration = Callable[[Event], float]
Preparer = Callable[[Book, Event, "int | None"], Event]  # (book, event, the player's choice)


def cue_at(progress: float, cue: str) -> CueTimer:
    """A timer for an event that sounds one cue at one moment of its animation."""
    return lambda _event, _motion: ((progress, cue),)


FREE_END = "Play over. This was a free TRY: it wins nothing. No money is staked or won."
FREE_RESULT = "A free TRY wins nothing"  # the end message's words where a prize would stand
FREE_BADGE = "FREE TRY: WINS NOTHING"  # a TRY's Main Game header, where the balance stands
REPLAY_BADGE = "REPLAY: NOT A NEW PLAY"  # a REPLAY's Main Game header, where the balance stands
FREE_COUNTER = "NOTHING"  # a TRY board's counters of money won (TOTAL WON, PRIZE POT...)


def free_play(event: Event, said: Said) -> Said:
    """What a TRY says of an event: the same, but at its end, where a play says what it won
    ('Total won £5.00'), that a free play wins nothing, at the moment the end message shows."""
    if event["type"] != "end" or not said:
        return said
    return [(max(at for at, _ in said), FREE_END)]


def said_at(progress: float, *sentences: str) -> Said:
    """Sentences said together at one moment of an event's animation (the moment the picture
    shows what they say: never before, so a player who listens learns nothing before one who
    looks)."""
    return [(progress, sentence) for sentence in sentences]


def silent(event: Event, motion: Motion) -> Timeline:
    """A timer for an event that makes no sound."""
    return ()


def as_is(book: Book, event: Event, choice: int | None) -> Event:
    """An event the screens show as the book has it (no choice changes how it looks)."""
    return event


# A game's UI package (engine/ui/<package>/, the module its Game names) exports each of these
# from its own module, imported when first read (lazy_exports): tools/build/dist.py ships them.
EXPORTS = {"COVER": "cover", "PRESENTATION": "presentation"}


def lazy_exports(package: str) -> Callable[[str], object]:
    """A game's UI package's module `__getattr__` (PEP 562): COVER and PRESENTATION, each
    imported from its module (EXPORTS) when first read, so a page that needs the cover alone
    (the lobby) does not import the screens."""

    def exported(name: str) -> object:
        if name not in EXPORTS:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{EXPORTS[name]}"), name)

    return exported


@dataclass(frozen=True, eq=False)
class Cover:
    """What a page shows of a game before it is opened: the lobby draws its card in its look and
    opens its Rules and Prizes words, and the shell reads its cues' notes as a page starts. A
    game's UI package exports one COVER (its `cover` module, light to import) beside its
    PRESENTATION, so the lobby imports the covers and a game's screens only when it opens
    them (docs/build.md, "Our part of the start")."""

    game: Game
    look: Look
    rules_text: tuple[str, ...]  # its Rules and Prizes words
    sounds: Cues  # the notes of this game's own cues
    music: Bed | None = None  # its music bed, looped on its pages while sound is on


@dataclass(frozen=True)
class Controls:
    """The controls that act on a game's book (Lab Riches' GO, Power Puck Shot's six arrows),
    as its main screen offers them and the shell mirrors them as buttons: what the shared
    screens and the tests read instead of naming a game's controls."""

    ids: tuple[str, ...]  # their ids, or the start their ids share ("shoot-": shoot-0 ...)
    labels: tuple[str, ...]  # their accessible names, as a player (or a test) presses them
    own_cue: tuple[str, ...] = ()  # ids whose press sounds the game's cue, not the shared click

    def acts(self, control: str) -> bool:
        """True for a control that acts on the book (not FINISH, not a setting)."""
        return control.startswith(self.ids)

    def to_finish(self, offered: list[str], presses: int) -> str | None:
        """How a test plays to FINISH: of the labels offered now (the mirror's, in order), the
        one to press after `presses` presses (each offered in turn); None when none is."""
        mine = [label for label in offered if label in self.labels]
        return mine[presses % len(mine)] if mine else None


@dataclass(frozen=True, eq=False)
class Presentation:
    """A game's screens and the per-event tables the book player reads, with its cover (the
    game, its look, its Rules and Prizes words and its cues' notes: their one home)."""

    cover: Cover
    start: Callable[[Flow], Scene]  # register every screen with the flow; return the first
    narration: Mapping[str, Narrator]  # event type -> its timed sentences for the aria-live log
    cues: Mapping[str, CueTimer]  # event type -> when its sound cues play
    durations: Mapping[str, Duration]  # event type -> seconds its animation lasts
    controls: Controls  # the controls that act on its book
    prompt: Callable[[Event | None], str] = field(default=lambda _next: "")
    # what to say at a rest: the next event waits for the player (None: the play is over)
    prepare: Preparer = field(default=as_is)
    # the event as the screens play it: the book's, plus what the player's choice makes of it
    # (Power Puck Shot: the path of the arrow picked). Durations, cues, narration and drawing
    # all read the prepared event; it never changes what the book reveals.

    def narrate(self, event: Event, state: Any) -> Said:
        """The sentences for one event, given the state after it, each with the progress of
        its animation at which it is said (in that order)."""
        said = self.narration[str(event["type"])](event, state)
        return sorted(said, key=lambda line: line[0])  # stable: same moment, same order

    def timeline(self, event: Event, motion: Motion | None = None) -> Timeline:
        """The event's cues and the progress at which each sounds (a cue may follow a movement
        whose steps depend on the motion allowed: Lab Riches' Bonus Game light)."""
        return self.cues[str(event["type"])](event, motion or Motion())

    def duration(self, event: Event) -> float:
        """Seconds the event's animation lasts at normal speed."""
        return self.durations[str(event["type"])](event)


def header_note(mode: str) -> str:
    """What a Main Game's header says where the balance stands: in a TRY FREE_BADGE, in a
    REPLAY REPLAY_BADGE ('' for a bought play: the balance). A badge over the header covered
    the game's name and the balance on a phone."""
    return {"try": FREE_BADGE, "replay": REPLAY_BADGE}.get(mode, "")
