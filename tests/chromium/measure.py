"""What the layout test measures on one screen at one size: the text boxes the frame drew
(`?layout=1`: backends/layout.py), the mirror's buttons, and the screenshot's pixels.

Each check returns sentences, one per fault, so a failure lists everything wrong at once.
"""

from __future__ import annotations

from io import BytesIO
from typing import Any

import numpy as np
from PIL import Image

Box = tuple[float, float, float, float]  # x, y, w, h
SLACK = 1.0  # px: rounding and anti-aliasing
LARGE = (24.0, 18.66)  # WCAG large text: 18 pt, or 14 pt bold (in CSS px)
# The mirror's controls: its buttons and its typed amounts' <input> fields.
CONTROLS = """() => [...document.querySelectorAll('#mirror button, #mirror input')].map(b => {
  const r = b.getBoundingClientRect();
  return {label: b.getAttribute('aria-label'), box: [r.x, r.y, r.width, r.height]};
})"""


def meet(a: Box, b: Box) -> Box:
    """The part two boxes share (w or h 0 when they do not meet)."""
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return x0, y0, max(0.0, x1 - x0), max(0.0, y1 - y0)


def inside(inner: Box, outer: Box, slack: float = SLACK) -> bool:
    """True when inner lies within outer (with slack)."""
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[0] + inner[2] <= outer[0] + outer[2] + slack
        and inner[1] + inner[3] <= outer[1] + outer[3] + slack
    )


def visible(text: dict[str, Any]) -> Box:
    """The part of a text's box its clip lets show."""
    box = tuple(text["box"])
    return meet(box, tuple(text["clip"])) if text["clip"] else box  # type: ignore[return-value]


def in_scroll(text: dict[str, Any], scroll: list[float] | None) -> bool:
    """True when the text's clip is the screen's scrolling area (it scrolls into view)."""
    return bool(scroll and text["clip"] and abs(text["clip"][1] - scroll[0]) <= SLACK
                and abs(text["clip"][1] + text["clip"][3] - scroll[1]) <= SLACK)  # fmt: skip


def clipped(layout: dict[str, Any]) -> list[str]:
    """Text off the screen, or cut by a clip that is not a scrolling area (whose content it
    must lie within, to be reached by scrolling)."""
    screen: Box = (0.0, 0.0, layout["w"], layout["h"])
    scroll, out = layout["scroll"], []
    for t in layout["texts"]:
        x, y, w, h = t["box"]
        if in_scroll(t, scroll):
            top, _bottom, offset, content = scroll
            inner = (x, y - top + offset, w, h)
            if not inside(inner, (t["clip"][0], 0.0, t["clip"][2], content), 2.0):
                out.append(f"{t['text']!r} at {t['box']} is outside its scrolling content")
        elif not inside(tuple(t["box"]), screen) or (
            t["clip"] and not inside(tuple(t["box"]), tuple(t["clip"]))
        ):
            out.append(f"{t['text']!r} at {t['box']} is cut off (clip {t['clip']})")
    return out


def overlaps(layout: dict[str, Any], buttons: list[dict[str, Any]]) -> list[str]:
    """Text over other text (a shadow under its own words aside), or over a control it is not
    the label of (text wholly inside a control is its label)."""
    texts = [(t, visible(t)) for t in layout["texts"]]
    texts = [(t, v) for t, v in texts if v[2] > 1 and v[3] > 1]
    out = []
    for i, (a, va) in enumerate(texts):
        for b, vb in texts[i + 1 :]:
            both = meet(va, vb)
            if both[2] > 2 and both[3] > 2 and a["text"] != b["text"]:
                out.append(f"{a['text']!r} {a['box']} overlaps {b['text']!r} {b['box']}")
        core = (va[0] + 1, va[1] + 2, va[2] - 2, va[3] - 4)  # the glyphs, not the box's margin
        for button in buttons:
            bb = tuple(button["box"])
            shared = meet(core, bb)  # type: ignore[arg-type]
            if shared[2] > 1 and shared[3] > 1 and not inside(va, bb, 2.0):  # type: ignore[arg-type]
                out.append(f"{a['text']!r} {a['box']} runs under {button['label']!r} {bb}")
    return out


def off_screen(layout: dict[str, Any], buttons: list[dict[str, Any]]) -> list[str]:
    """Controls (the mirror's buttons and fields) not wholly on the screen."""
    screen: Box = (0.0, 0.0, layout["w"], layout["h"])
    return [f"{b['label']!r} at {b['box']} is off the screen" for b in buttons
            if not inside(tuple(b["box"]), screen)]  # fmt: skip


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG relative luminance."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def colour(fill: str) -> tuple[int, int, int] | None:
    """A '#rgb', '#rrggbb' or '#rrggbbaa' colour as RGB (None for anything else)."""
    if not isinstance(fill, str) or not fill.startswith("#"):
        return None
    h = fill[1:]
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)) if len(h) >= 6 else None


def shadow(text: dict[str, Any], texts: list[dict[str, Any]]) -> bool:
    """True for a translucent copy of a text drawn a few px off it (its drop shadow)."""
    if len(text["fill"]) != 9 or text["fill"][7:].lower() == "ff":
        return False
    return any(o is not text and o["text"] == text["text"]
               and abs(o["box"][0] - text["box"][0]) <= 6 and abs(o["box"][1] - text["box"][1]) <= 6
               for o in texts)  # fmt: skip


def contrast(layout: dict[str, Any], png: bytes) -> list[str]:
    """Text whose colour against what is most often behind it (the commonest colour in its
    box, read from the screenshot) is under 4.5:1, or 3:1 for large text."""
    image = np.asarray(Image.open(BytesIO(png)).convert("RGB"), dtype=np.int32)
    scale = image.shape[1] / layout["w"]
    out, texts = [], layout["texts"]
    for t in texts:
        fill = colour(t["fill"])
        x, y, w, h = visible(t)
        if fill is None or w < 4 or h < 6 or x < 0 or y < 0 or t["dimmed"] or shadow(t, texts):
            continue
        crop = image[int(y * scale) : int((y + h) * scale), int(x * scale) : int((x + w) * scale)]
        pixels = crop.reshape(-1, 3)
        if not len(pixels):
            continue
        # Behind the glyphs: the pixels unlike the text's colour, unless nearly all are like it
        # (text on its own colour: then the box's commonest colour, the text's, is behind it).
        far = pixels[np.abs(pixels - np.array(fill)).sum(axis=1) > 60]
        behind = far if len(far) >= len(pixels) // 4 else pixels
        q = behind >> 3
        code = int(np.bincount(q[:, 0] << 10 | q[:, 1] << 5 | q[:, 2]).argmax())
        back = tuple(min(255, (c << 3) + 4) for c in (code >> 10, code >> 5 & 31, code & 31))
        lf, lb = luminance(fill), luminance(back)  # type: ignore[arg-type]
        ratio = (max(lf, lb) + 0.05) / (min(lf, lb) + 0.05)
        large = t["size"] >= LARGE[0] or (t["bold"] and t["size"] >= LARGE[1])
        if ratio < (3.0 if large else 4.5):
            out.append(f"{t['text']!r} {t['fill']} on rgb{back}: {ratio:.2f}:1")
    return out
