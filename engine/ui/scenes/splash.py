"""The splash every game opens on, in the game's look: its name, WIN UP TO the top prize, the
price, the balance and PLAY (or RESUME, or TRY AGAIN), HOW TO PLAY and Rules and Prizes.

A game may add messages, lines of text under WIN UP TO (Power Puck Shot's three sentences),
and may put HOW TO PLAY in the top right corner (its Look's howto_corner: Power Puck Shot's
procedure places it there; the picture, the name and WIN UP TO then stand below it where they
would reach it). With messages the buttons stand at the foot of the screen (in a row on a
short, wide screen such as a phone held sideways), the picture and the name are drawn in a
shorter band at the top, and the messages fill what is between, wrapped and shrunk until they
fit: they never reach the price, the balance or the buttons (on a screen too short for them
even at the smallest size, what does not fit is cut off at the band's edge); WIN UP TO is
never smaller than them. They are said when the splash opens, after WIN UP TO and the price,
since the shell's mirror carries only the screen's name and buttons.

Where the backend has audio, the top left corner offers sound (engine/ui/scenes/sound_offer.py);
the picture's band starts below it where the picture or the name would reach it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.flow import Flow
from engine.ui.input import Control
from engine.ui.look import Look
from engine.ui.scenes import sound_offer as offer
from engine.ui.screen import Screen, status_line
from engine.ui.widgets import MIN_TARGET, draw_controls, wrap

ART_SHARE = 0.62  # with messages: the share of the height laid out as the picture's screen
MESSAGE_SIZES = (20.0, 9.0)  # the messages' largest and smallest font size, in logical px
MESSAGE_WIDTH = 720.0  # the messages' widest line, in logical px (long lines read badly)
LINE = 1.6  # a wrapped line's height, in font sizes (as widgets.rich_text draws them)
PARAGRAPH = 0.4  # the space between two messages, in font sizes
ROW_BELOW = 560.0  # with messages, a wider screen shorter than this puts its buttons in a row
CORNER = (150.0, 8.0)  # the top-right HOW TO PLAY's width and its margin from the edges


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
    top: float = 0.0  # where the picture's band starts (below a top-right HOW TO PLAY)


def button_size(w: float, h: float) -> tuple[float, float]:
    """Width and height of a splash button."""
    return min(320.0, w * 0.8), max(MIN_TARGET, min(64.0, h * 0.08))


def price_font(unit: float) -> Font:
    """The font of '£3.00 a play'."""
    return Font(max(14.0, unit * 0.035), "body", True)


def status_font(unit: float) -> Font:
    """The font of the status line (the balance, what is happening or what went wrong)."""
    return Font(max(14.0, unit * 0.032), "body", True)


def win_size(unit: float, messages: bool) -> float:
    """The font size of WIN UP TO: never smaller than the messages at their largest."""
    return max(unit * 0.075, MESSAGE_SIZES[0]) if messages else unit * 0.075


def corner_box(w: float) -> tuple[float, float, float, float]:
    """The top-right HOW TO PLAY's (x, y, w, h)."""
    bw, margin = CORNER
    bw = min(bw, w * 0.45)
    return w - margin - bw, margin, bw, MIN_TARGET


