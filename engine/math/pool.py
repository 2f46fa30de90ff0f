"""Finite pools as a lottery sells them: a shuffled list of outcomes and its Merkle commitment.

A pool holds exactly its table's counts scaled to its size, in an order shuffled with the
entropy its caller gives (`secrets` in web/endpoint/pools/files.py, which also saves and loads it);
the seeds, salts and leaf hashes follow engine/math/leaves.py. Only the roots of each chunk of
256 leaves are kept, so a proof recomputes one chunk (about a millisecond) and the pool stores
little more than the shuffled outcome codes.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

from engine.math import merkle
from engine.math.leaves import (
    CHUNK,
    CHUNK_HEIGHT,
    KEY_BYTES,
    Outcome,
    PoolEntry,
    SpanJob,
    chunk_leaves,
    chunk_root,
    chunk_stream,
    composition_bytes,
    derive,
    leaf_tails,
    span_roots,
    verify_proof,
)
from engine.math.shuffle import Entropy, Progress, shuffle
from engine.math.table import PrizeTable
from engine.outcome import Composition

__all__ = [
    "CHUNK",
    "CHUNK_HEIGHT",
    "Pool",
    "PoolEntry",
    "chunk_root",
    "composition_bytes",
    "derive",
    "verify_proof",
]

SPAN_CHUNKS = 1024  # chunks hashed per job: 262,144 entries
Mapper = Callable[[Callable[[SpanJob], list[bytes]], Iterable[SpanJob]], Iterable[list[bytes]]]


@dataclass(frozen=True, eq=False)
class Pool:
    """A laid-out pool: shuffled outcome codes, the secret key and the chunk roots."""

    game: str
    model: str
    key: bytes
    catalogue: tuple[Outcome, ...]
    codes: array[int]
    chunk_roots: tuple[bytes, ...]

    @classmethod
    def lay_out(
        cls,
        table: PrizeTable,
        size: int,
        *,
        key: bytes,
        entropy: Entropy,
        progress: Progress | None = None,
        mapper: Mapper = map,
    ) -> Pool:
        """Lay out a pool of size plays (a multiple of the base pool) under a secret key,
        shuffled with entropy's bytes.

        mapper (like the builtin map, e.g. a process pool's map) hashes the chunks' spans."""
        if size <= 0 or size % table.base_pool_size:
            raise ValueError(f"pool size {size} is not a multiple of {table.base_pool_size}")
        if len(key) != KEY_BYTES:
            raise ValueError(f"a pool key has {KEY_BYTES} bytes")
        scale = size // table.base_pool_size
        catalogue: list[Outcome] = []
        items: list[int] = []
        for tier in table.tiers:
            for comp, count in tier.composition_counts(scale):
                items.extend([len(catalogue)] * count)
                catalogue.append((tier.prize_pence, comp))
        if len(catalogue) > 1 << 16:
            raise ValueError("too many compositions for 16-bit codes")
        shuffle(items, entropy, progress, 2 * size)
        codes = array("H", items)
        del items
        secret = key
        tails = leaf_tails(catalogue)
        span = SPAN_CHUNKS * CHUNK
        jobs = (
            (secret, start // CHUNK, codes[start : start + span].tobytes(), tails)
            for start in range(0, size, span)
        )
        roots: list[bytes] = []
        for part in mapper(span_roots, jobs):
            roots.extend(part)
            if progress:
                progress(size + min(size, len(roots) * CHUNK), 2 * size)
        if progress:
            progress(2 * size, 2 * size)
        return cls(table.game, table.model, secret, tuple(catalogue), codes, tuple(roots))

    @property
    def size(self) -> int:
        """How many plays the pool holds."""
        return len(self.codes)

    @cached_property
    def tails(self) -> list[bytes]:
        """Per outcome code, the bytes a leaf hashes after the seed and salt."""
        return leaf_tails(self.catalogue)

    @cached_property
    def upper_height(self) -> int:
        """Height of the tree above the chunk roots."""
        return (len(self.chunk_roots) - 1).bit_length()

    @property
    def depth(self) -> int:
        """Height of the whole tree: the length of every proof."""
        return CHUNK_HEIGHT + self.upper_height

    @cached_property
    def upper(self) -> list[list[bytes]]:
        """The levels of the tree above the chunk roots."""
        return merkle.levels(self.chunk_roots, self.upper_height, CHUNK_HEIGHT)

    @property
    def root(self) -> bytes:
        """The pool's commitment: the 32-byte SHA-256 Merkle root."""
        return self.upper[-1][0]

    @property
    def pool_id(self) -> str:
        """A short name of the pool: the first 16 hex digits of its root."""
        return self.root.hex()[:16]

    def entry(self, index: int) -> PoolEntry:
        """The entry at index, with its derived seed and salt."""
        if not 0 <= index < self.size:
            raise IndexError(f"entry {index} is outside a pool of {self.size}")
        prize, comp = self.catalogue[self.codes[index]]
        chunk, at = index >> CHUNK_HEIGHT, (index % CHUNK) * 32
        known, stream = self._recent_stream[0]
        if known != chunk:
            stream = chunk_stream(self.key, chunk)
            self._recent_stream[0] = (chunk, stream)
        return PoolEntry(index, prize, comp, stream[at : at + 16], stream[at + 16 : at + 32])

    def leaf(self, entry: PoolEntry) -> bytes:
        """`entry.leaf()` for an entry of this pool, its outcome's hash taken from `tails`
        (a sale's log record has it: hashing the composition again was a quarter of the
        record's cost)."""
        return entry.leaf_with(self.tails[self.codes[entry.index]])

    @cached_property
    def _recent_stream(self) -> list[tuple[int, bytes]]:
        """The seeds and salts of the chunk last read (`derive`'s stream whole): entries are
        sold and hashed in order, so one SHAKE-256 serves a chunk's 256 entries, where
        deriving each alone cost 17 us on average, about a twelfth of a sale's CPU."""
        return [(-1, b"")]

    def outcome(self, index: int) -> Outcome:
        """The (prize_pence, composition) of entry index, without deriving its seed."""
        return self.catalogue[self.codes[index]]

    def indices(
        self, prize_pence: int | None = None, composition: Composition | None = None
    ) -> list[int]:
        """The indexes of the entries with this prize and/or composition, in order."""
        wanted = {
            code
            for code, (prize, comp) in enumerate(self.catalogue)
            if prize_pence in (None, prize) and composition in (None, comp)
        }
        return [index for index, code in enumerate(self.codes) if code in wanted]

    def proof(self, index: int) -> list[str]:
        """The sibling path of entry index as hex, leaf level first."""
        if not 0 <= index < self.size:
            raise IndexError(f"entry {index} is outside a pool of {self.size}")
        chunk = index >> CHUNK_HEIGHT
        start = chunk * CHUNK
        leaves = chunk_leaves(self.key, chunk, self.codes[start : start + CHUNK], self.tails)
        lower = merkle.path(merkle.levels(leaves, CHUNK_HEIGHT), index % CHUNK)
        upper = merkle.path(self.upper, chunk, CHUNK_HEIGHT)
        return [node.hex() for node in lower + upper]

    def outcome_counts(self) -> Counter[Outcome]:
        """How many entries hold each (prize, composition)."""
        by_code = Counter(self.codes)
        return Counter({self.catalogue[code]: n for code, n in by_code.items()})

    def tier_counts(self) -> Counter[int]:
        """How many entries hold each prize."""
        out: Counter[int] = Counter()
        for (prize, _), n in self.outcome_counts().items():
            out[prize] += n
        return out
