"""VERIFY: one play checked in the player's own browser, step by step, in plain words.

1. The outcome token's Ed25519 signature against the key the endpoint publishes (checked by
   the shell with WebCrypto, as at purchase: Python has no Ed25519 in the browser).
2. The token is a paid play's (no `mode` claim: a free TRY play's token, mode "try", proves
   nothing about a paid play), and its claims are this play's entry: its index, prize,
   composition and seed.
3. The entry's leaf hash, by the pool's published scheme (docs/math.md).
4. Its Merkle path climbs from that leaf to the pool's root.
5. That root is the one the endpoint published for the pool before its first sale, and the
   pool is one of paid plays (its commitment's `kind`: a pool of kind "try" gives only free
   plays).
6.-9. The play's sale in the public log, its checkpoint signed by the log key and cosigned by
   a quorum of witnesses (the site's tlog-policy), and of one history with the last checkpoint
   this browser saw (engine/ui/scenes/verify_log.py). A play no checkpoint covers yet stops at
   step 6 without failing: "not yet in the public log".

A tampered proof fails at the step it breaks, and every later step is not run. The same check
runs from the command line, independent of this code: `python3 build.py verify`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.math.leaves import PoolEntry, verify_proof
from engine.outcome import Composition
from engine.ui.app import App
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.input import Control, Reply
from engine.ui.scenes.site import GAP, HEADER, Lobby, backdrop, header
from engine.ui.scenes.steps import Step
from engine.ui.scenes.verify_log import (
    check_history,
    check_log_key,
    check_logged,
    check_witnesses,
    signature_items,
    signature_request,
    to_keep,
)
from engine.ui.screen import Page
from engine.ui.scroll import Scroll
from engine.ui.widgets import GOLD, MIN_TARGET, button, close_button, wrap

PAID = "paid"  # the kind of play (a token with no `mode` claim) and of pool My Games holds


def _entry(detail: dict[str, Any]) -> PoolEntry:
    return PoolEntry.from_json(detail["entry"])


def check_signature(found: dict[str, Any]) -> Step:
    """1. The shell's WebCrypto check of the token's signature."""
    signature = found.get("signature") or {}
    if signature.get("ok") is True:
        return Step(
            "Signature",
            True,
            f"The token is signed by the endpoint's key {signature.get('kid', '')}.",
        )
    return Step("Signature", False, "The token's signature does not match any published key.")


def check_claims(found: dict[str, Any]) -> Step:
    """2. The token is a paid play's and its claims name this play's entry."""
    claims, entry = found.get("payload") or {}, _entry(found["detail"])
    if "mode" in claims:
        return Step(
            "The play's entry",
            False,
            "The token is a free TRY play's, not a paid play's: it proves nothing about this play."
            if claims["mode"] == "try"
            else "The token is not a paid play's.",
        )
    same = (
        claims.get("index") == entry.index
        and claims.get("prize_pence") == entry.prize_pence
        and Composition.from_json(claims["composition"]) == entry.composition
        and claims.get("seed") == entry.seed.hex()
    )
    if same:
        return Step(
            "The play's entry",
            True,
            f"The token is a paid play's and names entry {entry.index} of the pool.",
        )
    return Step("The play's entry", False, "The token does not name this play's entry.")


def check_leaf(found: dict[str, Any]) -> Step:
    """3. The entry's leaf hash."""
    leaf = _entry(found["detail"]).leaf().hex()
    return Step("Leaf hash", True, f"The entry's leaf hash is {leaf[:16]}…")


def check_path(found: dict[str, Any]) -> Step:
    """4. The Merkle path from the leaf to the pool's root."""
    detail = found["detail"]
    root, proof = str(detail["pool"]["root"]), list(detail.get("proof") or [])
    if verify_proof(root, _entry(detail), proof):
        return Step(
            "Merkle path", True, f"{len(proof)} hashes lead from the leaf to root {root[:16]}…"
        )
    return Step(
        "Merkle path", False, "The path does not lead from the entry's leaf to the pool's root."
    )


def check_published(found: dict[str, Any]) -> Step:
    """5. The pool's root against the one published before its first sale, for a pool of
    paid plays."""
    published = found.get("published") or {}
    root, kind = found["detail"]["pool"]["root"], published.get("kind")
    if not published.get("root") or published["root"] != root:
        return Step("Published root", False, "The root is not the one published for the pool.")
    if kind != PAID:
        return Step(
            "Published root",
            False,
            "The pool is one of free TRY plays: no paid play comes from it."
            if kind == "try"
            else "The endpoint does not say the pool is one of paid plays.",
        )
    return Step(
        "Published root",
        True,
        "The root is the one published before the pool's first sale, for a pool of paid plays.",
    )


# Each step with the name it is shown by when what the endpoint sent for it is malformed (the
# browser's zips ship no function docstrings: tools/build/stripped.py).
STEPS: tuple[tuple[str, Callable[[dict[str, Any]], Step]], ...] = (
    ("Signature", check_signature),
    ("The play's entry", check_claims),
    ("Leaf hash", check_leaf),
    ("Merkle path", check_path),
    ("Published root", check_published),
    ("In the public log", check_logged),
    ("Log signature", check_log_key),
    ("Witnesses", check_witnesses),
    ("Same history", check_history),
)


def run_steps(found: dict[str, Any]) -> list[Step]:
    """The steps in order, up to the first that fails."""
    out: list[Step] = []
    for name, check in STEPS:
        try:
            step = check(found)
        except (KeyError, TypeError, ValueError, AttributeError):
            step = Step(name, False, "What the endpoint sent for this step is malformed.")
        out.append(step)
        if not step.ok:
            break
    return out


