"""A game's rooms: the shared screens in its look, with its words, around its main screen."""

from __future__ import annotations

from typing import Any

from engine.ui.app import Scene
from engine.ui.flow import Flow, Interrupts
from engine.ui.look import Look
from engine.ui.scenes.how_to_play import HowToPlayScene, Page
from engine.ui.scenes.outcome import OutcomeScene
from engine.ui.scenes.rules import RulesScene
from engine.ui.scenes.splash import SplashScene


# Each imported when first shown, as before they interrupted through the flow: no page's
# first frame needs them (docs/build.md, "Our part of the start").
def reality(flow: Flow, back: Scene) -> Scene:
    """The reality check over the screen it interrupts."""
    from engine.ui.scenes.reality import RealityScene

    return RealityScene(flow, back)


def refusal(flow: Flow, back: Scene, body: dict[str, Any]) -> Scene | None:
    """A spend limit's or the cooling-off's refusal on its own screen (None for any other)."""
    from engine.ui.scenes.refusal import CODES, RefusalScene

    return RefusalScene(flow, back, body) if body.get("code") in CODES else None


INTERRUPTS = Interrupts(reality=reality, refusal=refusal)


def open_rooms(
    flow: Flow,
    look: Look,
    main: Scene,
    how_to_play: tuple[Page, ...],
    rules_text: tuple[str, ...],
    messages: tuple[str, ...] = (),
) -> Scene:
    """Register the splash, How To Play, Rules and Prizes, the main screen and the outcome
    with the flow, give it the screens that interrupt a play (the reality check, a refusal),
    and return the first (the splash, with the game's messages)."""
    flow.interrupts = INTERRUPTS
    splash = SplashScene(flow, look, messages)
    rooms = (splash, HowToPlayScene(flow, look, how_to_play), RulesScene(flow, look, rules_text),
             main, OutcomeScene(flow, look))  # fmt: skip
    for room in rooms:
        flow.register(room.name, room)
    return splash
