"""The lobby at `/`: every game as a card, and the player's own pages (My Games).

A card shows the game's name, its picture in the game's own look, the price, the top prize and
the overall odds and payout (read from the prize table, never typed in), with PLAY, TRY and
Rules and Prizes. A registered game that is not on sale says "Coming soon" instead of PLAY.
PLAY and TRY open the game's page (`/?game=ID`, `&mode=try`); Rules and Prizes opens the
game's own Rules screen here, in its look, and closes back to the lobby.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, Protocol

from engine.game import Game
from engine.math.figures import show2
from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, LinearGradient, fit_text
from engine.ui.flow import Flow
from engine.ui.input import Control, Reply
from engine.ui.look import Look
from engine.ui.presentation import Presentation
from engine.ui.scenes.rules import RulesScene
from engine.ui.screen import Page, status_line
from engine.ui.settings import Settings
from engine.ui.visit import Visit
from engine.ui.widgets import GOLD, MIN_TARGET, button, close_button, draw_controls

SITE_NAME = "Instant Win Games"
HEADER = 150.0  # the height of the title, the links and the balance above the cards
GAP = 14.0
SIDE_BY_SIDE = 720.0  # a screen at least this wide shows the cards in a row
PAGES = (("my-games", "My Games"), ("limits", "Limits"), ("account", "Account"))


@dataclass(frozen=True)
class Card:
    """A game in the lobby: its facts, and its screens when this page has them."""

    game: Game
    presentation: Presentation | None  # None: not on sale ("Coming soon")

    @property
    def look(self) -> Look | None:
        """The game's look, when its screens are here."""
        return None if self.presentation is None else self.presentation.look

    def lines(self) -> tuple[str, str]:
        """The card's two lines of figures."""
        game, table = self.game, self.game.table
        top = format_pounds(game.top_prize_pence, always_pence=False)
        return (
            f"{format_pounds(game.price_pence)} a play · WIN UP TO {top}",
            f"Odds of winning 1 in {show2(table.odds_one_in)} · Payout {show2(table.rtp * 100)}%",
        )


class Lobby(Visit):
    """The lobby's visit: the session and balance, the cards, the player's time zone."""

    def __init__(
        self, cards: tuple[Card, ...], settings: Settings | None = None, utc_offset_minutes: int = 0
    ) -> None:
        super().__init__(settings)
        self.cards = cards
        self.zone = timezone(timedelta(minutes=utc_offset_minutes))

    def when(self, moment: object) -> str:
        """A time from the endpoint (ms since the epoch, or an ISO 8601 text) in the player's
        time zone; '' for anything else."""
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
        at = at.astimezone(self.zone)
        return f"{at.day} {at:%b %Y, %H:%M}"

    def game_name(self, game_id: object) -> str:
        """A game's name from its id (the id itself for one no longer registered)."""
        return next((c.game.name for c in self.cards if c.game.id == game_id), str(game_id))


class VerifyPage(Protocol):
    """The VERIFY screen (engine/ui/scenes/verify.py), as My Games opens it."""

    def check(self, play_number: int) -> None: ...


def backdrop(canvas: Canvas, w: float, h: float) -> None:
    """The lobby's own backdrop: a deep night-blue gradient."""
    canvas.rect(0, 0, w, h, fill=LinearGradient(0, 0, 0, h, ((0.0, "#101a3a"), (1.0, "#05081a"))))


def header(canvas: Canvas, w: float, title: str, visit: Visit) -> None:
    """The page's title and, under the links, its status line (the balance)."""
    font = fit_text(canvas, title, Font(min(34.0, w * 0.075), "display", True), w - 40)
    canvas.text(title, w / 2, 30, font, fill=GOLD)
    status = status_line(visit)
    small = fit_text(canvas, status, Font(18.0, "body", True), w - 24)
    canvas.text(status, w / 2, HEADER - 22, small, fill="#ff8a80" if visit.error else "#ffffff")


def card_boxes(w: float, h: float, n: int) -> list[tuple[float, float, float, float]]:
    """Each card's (x, y, w, h): in a row on a wide screen, one under another on a narrow one."""
    if n == 0:
        return []
    room = max(200.0, h - HEADER - GAP)
    if w >= SIDE_BY_SIDE:
        cw = min(460.0, (w - GAP * (n + 1)) / n)
        ch = min(room, 520.0)
        x0 = (w - n * cw - (n - 1) * GAP) / 2
        return [(x0 + k * (cw + GAP), HEADER, cw, ch) for k in range(n)]
    cw = min(w - 2 * GAP, 560.0)
    ch = min(380.0, (room - (n - 1) * GAP) / n)
    return [((w - cw) / 2, HEADER + k * (ch + GAP), cw, ch) for k in range(n)]


