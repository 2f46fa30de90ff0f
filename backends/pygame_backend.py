"""The pygame-ce backend: the drawing interface on a pygame Surface (window or PNG).

Transforms are kept as an affine matrix applied to points, so translate/scale/rotate
behave as on the browser canvas; shapes with alpha or gradients are drawn on a
temporary layer and blended. Text is scaled with the transform but not rotated.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import pygame

from engine.ui.draw import (
    IDENTITY,
    Align,
    Baseline,
    Font,
    LinearGradient,
    Matrix,
    Paint,
    Point,
    rotation,
    scaling,
    then,
    transform,
    translation,
)


def parse_colour(text: str) -> pygame.Color:
    """A pygame Color from '#rgb', '#rrggbb', '#rrggbbaa' or 'rgba(r,g,b,a)'."""
    text = text.strip()
    if text.startswith("rgba(") or text.startswith("rgb("):
        parts = [p.strip() for p in text[text.index("(") + 1 : -1].split(",")]
        r, g, b = (int(float(p)) for p in parts[:3])
        a = round(float(parts[3]) * 255) if len(parts) > 3 else 255
        return pygame.Color(r, g, b, a)
    if text.startswith("#") and len(text) == 4:
        text = "#" + "".join(c * 2 for c in text[1:])
    return pygame.Color(text)


@dataclass(frozen=True)
class _State:
    matrix: Matrix = IDENTITY
    alpha: float = 1.0
    clip: pygame.Rect | None = None


class PygameCanvas:
    """A Canvas drawing on a pygame Surface whose pixels are `density` × logical px."""

    def __init__(
        self,
        surface: pygame.Surface,
        density: float = 1.0,
        art: Mapping[str, pygame.Surface] | None = None,
    ):
        self.surface = surface
        self.density = density
        self.art: Mapping[str, pygame.Surface] = {} if art is None else art  # by key
        self._scaled: dict[tuple[str, int, int], pygame.Surface] = {}
        self._state = _State(matrix=(density, 0.0, 0.0, density, 0.0, 0.0))
        self._stack: list[_State] = []
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}

    @property
    def width(self) -> float:
        """Logical width."""
        return self.surface.get_width() / self.density

    @property
    def height(self) -> float:
        """Logical height."""
        return self.surface.get_height() / self.density

    # -- geometry ---------------------------------------------------------------------
    def _pt(self, x: float, y: float) -> tuple[float, float]:
        return transform(self._state.matrix, x, y)

    def _scale_factor(self) -> float:
        a, b, _, _, _, _ = self._state.matrix
        return math.hypot(a, b)

    def _axis_aligned(self) -> bool:
        _, b, c, _, _, _ = self._state.matrix
        return abs(b) < 1e-9 and abs(c) < 1e-9

    def _blit_layer(self, layer: pygame.Surface, pos: tuple[int, int]) -> None:
        if self._state.alpha < 1.0:
            layer.set_alpha(round(255 * max(0.0, self._state.alpha)))
        self.surface.set_clip(self._state.clip)
        self.surface.blit(layer, pos)
        self.surface.set_clip(None)

    def _fill_layer(self, size: tuple[int, int], paint: Paint, origin: tuple[float, float]):
        """A layer of the given size filled with paint (gradients in device space)."""
        layer = pygame.Surface(size, pygame.SRCALPHA)
        if isinstance(paint, str):
            layer.fill(parse_colour(paint))
            return layer
        (x0, y0), (x1, y1) = self._pt(paint.x0, paint.y0), self._pt(paint.x1, paint.y1)
        dx, dy = x1 - x0, y1 - y0
        length2 = dx * dx + dy * dy or 1.0
        steps = 64
        ramp = [_gradient_colour(paint, i / (steps - 1)) for i in range(steps)]
        w, h = size
        ox, oy = origin
        vertical = abs(dx) < abs(dy)
        span = h if vertical else w
        for i in range(span):
            px, py = (ox + w / 2, oy + i + 0.5) if vertical else (ox + i + 0.5, oy + h / 2)
            t = ((px - x0) * dx + (py - y0) * dy) / length2
            colour = ramp[min(steps - 1, max(0, round(t * (steps - 1))))]
            if vertical:
                layer.fill(colour, pygame.Rect(0, i, w, 1))
            else:
                layer.fill(colour, pygame.Rect(i, 0, 1, h))
        return layer

    def _shape(
        self,
        points: list[tuple[float, float]],
        fill: Paint | None,
        stroke: str | None,
        line_width: float,
        closed: bool,
        radius: float = 0.0,
        circle: tuple[float, float, float] | None = None,
    ) -> None:
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        pad = line_width * self._scale_factor() + 2
        left, top = math.floor(min(xs) - pad), math.floor(min(ys) - pad)
        w = max(1, math.ceil(max(xs) + pad) - left)
        h = max(1, math.ceil(max(ys) + pad) - top)
        local = [(x - left, y - top) for x, y in points]
        lw = max(1, round(line_width * self._scale_factor()))
        if fill is not None:
            mask = pygame.Surface((w, h), pygame.SRCALPHA)
            self._draw_outline(
                mask, local, pygame.Color(255, 255, 255), 0, closed, radius, circle, (left, top)
            )
            layer = self._fill_layer((w, h), fill, (left, top))
            layer.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
            self._blit_layer(layer, (left, top))
        if stroke is not None:
            layer = pygame.Surface((w, h), pygame.SRCALPHA)
            self._draw_outline(
                layer, local, parse_colour(stroke), lw, closed, radius, circle, (left, top)
            )
            self._blit_layer(layer, (left, top))

    def _draw_outline(
        self,
        layer: pygame.Surface,
        local: list[tuple[float, float]],
        colour: pygame.Color,
        width: int,
        closed: bool,
        radius: float,
        circle: tuple[float, float, float] | None,
        origin: tuple[int, int],
    ) -> None:
        if circle is not None:
            cx, cy, r = circle
            pygame.draw.circle(layer, colour, (cx - origin[0], cy - origin[1]), r, width)
        elif radius > 0 and len(local) == 4:
            xs = [p[0] for p in local]
            ys = [p[1] for p in local]
            rect = pygame.Rect(
                round(min(xs)), round(min(ys)), round(max(xs) - min(xs)), round(max(ys) - min(ys))
            )
            pygame.draw.rect(layer, colour, rect, width, border_radius=round(radius))
        elif width == 0:
            pygame.draw.polygon(layer, colour, local)
        elif closed:
            pygame.draw.polygon(layer, colour, local, width)
        else:
            pygame.draw.lines(layer, colour, False, local, width)

    # -- the Canvas interface --------------------------------------------------------
    def clear(self, paint: Paint) -> None:
        """Fill the whole surface."""
        w, h = self.surface.get_size()
        self.surface.blit(self._fill_layer((w, h), paint, (0, 0)), (0, 0))

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: Paint | None = None,
        stroke: str | None = None,
        line_width: float = 1.0,
        radius: float = 0.0,
    ) -> None:
        """A rectangle, filled and/or stroked, with optional rounded corners."""
        corners = [self._pt(x, y), self._pt(x + w, y), self._pt(x + w, y + h), self._pt(x, y + h)]
        r = radius * self._scale_factor() if self._axis_aligned() else 0.0
        self._shape(
            corners,
            fill,
            stroke,
            line_width,
            True,
            radius=min(r, abs(h) * 0.5 * self._scale_factor()),
        )

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        *,
        fill: Paint | None = None,
        stroke: str | None = None,
        line_width: float = 1.0,
    ) -> None:
        """A circle, filled and/or stroked."""
        px, py = self._pt(cx, cy)
        pr = r * self._scale_factor()
        box = [(px - pr, py - pr), (px + pr, py + pr)]
        self._shape(box, fill, stroke, line_width, True, circle=(px, py, pr))

    def path(
        self,
        points: Sequence[Point],
        *,
        fill: Paint | None = None,
        stroke: str | None = None,
        line_width: float = 1.0,
        closed: bool = True,
    ) -> None:
        """A polygon or polyline."""
        if len(points) >= 2:
            self._shape([self._pt(x, y) for x, y in points], fill, stroke, line_width, closed)

    def _font(self, font: Font) -> pygame.font.Font:
        px = max(4, round(font.size * self._scale_factor()))
        key = (px, font.bold)
        cached = self._fonts.get(key)
        if cached is None:
            if not pygame.font.get_init():
                pygame.font.init()
            cached = pygame.font.Font(None, round(px * 1.35))
            cached.set_bold(font.bold)
            self._fonts[key] = cached
        return cached

    def text(
        self,
        s: str,
        x: float,
        y: float,
        font: Font,
        *,
        fill: str = "#ffffff",
        align: Align = "center",
        baseline: Baseline = "middle",
    ) -> None:
        """One line of text anchored at (x, y)."""
        image = self._font(font).render(s, True, parse_colour(fill))
        px, py = self._pt(x, y)
        w, h = image.get_size()
        left = px - (w / 2 if align == "center" else w if align == "right" else 0)
        top = py - (h / 2 if baseline == "middle" else h if baseline == "bottom" else 0)
        self._blit_layer(image, (round(left), round(top)))

    def measure(self, s: str, font: Font) -> float:
        """Text width in logical px."""
        return self._font(font).size(s)[0] / self._scale_factor()

    def save(self) -> None:
        """Push state."""
        self._stack.append(self._state)

    def restore(self) -> None:
        """Pop state."""
        if self._stack:
            self._state = self._stack.pop()

    def translate(self, dx: float, dy: float) -> None:
        """Move the origin."""
        self._state = replace(self._state, matrix=then(self._state.matrix, translation(dx, dy)))

    def scale(self, sx: float, sy: float) -> None:
        """Scale what follows."""
        self._state = replace(self._state, matrix=then(self._state.matrix, scaling(sx, sy)))

    def rotate(self, radians: float) -> None:
        """Rotate what follows."""
        self._state = replace(self._state, matrix=then(self._state.matrix, rotation(radians)))

    def alpha(self, a: float) -> None:
        """Multiply the opacity of what follows."""
        self._state = replace(self._state, alpha=self._state.alpha * a)

    def clip(self, x: float, y: float, w: float, h: float) -> None:
        """Clip what follows to a rectangle (axis-aligned in device space)."""
        (x0, y0), (x1, y1) = self._pt(x, y), self._pt(x + w, y + h)
        rect = pygame.Rect(
            round(min(x0, x1)), round(min(y0, y1)), round(abs(x1 - x0)), round(abs(y1 - y0))
        )
        if self._state.clip is not None:
            rect = rect.clip(self._state.clip)
        self._state = replace(self._state, clip=rect)

    def image(self, key: str, x: float, y: float, w: float, h: float) -> None:
        """An atlas picture by key, scaled (smoothly) and turned with the transform."""
        picture = self.art.get(key)
        if picture is None or w == 0 or h == 0:
            return
        a, b, c, d, _, _ = self._state.matrix
        size = (max(1, round(abs(w) * math.hypot(a, b))), max(1, round(abs(h) * math.hypot(c, d))))
        cached = self._scaled.get((key, *size))
        if cached is None:
            if len(self._scaled) > 256:
                self._scaled.clear()
            cached = self._scaled[(key, *size)] = pygame.transform.smoothscale(picture, size)
        layer = cached
        flip_x, flip_y = (
            (a * w < 0) if abs(a) > 1e-9 else False,
            (d * h < 0) if abs(d) > 1e-9 else False,
        )
        if flip_x or flip_y:
            layer = pygame.transform.flip(layer, flip_x, flip_y)
        if not self._axis_aligned():
            layer = pygame.transform.rotate(layer, -math.degrees(math.atan2(b, a)))
        if layer is cached and self._state.alpha < 1.0:
            layer = layer.copy()  # _blit_layer sets the layer's alpha: not the cached one's
        cx, cy = self._pt(x + w / 2, y + h / 2)
        lw, lh = layer.get_size()
        self._blit_layer(layer, (round(cx - lw / 2), round(cy - lh / 2)))


def _gradient_colour(paint: LinearGradient, t: float) -> pygame.Color:
    stops = paint.stops
    if t <= stops[0][0]:
        return parse_colour(stops[0][1])
    for (o0, c0), (o1, c1) in itertools.pairwise(stops):
        if t <= o1:
            k = 0.0 if o1 == o0 else (t - o0) / (o1 - o0)
            return parse_colour(c0).lerp(parse_colour(c1), k)
    return parse_colour(stops[-1][1])
