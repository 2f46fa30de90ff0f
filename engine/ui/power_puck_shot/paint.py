"""The painters of the £500K Power Puck Shot window: the Play Grid, the meter, the PRIZE POT,
the arrows, the Pucks Left Counter and the symbols in flight (the Prize Table is table.py, the
banners and the end message messages.py).

Each painter draws one moment (`Moment`: the state after the event animating, the state before
it, the event as prepared with its path, its progress and the motion allowed). During a shot the
Prize Table, the meter, the counter and the PRIZE POT show what has landed so far (`landed`):
a square counts when it reaches its row, not when the pip reveals it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property, partial
from typing import Any

from engine.money import format_pounds
from engine.power_puck_shot import rules
from engine.power_puck_shot.geometry import LAUNCH, POCKETS
from engine.power_puck_shot.paths import ARROW_DEGREES
from engine.power_puck_shot.replay import State, apply
from engine.power_puck_shot.tokens import BONUS, BOOSTER, EXTRA, POT, POWER, PRIZE, SQUARE
from engine.power_puck_shot.tokens import SQUARES as PLUS
from engine.ui.draw import Canvas, Font, LinearGradient, along, fit_text
from engine.ui.flow import Flow
from engine.ui.motion import Motion
from engine.ui.power_puck_shot import art, lights, trail
from engine.ui.power_puck_shot.layout import Layout
from engine.ui.power_puck_shot.timing import CHANGE, JOIN, ShotClock, path_of
from engine.ui.presentation import FREE_COUNTER, header_note
from engine.ui.widgets import session_figures

Event = dict[str, Any]


@dataclass(frozen=True)
class Moment:
    """What one frame draws."""

    state: State  # after the event animating (or the last one shown)
    before: State  # before it
    event: Any  # the event animating (prepared: a shot has its arrow and path), or None
    p: float  # its progress 0..1
    m: Motion
    clock: float  # seconds on screen (the bumpers' spin)
    last_shot: Event | None  # the latest shot at or before this moment

    @property
    def kind(self) -> str:
        return str(self.event["type"]) if self.event is not None else ""

    @cached_property
    def timed(self) -> tuple[ShotClock, float] | None:
        """The clock of the shot animating and the seconds into it (once a frame)."""
        if self.kind != "shot":
            return None
        clock = ShotClock.of(self.event)
        return clock, self.p * clock.total

    @cached_property
    def shown(self) -> State:
        """What the counters show now (`landed`), worked out once a frame."""
        return landed(self)

    @cached_property
    def stage(self) -> str:
        """Which window this moment is drawn in (`look`): while 'BONUS GAME!' or 'RESULT! PRIZE
        GAME UNLOCKED!' shows, still the window before it, as the procedure orders them."""
        if self.kind in ("bonus_start", "prize_start") and self.p < CHANGE:
            return look(self.before)
        return look(self.state)


def look(state: State) -> str:
    """Which window to draw: the Main Game, the darker Bonus Game or the lighter Prize Game."""
    if state.stage in ("bonus", "prize"):
        return state.stage
    if state.stage == "end" and state.pot:
        return "prize"
    return "main"


def landed(mo: Moment) -> State:
    """The state the counters show: during a shot, only what has reached its place."""
    timed = mo.timed
    if timed is None:
        if mo.kind == "bonus_end" and mo.p < JOIN:  # the awarded pucks join the counter
            return mo.before
        return mo.state
    clock, t = timed
    reveals = mo.event["reveals"]
    done = [r for k, r in enumerate(reveals) if clock.flown(k, t) >= 1.0]
    if len(done) == len(reveals):
        return mo.state
    after = mo.state
    counters = replace(mo.before, pucks_left=after.pucks_left, power_pucks=after.power_pucks,
                       bonus_pucks_left=after.bonus_pucks_left,
                       prize_pucks_left=after.prize_pucks_left)  # fmt: skip
    if not done:
        return counters
    partial = apply(mo.before, {**mo.event, "reveals": done})
    return replace(partial, index=after.index, event_type=after.event_type)


# ---- where things are --------------------------------------------------------------------------
def sources(lay: Layout, event: Any) -> list[tuple[float, float]]:
    """The grid square of each reveal of a shot (its path's; evenly over the middle without)."""
    path = path_of(event)
    if path is not None:
        return [lay.square(r.square) for r in path.reveals]
    return [lay.square(4 + k % 8) for k in range(len(event["reveals"]))]


