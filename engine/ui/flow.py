"""The play flow every game shares: session, purchase, token check, book, resume and finish.

Python never does I/O: each step is a request the frame hands to the shell (web/shell/app.js
or the native backend), answered later by a Reply. The outcome comes only from the signed
token the shell has verified (read by the engine's payload codec); the book is built from it
by the game's own builder. A player's choices (an arrow) are kept with the play's progress so a
reload or a replay draws the same paths; they never change what the book reveals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.book import Book, Event
from engine.game import Game, Replay
from engine.money import format_pounds
from engine.payload import Payload, PayloadError
from engine.ui.app import Scene
from engine.ui.input import Reply
from engine.ui.motion import Motion
from engine.ui.presentation import Presentation
from engine.ui.settings import Settings
from engine.ui.sound import SHARED, merge
from engine.ui.visit import Visit


@dataclass(frozen=True)
class Play:
    """A bought play: its number, token, verified payload and the book built from it."""

    play_number: int
    token: str
    book: Book
    replay: Replay
    resume_index: int
    choices: dict[int, int] = field(default_factory=dict)  # event index -> the player's choice


class TokenRejected(ValueError):
    """A token whose payload is not an outcome of this game that the engine can show."""


def book_from_payload(payload: object, game: Game) -> Book:
    """The book of a verified token payload; raises TokenRejected when it does not add up."""
    try:
        outcome = Payload.from_json(payload)
        if outcome.game != game.id:
            raise TokenRejected("this token is for another game")
        book = game.book(outcome.model, outcome.composition, outcome.seed_bytes)
    except (PayloadError, KeyError, TypeError, ValueError) as exc:
        raise TokenRejected(str(exc)) from exc
    if book.prize_pence != outcome.prize_pence:
        raise TokenRejected("the token's prize does not match its outcome")
    return book


def read_choices(raw: object, at: list[int]) -> dict[int, int]:
    """Recorded choices from the shell (a list: the choice of each event that waits for one, in
    order) by the index of their event (`at`, from choice_events). A list read stops at its
    first malformed item (the ones after it cannot be placed); anything else gives none."""
    if not isinstance(raw, list):
        return {}
    out: dict[int, int] = {}
    for index, value in zip(at, raw, strict=False):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            break
        out[index] = value
    return out


Mode = Literal["play", "try", "replay"]
MODE_LABELS: dict[str, str] = {
    "try": "TRY – no money is staked or won",
    "replay": "REPLAY – nothing is charged or paid",
}


def choice_events(game: Game, replay: Replay) -> list[int]:
    """The indices of the events that wait for a choice (an arrow), in order: the k-th choice
    of a recorded list (the shell's and the endpoint's, docs/books.md) is the k-th's."""
    out = []
    for index, event in enumerate(replay.events):
        action = game.action_for(event)
        if action is not None and action.choices:
            out.append(index)
    return out


@dataclass(frozen=True)
class Interrupts:
    """The screens that interrupt a game's play, given to its flow by the rooms around the play
    (engine/ui/scenes/rooms.py): the shared base imports no particular screen."""

    reality: Callable[[Flow, Scene], Scene]  # the reality check over the screen it interrupts
    # a refused purchase's own screen over the current one (None: a refusal it does not show)
    refusal: Callable[[Flow, Scene, dict[str, Any]], Scene | None]


