"""£500K Power Puck Shot's Main Game window as the procedure shows it, read from the drawing
commands the painters record: the banner before the Bonus and Prize Games' windows, grids told
apart, text that can be read on each backdrop, the puck kept on the table, the Prize Table's
boosters and wins, the pockets' pips, the end message and the final board, and the keys' one
ring (issue 29, item 5)."""

from __future__ import annotations

import colorsys
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from engine.outcome import Composition
from engine.power_puck_shot import rules
from engine.power_puck_shot.generator import build_book
from engine.power_puck_shot.geometry import POCKETS
from engine.power_puck_shot.replay import Replay, State
from engine.ui.input import Activate, Key
from engine.ui.motion import Motion
from engine.ui.power_puck_shot import art, messages, paint, table
from engine.ui.power_puck_shot.layout import Layout, Rect, layout
from tests.test_ui_power_puck_shot import (
    ARROWS,
    EVERYTHING,
    LAYOUT_SIZES,
    MODEL,
    SIZE_IDS,
    Shell,
)
from tests.test_ui_power_puck_shot_layout import EM, apart
from tests.test_ui_power_puck_shot_main import wait_for_arrows

SIZES = [(1280, 720), (390, 844), (360, 640), (844, 390)]  # the sizes the issue played at
IDS = [SIZE_IDS[s] for s in SIZES]


@dataclass(frozen=True)
class Shape:
    """One drawing command in window coordinates: its kind, box, paints and text."""

    kind: str
    box: Rect
    fill: Any
    stroke: Any
    text: str = ""
    size: float = 0.0


def shapes(draw: Any, size: tuple[float, float]) -> list[Shape]:
    """What a painter draws, translate and scale applied (a rotation about a shape's own
    centre, the bumpers', keeps its box round it)."""
    canvas = CommandCanvas(*size, lambda s, px, _f, _b: len(s) * px * EM)
    draw(canvas)
    out: list[Shape] = []
    ox, oy, k = 0.0, 0.0, 1.0
    stack: list[tuple[float, float, float]] = []
    for cmd in BatchReader().read(canvas.flush()):
        name = cmd[0]
        if name == "save":
            stack.append((ox, oy, k))
        elif name == "restore":
            ox, oy, k = stack.pop()
        elif name == "translate":
            ox, oy = ox + cmd[1] * k, oy + cmd[2] * k
        elif name == "scale":
            k *= cmd[1]
        elif name == "rect":
            x, y, w, h = cmd[1:5]
            out.append(Shape("rect", (ox + x * k, oy + y * k, w * k, h * k), cmd[5], cmd[6]))
        elif name == "circle":
            cx, cy, r = cmd[1:4]
            box = (ox + (cx - r) * k, oy + (cy - r) * k, 2 * r * k, 2 * r * k)
            out.append(Shape("circle", box, cmd[4], cmd[5]))
        elif name == "path":
            xs, ys = [p[0] for p in cmd[1]], [p[1] for p in cmd[1]]
            box = (ox + min(xs) * k, oy + min(ys) * k, (max(xs) - min(xs)) * k,
                   (max(ys) - min(ys)) * k)  # fmt: skip
            out.append(Shape("path", box, cmd[2], cmd[3]))
        elif name == "text":
            text, x, y, px, align = cmd[1], cmd[2], cmd[3], cmd[4] * k, cmd[8]
            w = len(text) * px * EM
            left = {"left": 0.0, "center": w / 2, "right": w}[align]
            box = (ox + x * k - left, oy + y * k - px / 2, w, px)
            out.append(Shape("text", box, cmd[7], None, text, px))
    return out


def luminance(colour: str) -> float:
    """WCAG relative luminance of '#rrggbb'."""
    rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: str, b: str, t: float) -> str:
    """The colour t of the way from a to b (a backdrop's gradient)."""
    ca, cb = ([int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in (a, b))
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb, strict=True))


def inside(box: Rect, outer: Rect, slack: float = 0.5) -> bool:
    x, y, w, h = box
    ox, oy, ow, oh = outer
    return (x >= ox - slack and y >= oy - slack and x + w <= ox + ow + slack
            and y + h <= oy + oh + slack)  # fmt: skip


def moment(state: State, before: State | None = None, event: Any = None, p: float = 1.0) -> Any:
    return paint.Moment(state, before or state, event, p, Motion(), 0.0, None)


def book_with(kind: str, seed: int = 7) -> tuple[Replay, int]:
    """EVERYTHING's book and the index of its first event of a kind."""
    composition = Composition.from_json(EVERYTHING)  # type: ignore[arg-type]
    book = build_book(MODEL, composition, seed.to_bytes(16, "big"))
    index = next(i for i, e in enumerate(book.events) if e["type"] == kind)
    return Replay(book), index