def splash_layout(
    w: float, h: float, messages: bool, count: int = 3, top: float = 0.0
) -> SplashLayout:
    """The splash's layout: Lab Riches' proportions, or with messages the `count` buttons at the
    foot, the price and balance just above them and the picture in the top ART_SHARE of the
    height (from `top` down, when something stands above it)."""
    unit = min(w, h * 0.8)
    _, bh = button_size(w, h)
    gap = bh * 0.3
    if not messages:  # the buttons one under another, or in a row where they would not fit
        row = w > h and h * 0.6 + count * bh + (count - 1) * gap > h - gap
        # below `top`, shrunk so that WIN UP TO (centred at 0.4 of art_h, at most 0.03 of it
        # half as tall) stays 4 px above the price's line
        room = h * 0.47 - price_font(unit).size / 2 - 4 - top
        art_h = h if top <= 0 else min(h, room / 0.43)
        art_unit = min(w, art_h * 0.8)
        return SplashLayout(art_h, art_unit, unit, (0.0, 0.0), h * 0.47, h * 0.54, h * 0.6, row,
                            top)  # fmt: skip
    row = h < ROW_BELOW and w > h
    buttons_y = h - gap - (bh if row else count * bh + (count - 1) * gap)
    art_h = h * ART_SHARE - top
    text_unit, unit = unit, min(w, art_h * 0.8)
    price, status = price_font(text_unit).size, status_font(text_unit).size
    status_y = buttons_y - gap - status * LINE / 2
    price_y = status_y - (price + status) * LINE / 2
    pad = max(6.0, unit * 0.02)
    upper = top + art_h * 0.4 + win_size(unit, True) / 2 + pad  # below WIN UP TO
    bottom = price_y - price * LINE / 2
    band = (upper, max(upper, bottom))
    return SplashLayout(art_h, unit, text_unit, band, price_y, status_y, buttons_y, row, top)


