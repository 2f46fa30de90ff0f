"""The outcome token's payload, written by the endpoint and read by every client (docs/token.md).

One codec: the endpoint signs `Payload.to_json()`; the browser flow and the native shell read
a verified payload with `Payload.from_json`, which refuses anything that is not a well-formed
outcome of a known game before a book is built from it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.outcome import Composition

SEED_HEX = re.compile(r"[0-9a-f]{32}")
MODES = ("try",)  # the values of the optional `mode` claim: "try" marks a free play


class PayloadError(ValueError):
    """A payload that is not a well-formed outcome token payload."""


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PayloadError(f"{key} must be a non-negative integer")
    return value


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise PayloadError(f"{key} must be a non-empty string")
    return value


@dataclass(frozen=True)
class Payload:
    """What an outcome token says: whose play, which game and model, and its outcome."""

    account: str
    game: str
    model: str
    play_number: int
    pool: str
    index: int
    prize_pence: int
    composition: Composition
    seed: str  # 32 lower-case hex digits
    iat: int
    mode: str | None = None  # "try" for a free play of TRY mode; absent (None) for a paid play

    @property
    def seed_bytes(self) -> bytes:
        """The 128-bit scenario seed."""
        return bytes.fromhex(self.seed)

    def to_json(self) -> dict[str, Any]:
        """The payload object the endpoint signs (claims in docs/token.md)."""
        return {
            "account": self.account,
            "game": self.game,
            "model": self.model,
            "play_number": self.play_number,
            "pool": self.pool,
            "index": self.index,
            "prize_pence": self.prize_pence,
            "composition": self.composition.to_json(),
            "seed": self.seed,
            "iat": self.iat,
        } | ({} if self.mode is None else {"mode": self.mode})

    @classmethod
    def from_json(cls, data: object) -> Payload:
        """Read a verified payload; PayloadError says what is wrong with it."""
        if not isinstance(data, Mapping):
            raise PayloadError("the payload must be an object")
        seed = _str(data, "seed")
        if not SEED_HEX.fullmatch(seed):
            raise PayloadError("seed must be 32 lower-case hex digits")
        raw = data.get("composition")
        if not isinstance(raw, list):
            raise PayloadError("composition must be a list of parts")
        try:
            composition = Composition.from_json(raw)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise PayloadError(f"bad composition: {exc}") from None
        mode = data.get("mode")
        if mode is not None and mode not in MODES:
            raise PayloadError(f"mode must be one of {', '.join(MODES)} when present")
        payload = cls(
            mode=mode,
            account=_str(data, "account"),
            game=_str(data, "game"),
            model=_str(data, "model"),
            play_number=_int(data, "play_number"),
            pool=_str(data, "pool"),
            index=_int(data, "index"),
            prize_pence=_int(data, "prize_pence"),
            composition=composition,
            seed=seed,
            iat=_int(data, "iat"),
        )
        if composition.total != payload.prize_pence:
            raise PayloadError("the composition does not add up to the prize")
        return payload
