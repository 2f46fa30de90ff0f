"""The splash every game opens on, in the game's look: its name, WIN UP TO the top prize, the
price, the balance and PLAY (or RESUME, or TRY AGAIN), HOW TO PLAY and Rules and Prizes.

A game may add messages, lines of text under WIN UP TO (Power Puck Shot's three sentences).
Then the buttons stand at the foot of the screen (in a row on a short, wide screen such as a
phone held sideways), the picture and the name are drawn in a shorter band at the top, and
the messages fill what is between, wrapped and shrunk until they fit: they never reach the
price, the balance or the buttons (on a screen too short for them even at the smallest size,
what does not fit is cut off at the band's edge). They are said when the splash opens, since
the shell's mirror carries only the screen's name and buttons.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.flow import Flow
from engine.ui.input import Control
from engine.ui.look import Look
from engine.ui.screen import Screen, status_line
from engine.ui.widgets import MIN_TARGET, draw_controls, wrap

ART_SHARE = 0.62  # with messages: the share of the height laid out as the picture's screen
MESSAGE_SIZES = (20.0, 9.0)  # the messages' largest and smallest font size, in logical px
MESSAGE_WIDTH = 720.0  # the messages' widest line, in logical px (long lines read badly)
LINE = 1.6  # a wrapped line's height, in font sizes (as widgets.rich_text draws them)
PARAGRAPH = 0.4  # the space between two messages, in font sizes
ROW_BELOW = 560.0  # with messages, a wider screen shorter than this puts its buttons in a row


@dataclass(frozen=True)
class SplashLayout:
    """Where the splash puts things on a w × h screen (the y of each line's middle)."""

    art_h: float  # the height the picture, the name and WIN UP TO are laid out against
    unit: float  # their scale: min(w, art_h × 0.8)
    text_unit: float  # the price's and the status's scale: min(w, h × 0.8)
    band: tuple[float, float]  # top and bottom of the messages' band (empty without messages)
    price_y: float
    status_y: float
    buttons_y: float  # the top of the first button
    row: bool = False  # the buttons side by side (else one under another)


def button_size(w: float, h: float) -> tuple[float, float]:
    """Width and height of a splash button."""
    return min(320.0, w * 0.8), max(MIN_TARGET, min(64.0, h * 0.08))


def price_font(unit: float) -> Font:
    """The font of '£3.00 a play'."""
    return Font(max(14.0, unit * 0.035), "body", True)


def status_font(unit: float) -> Font:
    """The font of the status line (the balance, what is happening or what went wrong)."""
    return Font(max(14.0, unit * 0.032), "body", True)


def splash_layout(w: float, h: float, messages: bool) -> SplashLayout:
    """The splash's layout: Lab Riches' proportions, or with messages the buttons at the foot,
    the price and balance just above them and the picture in the top ART_SHARE of the height."""
    unit = min(w, h * 0.8)
    if not messages:
        return SplashLayout(h, unit, unit, (0.0, 0.0), h * 0.47, h * 0.54, h * 0.6)
    _, bh = button_size(w, h)
    gap = bh * 0.3
    row = h < ROW_BELOW and w > h
    buttons_y = h - gap - (bh if row else 3 * bh + 2 * gap)
    art_h = h * ART_SHARE
    text_unit, unit = unit, min(w, art_h * 0.8)
    price, status = price_font(text_unit).size, status_font(text_unit).size
    status_y = buttons_y - gap - status * LINE / 2
    price_y = status_y - (price + status) * LINE / 2
    pad = max(6.0, unit * 0.02)
    top = art_h * 0.4 + unit * 0.075 / 2 + pad  # below WIN UP TO at its largest
    bottom = price_y - price * LINE / 2
    band = (top, max(top, bottom))
    return SplashLayout(art_h, unit, text_unit, band, price_y, status_y, buttons_y, row)


def button_boxes(w: float, h: float, messages: bool) -> list[tuple[float, float, float, float]]:
    """The three buttons' (x, y, w, h): centred one under another, or in a centred row."""
    lay = splash_layout(w, h, messages)
    bw, bh = button_size(w, h)
    gap = bh * 0.3
    if lay.row:
        bw = min(bw, (w * 0.92 - 2 * gap) / 3)
        x = (w - 3 * bw - 2 * gap) / 2
        return [(x + k * (bw + gap), lay.buttons_y, bw, bh) for k in range(3)]
    y = lay.buttons_y
    return [((w - bw) / 2, top, bw, bh) for top in (y, y + bh + gap, y + 2 * (bh + gap))]


def paragraphs_height(canvas: Canvas, texts: tuple[str, ...], font: Font, max_w: float) -> float:
    """How tall texts stand when wrapped to max_w, one under another."""
    lines = sum(len(wrap(canvas, text, font, max_w)) for text in texts)
    return font.size * (lines * LINE + PARAGRAPH * (len(texts) - 1))


def fit_paragraphs(canvas: Canvas, texts: tuple[str, ...], max_w: float, room: float) -> Font:
    """The largest font in MESSAGE_SIZES (half a pixel at a time) that fits texts in room."""
    largest, smallest = MESSAGE_SIZES
    font = Font(largest, "body", True)
    while font.size > smallest and paragraphs_height(canvas, texts, font, max_w) > room:
        font = Font(font.size - 0.5, "body", True)
    return font


class SplashScene(Screen):
    """Game name, WIN UP TO the top prize, HOW TO PLAY and PLAY (or RESUME, or TRY AGAIN)."""

    name = "splash"

    def __init__(self, flow: Flow, look: Look, messages: tuple[str, ...] = ()) -> None:
        super().__init__(flow)
        self.look = look
        self.messages = messages

    def enter(self, app: App) -> None:
        """Say the messages (the name, prize and buttons are the shell's to say)."""
        super().enter(app)
        if self.messages:
            self.flow.say(" ".join(self.look.words(m) for m in self.messages))

    def controls(self) -> list[Control]:
        """PLAY (or RESUME / TRY AGAIN), HOW TO PLAY, Rules and Prizes."""
        w, h = self.size()
        first, howto, rules = button_boxes(w, h, bool(self.messages))
        if self.flow.resumable is not None:
            play = Control("resume", "RESUME", *first)
        elif self.flow.error:
            play = Control("retry", "TRY AGAIN", *first)
        else:
            ready = self.flow.balance is not None and not self.flow.busy
            play = Control("play", "TRY" if self.flow.mode == "try" else "PLAY", *first, ready)
        return [play, Control("howto", "HOW TO PLAY", *howto),
                Control("rules", "Rules and Prizes", *rules)]  # fmt: skip

    def activate(self, control: str) -> None:
        """Route the splash buttons."""
        if control == "play":
            self.flow.purchase()
        elif control == "resume":
            self.flow.resume()
        elif control == "retry":
            self.flow.retry()
        elif control == "howto":
            self.flow.go("howto")
        elif control == "rules":
            self.flow.go("rules")

    def draw(self, canvas: Canvas) -> None:
        """Title art, the top prize message, any messages, the price, status and buttons."""
        w, h = canvas.width, canvas.height
        lay = splash_layout(w, h, bool(self.messages))
        self.look.backdrop(canvas, w, h)
        self._draw_title(canvas, w, lay.art_h, lay.unit)
        if self.messages:
            self._draw_messages(canvas, w, lay.band)
        game = self.flow.game
        price = f"{format_pounds(game.price_pence)} a play"
        canvas.text(price, w / 2, lay.price_y, price_font(lay.text_unit), fill="#cfe8ff")
        status = status_line(self.flow)
        if self.flow.resumable is not None:
            status = "You have an unfinished play: RESUME carries on where you left off."
        font = fit_text(canvas, status, status_font(lay.text_unit), w * 0.92)
        canvas.text(status, w / 2, lay.status_y, font,
                    fill="#ff8a80" if self.flow.error else self.look.gold)  # fmt: skip
        draw_controls(canvas, self.controls())

    def _draw_title(self, canvas: Canvas, w: float, h: float, unit: float) -> None:
        """The game's picture, its name and WIN UP TO the top prize, laid out against h."""
        self.look.title_art(canvas, w, h, unit)
        name = self.flow.game.name.upper()
        title = fit_text(canvas, name, Font(unit * 0.14, "display", True), w * 0.9)
        canvas.text(name, w / 2 + 3, h * 0.29 + 4, title, fill="#00000088")
        canvas.text(name, w / 2, h * 0.29, title, fill=self.look.gold)
        game = self.flow.game
        top = f"WIN UP TO {format_pounds(game.top_prize_pence, always_pence=False)}"
        win = fit_text(canvas, top, Font(unit * 0.075, "display", True), w * 0.9)
        canvas.text(top, w / 2, h * 0.4, win, fill="#ffffff")

    def _draw_messages(self, canvas: Canvas, w: float, band: tuple[float, float]) -> None:
        """The messages, wrapped, centred in the band and never outside it."""
        top, bottom = band
        max_w = min(w * 0.9, MESSAGE_WIDTH)
        font = fit_paragraphs(canvas, self.messages, max_w, bottom - top)
        used = paragraphs_height(canvas, self.messages, font, max_w)
        canvas.save()
        canvas.clip(0, top, w, bottom - top)
        y = top + max(0.0, (bottom - top - used) / 2)
        for text in self.messages:
            y = self.look.rich_text(canvas, text, w / 2, y, font, max_w, "#ffffff")
            y += font.size * PARAGRAPH
        canvas.restore()
