"""The book player every game's main screen uses: a book's events in order, in time.

It never computes an outcome. An event that waits for the player (the game's `waits`: GO, an
arrow) starts only when the player acts; the events after it play by themselves, each for its
duration, with its narration and sound cues, until the next one that waits. The index reached
at each rest is saved (with the player's choices), so a reload resumes at the same event.
"""

from __future__ import annotations

from typing import Any

from engine.book import Event
from engine.game import Action, Replay
from engine.ui.celebration import FREE
from engine.ui.flow import Flow
from engine.ui.presentation import Said, free_play


class BookPlayer:
    """Plays the flow's current book from its resume index to the end."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self.presentation = flow.presentation
        self.replay: Replay | None = None
        self.shown = 0  # the last event whose animation has finished
        self.current: int | None = None  # the event animating now
        self.t = 0.0  # seconds into the current event (at normal speed)
        self.heard = 0.0  # the current event's cues and sentences up to this progress are out
        self._lines: Said = []  # the current event's sentences, each at its moment
        self._prepared: dict[int, Event] = {}  # event index -> the event as the screens play it
        self.hands_free = False  # the screen presses for the player (REVEAL ALL): no "Press GO"

    def load(self) -> bool:
        """Take the flow's play (new or resumed); False when it is the one already loaded."""
        play = self.flow.play
        if play is None or (self.replay is not None and play.replay is self.replay):
            return False
        self.replay = play.replay
        self.shown, self.current, self.t = play.resume_index, None, 0.0
        self._prepared = {}
        return True

    def prepared(self, index: int) -> Event:
        """Event index as the screens play it (the presentation's `prepare`, with the choice
        recorded for it; in a TRY marked `FREE`, engine/ui/celebration.py), computed once."""
        assert self.replay is not None
        found = self._prepared.get(index)
        if found is None:
            play = self.flow.play
            event = self.replay.events[index]
            if play is None:
                return event
            found = self.presentation.prepare(play.book, event, play.choices.get(index))
            if self.flow.mode == "try":  # a TRY's events say so: they celebrate no money
                found = {**found, FREE: True}
            self._prepared[index] = found
        return found

    def announce(self) -> None:
        """Narrate the event the play starts (or resumes) at; a new play saves its start."""
        if self.replay is None:
            return
        event, state = self.prepared(self.shown), self.replay.state_at(self.shown)
        for _at, line in self._said(event, state):  # at rest: all of it shows
            self.flow.say(line)
        if self.shown == 0:
            self.flow.save(0)

    def upcoming(self) -> Event | None:
        """The next event not yet shown, or None at the end of the book."""
        if self.replay is None or self.shown + 1 >= len(self.replay):
            return None
        return self.replay.events[self.shown + 1]

    def waiting(self) -> Action | None:
        """The action the next event waits for, when the player is the one to move now."""
        nxt = self.upcoming()
        if self.current is not None or nxt is None:
            return None
        return self.flow.game.action_for(nxt)

    def state(self) -> Any:
        """The state drawn now: after the current event, or after the last one shown."""
        if self.replay is None:
            return None
        return self.replay.state_at(self.current if self.current is not None else self.shown)

    def before(self) -> Any:
        """The state before the event animating now (the state at rest when none is)."""
        if self.replay is None:
            return None
        if self.current is None or self.current == 0:
            return self.state()
        return self.replay.state_at(self.current - 1)

    def event(self) -> Event | None:
        """The event animating now."""
        if self.replay is None or self.current is None:
            return None
        return self.prepared(self.current)

    def progress(self) -> float:
        """How far the current event's animation has got, 0..1 (1 when at rest)."""
        event = self.event()
        if event is None:
            return 1.0
        length = self.presentation.duration(event)
        return min(1.0, self.t / length) if length > 0 else 1.0

    def finished(self) -> bool:
        """True at rest after the last event."""
        return self.replay is not None and self.current is None and self.upcoming() is None

    def press(self, action: str, choice: int | None = None, *, replaying: bool = False) -> bool:
        """The player acts: start the waiting event if it waits for this action (a choice is
        recorded for the event when it waits for one). Returns True when the event started.
        A replay takes no press but its own (`replaying`), with the choices recorded."""
        wanted = self.waiting()
        if wanted is None or wanted.name != action:
            return False
        if self.flow.mode == "replay" and not replaying:
            return False
        if wanted.choices:
            if choice is None or not 0 <= choice < wanted.choices:
                return False
            play = self.flow.play
            if play is not None:
                play.choices[self.shown + 1] = choice
        self._start(self.shown + 1)
        return True

    def choice(self, index: int) -> int | None:
        """The choice recorded for event index (an arrow), if any."""
        play = self.flow.play
        return None if play is None else play.choices.get(index)

    def _start(self, index: int) -> None:
        assert self.replay is not None
        self.current, self.t, self.heard = index, 0.0, -1.0
        event = self.prepared(index)
        self._lines = self._said(event, self.replay.state_at(index))
        self._reach(event, 0.0)

    def _said(self, event: Event, state: object) -> Said:
        """The event's sentences; a TRY's end says it wins nothing instead of a total."""
        said = self.presentation.narrate(event, state)
        return free_play(event, said) if self.flow.mode == "try" else said

    def _reach(self, event: Event, progress: float) -> None:
        """Say and sound what the current event's picture shows from the last frame's progress
        up to this one: each sentence and cue as its moment passes, none before (the same
        progress the screen draws, so at any speed the narration keeps step with it)."""
        for at, line in self._lines:
            if self.heard < at <= progress:
                self.flow.say(line)
        for at, cue in self.presentation.timeline(event, self.flow.motion(event)):
            if self.heard < at <= progress:
                self.flow.cue(cue)
        self.heard = progress

    def update(self, dt: float) -> bool:
        """Advance the current event; chain the events that do not wait; save at each rest."""
        if self.current is None or self.replay is None:
            return False
        self.t += dt * self.flow.speed
        while self.current is not None:
            event = self.prepared(self.current)
            length = self.presentation.duration(event)
            self._reach(event, min(1.0, self.t / length) if length > 0 else 1.0)
            if self.t < length:
                break
            self.t -= length
            self.shown, self.current = self.current, None
            nxt = self.upcoming()
            if nxt is not None and self.flow.game.action_for(nxt) is None:
                self._start(self.shown + 1)
                self.t = 0.0
            else:
                self.flow.save(self.shown)
                prompt = self.presentation.prompt(nxt)
                if prompt and (nxt is None or not self.hands_free):
                    self.flow.say(prompt)
        return True
