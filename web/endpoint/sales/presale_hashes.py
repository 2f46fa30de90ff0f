"""Presale hashes: the book hashes of the entries each pool will sell next, made before they
are sold (web/endpoint/sales/hashes.py hashes them; a sale takes its entry's hash with its record,
and a play sold without one is hashed after its sale)."""

from __future__ import annotations

import threading
from itertools import takewhile

HASH_BATCH = 256  # entries hashed in one batch of the hashing process
PRESALE_LIMIT = 4096  # entries of each pool on sale hashed before they are sold, at most


class PresaleHashes:
    """The book hashes of the entries each pool will sell next, made before they are sold;
    `take` hands a sale its entry's hash (the batch's thread), the hasher adds them (the
    event loop). Where it hashes follows the pace of the sales, measured by the entries sold
    between two looks (a look each batch the hasher builds): it starts that many entries past
    the pool's next (those are sold while it builds; its lead) and spans four looks' worth
    further (its window), at least HASH_BATCH and at most PRESALE_LIMIT."""

    def __init__(self) -> None:
        self._digests: dict[int, dict[int, str]] = {}  # pool ref -> entry index -> hash
        self._end: dict[int, int] = {}  # pool ref -> the end of the entries asked for
        self._seen: dict[int, tuple[int, int, int]] = {}  # pool ref -> (next, lead, window)
        self.unread: set[int] = set()  # pools whose files the hashing process could not read
        self._lock = threading.Lock()

    def take(self, pool_ref: int, index: int) -> str | None:
        """The hash of this entry's book, made ahead, or None (then it is made after the
        sale); each is handed out once."""
        with self._lock:
            found = self._digests.get(pool_ref)
            return found.pop(index, None) if found is not None else None

    def look(self, pool_ref: int, next_index: int) -> None:
        """A pool's next entry now: the hashes of those passed are forgotten, and where to
        hash follows the entries sold since the last look."""
        with self._lock:
            found = self._digests.setdefault(pool_ref, {})
            for index in list(takewhile(lambda i: i < next_index, found)):  # (ascending)
                del found[index]
            last = self._seen.get(pool_ref, (next_index, 0, 0))[0]
            sold = next_index - last
            window = min(PRESALE_LIMIT, max(HASH_BATCH, 4 * sold))
            self._seen[pool_ref] = (next_index, min(sold, PRESALE_LIMIT), window)

    def wanted(self, pool_ref: int, size: int) -> tuple[int, int]:
        """The entries of a pool of `size` to hash next, [start, end): at most HASH_BATCH,
        past those sold while they are built (the lead) and within the window (as of the last
        look); start ==
        end when none are."""
        with self._lock:
            next_index, lead, window = self._seen[pool_ref]
            start = max(next_index + lead, self._end.get(pool_ref, 0))
            end = min(size, next_index + lead + window, start + HASH_BATCH)
            return start, max(start, end)

    def add(self, pool_ref: int, start: int, found: list[str]) -> None:
        """The hashes of entries start, start + 1, ... of a pool."""
        with self._lock:
            digests = self._digests.setdefault(pool_ref, {})
            for offset, digest in enumerate(found):
                digests[start + offset] = digest
            self._end[pool_ref] = max(self._end.get(pool_ref, 0), start + len(found))

    def forget(self, keep: set[int]) -> None:
        """Drop the pools not in `keep` (retired or spent)."""
        with self._lock:
            for pool_ref in set(self._digests) - keep:
                del self._digests[pool_ref]
                self._end.pop(pool_ref, None)
                self._seen.pop(pool_ref, None)
