"""The How To Play pages and the Rules and Prizes page (figures read from the prize table)."""

from __future__ import annotations

from engine.lab_riches import rules
from engine.math.figures import show2, tier_odds
from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.flow import Flow
from engine.ui.input import Control, Event, Key
from engine.ui.lab_riches import art
from engine.ui.lab_riches.panels import panel, rich_text, words
from engine.ui.screen import Screen
from engine.ui.widgets import draw_controls

HOW_TO_PLAY = (
    ("MAIN GAME", ("TAP GO TO REVEAL 4 SYMBOLS IN THE TOP ROW AND THE GRID SYMBOLS FOR THAT GO. "
                   "IN A COLUMN, IF ONE OF THE SYMBOLS IN THE TOP ROW MATCHES A GRID SYMBOL "
                   "DIRECTLY BELOW, THE MATCHING GRID SYMBOL WILL BE “LOCKED IN” {lock} PLACE "
                   "FOR YOUR REMAINING GOES.",)),
    ("MAIN GAME", ("ON YOUR NEXT GO, YOU WILL REVEAL 4 NEW SYMBOLS IN THE TOP ROW. ANY "
                   "NON-MATCHING SYMBOLS WILL BE REMOVED FROM THE GRID AND REPLACED WITH NEW GRID "
                   "SYMBOLS. COMPLETE A ROW OF “LOCKED IN” GRID SYMBOLS TO WIN THE PRIZE FOR THAT "
                   "ROW.",)),
    ("MAIN GAME", ("REVEAL 3 {bonus} SYMBOLS IN A GO TO ACTIVATE THE BONUS GAME.",
                   "REVEAL A {lightning} TO ADD SEGMENTS TO THE PRIZE METER.",
                   "REVEAL A {extra-goes} SYMBOL TO BE AWARDED THE NUMBER OF EXTRA GOES "
                   "DISPLAYED.")),
    ("PRIZE METER", ("EVERY {lightning} WILL DISPLAY A NUMBER.",
                     "THE PRIZE METER WILL FILL THE NUMBER OF SEGMENTS DISPLAYED ON THE "
                     "{lightning}.",
                     "FILL 8 OR MORE SEGMENTS TO WIN A PRIZE.")),
    ("BONUS GAME", ("TAP GO TO START THE BONUS GAME.", "THE LIGHT COLLECTS THE ITEM IT LANDS ON.",
                    "LAND ON A {up} TO MOVE UP A ROW.",
                    "LAND ON A {meter} TO ADD THE NUMBER OF SEGMENTS DISPLAYED TO THE PRIZE "
                    "METER.",
                    "LAND ON A {extra-goes} SYMBOL TO BE AWARDED THE NUMBER OF EXTRA GOES "
                    "DISPLAYED.",
                    "LAND ON A {cash} TO WIN AN INSTANT PRIZE.")),
)  # fmt: skip

RULES_TEXT = (
    f"Each play costs {format_pounds(rules.PRICE_PENCE)}. Its outcome is fixed by the lottery's "
    "computer at the moment you buy it. Nothing you do while playing changes it: no skill, no "
    "timing, no choices.",
    "Press GO to use a go. You start with 6 goes. The Top Row shows 4 new symbols and every "
    "grid square that is not locked shows a new symbol.",
    "A grid symbol that matches the Top Row symbol above its column locks {lock} and stays "
    "for the rest of the play. Lock all four squares of a row to win its Prize Box amount.",
    "Each {lightning} adds its number of segments to the Power Surge Prize Meter. Only the box "
    "lit at the end pays: 8 segments or more win.",
    "A {extra-goes} adds goes. Three {bonus} in one go start the Bonus Game: the light lands "
    "on an up arrow to climb a row, or on segments, extra goes or an Instant Prize.",
    "You win one Prize Amount per play: your rows, meter and Instant Prizes added together.",
)


class HowToPlayScene(Screen):
    """The five How To Play pages, the arrow to the next and the 'X' that closes."""

    name = "howto"

    def __init__(self, flow: Flow) -> None:
        super().__init__(flow)
        self.page = 0

    def enter(self, app: App) -> None:
        """Start at page 1 and read it out."""
        super().enter(app)
        self.page = 0
        self._narrate()

    def _narrate(self) -> None:
        heading, paras = HOW_TO_PLAY[self.page]
        self.flow.say(f"How to play, page {self.page + 1} of 5. {heading}. " + " ".join(
            words(p) for p in paras))  # fmt: skip

    def _panel(self) -> tuple[float, float, float, float]:
        w, h = self.size()
        pw, ph = min(w - 24, 760.0), min(h - 24, 620.0)
        return (w - pw) / 2, (h - ph) / 2, pw, ph

    def controls(self) -> list[Control]:
        """Next (except on the last page) and Close."""
        x, y, pw, ph = self._panel()
        out = []
        if self.page < len(HOW_TO_PLAY) - 1:
            out.append(Control("next", "Next", x + pw - 70, y + ph - 70, 56, 56))
        if self.page > 0:
            out.append(Control("back", "Back", x + 14, y + ph - 70, 56, 56))
        out.append(Control("close", "Close", x + pw - 62, y + 10, 52, 52))
        return out

    def activate(self, control: str) -> None:
        """Turn the page or close."""
        if control == "next" and self.page < len(HOW_TO_PLAY) - 1:
            self.page += 1
            self._narrate()
        elif control == "back" and self.page > 0:
            self.page -= 1
            self._narrate()
        elif control == "close":
            self.flow.go("main" if self.flow.play is not None else "splash")

    def handle(self, event: Event) -> None:
        """Arrows turn pages too."""
        if isinstance(event, Key) and event.key in ("ArrowRight", "ArrowLeft"):
            self.press("next" if event.key == "ArrowRight" else "back")
        else:
            super().handle(event)

    def draw(self, canvas: Canvas) -> None:
        """The panel with its heading and text."""
        art.backdrop(canvas, canvas.width, canvas.height)
        x, y, pw, ph = self._panel()
        panel(canvas, x, y, pw, ph)
        head = Font(min(34.0, pw * 0.07), "display", True)
        canvas.text("HOW TO PLAY", x + pw / 2, y + 36, head, fill=art.GOLD)
        heading, paras = HOW_TO_PLAY[self.page]
        canvas.text(heading, x + pw / 2, y + 80, Font(head.size * 0.7, "display", True))
        size = min(23.0, max(15.0, pw * 0.048))
        if len(paras) > 4:
            size *= 0.85
        font = Font(size, "body", True)
        ty = y + 110
        for para in paras:
            ty = rich_text(canvas, para, x + pw / 2, ty, font, pw - 56, "#ffffff") + size * 0.6
        canvas.text(f"{self.page + 1} / {len(HOW_TO_PLAY)}", x + pw / 2, y + ph - 42,
                    Font(16, "body", True), fill="#cfe8ff")  # fmt: skip
        draw_controls(canvas, self.controls())