# ---- the banner, then the window ---------------------------------------------------------------
@pytest.mark.parametrize("kind", ["bonus_start", "prize_start"])
def test_the_banner_shows_before_the_window_changes(kind: str) -> None:
    """'BONUS GAME!' (or 'RESULT! PRIZE GAME UNLOCKED!') over the window it interrupts, and then
    the darker (lighter) window without it: never the new window under the banner."""
    replay, i = book_with(kind)
    before, state, event = replay.state_at(i - 1), replay.state_at(i), replay.events[i]
    lay = layout(1280, 720)
    seen: list[tuple[bool, str]] = []
    for step in range(101):
        mo = moment(state, before, event, step / 100)
        said = [s.text for s in shapes(lambda c, mo=mo: messages.banners(c, lay, mo), (1280, 720))]
        banner = any(t in ("BONUS GAME!", "RESULT!") for t in said)
        seen.append((banner, mo.stage))
    shot = max(k for k in range(i) if replay.events[k]["type"] == "shot")
    kept = [paint._stays(moment(state, before, event, step / 100), dict(replay.events[shot]))
            for step in range(101)]  # fmt: skip
    assert kept[0] and not kept[-1]  # the shot's symbols stay on the grid under the banner
    new = "bonus" if kind == "bonus_start" else "prize"
    phases = [key for key, _ in itertools.groupby(seen)]
    assert phases[0] == (False, "main")  # the banner's band opening
    assert phases[1:] == [(True, "main"), (False, new)], phases


def test_the_bonus_grid_is_lit_on_a_darker_window_and_the_prize_grid_yellow_on_a_lighter() -> None:
    (main_top, main_bottom), *_ = art.STAGES["main"]
    (bonus_top, bonus_bottom), bonus_surface, *_ = art.STAGES["bonus"]
    (prize_top, prize_bottom), prize_surface, *_ = art.STAGES["prize"]
    assert art.STAGES["bonus"][3] != art.STAGES["main"][3]  # blue arrows, not green
    assert art.STAGES["prize"][3] == art.STAGES["main"][3]
    dark = [luminance(c) for c in (bonus_top, bonus_bottom)]
    light = [luminance(c) for c in (prize_top, prize_bottom)]
    plain = [luminance(c) for c in (main_top, main_bottom)]
    assert max(dark) < min(plain) and max(plain) < min(light)
    assert min(contrast(bonus_surface, c) for c in (bonus_top, bonus_bottom)) >= 10  # lit

    def hue(colour: str) -> float:
        r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        return colorsys.rgb_to_hsv(r, g, b)[0] * 360

    # Plainly different grids: a quarter of the colour wheel or more apart (the Bonus Game's
    # pale yellow and the Prize Game's yellow were 4° apart).
    gap = abs(hue(bonus_surface) - hue(prize_surface))
    assert min(gap, 360 - gap) >= 90, (bonus_surface, prize_surface)


# ---- text that can be read ---------------------------------------------------------------------
@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
@pytest.mark.parametrize("stage", ["main", "bonus", "prize"])
def test_the_counter_s_words_can_be_read_on_the_backdrop(size: tuple[int, int], stage: str) -> None:
    """'N PUCKS LEFT', 'N BONUS PUCKS', 'N PRIZE PUCKS LEFT' (and '+N'): 4.5:1 against the
    backdrop's colour where they stand (3:1 for large text, 18.66 px bold)."""
    lay = layout(*size)
    state: Any = book_with("prize_start")[0].state_at(0)
    state = state.__class__(**{**state.__dict__, "stage": stage, "pucks_left": 8,
                               "bonus_pucks_left": 8, "prize_pucks_left": 8})  # fmt: skip
    (top, bottom), *_ = art.STAGES[stage]
    words = [s for s in shapes(lambda c: paint.counter(c, lay, moment(state)), size)
             if s.kind == "text"]  # fmt: skip
    assert len(words) == 2
    for s in words:
        behind = mix(top, bottom, (s.box[1] + s.box[3] / 2) / lay.height)
        need = 3.0 if s.size >= 18.66 else 4.5
        assert contrast(s.fill[:7], behind) >= need, (s.text, s.fill, behind)


