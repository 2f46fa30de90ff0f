"""The screens every game shares (engine/ui/scenes/): a splash's messages fit between WIN UP TO
and the buttons on phones and desktops, and How To Play counts a game's own pages."""

from __future__ import annotations

import itertools

import pytest

from backends.canvas import CommandCanvas
from engine.ui.app import App
from engine.ui.flow import Flow
from engine.ui.lab_riches import PRESENTATION
from engine.ui.lab_riches.look import LOOK
from engine.ui.scenes.how_to_play import HowToPlayScene
from engine.ui.scenes.sound_offer import IDS as SOUND_IDS
from engine.ui.scenes.splash import (
    MESSAGE_WIDTH,
    SplashScene,
    fit_paragraphs,
    paragraphs_height,
    price_font,
    splash_layout,
)
from engine.ui.settings import Settings

MESSAGES = (
    "Shoot the puck at the targets: every shot you take has a prize already decided when you "
    "buy the play, whatever arrow you pick.",
    "Three goals in one play open the Power Puck Bonus, where the puck bounces round the rink "
    "to collect Instant Prizes and multipliers.",
    "Your Prize Amount is the total of every prize you win, added to your balance when you "
    "press FINISH at the end of the play.",
)
SIZES = [(360, 640), (375, 667), (390, 844), (768, 1024), (1280, 720), (800, 600), (1920, 1080),
         (844, 390), (740, 360), (667, 375)]  # fmt: skip


def flow() -> Flow:
    return Flow(PRESENTATION, Settings.from_params({"fast": "1"}))


@pytest.mark.parametrize("size", [pytest.param(s, id=f"{s[0]}x{s[1]}") for s in SIZES])
def test_a_splash_s_messages_fit_above_the_price_and_the_buttons(size: tuple[int, int]) -> None:
    w, h = size
    canvas = CommandCanvas(w, h, lambda s, px, f, b: len(s) * px * 0.55)
    scene = SplashScene(flow(), LOOK, MESSAGES)
    App(scene, w, h)
    lay = splash_layout(w, h, True)
    top, bottom = lay.band
    assert top > lay.art_h * 0.4  # below WIN UP TO
    assert bottom <= lay.price_y - price_font(lay.text_unit).size / 2
    font = fit_paragraphs(canvas, MESSAGES, min(w * 0.9, MESSAGE_WIDTH), bottom - top)
    assert font.size >= 12, font  # legible: shrunk, never to a smudge
    assert paragraphs_height(canvas, MESSAGES, font, min(w * 0.9, MESSAGE_WIDTH)) <= bottom - top
    controls = [c for c in scene.controls() if c.id not in SOUND_IDS]  # see test_ui_sound
    assert [c.id for c in controls] == ["play", "howto", "rules"]
    assert min(c.y for c in controls) > lay.status_y
    for c in controls:
        assert c.w >= 44 and c.h >= 44, c
        assert c.x >= 0 and c.y >= 0 and c.x + c.w <= w + 0.5 and c.y + c.h <= h + 0.5, c
    for a, b in itertools.pairwise(controls):
        assert a.y + a.h <= b.y or a.x + a.w <= b.x, (a, b)


def test_a_splash_says_its_messages_and_lab_riches_has_none() -> None:
    shown = flow()
    scene = SplashScene(shown, LOOK, ("Collect a {bonus} to win.",))
    said = App(scene, 360, 640).frame(0.0, [], CommandCanvas(360, 640, lambda *a: 10.0))
    # WIN UP TO and the price first, as the splash shows them, then the messages.
    assert said.narration[0] == "WIN UP TO £250,000. £3.00 a play. Collect a bonus symbol to win."
    assert splash_layout(360, 640, False).buttons_y == 640 * 0.6


def test_how_to_play_counts_the_game_s_own_pages() -> None:
    shown = flow()
    pages = (("ONE", ("FIRST.",)), ("TWO", ("A {lock} SECOND.",)))
    scene = HowToPlayScene(shown, LOOK, pages)
    said = App(scene, 1280, 720).frame(0.0, [], CommandCanvas(1280, 720, lambda *a: 10.0))
    assert said.narration == ["How to play, page 1 of 2. ONE. FIRST."]
    scene.press("next")
    assert [c.id for c in scene.controls()] == ["back", "close"]


