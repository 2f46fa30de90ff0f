"""The lobby at `/`: every game as a card, and the way to the player's own pages (My Games,
Limits, Account: their own modules, drawn in the site's chrome, site.py).

A card shows the game's name, its picture in the game's own look, the price, the top prize and
the overall odds and payout (read from the prize table, never typed in), and how many top
prizes are left in the current pool, counted from the public log (when the endpoint answers:
engine/ui/remaining.py), with PLAY, TRY and Rules and Prizes. A registered game that is not
on sale says "Coming soon" instead of PLAY. PLAY and TRY open the game's page (`/?game=ID`,
`&mode=try`); Rules and Prizes opens the game's own Rules screen here, in its look, and closes
back to the lobby.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.game import Game
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, cover, fit_text
from engine.ui.flow import Flow
from engine.ui.games import presentation
from engine.ui.input import Control, Reply
from engine.ui.presentation import Cover
from engine.ui.remaining import Remaining
from engine.ui.scenes.rules import RulesScene
from engine.ui.scenes.site import GAP, HEADER, SITE_NAME, Card, Lobby, backdrop, header
from engine.ui.screen import Page
from engine.ui.settings import Settings
from engine.ui.widgets import GOLD, MIN_TARGET, button

CARD_INSET = 6.0  # px between a card's edge and its scene
CARD_ART = 2.0  # a card scene's width over its height (assets/<game id>/card.svg)
SIDE_BY_SIDE = 720.0  # a screen at least this wide shows the cards in a row
PAGES = (("my-games", "My Games"), ("limits", "Limits"), ("account", "Account"))


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
        lobby.register("lobby", self)
        self.remaining: dict[str, Remaining] = {}  # by game: its prizes left, once answered
        # The player's pages are imported when first opened, not before the lobby's first frame
        lobby.register_later("my-games", lambda: _my_games(lobby))
        lobby.register_later("limits", lambda: _limits(lobby))
        lobby.register_later("account", lambda: _account(lobby))
        lobby.register_later("protect", lambda: _protect(lobby))

    def enter(self, app: App) -> None:
        """Say what the lobby offers."""
        super().enter(app)
        for card in self.flow.cards:
            first, second = card.lines()
            soon = "" if card.cover else " Coming soon."
            self.flow.say(f"{card.game.name}: {first}. {second}.{soon}")
            if card.cover is not None:
                app.request("remaining", {"game": card.game.id}, self._remaining_of(card))

    def _remaining_of(self, card: Card) -> Callable[[Reply], None]:
        """The reply to a card's `remaining`: its top prizes left, shown and said (nothing
        when the endpoint does not answer)."""

        def on_reply(reply: Reply) -> None:
            found = Remaining.from_body(reply.body) if reply.ok else None
            if found is None:
                self.remaining.pop(card.game.id, None)
                return
            self.remaining[card.game.id] = found
            self.flow.say(f"{card.game.name}: {found.top_said()}")

        return on_reply

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
            if card.cover is None:
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
        """The game's Rules and Prizes in its look; closing comes back here. The game's screens
        are imported now (its flow's), not with the lobby."""
        card = next(c for c in self.flow.cards if c.game.id == game_id)
        if card.cover is None or self.app is None:
            return
        flow = Flow(presentation(card.game), self.flow.settings)
        flow.attach(self.app, connect=False)  # the lobby's session; no play to look for
        flow.balance = self.flow.balance
        flow.register("splash", self)  # Close: back to the lobby
        rules = RulesScene(flow, card.cover.look, card.cover.rules_text)
        self.app.switch(rules)

    def draw(self, canvas: Canvas) -> None:
        """The title, My Games, the balance and the cards."""
        w, h = canvas.width, canvas.height
        backdrop(canvas, w, h)
        header(canvas, w, SITE_NAME, self.flow)
        controls = self.controls()
        labels = {"play": "PLAY", "try": "TRY", "rules": "Rules", "soon": "Coming soon"}
        for card, box in zip(self.flow.cards, card_boxes(w, h, len(self.flow.cards)), strict=True):
            draw_card(canvas, card, *box, self.remaining.get(card.game.id))
        for c in controls:
            kind = c.id.partition(":")[0]
            button(canvas, replace(c, label=labels.get(kind, c.label)))


def draw_card(
    canvas: Canvas,
    card: Card,
    x: float,
    y: float,
    w: float,
    h: float,
    remaining: Remaining | None = None,
) -> None:
    """A game's card: its picture in its look, its name, its figures and its top prizes left."""
    look = card.look
    art_h = h * (0.42 if h > 420 else 0.34)
    if look is not None:
        look.panel(canvas, x, y, w, h)  # the game's own card
        canvas.save()
        canvas.translate(x + CARD_INSET, y + CARD_INSET)
        # Its scene (assets/<game id>/card.svg, in the lobby's atlas), framed by the card's rim
        cover(canvas, f"{card.game.id}/card", w - 2 * CARD_INSET, art_h - CARD_INSET, CARD_ART)
        canvas.restore()
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
    if remaining is not None:
        third = remaining.top_line()
        canvas.text(third, x + w / 2, ty + body.size * 3.0, fit_text(canvas, third, body, w - 20),
                    fill=gold)  # fmt: skip


def _my_games(lobby: Lobby) -> Page:
    from engine.ui.scenes.my_games import MyGamesScene  # and VERIFY, with its hashing

    return MyGamesScene(lobby)


def _limits(lobby: Lobby) -> Page:
    from engine.ui.scenes.limits import LimitsScene

    return LimitsScene(lobby)


def _account(lobby: Lobby) -> Page:
    from engine.ui.scenes.account import AccountScene

    return AccountScene(lobby)


def _protect(lobby: Lobby) -> Page:
    from engine.ui.scenes.protect import ProtectScene

    return ProtectScene(lobby)


def lobby_scene(
    covers: dict[str, Cover],
    games: tuple[Game, ...],
    settings: Settings,
    page: str = "",
) -> Page:
    """The lobby of the registered games; those with screens here can be played. `page` opens
    one of its pages at once (`?page=limits`: a refused purchase sends the player there)."""
    cards = tuple(Card(game, covers.get(game.id)) for game in games)
    visit = Lobby(cards, settings)
    lobby = LobbyScene(visit)
    shown = visit.scene(page) if page in dict(PAGES) else None
    return shown if isinstance(shown, Page) else lobby
