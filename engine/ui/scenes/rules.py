"""Rules and Prizes: a game's rules in a player's words, then its Prize Amounts and Odds.

The second page is the same in every game and never typed in: every figure is read from the
game's prize table when the screen is first shown, so the page cannot disagree with what is
sold. A game gives only its rules text ('{icon}' tokens are drawn and said by its Look).
"""

from __future__ import annotations

from functools import cached_property

from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.flow import Flow
from engine.ui.input import Control
from engine.ui.look import Look
from engine.ui.scenes.paged import PagedScreen
from engine.ui.widgets import draw_controls


class RulesScene(PagedScreen):
    """Rules and Prizes: the rules in a player's words, then the Prize Amounts and Odds."""

    name = "rules"
    panel_size = (820.0, 700.0, 16)
    text_room = (62.0, 74.0)

    def __init__(self, flow: Flow, look: Look, rules_text: tuple[str, ...]) -> None:
        super().__init__(flow, look)
        self.rules_text = rules_text

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
        elif control == "close":
            self.close()

    def draw(self, canvas: Canvas) -> None:
        """The page: wrapped rules, or the table with the overall figures."""
        x, y, pw, ph = self.draw_panel(canvas)
        head = Font(min(30.0, pw * 0.065), "display", True)
        title = "RULES" if self.page == 0 else "PRIZE AMOUNTS AND ODDS"
        # Clear of the X (52 px from the right edge) with room to spare on both sides.
        canvas.text(title, x + pw / 2, y + 36, fit_text(canvas, title, head, pw - 170),
                    fill=self.look.gold)  # fmt: skip
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
        """Page 2: a line per winning Prize Amount with its odds, then the overall figures,
        from ty; returns the y under."""
        line = max(24.0, min(34.0, (ph - 170) / (len(self.rows) + 1)))
        font = Font(min(20.0, line * 0.6), "body", True)
        ty += line / 2
        canvas.text("PRIZE", x + pw * 0.3, ty, font, fill="#cfe8ff")
        canvas.text("ODDS", x + pw * 0.68, ty, font, fill="#cfe8ff")
        for prize, odds in self.rows:
            ty += line
            canvas.text(prize, x + pw * 0.3, ty, font, fill=self.look.gold)
            canvas.text(odds, x + pw * 0.68, ty, font)
        return self.look.rich_text(canvas, self.summary, x + pw / 2, ty + line * 0.7,
                                   Font(font.size * 0.9, "body", True), pw - 90,
                                   "#ffffff")  # fmt: skip
