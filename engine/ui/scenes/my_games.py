"""My Games: the player's plays, newest first, a page at a time, from the lobby."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.input import Control, Reply
from engine.ui.scenes.site import GAP, HEADER, Lobby, backdrop, header
from engine.ui.scenes.verify import VerifyScene
from engine.ui.screen import Page
from engine.ui.scroll import Scroll
from engine.ui.widgets import GOLD, MIN_TARGET, button, close_button, draw_controls

STATUS = {"purchased": "In progress", "finished": "Finished"}


def play_status(play: dict[str, Any]) -> str:
    """How My Games describes a play's state."""
    if play.get("status") == "finished" and play.get("finished_by") == "auto":
        return "Settled automatically"
    return STATUS.get(str(play.get("status")), str(play.get("status")))


ROW = 110.0  # a play's row in My Games: two lines, then its buttons


class MyGamesScene(Page):
    """The player's plays, newest first, a page at a time, with RESUME for an unfinished one and
    REPLAY and VERIFY for a finished (or automatically settled) one."""

    name = "my-games"
    scroll: Scroll
    flow: Lobby

    def __init__(self, lobby: Lobby) -> None:
        super().__init__(lobby)
        self.plays: list[dict[str, Any]] = []
        self.cursors: list[str | None] = [None]  # the cursor of each page seen (first: None)
        self.next_cursor: str | None = None
        self.loading = False
        self.verify = VerifyScene(lobby)
        lobby.register("verify", self.verify)
        self.scroll = Scroll()  # the rows, between the header and the page turns

    def _place(self) -> None:
        _, h = self.size()
        turns = len(self.cursors) > 1 or self.next_cursor is not None
        foot = h - (MIN_TARGET + 24 if turns else 0.0)
        self.scroll.place(HEADER, foot, 10 + len(self.plays) * ROW)

    def enter(self, app: App) -> None:
        """Fetch the newest page."""
        super().enter(app)
        self.cursors = [None]
        self.fetch()

    def rows(self) -> int:
        """How many plays a page shows on this screen."""
        _, h = self.size()
        return max(3, min(20, int((h - HEADER - 80) // ROW)))

    def fetch(self) -> None:
        """Ask the shell for the page at the last cursor."""
        if self.app is None:
            return
        self.loading = True
        self.flow.busy = "Loading your plays…"
        data = {"cursor": self.cursors[-1], "limit": self.rows()}
        self.app.request("plays", data, self._on_plays)

    def _on_plays(self, reply: Reply) -> None:
        self.loading = False
        self.flow.busy = ""
        self.scroll.offset = 0.0
        if not reply.ok:
            self.flow.error = str(reply.body.get("message") or "Your plays could not be loaded.")
            self.flow.say(self.flow.error)
            return
        self.flow.error = ""
        plays = reply.body.get("plays")
        self.plays = [p for p in plays if isinstance(p, dict)] if isinstance(plays, list) else []
        cursor = reply.body.get("next_cursor")
        self.next_cursor = cursor if isinstance(cursor, str) and cursor else None
        page = len(self.cursors)
        if not self.plays:
            self.flow.say("You have no plays yet." if page == 1 else "No more plays.")
        else:
            self.flow.say(f"My Games, page {page}: {len(self.plays)} plays, newest first.")
            for play in self.plays:
                self.flow.say(self.describe(play))

    def describe(self, play: dict[str, Any]) -> str:
        """A play's row in words."""
        prize = int(play.get("prize_pence") or 0)
        won = (
            ""
            if play.get("status") == "purchased"
            else (f"won {format_pounds(prize)}, " if prize else "no prize, ")
        )
        price = play.get("price_pence")
        paid = f", {format_pounds(price)}" if isinstance(price, int) else ""
        return (
            f"Play {play.get('play_number')}, {self.flow.game_name(play.get('game'))}, "
            f"{self.flow.when(play.get('purchased_at'))}{paid}, {won}"
            f"{play_status(play).lower()}."
        )

    def _row_y(self, k: int) -> float:
        """A row's top in the scrolling content."""
        return 10 + k * ROW

    def controls(self) -> list[Control]:
        """Close (back to the lobby), each play's buttons (where they show), the page turns."""
        w, h = self.size()
        self._place()
        out = [Control("close", "Back to the games", w - 62, 10, 52, 52)]
        out += [self.scroll.shown(c) for c in self.content_controls()]
        tw = min(200.0, (w - 3 * GAP) / 2)
        if len(self.cursors) > 1:
            out.append(Control("newer", "Previous page", GAP, h - MIN_TARGET - 12, tw, MIN_TARGET))
        if self.next_cursor:
            out.append(
                Control("older", "Next page", w - tw - GAP, h - MIN_TARGET - 12, tw, MIN_TARGET)
            )
        return out

    def content_controls(self) -> list[Control]:
        """RESUME for each unfinished play, REPLAY and VERIFY for each finished one, in the
        content's coordinates."""
        w, _ = self.size()
        out: list[Control] = []
        bw = min(150.0, (w - 4 * GAP) / 2)
        for k, play in enumerate(self.plays):
            number, game = play.get("play_number"), play.get("game")
            y, right = self._row_y(k) + 56, w - GAP - 8 - bw
            if play.get("status") == "purchased":
                label = f"RESUME play {number}"
                out.append(Control(f"resume:{game}:{number}", label, right, y, bw, MIN_TARGET))
            elif isinstance(number, int):
                out += [
                    Control(
                        f"replay:{game}:{number}",
                        f"REPLAY play {number}",
                        right - bw - GAP,
                        y,
                        bw,
                        MIN_TARGET,
                    ),
                    Control(
                        f"verify:{game}:{number}", f"VERIFY play {number}", right, y, bw, MIN_TARGET
                    ),
                ]
        return out

    def activate(self, control: str) -> None:
        """Turn a page, resume a play, or go back."""
        kind, _, game_id = control.partition(":")
        if self.loading and kind in ("older", "newer"):
            return
        if kind == "close":
            self.flow.error = ""
            self.flow.go("lobby")
        elif kind == "older" and self.next_cursor:
            self.cursors.append(self.next_cursor)
            self.fetch()
        elif kind == "newer" and len(self.cursors) > 1:
            self.cursors.pop()
            self.fetch()
        elif kind == "resume":  # the game offers its unfinished play
            self.flow.open_page(game=game_id.partition(":")[0])
        elif kind == "replay":
            game, _, number = game_id.partition(":")
            self.flow.open_page(game=game, replay=number)
        elif kind == "verify":
            self.verify.check(int(game_id.partition(":")[2]))

    def draw(self, canvas: Canvas) -> None:
        """A row per play: number, game, date, price, prize and state."""
        w, h = canvas.width, canvas.height
        backdrop(canvas, w, h)
        header(canvas, w, "MY GAMES", self.flow)
        big = Font(min(18.0, max(13.0, w * 0.035)), "body", True)
        small = Font(big.size * 0.85, "body", False)
        if not self.plays and not self.loading:
            canvas.text("No plays yet.", w / 2, HEADER + 40, big, fill="#cfe8ff")
        self._place()
        self.scroll.begin(canvas, 0, w)
        for k, play in enumerate(self.plays):
            y = self._row_y(k)
            canvas.rect(GAP, y, w - 2 * GAP, ROW - 6, fill="#ffffff14", radius=10)
            left = GAP + 12
            room = w - 2 * GAP - 24
            top = f"No. {play.get('play_number')} · {self.flow.game_name(play.get('game'))}"
            prize = int(play.get("prize_pence") or 0)
            price = play.get("price_pence")
            paid = f"{format_pounds(price)} · " if isinstance(price, int) else ""
            result = (
                ""
                if play.get("status") == "purchased"
                else f"Won {format_pounds(prize)} · "
                if prize
                else "No prize · "
            )
            low = f"{self.flow.when(play.get('purchased_at'))} · {paid}{result}{play_status(play)}"
            canvas.text(
                top, left, y + 20, fit_text(canvas, top, big, room), fill=GOLD, align="left"
            )
            canvas.text(
                low, left, y + 46, fit_text(canvas, low, small, room), fill="#ffffff", align="left"
            )
        for c in self.content_controls():
            button(canvas, replace(c, label=c.label.split(" ")[0]))
        self.scroll.end(canvas, w)
        for c in self.controls():
            if c.id == "close":
                close_button(canvas, c)
            elif c.id in ("newer", "older"):
                draw_controls(canvas, [c])