def targets(lay: Layout, before: State, event: Any) -> list[tuple[float, float, float] | None]:
    """Where each reveal of a shot flies (x, y, size), or None when it stays on the grid."""
    squares = list(before.squares)
    meter = before.meter
    times = 2 if event.get("power") else 1
    out: list[tuple[float, float, float] | None] = []
    for reveal in map(str, event["reveals"]):
        if reveal.startswith(SQUARE) or reveal.startswith(PLUS):
            if reveal.startswith(SQUARE):
                colour, n = reveal[len(SQUARE) :], times
            else:
                colour, count = reveal[len(PLUS) :].split(":")
                n = int(count)
            k = rules.COLOURS.index(colour)
            x, y, s, _ = lay.slot(colour, min(squares[k], rules.SQUARES_PER_ROW - 1))
            squares[k] += n
            out.append((x + s / 2, y + s / 2, s * 1.2))
        elif reveal == PRIZE:
            x, y, w, h = lay.segment(min(meter, rules.METER_SEGMENTS - 1))
            meter += times if event["game"] == "main" else 1
            out.append((x + w / 2, y + h / 2, h * 0.9))
        elif reveal.startswith(BOOSTER):
            x, y, w, h = lay.amount(reveal[len(BOOSTER) :])
            out.append((x + w, y + h / 2, h))
        elif reveal in (EXTRA, POWER):
            x, y, w, h = lay.pucks
            out.append((x + w / 2, y + h * 0.35, h * 0.6))
        elif reveal.startswith(POT):
            x, y, w, h = lay.pot
            out.append((x + w * 0.75, y + h / 2, h * 0.9))
        else:  # a Bonus motif stays where it is revealed
            out.append(None)
    return out


# ---- the frame -----------------------------------------------------------------------------------
def backdrop(c: Canvas, lay: Layout, stage: str) -> None:
    """The window's background for the stage."""
    art.backdrop(c, lay.width, lay.height, stage)


def header(c: Canvas, lay: Layout, flow: Flow, mo: Moment | None) -> None:
    """The title bar with the balance (under it, in paid play, the session's net position and
    minutes: Flow.header_figures); in the Prize Game the PRIZE POT panel at the top left."""
    x, y, w, h = lay.header
    c.rect(x, y, w, h, fill=LinearGradient(0, 0, 0, h, ((0.0, "#0e2f5c"), (1.0, "#08203f"))))
    if mo is not None and mo.stage == "prize":
        pot(c, lay, mo.shown.pot, flow.mode == "try")
        left = lay.pot[0] + lay.pot[2]
    else:
        art.puck(c, 12 + h * 0.35, h / 2, h * 0.62, True)
        title = "£500K POWER PUCK SHOT"
        font = fit_text(c, title, Font(h * 0.42, "display", True), w * 0.46)
        c.text(title, 16 + h * 0.75, h / 2, font, fill=art.GOLD, align="left")
        left = 16 + h * 0.75 + c.measure(title, font)
    note = header_note(flow.mode)  # a TRY says it wins nothing, a REPLAY that it is one
    if flow.balance is not None or note:  # right-aligned, clear of the title or the PRIZE POT
        text = note or f"Balance {format_pounds(flow.balance or 0)}"
        room = min(w * 0.36, w - 12 - left - 12)
        font = fit_text(c, text, Font(h * 0.3, "body", True), room)
        shown = not note and bool(flow.header_figures())  # paid play: net position, minutes
        top = h * 0.34 if shown else h / 2
        c.text(text, w - 12, top, font, fill=art.GOLD if note else "#ffffff", align="right")
        if shown:
            session_figures(c, flow.header_figures, w - 12, h * 0.74, h * 0.24, room)


def pot(c: Canvas, lay: Layout, pence: int, free: bool = False) -> None:
    """The PRIZE POT panel: what the Prize Game has collected (a free TRY's FREE_COUNTER)."""
    x, y, w, h = lay.pot
    c.rect(x, y, w, h, fill="#3b2400", stroke=art.GOLD, line_width=2, radius=h * 0.3)
    art.label(c, "PRIZE POT", x + w * 0.27, y + h / 2, h * 0.36, w * 0.42, art.GOLD)
    art.label(
        c,
        FREE_COUNTER if free else format_pounds(pence),
        x + w * 0.74,
        y + h / 2,
        h * 0.44,
        w * 0.4,
    )