class LobbyScene(Page):
    """The games as cards, with My Games, Limits and Account above them."""

    name = "lobby"
    flow: Lobby

    def __init__(self, lobby: Lobby) -> None:
        super().__init__(lobby)
        self.my_games = MyGamesScene(lobby)
        lobby.register("lobby", self)
        lobby.register("my-games", self.my_games)
        from engine.ui.scenes.limits import LimitsScene  # it draws in the lobby's style

        lobby.register("limits", LimitsScene(lobby))
        lobby.register("account", AccountScene(lobby))
        from engine.ui.scenes.verify import VerifyScene  # it draws in the lobby's style

        self.my_games.verify = VerifyScene(lobby)
        lobby.register("verify", self.my_games.verify)

    def enter(self, app: App) -> None:
        """Say what the lobby offers."""
        super().enter(app)
        for card in self.flow.cards:
            first, second = card.lines()
            soon = "" if card.presentation else " Coming soon."
            self.flow.say(f"{card.game.name}: {first}. {second}.{soon}")

    def controls(self) -> list[Control]:
        """My Games, then each card's PLAY (or Coming soon), TRY and Rules and Prizes."""
        w, h = self.size()
        bw = min(200.0, (w - 4 * GAP) / 3)
        x0 = (w - 3 * bw - 2 * GAP) / 2
        out = [
            Control(page, label, x0 + k * (bw + GAP), 56, bw, MIN_TARGET)
            for k, (page, label) in enumerate(PAGES)
        ]
        for card, (x, y, cw, ch) in zip(
            self.flow.cards, card_boxes(w, h, len(self.flow.cards)), strict=True
        ):
            name, bh = card.game.name, max(MIN_TARGET, min(52.0, ch * 0.15))
            by, pad = y + ch - bh - 12, 10.0
            if card.presentation is None:
                out.append(
                    Control(
                        f"soon:{card.game.id}",
                        f"Coming soon: {name}",
                        x + pad,
                        by,
                        cw - 2 * pad,
                        bh,
                        enabled=False,
                    )
                )
                continue
            third = (cw - 4 * pad) / 3
            out += [
                Control(f"play:{card.game.id}", f"PLAY {name}", x + pad, by, third, bh),
                Control(
                    f"try:{card.game.id}",
                    f"TRY {name} for free",
                    x + 2 * pad + third,
                    by,
                    third,
                    bh,
                ),
                Control(
                    f"rules:{card.game.id}",
                    f"Rules and Prizes of {name}",
                    x + 3 * pad + 2 * third,
                    by,
                    third,
                    bh,
                ),
            ]
        return out

    def activate(self, control: str) -> None:
        """Open a game (to play or to try), its rules, or My Games."""
        kind, _, game_id = control.partition(":")
        if kind in dict(PAGES):
            self.flow.go(kind)
        elif kind == "play":
            self.flow.open_page(game=game_id)
        elif kind == "try":
            self.flow.open_page(game=game_id, mode="try")
        elif kind == "rules":
            self.open_rules(game_id)

    def open_rules(self, game_id: str) -> None:
        """The game's Rules and Prizes in its look; closing comes back here."""
        card = next(c for c in self.flow.cards if c.game.id == game_id)
        if card.presentation is None or card.look is None or self.app is None:
            return
        flow = Flow(card.presentation, self.flow.settings)
        flow.attach(self.app, connect=False)  # the lobby's session; no play to look for
        flow.balance = self.flow.balance
        flow.register("splash", self)  # Close: back to the lobby
        rules = RulesScene(flow, card.look, card.presentation.rules_text)
        self.app.switch(rules)

    def draw(self, canvas: Canvas) -> None:
        """The title, My Games, the balance and the cards."""
        w, h = canvas.width, canvas.height
        backdrop(canvas, w, h)
        header(canvas, w, SITE_NAME, self.flow)
        controls = self.controls()
        labels = {"play": "PLAY", "try": "TRY", "rules": "Rules", "soon": "Coming soon"}
        for card, box in zip(self.flow.cards, card_boxes(w, h, len(self.flow.cards)), strict=True):
            draw_card(canvas, card, *box)
        for c in controls:
            kind = c.id.partition(":")[0]
            button(canvas, replace(c, label=labels.get(kind, c.label)))