def test_signing_in_to_another_account_keeps_the_session_s_net_spend() -> None:
    """The reality check's net spend counts from the balance the browser session began with;
    signing in to another account sends the balance then, and the shell's clock comes back
    moved by the change (web/shell/js/session.js), so the net spend carries on."""
    from engine.ui.games import first_scene
    from engine.ui.input import Activate, Reply

    canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)
    session = {"elapsed_ms": 60_000, "start_balance_pence": 5_000}
    answered = {"session": (True, {"balance_pence": 4_400, "session": session})}
    app = App(first_scene({}), 1280, 720, answered)
    app.frame(16.0, [], canvas)
    flow = app.scene.flow  # type: ignore[attr-defined]
    assert flow.net_spend() == 600
    app.frame(32.0, [Activate("account")], canvas)
    asked = app.frame(48.0, [Activate("use-code")], canvas).requests
    assert [(r["op"], r.get("balance_pence")) for r in asked] == [("signin", 4_400)]
    moved = {"elapsed_ms": 61_000, "start_balance_pence": 5_000 + 10_000 - 4_400}
    body = {"balance_pence": 10_000, "session": moved}
    app.frame(64.0, [Reply(asked[0]["id"], True, body)], canvas)
    assert flow.balance == 10_000
    assert flow.net_spend() == 600


@pytest.mark.parametrize("size", [pytest.param(s, id=f"{s[0]}x{s[1]}") for s in SIZES])
def test_the_account_page_s_buttons_fit_and_logging_out_asks_the_shell(
    size: tuple[int, int],
) -> None:
    from engine.ui.games import first_scene
    from engine.ui.input import Activate

    w, h = size
    canvas = CommandCanvas(w, h, lambda s, px, f, b: len(s) * px * 0.55)
    app = App(first_scene({}), w, h, {"session": (True, {"balance_pence": 5_000})})
    app.frame(16.0, [], canvas)
    app.frame(32.0, [Activate("account")], canvas)
    buttons = [c for c in app.scene.controls() if c.id != "close"]
    assert [c.label for c in buttons][2:] == ["Log out", "Log out every device",
                                              "Breaks and my data"]  # fmt: skip
    for c in buttons:
        assert c.w >= 44 and c.h >= 44, c
        assert c.x >= 0 and c.y >= 0 and c.x + c.w <= w + 0.5 and c.y + c.h <= h + 0.5, c
    for a, b in itertools.combinations(buttons, 2):
        assert a.y + a.h <= b.y or b.y + b.h <= a.y or a.x + a.w <= b.x or b.x + b.w <= a.x
    asked = app.frame(48.0, [Activate("logout-all")], canvas).requests
    assert [(r["op"], r.get("every")) for r in asked] == [("logout", True)]


def test_a_lobby_card_s_figures_are_its_prize_table_s() -> None:
    # The card reads the published figures (no table parsed in the lobby's first frame); they
    # must say what the table's own figures say.
    from engine import games
    from engine.math.figures import show2
    from engine.ui.scenes.site import Card

    for game in games.GAMES:
        table = game.table
        assert Card(game, None).lines()[1] == (
            f"Odds of winning 1 in {show2(table.odds_one_in)} · Payout {show2(table.rtp * 100)}%"
        )


