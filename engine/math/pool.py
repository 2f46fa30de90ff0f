"""Finite pools as a lottery sells them: a shuffled list of outcomes and its Merkle commitment.

A pool holds exactly its table's counts scaled to its size, in an order shuffled with `secrets`.
Leaves are grouped in chunks of 2**CHUNK_HEIGHT = 256. Entry i's 128-bit scenario seed and
secret salt are derived from the pool's secret 32-byte key, one stream per chunk:
    stream = SHAKE-256(b"lottery-pool-entry/1" || key || (i // 256) as 8 bytes BE), 8192 bytes
    seed, salt = stream[32·(i % 256) :][:16], stream[32·(i % 256) + 16 :][:16]
and its leaf hash is
    SHA-256(0x00 || i (8 bytes BE) || seed || salt || outcome)
    outcome = SHA-256(prize_pence (8 bytes BE) || composition)
where composition is the canonical JSON of the parts (sorted keys, no spaces, UTF-8). Only the
chunk roots are kept, so a proof recomputes one chunk (about a millisecond) and the pool stores
little more than the shuffled outcome codes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from engine.math import merkle
from engine.math.shuffle import Progress, shuffle
from engine.math.table import PrizeTable
from engine.outcome import Composition

CHUNK_HEIGHT = 8
CHUNK = 1 << CHUNK_HEIGHT
DERIVE_LABEL = b"lottery-pool-entry/1"
LEAF_PREFIX = b"\x00"
KEY_BYTES = 32
Outcome = tuple[int, Composition]


def composition_bytes(composition: Composition) -> bytes:
    """The canonical JSON bytes of a composition, as hashed into a leaf."""
    text = json.dumps(composition.to_json(), sort_keys=True, separators=(",", ":"))
    return text.encode("utf-8")


def outcome_hash(prize_pence: int, composition: Composition) -> bytes:
    """SHA-256 of an outcome: its prize (8 bytes big-endian) and canonical composition JSON."""
    return hashlib.sha256(prize_pence.to_bytes(8, "big") + composition_bytes(composition)).digest()


def chunk_stream(key: bytes, chunk: int) -> bytes:
    """The seeds and salts of one chunk of entries, 32 bytes an entry, from the secret key."""
    material = DERIVE_LABEL + key + chunk.to_bytes(8, "big")
    return hashlib.shake_256(material).digest(CHUNK * 32)


def derive(key: bytes, index: int) -> tuple[bytes, bytes]:
    """The (seed, salt) of entry index, 16 bytes each, from the pool's secret key."""
    at = (index % CHUNK) * 32
    material = DERIVE_LABEL + key + (index >> CHUNK_HEIGHT).to_bytes(8, "big")
    stream = hashlib.shake_256(material).digest(at + 32)  # a prefix of chunk_stream()
    return stream[at : at + 16], stream[at + 16 : at + 32]


@dataclass(frozen=True)
class PoolEntry:
    """One play of a pool: its outcome, scenario seed and secret salt."""

    index: int
    prize_pence: int
    composition: Composition
    seed: bytes
    salt: bytes

    def leaf(self) -> bytes:
        """The entry's leaf hash in the pool's Merkle tree (the scheme in this module's doc)."""
        body = self.index.to_bytes(8, "big") + self.seed + self.salt
        tail = outcome_hash(self.prize_pence, self.composition)
        return hashlib.sha256(LEAF_PREFIX + body + tail).digest()

    def to_json(self) -> dict[str, Any]:
        """The entry as JSON: index, prize_pence, composition, seed and salt in hex."""
        return {
            "index": self.index,
            "prize_pence": self.prize_pence,
            "composition": self.composition.to_json(),
            "seed": self.seed.hex(),
            "salt": self.salt.hex(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PoolEntry:
        """Read an entry from its JSON object."""
        comp = Composition.from_json(data["composition"])
        seed, salt = bytes.fromhex(data["seed"]), bytes.fromhex(data["salt"])
        return cls(int(data["index"]), int(data["prize_pence"]), comp, seed, salt)


def verify_proof(root_hex: str, entry: PoolEntry, proof: list[str]) -> bool:
    """True when the sibling path proves the entry is a leaf of the tree with this root."""
    try:
        root = bytes.fromhex(root_hex)
        siblings = [bytes.fromhex(item) for item in proof]
    except (TypeError, ValueError):
        return False
    if len(root) != 32 or any(len(s) != 32 for s in siblings) or len(siblings) > 64:
        return False
    if entry.index < 0 or entry.index >> len(siblings):
        return False
    return hmac.compare_digest(merkle.climb(entry.leaf(), entry.index, siblings), root)


def chunk_root(key: bytes, codes: Sequence[int], tails: Sequence[bytes], chunk: int) -> bytes:
    """The Merkle root of one chunk of leaves."""
    return merkle.root_of(chunk_leaves(key, codes, tails, chunk), CHUNK_HEIGHT)


def chunk_leaves(
    key: bytes, codes: Sequence[int], tails: Sequence[bytes], chunk: int
) -> list[bytes]:
    """The leaf hashes of one chunk (the last chunk may be short)."""
    sha, stream, start = hashlib.sha256, chunk_stream(key, chunk), chunk * CHUNK
    leaves = []
    for at, index in enumerate(range(start, min(len(codes), start + CHUNK))):
        material = stream[32 * at : 32 * at + 32] + tails[codes[index]]
        leaves.append(sha(LEAF_PREFIX + index.to_bytes(8, "big") + material).digest())
    return leaves


def leaf_tails(catalogue: Sequence[Outcome]) -> list[bytes]:
    """Per outcome code, the bytes a leaf hashes after the seed and salt."""
    return [outcome_hash(prize, comp) for prize, comp in catalogue]


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
        key: bytes | None = None,
        progress: Progress | None = None,
    ) -> Pool:
        """Lay out a pool of size plays (a multiple of the base pool), shuffled by `secrets`."""
        if size <= 0 or size % table.base_pool_size:
            raise ValueError(f"pool size {size} is not a multiple of {table.base_pool_size}")
        if key is not None and len(key) != KEY_BYTES:
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
        shuffle(items, progress, 2 * size)
        codes = array("H", items)
        del items
        secret = key if key is not None else secrets.token_bytes(KEY_BYTES)
        tails = leaf_tails(catalogue)
        roots = []
        for chunk in range((size + CHUNK - 1) // CHUNK):
            roots.append(chunk_root(secret, codes, tails, chunk))
            if progress and not chunk % 256:
                progress(size + chunk * CHUNK, 2 * size)
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
        seed, salt = derive(self.key, index)
        return PoolEntry(index, prize, comp, seed, salt)

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
        leaves = chunk_leaves(self.key, self.codes, self.tails, chunk)
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

    def save(self, directory: Path) -> None:
        """Write the pool and its commitment to a directory (see engine/math/poolfile.py)."""
        from engine.math import poolfile

        poolfile.save(self, directory)

    @classmethod
    def load(cls, directory: Path, *, verify: bool = False) -> Pool:
        """Read a pool written by save(); verify=True recomputes every leaf."""
        from engine.math import poolfile

        return poolfile.load(directory, verify=verify)
