"""engine/ui/remaining.py and the screens that show it: prizes remaining per tier of the current
pool, as the endpoint counts them from the public log, in each game's Rules and Prizes and on
the lobby's cards, at every size the site supports; said for a screen reader; and the plain
table as before when the endpoint does not answer."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from backends.layout import text_boxes
from engine import games
from engine.ui.app import App
from engine.ui.games import first_scene
from engine.ui.input import Activate, Event, Key, Reply
from engine.ui.remaining import Remaining, Tier
from tests.test_ui_scroll import measure

SIZES = [(1280, 720), (390, 844), (360, 640), (844, 390)]
IDS = [f"{w}x{h}" for w, h in SIZES]
GAMES = [g.id for g in games.on_sale()]


def body(game: str, log_size: int = 12_345) -> dict[str, Any]:
    """The endpoint's answer for the game's pool: a third of each tier sold, the top prize gone."""
    table = next(g for g in games.GAMES if g.id == game).table
    top = max(t.prize_pence for t in table.tiers)
    tiers = [
        {
            "prize_pence": t.prize_pence,
            "count": t.count,
            "sold": t.count // 3,
            "remaining": 0 if t.prize_pence == top else t.count - t.count // 3,
        }
        for t in sorted(table.tiers, key=lambda t: -t.prize_pence)
    ]
    return {"game": game, "pool": f"{game}-0007", "log_size": log_size, "tiers": tiers}


def test_the_endpoint_s_answer_is_read_top_prize_first_and_a_malformed_one_is_left_out() -> None:
    tiers = [
        {"prize_pence": 0, "count": 9, "sold": 3, "remaining": 6},
        {"prize_pence": 500, "count": 5, "sold": 3, "remaining": 2},
        {"prize_pence": 25_000, "count": 2, "sold": 2, "remaining": 0},
    ]
    found = Remaining.from_body({"game": "g", "pool": "p", "log_size": 12_345, "tiers": tiers})
    assert found == Remaining("p", 12_345, (Tier(25_000, 2, 0), Tier(500, 5, 2)))
    assert found.rows() == [("£250", "None of 2 left"), ("£5", "2 of 5 left")]
    assert found.source() == "Checked from the public log at entry 12,345."
    assert found.said() == (
        "Prizes remaining in the current pool: £250 None of 2 left, £5 2 of 5 left. "
        "Checked from the public log at entry 12,345."
    )
    assert found.top_line() == "Top prizes left: None of 2 · public log, entry 12,345"
    good = {"game": "g", "pool": "p", "log_size": 1, "tiers": tiers}
    for bad in [
        None,
        {},
        {**good, "log_size": -1},
        {**good, "log_size": True},
        {**good, "tiers": [{"prize_pence": 500, "count": 5, "remaining": 6}]},  # more than held
        {**good, "tiers": [{"prize_pence": 500, "count": "5", "remaining": 1}]},
        {**good, "tiers": [{"prize_pence": 0, "count": 5, "remaining": 1}]},  # no winning tier
        {"error": {"code": "not_found", "message": "No such route."}},
    ]:
        assert Remaining.from_body(bad) is None, bad


def run(
    params: dict[str, str],
    size: tuple[int, int],
    presses: list[str],
    answer: bool,
    end: bool = False,
) -> tuple[App, list[dict[str, Any]], list[str]]:
    """A page, its requests answered (`remaining` with `body`, or refused when not `answer`),
    the controls pressed in turn as each is enabled, then frames until the screen rests (and,
    with `end`, scrolled to its end); the last frame's texts and what was said."""
    app = App(first_scene({"fast": "1", **params}), *size)
    canvas, reader = CommandCanvas(*size, measure), BatchReader()
    events: list[Event] = []
    said: list[str] = []
    texts: list[dict[str, Any]] = []
    for k in range(240):
        enabled = {c.id for c in app.scene.controls() if c.enabled}
        if k > 2 and presses and presses[0] in enabled:
            events.append(Activate(presses.pop(0)))
        if end and k == 200:
            events.append(Key("End"))
        result = app.frame(k * 16.0, events, canvas)
        said += result.narration
        if result.drew:
            texts = text_boxes(reader.read(canvas.flush()), measure)
        events = [reply(request, answer) for request in result.requests]
    assert not presses, f"never pressed {presses}"
    return app, texts, said


