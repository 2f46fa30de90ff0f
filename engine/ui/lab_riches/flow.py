"""The Lab Riches play flow: session, purchase, token check, book, resume and finish.

Python never does I/O: each step is a request the frame hands to the shell (web/shell/app.js
or the native backend), answered later by a Reply. The outcome comes only from the signed
token the shell has verified; the book is built from it by the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from engine.book import Book
from engine.lab_riches import rules as R
from engine.lab_riches.generator import build_book
from engine.lab_riches.replay import Replay
from engine.money import format_pounds
from engine.outcome import Composition
from engine.ui.app import App, Scene
from engine.ui.input import Reply

Setting = Literal["fast", "sound"]
SETTINGS: dict[Setting, str] = {"fast": "Faster animations", "sound": "Sound"}


@dataclass(frozen=True)
class Play:
    """A bought play: its number, token, verified payload and the book built from it."""

    play_number: int
    token: str
    book: Book
    replay: Replay
    resume_index: int


class TokenRejected(ValueError):
    """A token whose payload is not a Lab Riches outcome this engine can show."""


def book_from_payload(payload: dict[str, Any]) -> Book:
    """The book of a verified token payload; raises TokenRejected when it does not add up."""
    try:
        if payload.get("game") != R.GAME_ID:
            raise TokenRejected("this token is for another game")
        composition = Composition.from_json(payload["composition"])
        book = build_book(str(payload["model"]), composition, bytes.fromhex(str(payload["seed"])))
    except (KeyError, TypeError, ValueError) as exc:
        raise TokenRejected(str(exc)) from exc
    if book.prize_pence != payload.get("prize_pence"):
        raise TokenRejected("the token's prize does not match its outcome")
    return book


class Flow:
    """The state of one player's visit shared by the screens."""

    def __init__(
        self,
        *,
        fast: bool = False,
        reduced_motion: bool = False,
        sound: bool = False,
        audio: bool = True,
    ) -> None:
        self.app: App | None = None
        self.balance: int | None = None
        self.fast = fast
        self.reduced_motion = reduced_motion
        self.audio = audio  # False when the backend cannot play sound: no Sound setting then
        self.sound = sound and audio
        self.busy = ""
        self.error = ""
        self.resumable: dict[str, Any] | None = None
        self.play: Play | None = None
        self.finished: dict[str, Any] | None = None
        self._scenes: dict[str, Any] = {}

    # ---- wiring ------------------------------------------------------------------------
    def attach(self, app: App) -> None:
        """Remember the app (once) and open the session with the shell."""
        if self.app is not None:
            return
        self.app = app
        self.busy = "Connecting…"
        app.request("session", {}, self._on_session)

    def register(self, name: str, scene: Scene) -> None:
        """Make a scene reachable by name through `go`."""
        self._scenes[name] = scene

    def go(self, name: str) -> None:
        """Switch to a registered scene."""
        if self.app is not None:
            self.app.switch(self._scenes[name])

    def say(self, text: str) -> None:
        """Narrate a sentence."""
        if self.app is not None:
            self.app.narrate(text)

    @property
    def speed(self) -> float:
        """Animation speed factor: faster with the setting, fastest with reduced motion."""
        return (4.0 if self.reduced_motion else 1.0) * (3.0 if self.fast else 1.0)

    def cue(self, name: str) -> None:
        """Play a sound cue, when the player has turned sound on."""
        if self.sound and self.app is not None:
            self.app.cue(name)

    def toggle(self, setting: Setting) -> None:
        """Turn a setting ('fast' or 'sound') on or off, say so, and have the shell keep it."""
        on = not getattr(self, setting)
        setattr(self, setting, on)
        self.say(f"{SETTINGS[setting]} {'on' if on else 'off'}")
        if self.app is not None:
            self.app.request("pref", {setting: on}, lambda _reply: None)

    # ---- replies -----------------------------------------------------------------------
    def _fail(self, reply: Reply, doing: str) -> None:
        message = str(reply.body.get("message") or f"The {doing} did not go through.")
        self.busy = ""
        self.error = message
        self.say(message)

    def _on_session(self, reply: Reply) -> None:
        if not reply.ok:
            self._fail(reply, "connection")
            return
        self._set_balance(reply.body.get("balance_pence"))
        self.busy = "Checking for an unfinished play…"
        assert self.app is not None
        self.app.request("resume", {"game": R.GAME_ID}, self._on_resume)

    def _set_balance(self, pence: object) -> None:
        if isinstance(pence, int):
            self.balance = pence
            self.say(f"Balance {format_pounds(pence)}")

    def _on_resume(self, reply: Reply) -> None:
        self.busy = ""
        if reply.ok and reply.body.get("found"):
            self.resumable = reply.body
            self.say(f"You have an unfinished play, number {reply.body.get('play_number')}.")
            self.say("Press RESUME to carry on where you left off.")

    def retry(self) -> None:
        """Try again after a failure (the purchase keeps its Idempotency-Key: one charge)."""
        self.error = ""
        if self.balance is None:
            self.busy = "Connecting…"
            assert self.app is not None
            self.app.request("session", {}, self._on_session)
        else:
            self.purchase()

    def purchase(self) -> None:
        """PLAY: buy a play through the shell, which verifies the token before replying."""
        if self.app is None or self.busy:
            return
        self.error = ""
        self.busy = "Buying your play…"
        self.say(f"Buying a play of {R.NAME} for {format_pounds(R.PRICE_PENCE)}")
        self.app.request("purchase", {"game": R.GAME_ID}, self._on_purchase)

    def _on_purchase(self, reply: Reply) -> None:
        if not reply.ok:
            self._fail(reply, "purchase")
            return
        self._set_balance(reply.body.get("balance_pence"))
        self._begin(reply.body, 0)

    def resume(self) -> None:
        """RESUME: carry on the unfinished play at the event it reached."""
        if self.resumable is not None:
            body, self.resumable = self.resumable, None
            self._begin(body, int(body.get("index") or 0))

    def _begin(self, body: dict[str, Any], index: int) -> None:
        self.busy = ""
        payload = body.get("payload")
        try:
            if not isinstance(payload, dict):
                raise TokenRejected("no verified payload")
            book = book_from_payload(payload)
        except TokenRejected:
            self.error = "This play could not be verified, so it cannot be shown."
            self.say(self.error)
            return
        replay = Replay(book)
        index = max(0, min(index, len(replay) - 1))
        number = int(body.get("play_number") or payload.get("play_number") or 0)
        self.play = Play(number, str(body.get("token", "")), book, replay, index)
        self.finished = None
        self.go("main")

    def save(self, index: int) -> None:
        """Ask the shell to remember how far the play has got (for a reload)."""
        if self.app is not None and self.play is not None:
            data = {"play_number": self.play.play_number, "index": index}
            self.app.request("save", data, lambda _reply: None)

    def finish(self) -> None:
        """FINISH: record the play with the endpoint, then show the outcome screen."""
        if self.app is None or self.play is None or self.busy:
            return
        self.error = ""
        self.busy = "Recording your play…"
        self.app.request("finish", {"play_number": self.play.play_number}, self._on_finish)

    def _on_finish(self, reply: Reply) -> None:
        if not reply.ok:
            self._fail(reply, "finish")
            return
        self.busy = ""
        self.finished = reply.body
        self._set_balance(reply.body.get("balance_pence"))
        self.go("outcome")