def grid(c: Canvas, lay: Layout, mo: Moment, stage: str) -> None:
    """The Play Grid: the table's cushions and surface, the Pockets, the Pips, the Spinning
    Bumpers of the shot on it, the symbols its pips have revealed and the puck."""
    _, surface, glow, _ = art.STAGES[stage]
    cell = lay.cell
    gx, gy = lay.grid_x, lay.grid_y
    c.rect(gx - 10, gy - 10, 4 * cell + 20, 4 * cell + 20, fill="#13223a", stroke=glow,
           line_width=4 if stage != "main" else 2, radius=18)  # fmt: skip
    c.rect(gx, gy, 4 * cell, 4 * cell, fill=surface, radius=10)
    for k in (1, 2, 3):
        c.rect(gx + k * cell - 1, gy, 2, 4 * cell, fill="#7fa6c833")
        c.rect(gx, gy + k * cell - 1, 4 * cell, 2, fill="#7fa6c833")
    c.rect(gx, gy + 2 * cell - 2, 4 * cell, 4, fill="#e5393555")
    timed = mo.timed
    shot = mo.event if timed is not None else mo.last_shot
    t = timed[1] if timed is not None else math.inf
    path = path_of(shot)
    revealed: dict[int, tuple[str, float]] = {}  # square -> what it shows, since when
    if shot is not None and path is not None and _stays(mo, shot):
        clock = ShotClock.of(shot)
        for r, name, at in zip(path.reveals, shot["reveals"], clock.reveals, strict=True):
            if at <= t:
                revealed[r.square] = (str(name), at)
    for square in range(16):
        x, y = lay.square(square)
        if square in POCKETS:  # its black pip ringed in ice, to show on the black pocket
            c.circle(x, y, cell * 0.34, fill="#0b1220", stroke="#5b6b82", line_width=2)
            c.circle(x, y, cell * 0.06, fill="#000000", stroke=art.ICE, line_width=2)
        else:
            c.circle(x, y, cell * 0.06, fill="#000000")
    if timed is not None and path is not None:
        spin = 0.0 if mo.m.reduced else mo.clock * 5.0
        for square in path.bumpers:
            if square in revealed:
                continue  # hit: it vanishes and leaves its Pocket open
            x, y = lay.square(square)
            art.bumper(c, x, y, cell * 0.7, spin + square)
    trigger = lights.bonus_trigger(mo)  # the Bonus motifs that start a Bonus Game glow
    double = lights.doubled(shot)  # a Power Puck's symbols wear '×2'
    for square, (name, at) in revealed.items():
        x, y = lay.square(square)
        since = t - at if timed is not None else math.inf
        lights.flash(c, x, y, cell * 0.34, since / lights.FLASH, mo.m)
        grow, fade = lights.pop(mo.m, since / lights.POP)
        if name == BONUS:
            lights.ring(c, x, y, cell * 0.42, trigger)
        c.save()
        c.alpha(fade)
        art.motif(c, name, x, y, cell * 0.62 * grow)
        c.restore()
        if double:
            lights.badge(c, x + cell * 0.26, y - cell * 0.26, cell * 0.3,
                         (since - lights.POP * 0.5) / lights.BADGE, mo.m)  # fmt: skip
    if timed is not None:
        _puck(c, lay, mo, timed[0], timed[1])


def _stays(mo: Moment, shot: Event) -> bool:
    """Whether a shot's symbols are still on the grid: until the window changes game (after
    the banner that announces it)."""
    stage = mo.before.stage if mo.stage != look(mo.state) else mo.state.stage
    return shot["game"] == stage or (stage == "end" and shot["game"] in ("main", "prize"))


def _puck(c: Canvas, lay: Layout, mo: Moment, clock: ShotClock, t: float) -> None:
    path = path_of(mo.event)
    points = path.points if path is not None else (LAUNCH, (2.0, 1.0))
    screen = [lay.at(px, py) for px, py in points]
    power = bool(mo.event.get("power"))
    r = lay.cell * 0.34
    moved = clock.moved(t)
    if mo.m.reduced:  # it does not slide: it fades in where it drops
        x, y = inside(lay, screen[-1], r)
        c.save()
        c.alpha(moved)
        art.puck(c, x, y, r * 2, power)
        c.restore()
        return
    trail.trail(c, lay, screen, clock, t, r, mo.event, partial(inside, lay))
    x, y = inside(lay, along(screen, moved), r)
    if moved >= 1.0:  # dropped: it sinks into the pocket
        sink = min(1.0, (t - clock.travel - 0.3) / 0.15 + 1.0)
        r *= max(0.0, 1.0 - 0.7 * sink)
    art.puck(c, x, y, r * 2, power)
    trail.sparks(c, lay, screen, clock, t, mo.event)  # over the puck that strikes


