"""The player's settings every game shares: faster animations, sound and its music and effects
volumes, reduced motion, and the time zone the shell found (times are shown in it).

The shell keeps them (localStorage) and passes them back as query parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Setting = Literal["fast", "sound"]
LABELS: dict[Setting, str] = {"fast": "Faster animations", "sound": "Sound"}
Volume = Literal["music", "effects"]
VOLUME_LABELS: dict[Volume, str] = {"music": "Music", "effects": "Effects"}
LEVELS = (100, 75, 50, 25, 0)  # a volume's steps in per cent, in the order a press turns it down
DEFAULT_LEVELS: dict[Volume, int] = {"music": 50, "effects": 100}  # the bed sits under the effects


REALITY_CHECK_S = 3600.0  # a reality check after each hour of play in a session


def reality_interval(value: object) -> float:
    """`realityCheck` (seconds) may bring the reality check sooner, never later, nor more
    often than every 10 s."""
    text = str(value or "")
    if not text.isdecimal() or len(text) > 6:
        return REALITY_CHECK_S
    return max(10.0, min(REALITY_CHECK_S, float(text)))


def level(value: object, default: int) -> int:
    """A volume query parameter: one of LEVELS, else `default`."""
    text = str(value if value is not None else "")
    return int(text) if text.isdecimal() and int(text) in LEVELS else default


def utc_offset(value: object) -> int:
    """`tz`, the player's time zone as minutes east of UTC (0 when missing or out of range)."""
    text = str(value or "0")
    number = text[1:] if text[:1] in "+-" else text
    if not number.isdecimal() or len(number) > 4 or int(number) > 14 * 60:
        return 0
    return -int(number) if text[:1] == "-" else int(number)


def flag(value: object) -> bool:
    """A query parameter read as on/off."""
    return str(value).lower() in ("1", "true", "yes", "on")


@dataclass
class Settings:
    """The settings of one visit."""

    fast: bool = False
    reduced_motion: bool = False
    sound: bool = False
    audio: bool = True  # False when the backend cannot play sound: no Sound setting then
    reality_check_s: float = REALITY_CHECK_S  # play time between two reality checks
    music: int = DEFAULT_LEVELS["music"]  # the music bed's volume, per cent (one of LEVELS)
    effects: int = DEFAULT_LEVELS["effects"]  # the cues' volume, per cent
    utc_offset_minutes: int = 0  # the player's time zone, minutes east of UTC

    def __post_init__(self) -> None:
        self.sound = self.sound and self.audio

    @classmethod
    def from_params(cls, params: Mapping[str, object]) -> Settings:
        """`fast`, `sound`, `music` and `effects` (volumes), `reducedMotion`, `realityCheck`,
        `tz`, and `audio=0` from a shell without sound."""
        return cls(
            fast=flag(params.get("fast")),
            reduced_motion=flag(params.get("reducedMotion")),
            sound=flag(params.get("sound")),
            audio=flag(params.get("audio", "1")),
            reality_check_s=reality_interval(params.get("realityCheck")),
            music=level(params.get("music"), DEFAULT_LEVELS["music"]),
            effects=level(params.get("effects"), DEFAULT_LEVELS["effects"]),
            utc_offset_minutes=utc_offset(params.get("tz")),
        )

    @property
    def speed(self) -> float:
        """Animation speed factor: three times faster with the setting. Reduced motion does not
        hurry the animations; it changes what they show (engine/ui/motion.py)."""
        return 3.0 if self.fast else 1.0

    def volumes(self) -> tuple[float, float]:
        """The music's and the effects' gains, 0..1 (both 0 while sound is off)."""
        on = 0.01 if self.sound else 0.0
        return self.music * on, self.effects * on

    def turn_down(self, volume: Volume) -> int:
        """A volume one step down (from silence back to full); returns its new level."""
        now = getattr(self, volume)
        new = LEVELS[(LEVELS.index(now) + 1) % len(LEVELS)]
        setattr(self, volume, new)
        return new

    def choose(self, setting: Setting, on: bool) -> bool:
        """Turn a setting on or off (sound only where there is audio); returns its new value."""
        on = on and (setting != "sound" or self.audio)
        setattr(self, setting, on)
        return on
