"""The project's own random stream: SHA-256 in counter mode, versioned, specified in docs/rng.md.

Version 1: block i (i = 0, 1, 2, ...) is SHA-256(b"lottery-rng/v1" || seed || i as 8 bytes,
big-endian); the stream is the blocks' bytes in order. `below(n)` reads k = ceil(bits(n-1)/8)
bytes as a big-endian integer x and returns x % n when x < 256**k - (256**k % n), otherwise it
reads k more bytes (rejection sampling: no modulo bias). Every other helper is built on `below`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

VERSION = 1
DOMAIN = b"lottery-rng/v1"
_BLOCKS_PER_FILL = 8


class Stream:
    """A deterministic byte stream from a seed, with unbiased integer helpers."""

    __slots__ = ("_base", "_buf", "_counter", "_pos", "seed", "version")

    def __init__(self, seed: bytes, version: int = VERSION) -> None:
        if version != VERSION:
            raise ValueError(f"unknown random stream version {version!r}")
        if not isinstance(seed, bytes | bytearray):
            raise TypeError("the seed must be bytes")
        self.seed = bytes(seed)
        self.version = version
        self._base = hashlib.sha256(DOMAIN + self.seed)
        self._counter = 0
        self._buf = b""
        self._pos = 0

    def _fill(self) -> None:
        """Append the next blocks to the buffer (dropping the bytes already read)."""
        chunks = [self._buf[self._pos :]]
        base = self._base
        for _ in range(_BLOCKS_PER_FILL):
            h = base.copy()
            h.update(self._counter.to_bytes(8, "big"))
            chunks.append(h.digest())
            self._counter += 1
        self._buf = b"".join(chunks)
        self._pos = 0

    def read(self, count: int) -> bytes:
        """The next count bytes of the stream."""
        while len(self._buf) - self._pos < count:
            self._fill()
        start = self._pos
        self._pos = start + count
        return self._buf[start : self._pos]

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        if n <= 256:
            limit = 256 - 256 % n
            while True:
                if self._pos >= len(self._buf):
                    self._fill()
                x = self._buf[self._pos]
                self._pos += 1
                if x < limit:
                    return x % n
        k = ((n - 1).bit_length() + 7) // 8
        span = 1 << (8 * k)
        limit = span - span % n
        while True:
            x = int.from_bytes(self.read(k), "big")
            if x < limit:
                return x % n

    def byte(self) -> int:
        """The next byte of the stream: the same draw as below(256), read without its loop."""
        if self._pos >= len(self._buf):
            self._fill()
        x = self._buf[self._pos]
        self._pos += 1
        return x

    def between(self, low: int, high: int) -> int:
        """A uniform integer in [low, high] (both included)."""
        return low + self.below(high - low + 1)

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability numerator/denominator (one below() draw)."""
        return self.below(denominator) < numerator

    def flags(self, count: int, numerator: int, denominator: int) -> list[bool]:
        """count independent chances of numerator/denominator, one byte each (denominator | 256).

        Flag i is True when byte i < numerator * 256 / denominator: exact, nothing rejected.
        """
        if 256 % denominator:
            raise ValueError(f"flags() needs a denominator dividing 256, got {denominator}")
        threshold = numerator * (256 // denominator)
        return [b < threshold for b in self.read(count)]

    def many(self, count: int, n: int) -> list[int]:
        """The same values as count calls of below(n), for n dividing 256 (one byte each)."""
        if 256 % n:
            raise ValueError(f"many() needs a bound dividing 256, got {n}")
        mask = n - 1
        return [b & mask for b in self.read(count)]

    def choice(self, items: Sequence[T]) -> T:
        """A uniform element of a non-empty sequence."""
        return items[self.below(len(items))]

    def weighted(self, weights: Sequence[int]) -> int:
        """An index drawn with probability proportional to its integer weight."""
        x = self.below(sum(weights))
        for index, weight in enumerate(weights):
            if x < weight:
                return index
            x -= weight
        raise AssertionError("unreachable: x is below the sum of the weights")

    def shuffle(self, items: list[T]) -> None:
        """Shuffle a list in place (Fisher-Yates from the end: swap i with below(i + 1))."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], count: int) -> list[T]:
        """count distinct elements, in draw order (a partial Fisher-Yates from the front)."""
        pool = list(items)
        for i in range(count):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:count]
