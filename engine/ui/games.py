"""Which scene a page opens with, from its query parameters (the same for every backend)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.ui.app import Scene
from engine.ui.lab_riches import start_scene
from engine.ui.lab_riches.flow import Flow
from engine.ui.scenes.check import CheckScene

GAMES = ("lab-riches",)


def _flag(value: object) -> bool:
    return str(value).lower() in ("1", "true", "yes", "on")


def first_scene(params: Mapping[str, object]) -> Scene:
    """`?scene=check` opens the system check; otherwise the game (`?game=lab-riches`, or `/`).

    The game's settings: `fast`, `sound` (both remembered by the shell) and `reducedMotion`.
    """
    if params.get("scene") == "check":
        return CheckScene()
    game = str(params.get("game") or "lab-riches")
    if game not in GAMES:
        game = "lab-riches"
    flow = Flow(
        fast=_flag(params.get("fast")),
        reduced_motion=_flag(params.get("reducedMotion")),
        sound=_flag(params.get("sound")),
        audio=_flag(params.get("audio", "1")),  # the shell passes audio=0 when it has no sound
    )
    return start_scene(flow)
