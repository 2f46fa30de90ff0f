"""A scrolling area: the part of a screen whose content may be taller than the window.

Where a page's content does not fit (How To Play and Rules on a phone held sideways, Limits,
My Games, VERIFY), it stands in an area between `top` and `bottom` of the window and moves
under it: by touch (a drag that starts in the area), by the wheel, and by keys (ArrowUp and
ArrowDown, PageUp and PageDown, Home and End). A control in the content keeps its place in the
mirror wherever it is scrolled: when the mirror's button takes the focus (Tab), the area
scrolls it into view, so the keys never reach a control a player cannot see. Content that is
scrolled away is drawn clipped to the area and its controls shrink to the part that shows (a
tap on the fixed header never reaches a control scrolled under it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.ui.draw import Canvas
from engine.ui.input import Control, Event, Focus, Key, Pointer, Wheel

LINE = 40.0  # how far an arrow key moves the content, in logical px
BAR = 5.0  # the width of the bar that shows where the view is in the content


class Scroll:
    """An area of the window from `top` to `bottom`, showing content `content` px tall from
    `offset` down."""

    def __init__(self) -> None:
        self.top = 0.0
        self.bottom = 0.0
        self.content = 0.0
        self.offset = 0.0
        self._drag: tuple[float, float] | None = None  # (pointer y, offset) at the press

    def place(self, top: float, bottom: float, content: float) -> None:
        """Set the area and the content's height (each frame: they follow the window)."""
        self.top, self.bottom, self.content = top, max(top, bottom), content
        self.offset = min(max(0.0, self.offset), self.most())

    def most(self) -> float:
        """The largest offset: the content's foot at the area's."""
        return max(0.0, self.content - (self.bottom - self.top))

    def scrolls(self) -> bool:
        """True when the content is taller than the area."""
        return self.most() > 0.5

    def to(self, offset: float) -> bool:
        """Scroll to offset (kept in range); True when the view moved."""
        new = min(max(0.0, offset), self.most())
        moved, self.offset = abs(new - self.offset) > 0.01, new
        return moved

    def reveal(self, y: float, h: float) -> bool:
        """Scroll the least that shows the content from y to y + h (its top, if taller)."""
        view = self.bottom - self.top
        if y < self.offset:
            return self.to(y)
        if y + h > self.offset + view:
            return self.to(min(y, y + h - view))
        return False

    def handle(self, event: Event, controls: Iterable[Control] = ()) -> bool:
        """Scroll for a key, the wheel, a drag or a focused control of the content (given in
        content coordinates); True when the event was a scrolling one and is used up."""
        view = self.bottom - self.top
        if isinstance(event, Wheel):
            self.to(self.offset + event.dy)
            return self.scrolls()
        if isinstance(event, Key):
            step = {
                "ArrowDown": LINE,
                "ArrowUp": -LINE,
                "PageDown": view * 0.9,
                "PageUp": -view * 0.9,
                "End": self.content,
                "Home": -self.content,
            }.get(event.key)
            if step is None or not self.scrolls():
                return False
            self.to(self.offset + step)
            return True
        if isinstance(event, Focus):
            hit = next((c for c in controls if c.id == event.control), None)
            if hit is not None:
                self.reveal(hit.y - 8, hit.h + 16)
            return False  # the screen may still want to know
        if isinstance(event, Pointer):
            if event.kind == "down" and self.top <= event.y <= self.bottom and self.scrolls():
                self._drag = (event.y, self.offset)
            elif event.kind == "move" and self._drag is not None:
                self.to(self._drag[1] - (event.y - self._drag[0]))
            elif event.kind == "up":
                self._drag = None
        return False

    def shown(self, control: Control) -> Control:
        """A control of the content (content coordinates) where it is on the window, cut to
        the part of it inside the area (none of it: a line at the area's edge)."""
        y = self.top + control.y - self.offset
        top, bottom = max(y, self.top), min(y + control.h, self.bottom)
        if bottom <= top:
            edge = self.top if y < self.top else self.bottom
            return replace(control, y=edge, h=0.0)
        return replace(control, y=top, h=bottom - top)

    def begin(self, canvas: Canvas, x: float, w: float) -> None:
        """Before the content is drawn: clip to the area and move the content by the offset
        (content y 0 at the area's top). End with `end`."""
        canvas.save()
        canvas.clip(x, self.top, w, self.bottom - self.top)
        canvas.translate(0, self.top - self.offset)

    def end(self, canvas: Canvas, right: float) -> None:
        """After the content: undo `begin`, and when it scrolls a bar at `right` that shows
        which part is in view."""
        canvas.restore()
        if not self.scrolls():
            return
        view = self.bottom - self.top
        bar_h = max(24.0, view * view / self.content)
        bar_y = self.top + (view - bar_h) * self.offset / self.most()
        canvas.rect(right - BAR - 2, self.top, BAR, view, fill="#ffffff22", radius=BAR / 2)
        canvas.rect(right - BAR - 2, bar_y, BAR, bar_h, fill="#ffffffaa", radius=BAR / 2)

    def area(self) -> list[float]:
        """[top, bottom, offset, content] for the layout test (backends/browser.py)."""
        return [round(v, 1) for v in (self.top, self.bottom, self.offset, self.content)]
