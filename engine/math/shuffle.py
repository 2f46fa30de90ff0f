"""An unbiased shuffle: Fisher–Yates with draws from a source of random bytes the caller gives.

The engine does no I/O and owns no entropy: a pool is shuffled with `secrets.token_bytes`
passed in by whoever lays it out (web/endpoint/pools/files.py, tools).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

SHUFFLE_BATCH = 1 << 16
Progress = Callable[[int, int], None]
Entropy = Callable[[int], bytes]  # n -> n random bytes, e.g. secrets.token_bytes


def shuffle(
    items: list[int], entropy: Entropy, progress: Progress | None = None, total: int = 0
) -> None:
    """Shuffle in place (Fisher–Yates) with unbiased draws from entropy's bytes."""
    span = 1 << 64
    buffer: array[int] = array("Q")
    pos = 0
    for done, i in enumerate(range(len(items) - 1, 0, -1)):
        bound = i + 1
        limit = span - span % bound
        while True:
            if pos == len(buffer):
                buffer, pos = array("Q", entropy(8 * SHUFFLE_BATCH)), 0
            draw = buffer[pos]
            pos += 1
            if draw < limit:
                break
        j = draw % bound
        items[i], items[j] = items[j], items[i]
        if progress and not done % SHUFFLE_BATCH:
            progress(done, total)
