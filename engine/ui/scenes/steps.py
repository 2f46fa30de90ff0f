"""A step of VERIFY (engine/ui/scenes/verify.py): its name, whether it held, what it found."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    """One step of the check: its name, whether it held, and what it found in plain words.
    `waiting`: the step could not run yet and nothing failed (a play not yet in the public
    log); the steps after it are not run either."""

    name: str
    ok: bool
    detail: str
    waiting: bool = False