def test_a_lobby_card_s_figures_are_worked_out_once_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby draws its cards every frame; their figures (the rules' fractions, parsed and
    rounded) are worked out once a game, so an interpreter restored from a snapshot, which
    starts the lobby again, has them already and its first frame runs none of that code."""
    from engine.game import Game
    from engine.ui.games import first_scene
    from engine.ui.scenes import site

    site.card_lines.cache_clear()
    worked: list[str] = []
    figures = Game.published_figures
    assert isinstance(figures, property) and figures.fget is not None
    read = figures.fget
    monkeypatch.setattr(
        Game, "published_figures", property(lambda game: worked.append(game.id) or read(game))
    )
    canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)
    for _ in range(2):  # a start, and the start again of a restored interpreter
        app = App(first_scene({}), 1280, 720, {"session": (True, {"balance_pence": 5_000})})
        assert any(app.frame(t, [], canvas).drew for t in (16.0, 32.0, 48.0))
    cards = app.scene.flow.cards  # type: ignore[attr-defined]
    assert sorted(worked) == sorted(card.game.id for card in cards)
    site.card_lines.cache_clear()  # worked out with the counting property: not kept


@pytest.mark.parametrize("size", [pytest.param(s, id=f"{s[0]}x{s[1]}") for s in SIZES])
def test_power_puck_shot_s_splash_has_how_to_play_in_its_top_right(size: tuple[int, int]) -> None:
    """The procedure: "In the top right of the splash screen is a 'HOW TO PLAY' button". Nothing
    else is drawn over it or past the screen's top edge (the logo was clipped there), PLAY and
    Rules and Prizes stay at the foot, and WIN UP TO is never smaller than the messages or the
    price (in landscape it was)."""
    from engine.ui.power_puck_shot import PRESENTATION as PUCK
    from engine.ui.power_puck_shot.cover import LOOK as PUCK_LOOK
    from engine.ui.power_puck_shot.words import SPLASH
    from tests.test_ui_power_puck_shot_screens import shapes

    w, h = size
    scene = SplashScene(Flow(PUCK, Settings.from_params({"fast": "1"})), PUCK_LOOK, SPLASH)
    App(scene, w, h)
    controls = {c.id: c for c in scene.controls()}
    howto = controls["howto"]
    assert howto.x + howto.w >= w - 12 and howto.y <= 12 and howto.w >= 44 and howto.h >= 44
    box = (howto.x, howto.y, howto.w, howto.h)
    for other in ("play", "rules"):
        c = controls[other]
        assert c.y > h / 2 and c.y + c.h <= h, c
    drawn = shapes(scene.draw, size)
    from tests.test_ui_power_puck_shot_layout import apart
    from tests.test_ui_power_puck_shot_screens import inside

    over = [s for s in drawn if not inside(s.box, box, 4) and not apart(s.box, box)
            and s.box[2] < w * 0.9]  # the backdrop's full-width bands aside  # fmt: skip
    assert over == [], over
    # the logo clear of the top edge (the backdrop's full-screen picture and tint aside)
    assert [s for s in drawn if s.box[1] < 4 and s.box[2] < w * 0.9] == []
    win = [s for s in drawn if s.text.startswith("WIN UP TO")]
    assert len(win) == 1
    messages = [s for s in drawn if s.kind == "text" and s.box[1] > win[0].box[1] + 1
                and s.box[1] < controls["play"].y - 1]  # fmt: skip
    assert messages
    assert max(s.size for s in messages) <= win[0].size + 0.01, (win[0].size, messages[:2])


@pytest.mark.parametrize("width", range(160, 721, 7))
def test_an_icon_is_never_wrapped_away_from_the_word_before_it(width: int) -> None:
    from engine.ui.draw import Font
    from engine.ui.lab_riches.pages import HOW_TO_PLAY as LAB_RICHES
    from engine.ui.power_puck_shot.words import HOW_TO_PLAY as POWER_PUCK_SHOT
    from engine.ui.widgets import TOKEN, wrap

    canvas = CommandCanvas(800, 600, lambda s, px, f, b: len(s) * px * 0.55)
    font = Font(18, "body", True)
    for _, paras in LAB_RICHES + POWER_PUCK_SHOT:
        for para in paras:
            lines = wrap(canvas, para, font, width)
            assert [t for line in lines for t, _ in line] == [m[0] for m in TOKEN.finditer(para)]
            for line in lines[1:]:
                first = line[0][0]
                assert not first.startswith("{") and first not in ",.;:", (width, para, first)
