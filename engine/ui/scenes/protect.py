"""Breaks and your data (from Account): take a break, self-exclude (after a screen that says
plainly what it means), ask for play back after an exclusion's term, download everything kept
about the account, and close it.

The endpoint keeps and enforces each (docs/api.md, `/api/protections`, `/api/account/*`): a
break or an exclusion stops paid play and TRY on every device until its end, and neither can
be shortened. Every step asks before it does anything that cannot be undone, and says what it
did; times are written in the player's time zone (Visit.when). The page's buttons sit at the
bottom of the window and its words above them, as large as the room between lets them be, so
every size the site supports shows all of it.
"""

from __future__ import annotations

from typing import Any

from engine.money import format_pounds
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.input import Control, Reply
from engine.ui.scenes.site import GAP, HEADER, Lobby, backdrop, header
from engine.ui.screen import Page
from engine.ui.widgets import MIN_TARGET, close_button, draw_controls, wrap

BREAKS = (("24h", "24 hours"), ("1w", "1 week"), ("1m", "1 month"), ("6w", "6 weeks"))
EXCLUSIONS = (("6m", "6 months"), ("1y", "1 year"), ("2y", "2 years"), ("5y", "5 years"))
PLAIN_WORDS = (
    "Self-exclusion stops all play on this account, paid and free (TRY), on every device, for "
    "the time you choose.",
    "It cannot be shortened or lifted early. When it ends, play comes back only after you ask "
    "for it here and wait 24 hours.",
    "Your balance and plays stay yours: an unfinished play can still be finished; My Games, "
    "REPLAY and VERIFY stay open.",
    "Free help: GamCare, 0808 8020 133. GAMSTOP excludes you from every UK gambling site.",
)
BACK = {"confirm-break": "break", "exclusion-length": "exclusion",
        "confirm-exclusion": "exclusion-length"}  # fmt: skip
ROW = 62.0  # from one row of buttons to the next
SMALLEST = 12.0  # the words' smallest size before they are cut short