# ---- the puck stays on the table -----------------------------------------------------------------
def always(arrow: int) -> Callable[[int], int]:
    """Every shot along one arrow."""
    return lambda _shot: arrow


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_puck_is_drawn_inside_the_play_area(size: tuple[int, int], monkeypatch: Any) -> None:
    """At a side wall the path's point is on the cushion's edge: the puck drawn there stays a
    radius inside, off the cushion and the meter, all through a play steep left and right."""
    drawn: list[tuple[float, float, float]] = []

    def record(_c: Any, x: float, y: float, s: float, _power: bool = False) -> None:
        drawn.append((x, y, s))

    for steep in (0, ARROWS - 1):
        shell = Shell(size, EVERYTHING)
        shell.start()
        for _ in shell.shots(always(steep)):
            mo = shell.moment()
            if mo.timed is not None:
                with monkeypatch.context() as patched:
                    patched.setattr(paint.art, "puck", record)
                    paint._puck(CommandCanvas(*size, lambda *a: 10.0), shell.scene.layout(), mo,
                                *mo.timed)  # fmt: skip
    lay = layout(*size)
    area = (lay.grid_x, lay.grid_y, 4 * lay.cell, 4 * lay.cell)
    assert len(drawn) > 100
    out = [(x, y, s) for x, y, s in drawn if not inside((x - s / 2, y - s / 2, s, s), area)]
    assert out == [], f"{len(out)} of {len(drawn)} outside {area}"


# ---- the Prize Table ---------------------------------------------------------------------------
def table_state(squares: tuple[int, ...], boosts: tuple[int, ...], won: tuple[Any, ...]) -> Any:
    state = book_with("start")[0].state_at(0)
    return state.__class__(**{**state.__dict__, "squares": squares, "boosts": boosts, "won": won})


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_boosters_show_inside_the_amount_box_apart_from_the_amount(size: tuple[int, int]) -> None:
    """A boosted row's arrow and its '×2'/'×3' stand inside the amount box, off the row's
    outline, neither over the amount; the amount as large as it would be without them (give
    or take a twentieth where it fills its box), the mark at least 0.55 of it and 10 px."""
    lay = layout(*size)
    boosts = (3, 2, 1, 0, 3, 2, 1, 0)  # dark blue ×3, purple ×2, orange once ...
    state = table_state((5,) * 8, boosts, ())
    drawn = shapes(lambda c: table.table(c, lay, moment(state)), size)
    for colour, n in zip(rules.COLOURS, boosts, strict=True):
        box = lay.amount(colour)
        row = [s for s in drawn if apart(s.box, box) is False and s.kind in ("text", "path")]
        amount = [s for s in row if s.text.startswith("£")]
        marks = [s for s in row if s.text.startswith("×")]
        arrows = [s for s in row if s.kind == "path"]
        assert len(amount) == 1 and len(marks) == (n > 1) and len(arrows) == (n > 0), colour
        for s in marks + arrows:
            assert inside(s.box, box), (colour, s)
            assert apart(s.box, amount[0].box), (colour, s, amount[0])
        text = amount[0].text  # as paint fits an amount to the whole box, with no booster
        alone = min(box[3] * 0.62, (box[2] - 16) / (len(text) * EM))
        assert amount[0].size >= alone * 0.95, (colour, amount[0])
        for s in marks:
            assert s.size >= max(10.0, amount[0].size * 0.55) and s.text == f"×{n}"


@pytest.mark.parametrize(("pence", "badge"), [(500, "£5 BACK"), (800, "WIN £8")])
@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_a_won_row_shows_all_its_squares(size: tuple[int, int], pence: int, badge: str) -> None:
    """'WIN £X' (or, for no more than the price, '£5 BACK': engine/ui/celebration.py) hides
    none of the won row's twelve squares."""
    lay = layout(*size)
    squares = (12, 3, 3, 3, 3, 3, 3, 3)
    state = table_state(squares, (0,) * 8, (("dark-blue", pence),))
    drawn = shapes(lambda c: table.table(c, lay, moment(state)), size)
    slots = [lay.slot("dark-blue", k) for k in range(rules.SQUARES_PER_ROW)]
    win = [s for s in drawn if s.text == badge]
    assert [s.text for s in win] == [badge]

    def grown(slot: Rect) -> Rect:  # a filled square is drawn a little larger than its slot
        x, y, w, h = slot
        return x - w * 0.1, y - h * 0.1, w * 1.2, h * 1.2

    def part_of_a_square(s: Shape) -> bool:
        return any(inside(s.box, grown(slot)) for slot in slots)

    last_square = max(i for i, s in enumerate(drawn) if part_of_a_square(s))
    over = [s for s in drawn[last_square + 1 :] if not part_of_a_square(s)]
    covering = [s for s in win + over if any(not apart(s.box, slot) for slot in slots)]
    assert covering == [], covering


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_pockets_pips_show_on_the_black_pockets(size: tuple[int, int]) -> None:
    lay = layout(*size)
    state = book_with("start")[0].state_at(0)
    drawn = shapes(lambda c: paint.grid(c, lay, moment(state), "main"), size)
    for square in POCKETS:
        x, y = lay.square(square)
        here = [s for s in drawn if s.kind == "circle" and abs(s.box[0] + s.box[2] / 2 - x) < 0.5
                and abs(s.box[1] + s.box[3] / 2 - y) < 0.5]  # fmt: skip
        pocket, pip = max(here, key=lambda s: s.box[2]), min(here, key=lambda s: s.box[2])
        edge = pip.stroke or pip.fill
        assert contrast(edge[:7], pocket.fill[:7]) >= 3.0, (pip, pocket)