class RulesScene(Screen):
    """Rules and Prizes: the rules in a player's words, then the Prize Amounts and Odds."""

    name = "rules"

    def __init__(self, flow: Flow) -> None:
        super().__init__(flow)
        self.page = 0
        table = self.flow.game.table
        odds = tier_odds(table)
        self.rows = [
            (format_pounds(t.prize_pence, always_pence=False), f"1 in {show2(odds[t.prize_pence])}")
            for t in sorted(table.tiers, key=lambda t: -t.prize_pence)
            if t.prize_pence > 0
        ]
        self.summary = (
            f"Overall odds of winning: 1 in {show2(table.odds_one_in)}. "
            f"Expected prize payout: {show2(table.rtp * 100)}%."
        )

    def enter(self, app: App) -> None:
        """Start on the rules page."""
        super().enter(app)
        self.page = 0
        self.flow.say("Rules and Prizes. " + " ".join(words(p) for p in RULES_TEXT))

    def _panel(self) -> tuple[float, float, float, float]:
        w, h = self.size()
        pw, ph = min(w - 16, 820.0), min(h - 16, 700.0)
        return (w - pw) / 2, (h - ph) / 2, pw, ph

    def controls(self) -> list[Control]:
        """Next (bottom right) or Back (bottom left: never where Next was, so a double tap
        does not turn the page back), and Close."""
        x, y, pw, ph = self._panel()
        if self.page:
            turn = Control("back", "Back", x + 12, y + ph - 66, 54, 54)
        else:
            turn = Control("next", "Next", x + pw - 66, y + ph - 66, 54, 54)
        return [turn, Control("close", "Close", x + pw - 62, y + 10, 52, 52)]

    def activate(self, control: str) -> None:
        """Turn the page or close."""
        if control in ("next", "back"):
            self.page = 1 - self.page
            if self.page == 1:
                table = ", ".join(f"{p} {o}" for p, o in self.rows)
                self.flow.say(f"Prize Amounts and Odds: {table}. {self.summary}")
        elif control == "close":
            self.flow.go("main" if self.flow.play is not None else "splash")

    def draw(self, canvas: Canvas) -> None:
        """The page: wrapped rules, or the table with the overall figures."""
        art.backdrop(canvas, canvas.width, canvas.height)
        x, y, pw, ph = self._panel()
        panel(canvas, x, y, pw, ph)
        head = Font(min(30.0, pw * 0.065), "display", True)
        title = "RULES" if self.page == 0 else "PRIZE AMOUNTS AND ODDS"
        # Clear of the X (52 px from the right edge) with room to spare on both sides.
        canvas.text(title, x + pw / 2, y + 36, fit_text(canvas, title, head, pw - 170),
                    fill=art.GOLD)  # fmt: skip
        if self.page == 0:
            font = Font(min(18.0, max(13.0, pw * 0.034)), "body", False)
            ty = y + 70
            for para in RULES_TEXT:
                ty = rich_text(canvas, para, x + pw / 2, ty, font, pw - 40, "#ffffff")
                ty += font.size * 0.5
        else:
            line = min(34.0, (ph - 170) / (len(self.rows) + 1))
            font = Font(min(20.0, line * 0.6), "body", True)
            ty = y + 80
            canvas.text("PRIZE", x + pw * 0.3, ty, font, fill="#cfe8ff")
            canvas.text("ODDS", x + pw * 0.68, ty, font, fill="#cfe8ff")
            for prize, odds in self.rows:
                ty += line
                canvas.text(prize, x + pw * 0.3, ty, font, fill=art.GOLD)
                canvas.text(odds, x + pw * 0.68, ty, font)
            rich_text(canvas, self.summary, x + pw / 2, ty + line * 0.7,
                      Font(font.size * 0.9, "body", True), pw - 90, "#ffffff")  # fmt: skip
        draw_controls(canvas, self.controls())