class ProtectScene(Page):
    """Take a break, Self-exclusion, Download my data, Close my account; each step asks
    first."""

    name = "protect"
    flow: Lobby

    def __init__(self, lobby: Lobby) -> None:
        super().__init__(lobby)
        self.state: dict[str, Any] = {}  # GET /api/protections
        # menu, break, confirm-break, exclusion (its plain words), exclusion-length,
        # confirm-exclusion, close
        self.step = "menu"
        self.length = ""  # the length chosen, while it is confirmed
        self.note = ""  # what was just done, said under the page's words

    def enter(self, app: App) -> None:
        """Fetch the account's break or exclusion."""
        super().enter(app)
        self.step, self.note = "menu", ""
        self.flow.busy = "Loading…"
        app.request("protections", {}, self._on_state)

    # ---- what the page says and offers, step by step ------------------------------------
    def standing(self) -> str:
        """Where the account stands: a break or exclusion, and until when."""
        s = self.state
        if s.get("excluded"):
            if s.get("can_ask_back"):
                return "Your self-exclusion has ended. Play comes back 24 hours after you ask."
            if s.get("play_resumes_at"):
                return f"Play comes back on {self.flow.when(s.get('play_resumes_at'))}."
            return f"You are self-excluded until {self.flow.when(s.get('excluded_until'))}."
        if s.get("on_break"):
            return f"You are taking a break until {self.flow.when(s.get('play_resumes_at'))}."
        return "You can take a break from play, or exclude yourself, at any time."

    def lines(self) -> list[str]:
        """The words of the current step."""
        words = {**dict(BREAKS), **dict(EXCLUSIONS)}.get(self.length, "")
        if self.step == "break":
            return [
                "Take a break: no paid plays and no free plays (TRY), on every device, from now "
                "until the break ends. It cannot be shortened. How long?",
            ]
        if self.step == "exclusion":
            return list(PLAIN_WORDS)
        if self.step == "exclusion-length":
            return ["Exclude yourself from all play for how long?"]
        if self.step == "confirm-break":
            return [f"Take a break of {words}, starting now? It cannot be undone."]
        if self.step == "confirm-exclusion":
            return [
                f"Exclude yourself from play for {words}, starting now? It cannot be "
                "shortened or lifted early, and afterwards play comes back only when you ask "
                "and wait 24 hours."
            ]
        if self.step == "close":
            balance = self.flow.balance
            paid = "" if balance is None else f" ({format_pounds(balance)} now)"
            return [
                "Close your account? Your unfinished plays are finished and their prizes paid, "
                f"then your balance{paid} is paid out, and every device is signed out.",
                "The records the operator must keep are kept; nothing links them to a device "
                "any more. It cannot be undone.",
            ]
        return [self.standing(), *([self.note] if self.note else [])]

    def choices(self) -> list[tuple[str, str, bool]]:
        """The step's buttons: (id, label, enabled)."""
        free = not self.flow.busy
        stopped = bool(self.state.get("excluded"))
        if self.step == "break":
            return [(f"break:{k}", w, free) for k, w in BREAKS] + [("back", "Back", True)]
        if self.step == "exclusion":  # its plain words first
            return [("understood", "I understand", free), ("back", "Back", True)]
        if self.step == "exclusion-length":
            return [(f"exclude:{k}", w, free) for k, w in EXCLUSIONS] + [("back", "Back", True)]
        if self.step == "confirm-break":
            return [("take-break", "Take the break", free), ("back", "Back", True)]
        if self.step == "confirm-exclusion":
            return [("exclude", "Exclude me", free), ("back", "Back", True)]
        if self.step == "close":
            return [("close-account", "Close my account", free), ("back", "Back", True)]
        if self.state.get("can_ask_back"):
            exclusion = ("ask-back", "Ask for play back", free)
        else:
            exclusion = ("exclusion", "Self-exclusion", free)
        return [
            ("break", "Take a break", free and not stopped),
            exclusion,
            ("data", "Download my data", free),
            ("close-step", "Close my account", free),
        ]

    # ---- layout ------------------------------------------------------------------------
    def columns(self, count: int) -> int:
        """Buttons a row: one on a narrow window; a length's four (and Back) side by side on
        a wide one; else two."""
        w, _ = self.size()
        if w < 600:
            return 1
        return 4 if count == 5 else 2

    def controls(self) -> list[Control]:
        """Back to Account, then the step's buttons, at the bottom of the window."""
        w, h = self.size()
        shown = self.choices()
        cols = self.columns(len(shown))
        rows = -(-len(shown) // cols)
        bw = min(300.0, (w - (cols + 1) * GAP) / cols)
        bh = max(MIN_TARGET, 52.0)
        top = h - 16 - rows * ROW + (ROW - bh)
        out = [Control("close", "Back to Account", w - 62, 10, 52, 52)]
        for n, (cid, label, enabled) in enumerate(shown):
            row, col = divmod(n, cols)
            across = min(cols, len(shown) - row * cols)  # a last row's buttons are centred
            left = (w - across * bw - (across - 1) * GAP) / 2
            out.append(Control(cid, label, left + col * (bw + GAP), top + row * ROW, bw, bh,
                               enabled))  # fmt: skip
        return out

    def words(self, canvas: Canvas) -> tuple[Font, list[str], float]:
        """The step's words wrapped at the largest size (18 px down to SMALLEST) that fits
        between the header and the buttons, and the top they start at."""
        w = canvas.width
        bottom = min(c.y for c in self.controls()[1:]) - 8
        width = min(w - 32, 760.0)
        size = 18.0
        while True:
            font = Font(size, "body", True)
            parted: list[list[Any]] = [[]]
            for gap in (parted, []):  # paragraphs parted by an empty row, or, short of room, not
                rows = [" ".join(t for t, _ in row) for line in self.lines()
                        for row in [*wrap(canvas, line, font, width), *gap]]  # fmt: skip
                rows = rows[:-1] if gap else rows
                if HEADER + 8 + len(rows) * size * 1.35 <= bottom:
                    return font, rows, HEADER + 8
            if size <= SMALLEST:
                return font, rows, HEADER + 8
            size -= 1.0

    # ---- actions -----------------------------------------------------------------------
    def activate(self, control: str) -> None:
        """Move between the steps, or ask the endpoint."""
        app = self.app
        if control == "close":
            self.flow.error = ""
            self.flow.go("account")
        elif control == "back":
            self._to(BACK.get(self.step, "menu"))
        elif control in ("break", "exclusion"):
            self._to(control)
        elif control == "understood":
            self._to("exclusion-length")
        elif control == "close-step":
            self._to("close")
        elif control.startswith(("break:", "exclude:")):
            kind, self.length = control.split(":")
            self._to("confirm-break" if kind == "break" else "confirm-exclusion")
        elif app is None:
            return
        elif control == "take-break":
            self._ask(app, "Taking the break…", {"what": "break", "length": self.length})
        elif control == "exclude":
            fields = {"what": "exclusion", "length": self.length, "understood": True}
            self._ask(app, "Excluding you…", fields)
        elif control == "ask-back":
            self._ask(app, "Asking for play back…", {"what": "return"})
        elif control == "data":
            self.flow.busy = "Gathering your data…"
            app.request("my_data", {}, self._on_data)
        elif control == "close-account":
            self.flow.busy = "Closing your account…"
            app.request("close_account", {}, self._on_closed)

    def _to(self, step: str) -> None:
        self.step = step
        self.flow.error = ""
        self.flow.say(" ".join(self.lines()))

    def _ask(self, app: App, doing: str, fields: dict[str, Any]) -> None:
        self.flow.busy = doing
        app.request("protect", fields, self._on_changed)

    # ---- answers -----------------------------------------------------------------------
    def _on_state(self, reply: Reply) -> None:
        self.flow.busy = ""
        if not reply.ok:
            self.flow.fail(reply, "loading")
            return
        self.flow.error = ""
        self.state = dict(reply.body)
        self.flow.say(self.standing())

    def _on_changed(self, reply: Reply) -> None:
        self.flow.busy = ""
        self.step = "menu"
        if not reply.ok:  # (a break not longer than the one running, ...: said as it is)
            self.flow.fail(reply, "request")
            return
        self.flow.error = ""
        self.state = dict(reply.body)
        self.note = "Done."
        self.flow.say(self.standing())

    def _on_data(self, reply: Reply) -> None:
        self.flow.busy = ""
        if not reply.ok:
            self.flow.fail(reply, "download")
            return
        self.flow.error = ""
        self.note = f"Your data is saved as {reply.body.get('name', 'a file')}."
        self.flow.say(self.note)

    def _on_closed(self, reply: Reply) -> None:
        self.flow.busy = ""
        if not reply.ok:
            self.step = "menu"
            self.flow.fail(reply, "closing")
            return
        paid = format_pounds(int(reply.body.get("paid_out_pence") or 0))
        self.flow.say(f"Your account is closed. {paid} was paid out.")
        if self.app is not None:  # the lobby afresh, as a new guest
            self.app.request("open", {"params": {}}, lambda _reply: None)

    # ---- drawing -----------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """The header, the step's words, its buttons."""
        w, h = canvas.width, canvas.height
        backdrop(canvas, w, h)
        title = "BREAKS AND YOUR DATA"
        header(canvas, w, title, self.flow)
        font, rows, top = self.words(canvas)
        for k, row in enumerate(rows):
            if row:  # (an empty row parts two paragraphs)
                line = fit_text(canvas, row, font, w - 24)
                canvas.text(row, w / 2, top + font.size * 1.35 * (k + 0.5), line, fill="#ffffff")
        controls = self.controls()
        draw_controls(canvas, controls[1:])
        close_button(canvas, controls[0])