class Flow(Visit):
    """The state of one player's visit to a game shared by its screens.

    `mode` is what the page is for: "play" (a bought play), "try" (free plays from the try
    pool: nothing is charged, paid or kept, and every screen says so) or "replay" (a finished
    play recalled from the endpoint, advancing by itself: nothing is charged or paid).
    """

    def __init__(
        self,
        presentation: Presentation,
        settings: Settings | None = None,
        mode: Mode = "play",
        recall: int | None = None,
    ) -> None:
        super().__init__(settings, merge(SHARED, presentation.cover.sounds))
        self.presentation = presentation
        self.game = presentation.cover.game
        self.bed = self.game.id if presentation.cover.music is not None else ""
        self.mode: Mode = mode
        self.recall = recall  # the play number a replay recalls
        self.resumable: dict[str, Any] | None = None
        self.play: Play | None = None
        self.finished: dict[str, Any] | None = None
        self.interrupts: Interrupts | None = None  # set by the rooms (open_rooms)

    @property
    def mode_label(self) -> str:
        """What every screen says plainly in TRY and REPLAY ('' for a bought play)."""
        return MODE_LABELS.get(self.mode, "")

    def header_figures(self, short: bool = False) -> str:
        """What a game's header shows under the balance during paid play: the session's net
        position (won minus spent) and its minutes of play, the reality check's own figures
        (`net_spend`, `run_s`); '' in TRY and REPLAY, or before they are known. `short`: the
        same figures in fewer letters, for a header too narrow for the long form."""
        spend, played = self.net_spend(), self.run_s()
        if self.mode != "play" or spend is None or played is None:
            return ""
        net = f"{'+' if spend <= 0 else '-'}{format_pounds(abs(spend))}"
        minutes = int(played // 60)
        return f"{net} · {minutes}m" if short else f"Net {net} · {minutes} min"

    def say_figures(self) -> None:
        """Say what the header shows under the balance (a screen reader hears it with each
        paid play)."""
        spend, played = self.net_spend(), self.run_s()
        if self.header_figures() and spend is not None and played is not None:
            way = "up" if spend <= 0 else "down"
            minutes = int(played // 60)
            self.say(
                f"This session: {way} {format_pounds(abs(spend))}, "
                f"{minutes} minute{'s' if minutes != 1 else ''} played."
            )

    def motion(self, event: Event | None) -> Motion:
        """How the event animating now may flash and move: the player's reduced-motion
        preference and its animation's length in real seconds (engine/ui/motion.py)."""
        seconds = 1.0 if event is None else self.presentation.duration(event) / self.speed
        return Motion(self.settings.reduced_motion, seconds)

    def connected(self) -> None:
        """With the session open, look for an unfinished play of this game (a replay recalls
        its play instead; a try has none)."""
        assert self.app is not None
        if self.mode == "replay":
            self.busy = "Recalling the play…"
            self.app.request("recall", {"play_number": self.recall}, self._on_recall)
        elif self.mode == "play":
            self.busy = "Checking for an unfinished play…"
            self.app.request("resume", {"game": self.game.id}, self._on_resume)

    def _on_recall(self, reply: Reply) -> None:
        if not reply.ok:
            self.fail(reply, "replay")
            return
        self.say(f"Replay of play number {reply.body.get('play_number')}.")
        self._begin(reply.body, 0)

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
            self.connect()
        else:
            self.purchase()

    def purchase(self) -> None:
        """PLAY: buy a play through the shell, which verifies the token before replying (TRY:
        a free play from the try pool; a replay buys nothing)."""
        if self.app is None or self.busy or self.mode == "replay":
            return
        self.error = ""
        if self.mode == "try":
            self.busy = "Drawing a free play…"
            self.say(f"A free try of {self.game.name}: no money is staked or won.")
            self.app.request("try", {"game": self.game.id}, self._on_purchase)
            return
        self.busy = "Buying your play…"
        self.say(f"Buying a play of {self.game.name} for {format_pounds(self.game.price_pence)}")
        self.app.request("purchase", {"game": self.game.id}, self._on_purchase)

    def _on_purchase(self, reply: Reply) -> None:
        if not reply.ok:
            self.fail(reply, "purchase")
            self.refused(reply.body)
            return
        self.set_balance(reply.body.get("balance_pence"))
        self.play_time(reply.body.get("play_time"))  # (a try has none: nothing changes)
        self.say_figures()
        self._begin(reply.body, 0)

    def refused(self, body: dict[str, Any]) -> None:
        """A spend limit or the cooling-off refused the purchase: its own screen says so, large
        (the error stays under TRY AGAIN for when the player comes back)."""
        if self.interrupts is None or self.app is None:
            return
        shown = self.interrupts.refusal(self, self.app.scene, body)
        if shown is not None:
            self.app.switch(shown)

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
            book = book_from_payload(payload, self.game)
        except TokenRejected:
            self.error = "This play could not be verified, so it cannot be shown."
            self.say(self.error)
            return
        assert self.game.replay is not None  # a game on sale has one
        replay = self.game.replay(book)
        index = max(0, min(index, len(replay) - 1))
        number = int(body.get("play_number") or payload.get("play_number") or 0)
        choices = read_choices(body.get("choices"), choice_events(self.game, replay))
        self.play = Play(number, str(body.get("token", "")), book, replay, index, choices)
        self.finished = None
        self.go("main")

    def choice_list(self) -> list[int]:
        """The play's choices in order, as every wire carries them (docs/books.md)."""
        return [] if self.play is None else [c for _, c in sorted(self.play.choices.items())]

    def save(self, index: int) -> None:
        """Ask the shell to remember how far the play has got, and its choices (for a reload,
        here and at the endpoint, so the play also resumes on another device). A try or a
        replay keeps nothing."""
        if self.app is not None and self.play is not None and self.mode == "play":
            data = {"game": self.game.id, "play_number": self.play.play_number, "index": index,
                    "choices": self.choice_list()}  # fmt: skip
            self.app.request("save", data, lambda _reply: None)

    def finish(self) -> None:
        """FINISH: record the play (and its choices) with the endpoint, then show the outcome
        screen. A try has nothing to record: its outcome shows at once, the balance as it was."""
        if self.app is None or self.play is None or self.busy:
            return
        self.error = ""
        if self.mode == "try":
            self.finished = {"prize_pence": self.play.book.prize_pence}
            self.go("outcome")
            return
        if self.mode == "replay":
            self.open_page()
            return
        self.busy = "Recording your play…"
        data = {"game": self.game.id, "play_number": self.play.play_number,
                "choices": self.choice_list()}  # fmt: skip
        self.app.request("finish", data, self._on_finish)

    def _on_finish(self, reply: Reply) -> None:
        if not reply.ok:
            self.fail(reply, "finish")
            return
        self.busy = ""
        self.finished = reply.body
        self.set_balance(reply.body.get("balance_pence"))
        self.go("outcome")
