"""How long a play lasts at the normal pace, from its book and the presentation's timings: the
presses it waits for (GO, an arrow) and the seconds its events animate at normal speed (the
player's own pauses between presses not counted; REVEAL ALL adds a replay's rest before each
press after the first). docs/games/*-player.md quote each game's figures, which
tests/test_ui_pacing.py works out again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.book import Book
from engine.game import Game
from engine.outcome import Composition
from engine.ui.presentation import Presentation


@dataclass(frozen=True)
class Length:
    """A play's length: the presses it waits for and its events' seconds at normal speed."""

    presses: float
    seconds: float


def play_length(game: Game, presentation: Presentation, book: Book) -> Length:
    """The presses book waits for and the seconds its events animate (an event that asks for
    a choice, a Power Puck Shot arrow, drawn as the first option)."""
    presses, seconds = 0, 0.0
    for event in book.events:
        action = game.action_for(event)
        presses += action is not None
        choice = 0 if action is not None and action.choices else None
        seconds += presentation.duration(presentation.prepare(book, event, choice))
    return Length(presses, seconds)


def mean_length(
    game: Game, presentation: Presentation, weighted: Iterable[tuple[Composition, int]], seeds: int
) -> Length:
    """The mean length of the plays of compositions drawn in proportion to their weights, each
    played from `seeds` seeds (seed k: k as 16 bytes)."""
    model = game.table.model
    total_w, presses, seconds = 0, 0.0, 0.0
    for composition, weight in weighted:
        for k in range(seeds):
            length = play_length(game, presentation, game.book(model, composition, k.to_bytes(16)))
            presses += weight * length.presses
            seconds += weight * length.seconds
        total_w += weight * seeds
    return Length(presses / total_w, seconds / total_w)


def losing_and_any(game: Game, presentation: Presentation, seeds: int) -> tuple[Length, Length]:
    """The mean length of a losing play, and of any play of the prize table (what a TRY draws
    from), each composition played from `seeds` seeds."""
    table = game.table
    losing = Composition.from_json([])
    lost = mean_length(game, presentation, [(losing, 1)], seeds)
    plays = [(losing, table.base_pool_size - table.winning_plays)]
    for tier in table.tiers:
        # a tier's plays shared among its compositions by their weights (whole plays: scaled)
        plays += [(c, tier.count * w * 1000 // tier.total_weight) for c, w in tier.compositions]
    plays[0] = (losing, plays[0][1] * 1000)
    return lost, mean_length(game, presentation, plays, seeds)