def reply(request: dict[str, Any], answer: bool) -> Reply:
    op = request["op"]
    if op == "remaining":
        if answer:
            return Reply(request["id"], True, body(request["game"]))
        return Reply(request["id"], False, {"code": "http_404", "message": "Not Found"})
    if op == "session":
        return Reply(request["id"], True, {"balance_pence": 5_000})
    if op == "resume":
        return Reply(request["id"], True, {"found": False})
    return Reply(request["id"], True, {})


def overlapping(texts: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes, as shown (clipped), overlap."""

    def shown(t: dict[str, Any]) -> tuple[float, float, float, float]:
        x, y, w, h = t["box"]
        if t["clip"] is not None:
            cx, cy, cw, ch = t["clip"]
            x0, y0 = max(x, cx), max(y, cy)
            x1, y1 = min(x + w, cx + cw), min(y + h, cy + ch)
            return x0, y0, max(0.0, x1 - x0), max(0.0, y1 - y0)
        return x, y, w, h

    boxes = [(t["text"], shown(t)) for t in texts if shown(t)[2] > 0 and shown(t)[3] > 0]
    return [
        (a, b)
        for (a, (ax, ay, aw, ah)), (b, (bx, by, bw, bh)) in combinations(boxes, 2)
        if ax < bx + bw - 0.5 and bx < ax + aw - 0.5 and ay < by + bh - 0.5 and by < ay + ah - 0.5
    ]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_rules_and_prizes_shows_what_is_left_of_each_prize_at_every_size(
    game: str, size: tuple[int, int]
) -> None:
    app, texts, said = run({"game": game}, size, ["rules", "next"], answer=True)
    found = Remaining.from_body(body(game))
    assert found is not None and app.scene.name == "rules"
    assert found.said() in said  # the screen reader hears the figures with the table
    assert overlapping(texts) == []
    w = size[0]
    assert all(t["box"][0] >= 0 and t["box"][0] + t["box"][2] <= w for t in texts), texts
    shown = [t["text"] for t in texts]
    top_left = found.rows()[0][1]
    assert top_left in shown or top_left.removesuffix(" left") in shown  # beside or under
    # scrolled to its end: every prize's figure has been drawn, and where they come from
    _, end_texts, _ = run({"game": game}, size, ["rules", "next"], answer=True, end=True)
    assert overlapping(end_texts) == []
    words = [t for t in end_texts if inside_clip(t)]
    shown_words = [t["text"] for t in words]
    source = found.source().split()
    at = shown_words.index(source[0])
    assert shown_words[at : at + len(source)] == source  # each word in view, in order


def inside_clip(text: dict[str, Any]) -> bool:
    """Whether a text is wholly inside its clip (the scrolling area shows it whole)."""
    x, y, w, h = text["box"]
    if text["clip"] is None:
        return True
    cx, cy, cw, ch = text["clip"]
    return cx <= x + 0.5 and cy <= y + 0.5 and x + w <= cx + cw + 0.5 and y + h <= cy + ch + 0.5


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_without_an_answer_rules_and_prizes_is_the_plain_table(size: tuple[int, int]) -> None:
    _, texts, said = run({"game": GAMES[0]}, size, ["rules", "next"], answer=False)
    shown = [t["text"] for t in texts]
    assert "ODDS" in shown and "REMAINING" not in shown and "PRIZES REMAINING" not in shown
    assert not any("public log" in s for s in [*shown, *said])


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_each_lobby_card_says_its_top_prizes_left_clear_of_its_buttons(
    size: tuple[int, int],
) -> None:
    app, texts, said = run({}, size, [], answer=True)
    assert app.scene.name == "lobby"
    assert overlapping(texts) == []
    buttons = [
        c for c in app.scene.controls() if c.id.partition(":")[0] in ("play", "try", "rules")
    ]
    for game in GAMES:
        found = Remaining.from_body(body(game))
        assert found is not None
        line = next(t for t in texts if t["text"] == found.top_line())
        x, y, w, h = line["box"]
        assert x >= 0 and x + w <= size[0] and y + h <= size[1]
        assert all(
            y + h <= c.y or y >= c.y + c.h or x + w <= c.x or x >= c.x + c.w for c in buttons
        )
        name = next(g.name for g in games.GAMES if g.id == game)
        assert f"{name}: {found.top_said()}" in said


def test_a_lobby_whose_endpoint_does_not_count_shows_its_cards_as_before() -> None:
    _, texts, said = run({}, (390, 844), [], answer=False)
    assert not any("public log" in t["text"] for t in texts)
    assert not any("public log" in s for s in said)
