"""The leaf scheme of a pool's Merkle tree: entries, their derived seeds and salts, proofs.

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
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.math import merkle
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
        return self.leaf_with(outcome_hash(self.prize_pence, self.composition))

    def leaf_with(self, tail: bytes) -> bytes:
        """The leaf hash, given its outcome's hash (`outcome_hash`; a pool has them: `tails`)."""
        body = self.index.to_bytes(8, "big") + self.seed + self.salt
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


def chunk_leaves(
    key: bytes, chunk: int, chunk_codes: Sequence[int], tails: Sequence[bytes]
) -> list[bytes]:
    """The leaf hashes of one chunk from its entries' outcome codes (the last may be short)."""
    sha, stream, start = hashlib.sha256, chunk_stream(key, chunk), chunk * CHUNK
    leaves = []
    for at, code in enumerate(chunk_codes[:CHUNK]):
        material = stream[32 * at : 32 * at + 32] + tails[code]
        leaves.append(sha(LEAF_PREFIX + (start + at).to_bytes(8, "big") + material).digest())
    return leaves


def chunk_root(key: bytes, chunk: int, chunk_codes: Sequence[int], tails: Sequence[bytes]) -> bytes:
    """The Merkle root of one chunk of leaves."""
    return merkle.root_of(chunk_leaves(key, chunk, chunk_codes, tails), CHUNK_HEIGHT)


SpanJob = tuple[bytes, int, bytes, Sequence[bytes]]


def span_roots(job: SpanJob) -> list[bytes]:
    """The roots of consecutive chunks: job = (key, first chunk, their codes as native uint16
    bytes, leaf tails). A pure function, so a caller may map it over processes."""
    key, first, raw, tails = job
    codes: array[int] = array("H")
    codes.frombytes(raw)
    return [
        chunk_root(key, first + k, codes[k * CHUNK : (k + 1) * CHUNK], tails)
        for k in range((len(codes) + CHUNK - 1) // CHUNK)
    ]


def leaf_tails(catalogue: Sequence[Outcome]) -> list[bytes]:
    """Per outcome code, the bytes a leaf hashes after the seed and salt."""
    return [outcome_hash(prize, comp) for prize, comp in catalogue]
