"""Input as plain values, the same from the browser and from pygame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

PointerKind = Literal["down", "move", "up"]
MAX_TYPED = 40  # a text field keeps at most this many characters


@dataclass(frozen=True)
class Pointer:
    """A mouse or touch event at logical (x, y)."""

    kind: PointerKind
    x: float
    y: float


@dataclass(frozen=True)
class Key:
    """A key pressed, by its DOM `key` name ('Enter', ' ', 'ArrowRight', 'Escape'...)."""

    key: str


@dataclass(frozen=True)
class Activate:
    """A control activated: clicked, tapped, or pressed as a focused DOM button."""

    control: str


@dataclass(frozen=True)
class Typed:
    """A text field's whole text after the player changed it (the mirror's <input>)."""

    control: str
    text: str


@dataclass(frozen=True)
class Focus:
    """A mirror button took the browser's focus (Tab, a click): the control it stands for."""

    control: str


@dataclass(frozen=True)
class Wheel:
    """The mouse wheel or a touchpad turned by dy logical px (down is positive)."""

    dy: float


@dataclass(frozen=True)
class Resize:
    """The drawing area changed size (logical px)."""

    width: float
    height: float


@dataclass(frozen=True)
class Reply:
    """The shell's answer to a request a frame carried (network, signature check, storage)."""

    id: str
    ok: bool
    body: dict[str, Any]


@dataclass(frozen=True)
class ReducedMotion:
    """The system's reduced-motion preference changed (the browser's `prefers-reduced-motion`
    `change` event): on or off from now on, in the middle of a play too."""

    on: bool


Event = Pointer | Key | Activate | Typed | Focus | Wheel | Resize | Reply | ReducedMotion


@dataclass(frozen=True)
class Control:
    """An actionable thing on screen: mirrored as a real button for people and tests."""

    id: str
    label: str
    x: float
    y: float
    w: float
    h: float
    enabled: bool = True
    focused: bool = False  # the one the keys act on: the mirror gives its button the focus
    field: str = ""  # "decimal": a text field for an amount (mirrored as an <input>), not a button
    value: str = ""  # a field's text

    def contains(self, x: float, y: float) -> bool:
        """True when the point lies inside the control."""
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h

    def to_json(self) -> dict[str, object]:
        """The control as the shell's mirror reads it."""
        out: dict[str, object] = {
            "id": self.id,
            "label": self.label,
            "rect": [round(self.x, 1), round(self.y, 1), round(self.w, 1), round(self.h, 1)],
            "enabled": self.enabled,
        }
        if self.focused:
            out["focused"] = True
        if self.field:
            out["input"] = self.field
            out["value"] = self.value
        return out


def event_from_json(data: dict[str, object]) -> Event | None:
    """Read one event sent by a shell; None for an unknown kind."""
    kind = data.get("type")
    if kind in ("down", "move", "up"):
        return Pointer(kind, float(data["x"]), float(data["y"]))  # type: ignore[arg-type]
    if kind == "key":
        return Key(str(data["key"]))
    if kind == "activate":
        return Activate(str(data["control"]))
    if kind == "input":
        return Typed(str(data["control"]), str(data.get("value") or "")[:MAX_TYPED])
    if kind == "focus":
        return Focus(str(data["control"]))
    if kind == "wheel":
        return Wheel(float(data["dy"]))  # type: ignore[arg-type]
    if kind == "resize":
        return Resize(float(data["width"]), float(data["height"]))  # type: ignore[arg-type]
    if kind == "motion":
        return ReducedMotion(data.get("reduced") is True)
    if kind == "reply":
        body = data.get("body")
        return Reply(str(data["id"]), bool(data.get("ok")), body if isinstance(body, dict) else {})
    return None