def inside(lay: Layout, point: tuple[float, float], r: float) -> tuple[float, float]:
    """Where a puck of radius r at a point of its path is drawn: its path touches a wall with its
    centre, so it is held a radius inside the play area, off the cushions (and the meter)."""
    x, y = point
    side = 4 * lay.cell
    return (min(max(x, lay.grid_x + r), lay.grid_x + side - r),
            min(max(y, lay.grid_y + r), lay.grid_y + side - r))  # fmt: skip


def arrows(c: Canvas, lay: Layout, stage: str, selected: int, ready: bool, shown: bool) -> None:
    """The six Directional Arrows, each pointing its launch angle (green; blue in the Bonus
    Game); the one Left/Right picked is ringed in gold while the player may shoot."""
    if not shown:
        return
    fill = art.STAGES[stage][3]
    for k, rect in enumerate(lay.arrows):
        art.arrow(c, rect, ARROW_DEGREES[k], fill, lit=ready and k == selected, enabled=ready)


def counter(c: Canvas, lay: Layout, mo: Moment) -> None:
    """The Pucks Left Counter (BONUS PUCKS in the Bonus Game, PRIZE PUCKS LEFT in the Prize
    Game); a Bonus Game's awarded pucks wait beside it until it ends."""
    shown = mo.shown
    stage = mo.stage
    x, y, w, h = lay.pucks
    if stage == "bonus":
        n, power, text = shown.bonus_pucks_left, 0, "BONUS PUCKS"
    elif stage == "prize":
        n, power, text = shown.prize_pucks_left, 0, "PRIZE PUCKS LEFT"
    else:
        n, power, text = shown.pucks_left, shown.power_pucks, "PUCKS LEFT"
    spots = icon_spots(lay, n)
    size = min(h * 0.55, w / 6)
    icons = len(spots)
    lights.joined(c, mo, spots, power)
    for k, (px, py, s) in enumerate(spots):
        art.puck(c, px, py, s, k < power)
    lights.doubled_pucks(c, mo, spots, power)
    ink = art.WORDS_ON[stage]  # dark on the Prize Game's light backdrop
    if n > icons:
        art.label(c, f"+{n - icons}", x + w - 8, y + size / 2, size * 0.6, size * 1.5, ink)
    art.label(c, f"{n} {text}" if n != 1 else f"1 {text.replace('PUCKS', 'PUCK')}",
              x + w / 2, y + h - h * 0.2, h * 0.28, w, ink)  # fmt: skip
    waiting = shown.pending_extra + shown.pending_power
    if (stage == "bonus" or mo.kind == "bonus_end") and waiting:  # until they join
        # As many as fit between the counter and the window's edge; the rest as '+N'.
        places = max(1, int((lay.width - x - w) // (size * 1.1)))
        icons = waiting if waiting <= places else places - 1
        glow = lights.awaiting(mo)
        for k in range(icons):
            px, charged = x + w + size * (0.7 + k * 1.1), k < shown.pending_power
            lights.ring(c, px, y + size / 2, size * 0.5, glow, lights.puck_glow(charged))
            art.puck(c, px, y + size / 2, size * 0.8, charged)
        if icons < waiting:
            art.label(c, f"+{waiting - icons}", x + w + size * (0.7 + icons * 1.1), y + size / 2,
                      size * 0.6, size)  # fmt: skip


def icon_spots(lay: Layout, n: int) -> list[tuple[float, float, float]]:
    """Where the Pucks Left Counter draws its first (up to 6) of n pucks: (x, y, size)."""
    x, y, w, h = lay.pucks
    size = min(h * 0.55, w / 6)
    icons = min(n, 6)
    left = x + w / 2 - (icons - 1) * size * 0.55
    return [(left + k * size * 1.1, y + size / 2, size) for k in range(icons)]


def flights(c: Canvas, lay: Layout, mo: Moment) -> None:
    """The symbols on their way from the grid to where they count."""
    timed = mo.timed
    if timed is None:
        return
    clock, t = timed
    starts = sources(lay, mo.event)
    for k, (reveal, goal) in enumerate(zip(mo.event["reveals"], targets(lay, mo.before, mo.event),
                                           strict=True)):  # fmt: skip
        q = clock.flown(k, t)
        if goal is None or q <= 0.0 or q >= 1.0:
            continue
        (sx, sy), (tx, ty, size) = starts[k], goal
        far, fade = mo.m.travel(q)
        ease = 1 - (1 - far) ** 2
        start = lay.cell * 0.62 * lights.pop(mo.m, (t - clock.reveals[k]) / lights.POP)[0]
        s = start + (size - start) * ease  # from the size of the symbol popping up on the grid
        c.save()
        c.alpha(fade)
        art.motif(c, str(reveal), sx + (tx - sx) * ease, sy + (ty - sy) * ease, s)
        c.restore()