def passed(steps: list[Step]) -> bool:
    """Every step ran and held."""
    return len(steps) == len(STEPS) and all(s.ok for s in steps)


def verdict(steps: list[Step]) -> str:
    """The check's outcome in a sentence."""
    if passed(steps):
        return (
            "Every step passed: this paid play is the one committed before the pool's first "
            "sale, and its sale is in the public log, signed and witnessed, with the history "
            "this browser saw."
        )
    if steps and steps[-1].waiting:
        return f"Steps 1 to {len(steps) - 1} passed. {steps[-1].detail}"
    return f"The check failed at step {len(steps)}, {steps[-1].name}." if steps else ""


class VerifyScene(Page):
    """A play's check, a line per step, ✓ or ✗; closes back to My Games."""

    name = "verify"
    scroll: Scroll
    flow: Lobby

    def __init__(self, lobby: Lobby) -> None:
        super().__init__(lobby)
        self.play_number = 0
        self.steps: list[Step] = []
        self.scroll = Scroll()  # the steps, under the header

    def check(self, play_number: int) -> None:
        """Show this scene and check the play."""
        self.play_number = play_number
        self.steps = []
        self.scroll.offset = 0.0
        self.flow.go("verify")

    def enter(self, app: App) -> None:
        """Ask the shell for the play, its proof, the signature's check and the published root."""
        super().enter(app)
        self._ask()

    def _ask(self) -> None:
        self.steps = []
        self.flow.busy = f"Checking play {self.play_number}…"
        assert self.app is not None
        self.app.request("verify_play", {"play_number": self.play_number}, self._on_found)

    def _on_found(self, reply: Reply) -> None:
        """What the shell found; then the checkpoint's signatures checked by the shell (Python
        has no Ed25519 in the browser), if it carries any the site's policy names."""
        if not reply.ok:
            self.flow.fail(reply, "check")
            return
        found = dict(reply.body)
        items = signature_items(found)
        if not items:
            self._decide(found)
            return

        def checked(answer: Reply) -> None:
            if not answer.ok:
                self.flow.fail(answer, "check")
                return
            found["checked"] = dict(zip(items, answer.body.get("ok") or [], strict=False))
            self._decide(found)

        assert self.app is not None
        self.app.request("check_signatures", signature_request(items), checked)

    def _decide(self, found: dict[str, Any]) -> None:
        """Run the steps, say each, and keep the checkpoint on the device once all held."""
        self.flow.busy = ""
        self.flow.error = ""
        self.steps = run_steps(found)
        self.flow.say(f"Verify play {self.play_number}.")
        for k, step in enumerate(self.steps, 1):
            result = "not yet" if step.waiting else "passed" if step.ok else "FAILED"
            self.flow.say(f"Step {k}, {step.name}: {result}. {step.detail}")
        self.flow.say(verdict(self.steps))
        kept = to_keep(found) if passed(self.steps) else None
        if kept is not None and self.app is not None:
            self.app.request("keep_checkpoint", kept, lambda _reply: None)

    def controls(self) -> list[Control]:
        """Close (back to My Games); and Check again while the play is not yet in the log."""
        w, _ = self.size()
        out = [Control("close", "Back to My Games", w - 62, 10, 52, 52)]
        if self.steps and self.steps[-1].waiting:
            bw = min(240.0, w - 2 * GAP)
            out.append(Control("again", "Check again", (w - bw) / 2, 56, bw, MIN_TARGET))
        return out

    def activate(self, control: str) -> None:
        """Back to My Games, or check the play again."""
        if control == "close":
            self.flow.error = ""
            self.flow.go("my-games")
        elif control == "again":
            self._ask()

    def draw(self, canvas: Canvas) -> None:
        """A line per step with its mark and what it found."""
        w, h = canvas.width, canvas.height
        backdrop(canvas, w, h)
        header(canvas, w, f"VERIFY PLAY {self.play_number}", self.flow)
        big = Font(min(19.0, max(14.0, w * 0.038)), "body", True)
        small = Font(big.size * 0.82, "body", False)
        self.scroll.place(HEADER, h, self.scroll.content)
        self.scroll.begin(canvas, 0, w)
        y = 16.0
        for k, step in enumerate(self.steps, 1):
            mark, colour = ("✓", "#7dff9b") if step.ok else ("✗", "#ff8a80")
            if step.waiting:
                mark, colour = "…", GOLD
            title = f"{mark} {k}. {step.name}"
            canvas.text(
                title,
                GAP + 10,
                y,
                fit_text(canvas, title, big, w - 2 * GAP),
                fill=colour,
                align="left",
            )
            y += big.size * 1.4
            for line in wrap(canvas, step.detail, small, w - 2 * GAP - 30):
                text = " ".join(word for word, _ in line)
                canvas.text(text, GAP + 30, y, small, fill="#ffffff", align="left")
                y += small.size * 1.5
            y += 8
        if self.steps:
            last = self.steps[-1]
            short = ("Every step passed." if passed(self.steps) else
                     "Not yet in the public log." if last.waiting else
                     f"Failed at step {len(self.steps)}.")  # fmt: skip
            canvas.text(short, w / 2, y + 16, fit_text(canvas, short, big, w - 20),
                        fill="#ff8a80" if not last.ok and not last.waiting else GOLD)  # fmt: skip
            y += 16 + big.size
        self.scroll.place(HEADER, h, y + 12)  # the height just drawn, before its bar
        self.scroll.end(canvas, w)
        close, *again = self.controls()
        close_button(canvas, close)
        for control in again:
            button(canvas, control)
