"""Rules and Prizes: a game's rules in a player's words, then its Prize Amounts and Odds.

The second page is the same in every game and never typed in: every figure is read from the
game's prize table when the screen is first shown, so the page cannot disagree with what is
sold. Under it, the prizes left in the current pool, counted from the public log (asked of the
shell each time the screen opens: engine/ui/remaining.py); when the endpoint does not answer,
the page is the table alone. A game gives only its rules text ('{icon}' tokens are drawn and
said by its Look).
"""

from __future__ import annotations

from functools import cached_property
from itertools import pairwise

from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.flow import Flow
from engine.ui.input import Control, Reply
from engine.ui.look import Look
from engine.ui.remaining import Remaining
from engine.ui.scenes.paged import PagedScreen
from engine.ui.widgets import draw_controls

BESIDE = 600.0  # a panel at least this wide shows what is left beside the odds, not under them
# The table's column centres and the borders between them (of the panel's width), by BESIDE:
# the Prize Amounts are short, the odds long.
COLUMNS = {False: ((0.3, 0.68), (0.44,)), True: ((0.2, 0.5, 0.8), (0.35, 0.65))}


class RulesScene(PagedScreen):
    """Rules and Prizes: the rules in a player's words, then the Prize Amounts and Odds."""

    name = "rules"
    panel_size = (820.0, 700.0, 16)
    text_room = (62.0, 74.0)

    def __init__(self, flow: Flow, look: Look, rules_text: tuple[str, ...]) -> None:
        super().__init__(flow, look)
        self.rules_text = rules_text
        self.remaining: Remaining | None = None  # the prizes left, once the shell answers

    # Read from the prize table when the screen is first shown, not when a game's page starts:
    # parsing and checking the table was most of a page's first frame in Pyodide, and its
    # exact figures (engine.math.figures, fractions) are imported then too.
    @cached_property
    def rows(self) -> list[tuple[str, str]]:
        """Each prize, top first, with its odds: ("£500", "1 in 60,000.00")."""
        from engine.math.figures import show2, tier_odds  # exact figures: fractions (see above)

        table = self.flow.game.table
        odds = tier_odds(table)
        return [
            (format_pounds(t.prize_pence, always_pence=False), f"1 in {show2(odds[t.prize_pence])}")
            for t in sorted(table.tiers, key=lambda t: -t.prize_pence)
            if t.prize_pence > 0
        ]

    @cached_property
    def summary(self) -> str:
        """The overall odds of winning and the expected payout."""
        from engine.math.figures import show2

        table = self.flow.game.table
        return (
            f"Overall odds of winning: 1 in {show2(table.odds_one_in)}. "
            f"Expected prize payout: {show2(table.rtp * 100)}%."
        )

    def enter(self, app: App) -> None:
        """Start on the rules page."""
        super().enter(app)
        self.flow.say("Rules and Prizes. " + " ".join(self.look.words(p) for p in self.rules_text))
        self.remaining = None
        app.request("remaining", {"game": self.flow.game.id}, self._on_remaining)

    def _on_remaining(self, reply: Reply) -> None:
        """The prizes left, if the endpoint counted them (else the table stands alone)."""
        self.remaining = Remaining.from_body(reply.body) if reply.ok else None
        if self.remaining is not None and self.page == 1:
            self.flow.say(self.remaining.said())

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
            self.turn(1 - self.page)
            if self.page == 1:
                table = ", ".join(f"{p} {o}" for p, o in self.rows)
                self.flow.say(f"Prize Amounts and Odds: {table}. {self.summary}")
                if self.remaining is not None:
                    self.flow.say(self.remaining.said())
        elif control == "close":
            self.close()

    def draw(self, canvas: Canvas) -> None:
        """The page: wrapped rules, or the table with the overall figures."""
        x, y, pw, ph = self.draw_panel(canvas)
        head = Font(min(30.0, pw * 0.065), "display", True)
        title = "RULES" if self.page == 0 else "PRIZE AMOUNTS AND ODDS"
        # Clear of the X (52 px from the right edge) with room to spare on both sides.
        canvas.text(
            title, x + pw / 2, y + 36, fit_text(canvas, title, head, pw - 170), fill=self.look.gold
        )
        if self.page == 0:
            self.draw_text(canvas, lambda ty: self._draw_rules(canvas, x, ty, pw))
        else:
            self.draw_text(canvas, lambda ty: self._draw_prizes(canvas, x, ty, pw, ph))
        draw_controls(canvas, self.controls())

    def _draw_rules(self, canvas: Canvas, x: float, ty: float, pw: float) -> float:
        """Page 1: the rules, wrapped, a paragraph at a time, from ty; returns the y under."""
        font = Font(min(18.0, max(13.0, pw * 0.034)), "body", False)
        for para in self.rules_text:
            ty = self.look.rich_text(canvas, para, x + pw / 2, ty, font, pw - 40, "#ffffff")
            ty += font.size * 0.5
        return ty

    def _draw_prizes(self, canvas: Canvas, x: float, ty: float, pw: float, ph: float) -> float:
        """Page 2: a line per winning Prize Amount with its odds (and, on a wide panel, what is
        left of it), then the overall figures, from ty; returns the y under."""
        line = max(24.0, min(34.0, (ph - 170) / (len(self.rows) + 1)))
        font = Font(min(20.0, line * 0.6), "body", True)
        remaining = self.remaining
        beside = remaining is not None and pw >= BESIDE
        at, borders = COLUMNS[beside]
        cell = Cells(canvas, x, pw, at, borders, font)
        left = dict(remaining.rows("")) if remaining else {}  # under its heading: "1 of 2"
        ty += line / 2
        for k, head in enumerate(("PRIZE", "ODDS", "REMAINING")[: len(at)]):
            cell(k, head, ty, "#cfe8ff")
        for prize, odds in self.rows:
            ty += line
            cell(0, prize, ty, self.look.gold)
            cell(1, odds, ty, "#ffffff")
            if beside and prize in left:
                cell(2, left[prize], ty, _dim(left[prize]))
        ty = self.look.rich_text(
            canvas,
            self.summary,
            x + pw / 2,
            ty + line * 0.7,
            Font(font.size * 0.9, "body", True),
            pw - 90,
            "#ffffff",
        )
        if remaining is None:
            return ty
        if not beside:  # a narrow panel: the prizes left under the table, a line each
            ty += line * 0.9
            head = "PRIZES REMAINING"
            canvas.text(head, x + pw / 2, ty, fit_text(canvas, head, font, pw - 40), fill="#cfe8ff")
            for prize, _ in self.rows:
                if prize in left:
                    ty += line
                    cell(0, prize, ty, self.look.gold)
                    cell(1, left[prize], ty, _dim(left[prize]))
        small = Font(font.size * 0.8, "body", False)
        return self.look.rich_text(
            canvas, remaining.source(), x + pw / 2, ty + line * 0.7, small, pw - 60, "#cfe8ff"
        )


def _dim(left: str) -> str:
    """What is left of a Prize Amount in white; none left, dimmed."""
    return "#9fb3c8" if left.startswith("None") else "#ffffff"


class Cells:
    """A table's cells on the panel: each centred on its column, shrunk to fit between the
    borders on either side of it, so no two cells of a line ever meet."""

    def __init__(
        self,
        canvas: Canvas,
        x: float,
        pw: float,
        at: tuple[float, ...],
        borders: tuple[float, ...],
        font: Font,
    ) -> None:
        self.canvas, self.x, self.pw, self.at, self.font = canvas, x, pw, at, font
        edges = [0.0, *borders, 1.0]
        self.widths = [
            2 * min(c - lo, hi - c) * pw - 8
            for c, (lo, hi) in zip(at, pairwise(edges), strict=True)
        ]

    def __call__(self, column: int, text: str, y: float, fill: str) -> None:
        font = fit_text(self.canvas, text, self.font, self.widths[column])
        self.canvas.text(text, self.x + self.pw * self.at[column], y, font, fill=fill)
