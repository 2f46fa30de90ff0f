"""Input as plain values, the same from the browser and from pygame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

PointerKind = Literal["down", "move", "up"]


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


Event = Pointer | Key | Activate | Resize | Reply | ReducedMotion


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

    def contains(self, x: float, y: float) -> bool:
        """True when the point lies inside the control."""
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h

    def to_json(self) -> dict[str, object]:
        """The control as the shell's mirror reads it."""
        return {
            "id": self.id,
            "label": self.label,
            "rect": [round(self.x, 1), round(self.y, 1), round(self.w, 1), round(self.h, 1)],
            "enabled": self.enabled,
        }


def event_from_json(data: dict[str, object]) -> Event | None:
    """Read one event sent by a shell; None for an unknown kind."""
    kind = data.get("type")
    if kind in ("down", "move", "up"):
        return Pointer(kind, float(data["x"]), float(data["y"]))  # type: ignore[arg-type]
    if kind == "key":
        return Key(str(data["key"]))
    if kind == "activate":
        return Activate(str(data["control"]))
    if kind == "resize":
        return Resize(float(data["width"]), float(data["height"]))  # type: ignore[arg-type]
    if kind == "motion":
        return ReducedMotion(data.get("reduced") is True)
    if kind == "reply":
        body = data.get("body")
        return Reply(str(data["id"]), bool(data.get("ok")), body if isinstance(body, dict) else {})
    return None
