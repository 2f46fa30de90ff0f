"""The scrolling area (engine/ui/scroll.py) and the screens that use it: content taller than
the window scrolls by keys, wheel and drag, and a control focused in the mirror comes into view.
"""

from __future__ import annotations

from backends.canvas import BatchReader, CommandCanvas
from backends.layout import text_boxes
from engine.ui.app import App
from engine.ui.input import Control, Focus, Key, Pointer, Reply, Wheel
from engine.ui.scenes.limits import LimitsScene
from engine.ui.scenes.lobby import LobbyScene
from engine.ui.scenes.site import Card, Lobby
from engine.ui.scroll import Scroll


def measure(s: str, size: float, family: str, bold: bool) -> float:
    """A stand-in for the browser's measurement: 0.55 em a character."""
    return len(s) * size * 0.55


def test_keys_wheel_and_drag_move_the_content_within_its_range() -> None:
    scroll = Scroll()
    scroll.place(100, 300, 1000)  # 200 px of area, 800 px to scroll
    assert scroll.scrolls() and scroll.most() == 800
    assert scroll.handle(Key("ArrowDown")) and scroll.offset == 40
    assert scroll.handle(Key("PageDown")) and scroll.offset == 40 + 180
    assert scroll.handle(Key("End")) and scroll.offset == 800
    assert scroll.handle(Key("Home")) and scroll.offset == 0
    assert scroll.handle(Wheel(120)) and scroll.offset == 120
    scroll.handle(Pointer("down", 50, 250))
    scroll.handle(Pointer("move", 50, 200))  # the finger goes up: the content follows it
    scroll.handle(Pointer("up", 50, 200))
    assert scroll.offset == 170
    assert not scroll.handle(Key("Enter"))
    short = Scroll()
    short.place(100, 300, 150)
    assert not short.scrolls() and not short.handle(Key("ArrowDown")) and short.offset == 0


def test_a_focused_control_scrolls_into_view_whole_and_hidden_ones_take_no_taps() -> None:
    scroll = Scroll()
    scroll.place(100, 300, 1000)
    far = Control("far", "Far", 10, 600, 100, 44)
    hidden = scroll.shown(far)
    assert hidden.h == 0 and hidden.y == 300  # a line at the area's foot: no tap reaches it
    scroll.handle(Focus("far"), [far])
    shown = scroll.shown(far)
    assert shown.h == 44 and shown.y >= 100 and shown.y + shown.h <= 300


def lobby() -> Lobby:
    from engine import games
    from engine.ui.games import cover

    return Lobby(tuple(Card(g, cover(g)) for g in games.GAMES))


def test_limits_on_a_phone_held_sideways_reach_the_weekly_controls() -> None:
    visit = lobby()
    LobbyScene(visit)
    scene = visit.scene("limits")
    assert isinstance(scene, LimitsScene)
    app = App(scene, 844, 390)
    period = {"limit_pence": None, "spent_pence": 0, "pending": None}
    for request in list(app._requests):
        app._route(Reply(request["id"], True, {"daily": period, "weekly": period}))
    canvas = CommandCanvas(844, 390, measure)
    app.frame(0, [], canvas)
    weekly = next(c for c in scene.controls() if c.id == "set:weekly")
    assert weekly.y + weekly.h <= 390 and weekly.h < 44  # cut by the area's foot
    app.frame(16, [Focus("set:weekly")], canvas)
    weekly = next(c for c in scene.controls() if c.id == "set:weekly")
    assert weekly.h == 44 and weekly.y + weekly.h <= 390
    texts = text_boxes(BatchReader().read(canvas.flush()), measure)
    assert any(t["text"].startswith("Weekly limit") for t in texts)


def bars(reader: BatchReader, canvas: CommandCanvas) -> list[list[object]]:
    """The scroll bars' thumbs drawn since the last flush."""
    return [c for c in reader.read(canvas.flush()) if c[0] == "rect" and c[5] == "#ffffffaa"]


def test_a_page_s_scroll_bar_is_its_own_as_soon_as_the_page_is_turned() -> None:
    from engine.ui.flow import Flow
    from engine.ui.lab_riches import PRESENTATION
    from engine.ui.lab_riches.look import LOOK
    from engine.ui.scenes.how_to_play import HowToPlayScene
    from engine.ui.settings import Settings

    long = tuple(f"PARAGRAPH {k} OF A PAGE TALLER THAN A PHONE HELD SIDEWAYS." for k in range(9))
    pages = (("SHORT", ("ONE LINE.",)), ("LONG", long), ("SHORT AGAIN", ("ONE LINE.",)))
    scene = HowToPlayScene(Flow(PRESENTATION, Settings.from_params({"fast": "1"})), LOOK, pages)
    app = App(scene, 844, 390)
    canvas, reader = CommandCanvas(844, 390, measure), BatchReader()
    app.frame(0, [], canvas)
    assert bars(reader, canvas) == []
    app.frame(16, [Key("ArrowRight")], canvas)  # a taller page: its bar shows in its first frame
    assert len(bars(reader, canvas)) == 1 and scene.scroll.scrolls()
    app.frame(32, [Key("ArrowRight")], canvas)  # a short page after it: no bar
    assert bars(reader, canvas) == []
