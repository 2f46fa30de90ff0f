"""A play's length at the normal pace (engine/ui/pacing.py), per game, as docs/games/*-player.md
quote it: the presses and the seconds of a losing play and of any play of the prize table."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import games
from engine.outcome import Composition
from engine.ui.games import presentation
from engine.ui.pacing import losing_and_any, play_length
from engine.ui.scenes.play import REPLAY_REST

DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"
SEEDS = 10  # as the docs say


@pytest.mark.parametrize("game_id", [game.id for game in games.on_sale()])
def test_the_player_s_page_quotes_the_play_s_length(game_id: str) -> None:
    game = games.get(game_id)
    lost, any_play = losing_and_any(game, presentation(game), SEEDS)
    text = " ".join((DOCS / f"{game_id}-player.md").read_text().split())
    said = game.load_examples().PRESSES  # the word the game declares for its presses
    assert f"a losing play: {lost.presses:.1f} {said} and {lost.seconds:.1f} s of animation" in text
    assert f"any play (what a TRY deals): {any_play.presses:.1f} {said} and " in text
    assert f"{any_play.seconds:.1f} s." in text
    if game_id == "lab-riches":  # REVEAL ALL's rests
        revealed = lost.seconds + (lost.presses - 1) * REPLAY_REST
        assert f"a losing play then lasts {revealed:.1f} s." in text
        assert lost.presses >= 6  # six goes to start


def test_a_play_s_length_counts_each_wait_and_each_animation() -> None:
    game = games.get("lab-riches")
    shown = presentation(game)
    book = game.book(game.table.model, Composition.from_json([]), bytes(16))
    length = play_length(game, shown, book)
    waits = [e for e in book.events if e["type"] in ("go", "bonus_row")]
    assert length.presses == len(waits)
    assert length.seconds == pytest.approx(sum(shown.duration(e) for e in book.events))
