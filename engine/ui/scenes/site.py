"""What the site's own pages share (the lobby, My Games, Limits, Account, VERIFY): the
lobby's visit, its cards' facts, and the page's backdrop and header."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from engine.game import Game
from engine.math.figures import show2
from engine.money import format_pounds
from engine.ui.draw import Canvas, Font, LinearGradient, fit_text
from engine.ui.look import Look
from engine.ui.presentation import Cover
from engine.ui.screen import status_line
from engine.ui.settings import Settings
from engine.ui.visit import Visit
from engine.ui.widgets import GOLD

SITE_NAME = "Instant Win Games"
HEADER = 150.0  # the height of the title, the links and the balance above a page's content
GAP = 14.0


@dataclass(frozen=True)
class Card:
    """A game in the lobby: its facts, and its cover when this page has its screens."""

    game: Game
    cover: Cover | None  # None: not on sale ("Coming soon")

    @property
    def look(self) -> Look | None:
        """The game's look, when its screens are here."""
        return None if self.cover is None else self.cover.look

    def lines(self) -> tuple[str, str]:
        """The card's two lines of figures."""
        return card_lines(self.game)


@functools.cache
def card_lines(game: Game) -> tuple[str, str]:
    """A game's two lines of figures on its lobby card. The odds and payout are the game's
    published ones, which are its prize table's: every load of the table checks that its own
    figures round to them (engine/math/table.py), and the lobby's first frame does not wait for
    both tables to be parsed (most of that frame in Pyodide). Made once a game (the lobby draws
    them each frame): the interpreter a returning visit restores has them already, and its first
    frame does not parse and divide fractions (their regular expression and arithmetic were
    compiled anew on a first return)."""
    top = format_pounds(game.top_prize_pence, always_pence=False)
    odds, rtp_percent = game.published_figures
    return (
        f"{format_pounds(game.price_pence)} a play · WIN UP TO {top}",
        f"Odds of winning 1 in {show2(odds)} · Payout {show2(rtp_percent)}%",
    )


class Lobby(Visit):
    """The lobby's visit: the session and balance, the cards."""

    def __init__(self, cards: tuple[Card, ...], settings: Settings | None = None) -> None:
        super().__init__(settings)
        self.cards = cards

    def game_name(self, game_id: object) -> str:
        """A game's name from its id (the id itself for one no longer registered)."""
        return next((c.game.name for c in self.cards if c.game.id == game_id), str(game_id))


def backdrop(canvas: Canvas, w: float, h: float) -> None:
    """The lobby's own backdrop: a deep night-blue gradient."""
    canvas.rect(0, 0, w, h, fill=LinearGradient(0, 0, 0, h, ((0.0, "#101a3a"), (1.0, "#05081a"))))


def header(canvas: Canvas, w: float, title: str, visit: Visit) -> None:
    """The page's title, clear of the close 'X' in the top right corner (the same room kept on
    the left, as the title is centred), and under the links its status line (the balance)."""
    font = fit_text(canvas, title, Font(min(34.0, w * 0.075), "display", True), w - 2 * 70)
    canvas.text(title, w / 2, 30, font, fill=GOLD)
    status = status_line(visit)
    small = fit_text(canvas, status, Font(18.0, "body", True), w - 24)
    canvas.text(status, w / 2, HEADER - 22, small, fill="#ff8a80" if visit.error else "#ffffff")
