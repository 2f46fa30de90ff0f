"""A visit: what every page of the site shares, a game's or the lobby's.

The session with the endpoint (through the shell: Python does no I/O), the balance, what is
happening or went wrong, the player's settings and sound, the narration, and the screens one
reaches by name. A game's play flow (engine/ui/flow.py) is a visit with a game; the lobby
(engine/ui/scenes/lobby.py) is a visit of every game.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from engine.money import format_pounds
from engine.ui.app import App, Scene
from engine.ui.input import Reply
from engine.ui.settings import LABELS, VOLUME_LABELS, Setting, Settings, Volume
from engine.ui.sound import SHARED, Cues


class Visit:
    """The state of one player's visit to one page, shared by its screens."""

    def __init__(self, settings: Settings | None = None, sounds: Cues = SHARED) -> None:
        self.settings = settings or Settings()
        self.sounds = sounds
        self.bed = ""  # the music bed of this page (a game's id), "" for none
        self.app: App | None = None
        self.balance: int | None = None
        self.busy = ""
        self.error = ""
        self._scenes: dict[str, Any] = {}
        self._later: dict[str, Callable[[], Scene]] = {}
        # The browser session's play time (the shell's session clock), for the reality check.
        self.session_at: tuple[float, float] | None = None  # (seconds played, app clock then)
        self.session_balance: int | None = None  # the balance when the session began
        self.next_check = 0.0  # the play time of the next reality check
        # The endpoint's play time of the account (every device's, docs/endpoint.md): the time
        # played here when its run of play began and when its next reality check is due.
        self.run_at: float | None = None
        self.check_at: float | None = None

    # ---- wiring ------------------------------------------------------------------------
    def attach(self, app: App, connect: bool = True) -> None:
        """Remember the app (once) and open the session with the shell (not for a screen
        another page's visit lends: the lobby's Rules and Prizes of a game)."""
        if self.app is not None:
            return
        self.app = app
        self.mix()
        if connect:
            self.connect()

    def connect(self) -> None:
        """Open the session (or find it again): the balance comes back."""
        assert self.app is not None
        self.busy = "Connecting…"
        self.app.request("session", {}, self._on_session)

    def register(self, name: str, scene: Scene) -> None:
        """Make a scene reachable by name through `go`."""
        self._scenes[name] = scene

    def register_later(self, name: str, make: Callable[[], Scene]) -> None:
        """Make a scene reachable by name through `go`, made (and its module imported) by
        `make` when it is first needed."""
        self._later[name] = make

    def scene(self, name: str) -> Scene:
        """A registered scene (made now if it was registered to be made later)."""
        if name not in self._scenes:
            self._scenes[name] = self._later.pop(name)()
        found: Scene = self._scenes[name]
        return found

    def go(self, name: str) -> None:
        """Switch to a registered scene."""
        if self.app is not None:
            self.app.switch(self.scene(name))

    def open_page(self, **params: str) -> None:
        """Leave this page for another of the site: the lobby (no parameters) or a game
        (`game=ID`, and `mode=try` or `replay=N`). The shell loads it; the native window
        switches to its first scene."""
        if self.app is not None:
            self.app.request("open", {"params": params}, lambda _reply: None)

    def say(self, text: str) -> None:
        """Narrate a sentence."""
        if self.app is not None:
            self.app.narrate(text)

    @property
    def speed(self) -> float:
        """Animation speed factor (the settings')."""
        return self.settings.speed

    def cue(self, name: str) -> None:
        """Play a sound cue (shared or this page's), when the player has turned sound on."""
        if name not in self.sounds:
            raise ValueError(f"unknown sound cue {name!r}")
        if self.settings.sound and self.app is not None:
            self.app.cue(name)

    def toggle(self, setting: Setting) -> None:
        """Turn a setting ('fast' or 'sound') on or off, say so, and have the shell keep it."""
        self.choose(setting, not getattr(self.settings, setting))

    def choose(self, setting: Setting, on: bool) -> None:
        """Set a setting on or off (the splash's Sound on / Sound off), say so, have the shell
        keep it."""
        on = self.settings.choose(setting, on)
        self.say(f"{LABELS[setting]} {'on' if on else 'off'}")
        if self.app is not None:
            self.app.request("pref", {setting: on}, lambda _reply: None)
        self.mix()

    def turn_down(self, volume: Volume) -> None:
        """Turn the music or the effects one step down (from silence back to full), say it,
        have the shell keep it."""
        new = self.settings.turn_down(volume)
        self.say(f"{VOLUME_LABELS[volume]} volume {new}%")
        if self.app is not None:
            self.app.request("pref", {volume: new}, lambda _reply: None)
        self.mix()

    def mix(self) -> None:
        """Tell the app which bed loops (this page's, while sound is on) and the volumes."""
        if self.app is not None:
            bed = self.bed if self.settings.sound else ""
            self.app.mix(bed, self.settings.volumes())

    # ---- replies -----------------------------------------------------------------------
    def fail(self, reply: Reply, doing: str) -> None:
        """A request did not go through: say why (the shell's sentence, or what was being done)."""
        message = str(reply.body.get("message") or f"The {doing} did not go through.")
        self.busy = ""
        self.error = message
        self.say(message)

    def _on_session(self, reply: Reply) -> None:
        if not reply.ok:
            self.fail(reply, "connection")
            return
        self.busy = ""
        self.set_balance(reply.body.get("balance_pence"))
        self.session_clock(reply.body.get("session"))
        self.play_time(reply.body.get("play_time"))
        self.connected()

    def session_clock(self, session: object) -> None:
        """Follow the shell's browser-session clock ({elapsed_ms, start_balance_pence}): the
        time played and the balance the net spend counts from (moved by the shell when this
        browser signs in to another account, so the net spend carries on across it)."""
        if not isinstance(session, dict) or self.app is None:
            return
        elapsed, start = session.get("elapsed_ms"), session.get("start_balance_pence")
        if not isinstance(elapsed, int) or elapsed < 0:
            return
        played = elapsed / 1000.0
        self.session_at = (played, self.app.clock_s)
        self.session_balance = start if isinstance(start, int) else self.balance
        every = self.settings.reality_check_s
        self.next_check = (played // every + 1) * every

    def play_time(self, state: object) -> None:
        """Follow the endpoint's play time of the account ({run_started_at, reality_check_at,
        now, ...}, from the wallet or a purchase): its run of play and next reality check,
        counted on this page's clock from the endpoint's `now`, so a check seen on another
        device or page is not shown again here, and one due there is due here too."""
        played = self.played_s()
        if not isinstance(state, dict) or played is None:
            return
        now = _ms(state.get("now"))
        began, due = _ms(state.get("run_started_at")), _ms(state.get("reality_check_at"))
        if now is None:
            return
        self.run_at = None if began is None else played - max(0, now - began) / 1000.0
        self.check_at = None if due is None else played + max(0, due - now) / 1000.0

    def run_s(self) -> float | None:
        """Seconds of the account's run of play (the endpoint's), else of this browser
        session's play."""
        played = self.played_s()
        if played is None or self.run_at is None:
            return played
        return played - self.run_at

    def played_s(self) -> float | None:
        """Seconds played in this browser session (None before the session is known)."""
        if self.session_at is None or self.app is None:
            return None
        played, then = self.session_at
        return played + max(0.0, self.app.clock_s - then)

    def reality_due(self) -> bool:
        """True when the next reality check is due (the caller shows it, then `reality_shown`)."""
        played = self.played_s()
        if played is None:
            return False
        return played >= self.next_check or (self.check_at is not None and played >= self.check_at)

    def reality_shown(self) -> None:
        """The check was shown: the next one an interval of play later (this page's), and the
        endpoint's, if it was due, is acknowledged for the account (its answer says the next)."""
        played = self.played_s() or 0.0
        every = self.settings.reality_check_s
        self.next_check = (played // every + 1) * every
        if self.check_at is not None and played >= self.check_at and self.app is not None:
            self.check_at = None
            self.app.request("reality_seen", {}, self._on_reality_seen)

    def _on_reality_seen(self, reply: Reply) -> None:
        if reply.ok:
            self.play_time(reply.body)

    def net_spend(self) -> int | None:
        """Pence spent, net of prizes, in this browser session (negative: won)."""
        if self.session_balance is None or self.balance is None:
            return None
        return self.session_balance - self.balance

    def connected(self) -> None:
        """The session is open and the balance known (a game then looks for an unfinished
        play)."""

    def when(self, moment: object) -> str:
        """A time from the endpoint (ms since the epoch, or an ISO 8601 text) in the player's
        time zone, as every screen writes a time ('7 Dec 2026, 00:00'); '' for anything else."""
        if isinstance(moment, int) and not isinstance(moment, bool):
            at = datetime.fromtimestamp(moment / 1000, UTC)
        elif isinstance(moment, str):
            try:
                at = datetime.fromisoformat(moment.replace("Z", "+00:00"))
            except ValueError:
                return ""
            if at.tzinfo is None:
                at = at.replace(tzinfo=UTC)
        else:
            return ""
        at = at.astimezone(timezone(timedelta(minutes=self.settings.utc_offset_minutes)))
        return f"{at.day} {at:%b %Y, %H:%M}"

    def set_balance(self, pence: object) -> None:
        """A balance from the endpoint: kept and said."""
        if isinstance(pence, int):
            self.balance = pence
            self.say(f"Balance {format_pounds(pence)}")


def _ms(text: object) -> int | None:
    """An ISO 8601 time of the endpoint's (2026-05-12T09:00:00.000Z) in epoch milliseconds."""
    if not isinstance(text, str):
        return None
    try:
        return round(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return None
