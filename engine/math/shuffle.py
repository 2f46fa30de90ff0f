"""An unbiased, cryptographically secure shuffle: Fisher–Yates with draws from `secrets`."""

from __future__ import annotations

import secrets
from array import array
from collections.abc import Callable

SHUFFLE_BATCH = 1 << 16
Progress = Callable[[int, int], None]


def shuffle(items: list[int], progress: Progress | None = None, total: int = 0) -> None:
    """Shuffle in place (Fisher–Yates) with unbiased draws from the `secrets` source."""
    span = 1 << 64
    buffer: array[int] = array("Q")
    pos = 0
    for done, i in enumerate(range(len(items) - 1, 0, -1)):
        bound = i + 1
        limit = span - span % bound
        while True:
            if pos == len(buffer):
                buffer, pos = array("Q", secrets.token_bytes(8 * SHUFFLE_BATCH)), 0
            draw = buffer[pos]
            pos += 1
            if draw < limit:
                break
        j = draw % bound
        items[i], items[j] = items[j], items[i]
        if progress and not done % SHUFFLE_BATCH:
            progress(done, total)