def button_boxes(
    w: float, h: float, messages: bool, count: int = 3
) -> list[tuple[float, float, float, float]]:
    """The foot's `count` buttons' (x, y, w, h): centred one under another, or in a row."""
    lay = splash_layout(w, h, messages, count)
    bw, bh = button_size(w, h)
    gap = bh * 0.3
    if lay.row:
        bw = min(bw, (w * 0.92 - (count - 1) * gap) / count)
        x = (w - count * bw - (count - 1) * gap) / 2
        return [(x + k * (bw + gap), lay.buttons_y, bw, bh) for k in range(count)]
    y = lay.buttons_y
    return [((w - bw) / 2, y + k * (bh + gap), bw, bh) for k in range(count)]


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
        self.cols = 2  # the sound controls' columns, as the last drawing laid them out

    def enter(self, app: App) -> None:
        """Say WIN UP TO, the price and the messages (the name and the buttons are the
        shell's to say)."""
        super().enter(app)
        if self.messages:
            game = self.flow.game
            top = format_pounds(game.top_prize_pence, always_pence=False)
            said = [f"WIN UP TO {top}.", f"{self.price_line()}."]
            self.flow.say(" ".join([*said, *(self.look.words(m) for m in self.messages)]))

    def controls(self) -> list[Control]:
        """PLAY (or RESUME / TRY AGAIN), HOW TO PLAY, Rules and Prizes."""
        w, h = self.size()
        if self.look.howto_corner:
            first, rules = button_boxes(w, h, bool(self.messages), 2)
            howto = corner_box(w)
        else:
            first, howto, rules = button_boxes(w, h, bool(self.messages))
        if self.flow.resumable is not None:
            play = Control("resume", "RESUME", *first)
        elif self.flow.error:
            play = Control("retry", "TRY AGAIN", *first)
        else:
            ready = self.flow.balance is not None and not self.flow.busy
            play = Control("play", "TRY" if self.flow.mode == "try" else "PLAY", *first, ready)
        shown = [
            Control("howto", "HOW TO PLAY", *howto),
            Control("rules", "Rules and Prizes", *rules),
        ]
        return [play, *shown, *offer.controls(self.flow.settings, w, self.cols)]

    def price_line(self) -> str:
        """'£3.00 a play'; a TRY shows no price: what it is instead (the TRY badge's words,
        drawn here rather than over the picture and the name)."""
        if self.flow.mode == "try":
            return f"FREE {self.flow.mode_label}"
        return f"{format_pounds(self.flow.game.price_pence)} a play"

    def draw_over(self, canvas: Canvas) -> None:
        """No badge over the splash: the price's line says what the page is for (a TRY's badge
        covered the game's name and its top-right HOW TO PLAY)."""
        if self.flow.mode != "try":
            super().draw_over(canvas)

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
        else:
            offer.activate(self.flow, control)

    def draw(self, canvas: Canvas) -> None:
        """Title art, the top prize message, any messages, the price, status and buttons."""
        w, h = canvas.width, canvas.height
        lay = self.layout(canvas)
        self.look.backdrop(canvas, w, h)
        canvas.save()
        canvas.translate(0, lay.top)
        self._draw_title(canvas, w, lay.art_h, lay.unit)
        canvas.restore()
        if self.messages:
            self._draw_messages(canvas, w, lay.band)
        price = self.price_line()
        font = fit_text(canvas, price, price_font(lay.text_unit), w * 0.92)
        canvas.text(price, w / 2, lay.price_y, font, fill="#cfe8ff")
        status = status_line(self.flow)
        if self.flow.resumable is not None:
            status = "You have an unfinished play: RESUME carries on where you left off."
        font = fit_text(canvas, status, status_font(lay.text_unit), w * 0.92)
        canvas.text(status, w / 2, lay.status_y, font,
                    fill="#ff8a80" if self.flow.error else self.look.gold)  # fmt: skip
        controls = self.controls()
        draw_controls(canvas, [c for c in controls if c.id not in offer.IDS])
        offer.draw(canvas, controls, self.flow.settings)

    def corners(self, w: float, cols: int) -> list[tuple[float, float, float, float]]:
        """The boxes in the top corners: the sound controls (all four, so the picture does not
        move as sound is turned on) in `cols` columns and a top-right HOW TO PLAY."""
        boxes = offer.boxes(w, cols) if self.flow.settings.audio else []
        return [*boxes, corner_box(w)] if self.look.howto_corner else boxes

    def layout(self, canvas: Canvas) -> SplashLayout:
        """The layout drawn: with controls in the corners, the picture's band starts below them
        when the picture or the name (centred, as wide as `unit` or the name) would reach one;
        on a short, wide screen the sound controls stand in one row where that leaves the
        picture more height. Keeps the sound controls' columns for `controls`."""
        w, h = canvas.width, canvas.height
        messages = bool(self.messages)
        count = 2 if self.look.howto_corner else 3
        lay = splash_layout(w, h, messages, count)
        name = self.flow.game.name.upper()
        title = fit_text(canvas, name, Font(lay.unit * 0.14, "display", True), w * 0.9)
        widest = max(lay.unit, canvas.measure(name, title))
        left, right = (w - widest) / 2, (w + widest) / 2
        tops = {}  # columns -> where the picture's band must start
        for cols in (2, 4) if h < ROW_BELOW and w > h else (2,):
            corners = self.corners(w, cols)
            clear = all(x + bw + 4 <= left or x - 4 >= right for x, _y, bw, _bh in corners)
            tops[cols] = 0.0 if clear else max(y + bh for _x, y, _bw, bh in corners) + 4
        self.cols = min(tops, key=lambda cols: (tops[cols], cols))
        if not tops[self.cols]:
            return lay
        return splash_layout(w, h, messages, count, tops[self.cols])

    def _draw_title(self, canvas: Canvas, w: float, h: float, unit: float) -> None:
        """The game's picture, its name and WIN UP TO the top prize, laid out against h."""
        self.look.title_art(canvas, w, h, unit)
        name = self.flow.game.name.upper()
        title = fit_text(canvas, name, Font(unit * 0.14, "display", True), w * 0.9)
        canvas.text(name, w / 2 + 3, h * 0.29 + 4, title, fill="#00000088")
        canvas.text(name, w / 2, h * 0.29, title, fill=self.look.gold)
        game = self.flow.game
        top = f"WIN UP TO {format_pounds(game.top_prize_pence, always_pence=False)}"
        win = fit_text(canvas, top, Font(win_size(unit, bool(self.messages)), "display", True),
                       w * 0.9)  # fmt: skip
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