# ---- the end ---------------------------------------------------------------------------------
@pytest.mark.parametrize("pot", [0, 1500])
def test_the_end_message_names_the_prize_pot_only_after_a_prize_game(pot: int) -> None:
    lay = layout(390, 844)
    state = table_state((3,) * 8, (0,) * 8, ())
    state = state.__class__(**{**state.__dict__, "pot": pot, "stage": "end"})
    flow: Any = type("F", (), {"error": None, "busy": None, "mode": "play"})()
    said = [s.text for s in shapes(lambda c: messages.end_message(c, lay, flow, state), (390, 844))]
    # no row won: no 'Rows won: £0.00' (on a Prize-Game-only win it read like a loss)
    assert not any(t.startswith("Rows won") for t in said)
    assert ("No row complete." in said) == (not pot)
    pots = [t for t in said if "PRIZE POT" in t]
    assert pots == ([f"PRIZE POT: £{pot // 100}.00"] if pot else [])


def test_the_end_message_names_the_rows_won_when_there_are_some() -> None:
    lay = layout(390, 844)
    state = table_state((12,) + (3,) * 7, (0,) * 8, (("dark-blue", 500),))
    state = state.__class__(**{**state.__dict__, "pot": 1500, "stage": "end"})
    flow: Any = type("F", (), {"error": None, "busy": None, "mode": "play"})()
    said = [s.text for s in shapes(lambda c: messages.end_message(c, lay, flow, state), (390, 844))]
    assert "Rows won: £5.00" in said and "PRIZE POT: £15.00" in said
    assert "TOTAL WON £20.00" in said and "CONGRATULATIONS" in said


def finished(size: tuple[int, int]) -> Shell:
    shell = Shell(size, EVERYTHING)
    shell.start()
    for _ in shell.shots():
        pass
    shell.frame()
    return shell


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_final_board_is_clear_of_finish_and_the_message(size: tuple[int, int]) -> None:
    """'See the board' puts FINISH and 'See the message' off the grid, the meter and the Prize
    Table (where the arrows were) and the end message away; 'See the message' brings it back."""
    shell = finished(size)
    shell.frame(Activate("board"))
    shell.frame()
    lay: Layout = shell.scene.layout()
    board = [(lay.grid_x - 12, lay.grid_y - 12, 4 * lay.cell + 24, 4 * lay.cell + 24),
             lay.meter, lay.table]  # fmt: skip
    controls = {c.id: (c.x, c.y, c.w, c.h) for c in shell.app.scene.controls()}
    assert {"finish", "board"} <= set(controls)
    assert [(k, r) for k, r in controls.items() if not all(apart(r, b) for b in board)] == []
    assert all(apart(a, b) for a, b in itertools.combinations(controls.values(), 2))
    said = [s.text for s in shapes(shell.scene.draw, size)]
    assert not any(t.startswith("TOTAL WON") for t in said) and "See the message" in said
    shell.frame(Activate("board"))
    shell.frame()
    said = [s.text for s in shapes(shell.scene.draw, size)]
    assert any(t.startswith("TOTAL WON") for t in said) and "See the board" in said


# ---- one ring ----------------------------------------------------------------------------------
def test_the_ringed_arrow_holds_the_focus_and_a_focused_arrow_is_ringed() -> None:
    """The arrow Left/Right ring is the one control marked `focused` (the shell's mirror gives
    its button the browser's focus, so Space/Enter on it shoot it); a Tab onto another arrow's
    button (a Focus event) moves the ring there, and Enter shoots it."""
    from engine.ui.input import Focus  # the mirror's focus event (issue 29)

    shell = Shell((1280, 720), [])
    shell.start()
    wait_for_arrows(shell)

    def marked() -> list[str]:
        return [c.id for c in shell.app.scene.controls() if c.focused]

    assert marked() == [f"shoot-{shell.scene.selected}"]
    assert [c.to_json().get("focused") for c in shell.app.scene.controls()].count(True) == 1
    shell.frame(Key("ArrowRight"))
    assert marked() == ["shoot-3"]
    shell.frame(Focus("shoot-0"))  # Tab, or a click, onto steep left
    assert marked() == ["shoot-0"] and shell.scene.selected == 0
    shell.frame(Focus("rules"))  # onto Rules and Prizes: the ring stays
    assert marked() == ["shoot-0"]
    shell.frame(Activate("shoot-0"))  # Enter on the focused button
    play = shell.scene.flow.play
    assert play is not None and list(play.choices.values()) == [0]
