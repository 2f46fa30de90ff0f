"""Account: a one-time sign-in code for another device, signing in here with one, logging
out (this device, or every device of the account), and the way to a break, self-exclusion, the
player's data and closing the account (engine/ui/scenes/protect.py)."""

from __future__ import annotations

from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.input import Control, Reply
from engine.ui.scenes.site import GAP, HEADER, Lobby, backdrop, header
from engine.ui.screen import Page
from engine.ui.widgets import GOLD, close_button, draw_controls


class AccountScene(Page):
    """The account: a one-time code (10 minutes) that signs this account in on another device,
    signing in here with a code from another device, and logging out."""

    name = "account"
    flow: Lobby

    def __init__(self, lobby: Lobby) -> None:
        super().__init__(lobby)
        self.code = ""
        self.expires = ""

    def controls(self) -> list[Control]:
        """Close, Get a sign-in code, Use a sign-in code, Log out, Log out every device, and
        Breaks and my data (the ProtectScene: a break, self-exclusion, the player's data,
        closing the account)."""
        w, _ = self.size()
        free = not self.flow.busy
        wide = w >= 600  # three columns: the codes, logging out, breaks and data
        bw = min(360.0, (w - 4 * GAP) / 3 if wide else w - 2 * GAP)
        left = (w - 3 * bw - 2 * GAP) / 2 if wide else (w - bw) / 2
        right, down = (left + bw + GAP, 0.0) if wide else (left, 140.0)
        third, lower = (right + bw + GAP, 0.0) if wide else (left, 280.0)
        return [
            Control("close", "Back to the games", w - 62, 10, 52, 52),
            Control("new-code", "Get a sign-in code", left, HEADER + 20, bw, 52, free),
            Control("use-code", "Use a sign-in code", left, HEADER + 90, bw, 52, free),
            Control("logout", "Log out", right, HEADER + 20 + down, bw, 52, free),
            Control("logout-all", "Log out every device", right, HEADER + 90 + down, bw, 52, free),
            Control("protect", "Breaks and my data", third, HEADER + 20 + lower, bw, 52, free),
        ]

    def activate(self, control: str) -> None:
        """Ask for a code, sign in with one, or go back."""
        if control == "close":
            self.flow.error = ""
            self.flow.go("lobby")
        elif control == "protect":
            self.flow.error = ""
            self.flow.go("protect")
        elif self.app is not None and control == "new-code":
            self.flow.busy = "Asking for a code…"
            self.app.request("code", {}, self._on_code)
        elif self.app is not None and control == "use-code":
            self.flow.busy = "Signing in…"
            # The balance now: the shell moves the session's start by the change, so the
            # reality check's net spend carries on across the switch of account.
            known = {} if self.flow.balance is None else {"balance_pence": self.flow.balance}
            self.app.request("signin", known, self._on_signin)
        elif self.app is not None and control in ("logout", "logout-all"):
            self.flow.busy = "Logging out…"
            self.app.request("logout", {"every": control == "logout-all"}, self._on_logout)

    def _on_logout(self, reply: Reply) -> None:
        self.flow.busy = ""
        if not reply.ok:
            self.flow.fail(reply, "log-out")
            return
        self.flow.error = ""
        self.code = ""
        every = reply.body.get("every")
        self.flow.say(
            "Logged out on every device of this account." if every else "Logged out on this device."
        )
        if isinstance(reply.body.get("balance_pence"), int):  # a window that goes on as a guest
            self.flow.set_balance(reply.body.get("balance_pence"))
            self.flow.session_clock(reply.body.get("session"))
        if self.app is not None:  # the lobby afresh: a new guest session, or a code to sign in
            self.app.request("open", {"params": {}}, lambda _reply: None)

    def _on_code(self, reply: Reply) -> None:
        self.flow.busy = ""
        if not reply.ok:
            self.flow.fail(reply, "code request")
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
            self.flow.fail(reply, "sign-in")
            return
        if reply.body.get("cancelled"):
            return
        self.flow.error = ""
        self.code = ""
        self.flow.say("Signed in to your account on this device.")
        self.flow.set_balance(reply.body.get("balance_pence"))
        self.flow.session_clock(reply.body.get("session"))

    def draw(self, canvas: Canvas) -> None:
        """The buttons and, once asked for, the code in large letters."""
        w, h = canvas.width, canvas.height
        backdrop(canvas, w, h)
        header(canvas, w, "ACCOUNT", self.flow)
        if self.code:
            top = HEADER + (210 if w >= 600 else 410)  # below the buttons
            big = fit_text(canvas, self.code, Font(48.0, "display", True), w - 40)
            canvas.text(self.code, w / 2, top, big, fill=GOLD)
            note = f"Valid once, until {self.expires}"
            canvas.text(note, w / 2, top + 45, fit_text(canvas, note, Font(16.0, "body", True),
                                                        w - 24))  # fmt: skip
        draw_controls(canvas, [c for c in self.controls() if c.id != "close"])
        close_button(canvas, self.controls()[0])