def draw_card(canvas: Canvas, card: Card, x: float, y: float, w: float, h: float) -> None:
    """A game's card: its picture in its look, its name and its figures."""
    look = card.look
    art_h = h * (0.42 if h > 420 else 0.34)
    if look is not None:
        look.panel(canvas, x, y, w, h)  # the game's own card
        canvas.save()
        canvas.clip(x, y, w, art_h)
        canvas.translate(x, y)
        # The splash's picture, laid out against a screen whose top band is the card's art.
        look.title_art(canvas, w, art_h / 0.26, min(w, art_h * 2.4))
        canvas.restore()
    else:
        canvas.rect(x, y + 5, w, h, fill="#00000066", radius=18)
        canvas.rect(x, y, w, h, fill="#1d2647", stroke="#7fd4ff", line_width=2, radius=18)
    gold = look.gold if look is not None else GOLD
    name = card.game.name.upper()
    line = min(h * 0.09, 30.0)
    title = fit_text(canvas, name, Font(line, "display", True), w - 24)
    canvas.text(name, x + w / 2, y + art_h + line * 0.6, title, fill=gold)
    body = Font(min(17.0, max(12.0, h * 0.05)), "body", True)
    first, second = card.lines()
    ty = y + art_h + line * 1.35 + body.size
    canvas.text(first, x + w / 2, ty, fit_text(canvas, first, body, w - 20), fill="#ffffff")
    canvas.text(
        second,
        x + w / 2,
        ty + body.size * 1.5,
        fit_text(canvas, second, body, w - 20),
        fill="#cfe8ff",
    )


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
    flow: Lobby

    def __init__(self, lobby: Lobby) -> None:
        super().__init__(lobby)
        self.plays: list[dict[str, Any]] = []
        self.cursors: list[str | None] = [None]  # the cursor of each page seen (first: None)
        self.next_cursor: str | None = None
        self.loading = False
        self.verify: VerifyPage | None = None  # the lobby's VERIFY screen

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
        return HEADER + 10 + k * ROW

    def controls(self) -> list[Control]:
        """Close (back to the lobby), RESUME for each unfinished play, the page turns."""
        w, h = self.size()
        out = [Control("close", "Back to the games", w - 62, 10, 52, 52)]
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
        tw = min(200.0, (w - 3 * GAP) / 2)
        if len(self.cursors) > 1:
            out.append(Control("newer", "Previous page", GAP, h - MIN_TARGET - 12, tw, MIN_TARGET))
        if self.next_cursor:
            out.append(
                Control("older", "Next page", w - tw - GAP, h - MIN_TARGET - 12, tw, MIN_TARGET)
            )
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
        elif kind == "verify" and self.verify is not None:
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
        min(150.0, w * 0.3)
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
        for c in self.controls():
            if c.id == "close":
                close_button(canvas, c)
            elif c.id.startswith(("resume:", "replay:", "verify:")):
                button(canvas, replace(c, label=c.label.split(" ")[0]))
            else:
                draw_controls(canvas, [c])


def lobby_scene(
    presentations: dict[str, Presentation],
    games: tuple[Game, ...],
    settings: Settings,
    utc_offset_minutes: int = 0,
) -> LobbyScene:
    """The lobby of the registered games; those with screens here can be played."""
    cards = tuple(Card(game, presentations.get(game.id)) for game in games)
    return LobbyScene(Lobby(cards, settings, utc_offset_minutes))


class AccountScene(Page):
    """The account: a one-time code (10 minutes) that signs this account in on another device,
    and signing in here with a code from another device."""

    name = "account"
    flow: Lobby

    def __init__(self, lobby: Lobby) -> None:
        super().__init__(lobby)
        self.code = ""
        self.expires = ""

    def controls(self) -> list[Control]:
        """Close, Get a sign-in code, Use a sign-in code."""
        w, _ = self.size()
        bw = min(360.0, w - 2 * GAP)
        x = (w - bw) / 2
        return [
            Control("close", "Back to the games", w - 62, 10, 52, 52),
            Control("new-code", "Get a sign-in code", x, HEADER + 20, bw, 52, not self.flow.busy),
            Control("use-code", "Use a sign-in code", x, HEADER + 90, bw, 52, not self.flow.busy),
        ]

    def activate(self, control: str) -> None:
        """Ask for a code, sign in with one, or go back."""
        if control == "close":
            self.flow.error = ""
            self.flow.go("lobby")
        elif self.app is not None and control == "new-code":
            self.flow.busy = "Asking for a code…"
            self.app.request("code", {}, self._on_code)
        elif self.app is not None and control == "use-code":
            self.flow.busy = "Signing in…"
            self.app.request("signin", {}, self._on_signin)

    def _on_code(self, reply: Reply) -> None:
        self.flow.busy = ""
        if not reply.ok:
            self.flow._fail(reply, "code request")
            return
        self.flow.error = ""
        self.code = str(reply.body.get("code", ""))
        self.expires = self.flow.when(reply.body.get("expires_at"))
        self.flow.say(
            f"Your sign-in code is {self.code}, valid once until {self.expires}. On your other "
            "device, open the games, then Account, Use a sign-in code."
        )

    def _on_signin(self, reply: Reply) -> None:
        self.flow.busy = ""
        if not reply.ok:
            self.flow._fail(reply, "sign-in")
            return
        if reply.body.get("cancelled"):
            return
        self.flow.error = ""
        self.code = ""
        self.flow.say("Signed in to your account on this device.")
        self.flow._set_balance(reply.body.get("balance_pence"))

    def draw(self, canvas: Canvas) -> None:
        """The buttons and, once asked for, the code in large letters."""
        w, h = canvas.width, canvas.height
        backdrop(canvas, w, h)
        header(canvas, w, "ACCOUNT", self.flow)
        if self.code:
            big = fit_text(canvas, self.code, Font(48.0, "display", True), w - 40)
            canvas.text(self.code, w / 2, HEADER + 210, big, fill=GOLD)
            note = f"Valid once, until {self.expires}"
            canvas.text(note, w / 2, HEADER + 255, fit_text(canvas, note, Font(16.0, "body", True),
                                                            w - 24))  # fmt: skip
        draw_controls(canvas, [c for c in self.controls() if c.id != "close"])
        close_button(canvas, self.controls()[0])
