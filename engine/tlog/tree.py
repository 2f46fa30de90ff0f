"""The log's Merkle tree: RFC 6962 hashing, the hashes a log stores, the tree's root, and
inclusion and consistency proofs (RFC 6962 section 2.1; the algorithms of Go's
golang.org/x/mod/sumdb/tlog, which C2SP's logs and witnesses use).

A node is named (level, n): the hash of leaves n * 2**level up to (n + 1) * 2**level. A log
stores every complete node, about two a leaf: appending leaf n stores (0, n) and each node it
completes (`appended`). Everything else reads stored nodes through a `Reader`, which returns the
hashes of the nodes it is given, in order, and raises KeyError for one it does not have.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

Node = tuple[int, int]
Reader = Callable[[Sequence[Node]], Sequence[bytes]]
HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()  # the root of the empty tree


class ProofError(ValueError):
    """A proof that does not hold (or cannot: malformed, or for sizes out of range)."""


def leaf_hash(data: bytes) -> bytes:
    """The hash of a leaf: SHA-256(0x00 || data)."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """The hash of an inner node: SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(size: int) -> int:
    """The largest power of two below size (size >= 2): where RFC 6962 splits a tree."""
    return 1 << ((size - 1).bit_length() - 1)


def _fit(size: int) -> int:
    """The largest power of two not above size (size >= 1)."""
    return 1 << (size.bit_length() - 1)


def appended(n: int, leaf: bytes, read: Reader) -> list[tuple[Node, bytes]]:
    """The nodes to store when leaf n (its hash) is appended to a tree of n leaves: the leaf
    and each node it completes, lowest first."""
    out: list[tuple[Node, bytes]] = [((0, n), leaf)]
    levels = ((n + 1) & -(n + 1)).bit_length() - 1  # trailing zero bits of n + 1
    if levels:
        lefts = read([(level, (n >> level) - 1) for level in range(levels)])
        value = leaf
        for level in range(levels):
            value = node_hash(lefts[level], value)
            out.append(((level + 1, n >> (level + 1)), value))
    return out


def subtree_nodes(lo: int, hi: int) -> list[Node]:
    """The stored nodes whose hashes make leaves lo..hi's subtree hash, left to right."""
    out: list[Node] = []
    while lo < hi:
        k = _fit(hi - lo)
        if lo & (k - 1):
            raise ValueError(f"{lo}..{hi} is not a subtree of the log's tree")
        level = k.bit_length() - 1
        out.append((level, lo >> level))
        lo += k
    return out


def _fold(hashes: Sequence[bytes]) -> bytes:
    value = hashes[-1]
    for left in reversed(hashes[:-1]):
        value = node_hash(left, value)
    return value


def subtree_hash(lo: int, hi: int, read: Reader) -> bytes:
    """The hash of leaves lo..hi (a subtree the RFC's splits make), from stored nodes."""
    return _fold(read(subtree_nodes(lo, hi)))


def tree_hash(size: int, read: Reader) -> bytes:
    """The root of the tree of the first `size` leaves."""
    return subtree_hash(0, size, read) if size else EMPTY_ROOT


def prove_inclusion(size: int, index: int, read: Reader) -> list[bytes]:
    """The inclusion proof (RFC 6962 audit path, leaf's sibling first) of leaf index in the
    tree of `size` leaves."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size}")
    out: list[bytes] = []

    def walk(lo: int, hi: int) -> None:
        if hi - lo == 1:
            return
        k = _split(hi - lo)
        if index < lo + k:
            walk(lo, lo + k)
            out.append(subtree_hash(lo + k, hi, read))
        else:
            walk(lo + k, hi)
            out.append(subtree_hash(lo, lo + k, read))

    walk(0, size)
    return out


def root_from_inclusion(proof: Sequence[bytes], size: int, index: int, leaf: bytes) -> bytes:
    """The root an inclusion proof leads to from leaf `index` (its hash) in a tree of `size`."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size}")
    proof = list(proof)

    def run(lo: int, hi: int) -> bytes:
        if hi - lo == 1:
            return leaf
        if not proof:
            raise ProofError("the inclusion proof is too short")
        sibling = proof.pop()
        k = _split(hi - lo)
        if index < lo + k:
            return node_hash(run(lo, lo + k), sibling)
        return node_hash(sibling, run(lo + k, hi))

    root = run(0, size)
    if proof:
        raise ProofError("the inclusion proof is too long")
    return root


def check_inclusion(
    proof: Sequence[bytes], size: int, root: bytes, index: int, leaf: bytes
) -> None:
    """Raise ProofError unless the proof leads from leaf `index` to `root`."""
    if root_from_inclusion(proof, size, index, leaf) != root:
        raise ProofError(f"the inclusion proof of leaf {index} does not lead to the root")


def prove_consistency(size: int, old: int, read: Reader) -> list[bytes]:
    """The consistency proof (RFC 6962 section 2.1.2) that the tree of `old` leaves is a
    prefix of the tree of `size`; empty when old is 0 or size."""
    if not 0 <= old <= size:
        raise ProofError(f"no consistency proof from {old} to {size}")
    out: list[bytes] = []
    if old == 0:
        return out

    def walk(lo: int, hi: int) -> None:
        if old == hi:
            if lo:
                out.append(subtree_hash(lo, hi, read))
            return
        k = _split(hi - lo)
        if old <= lo + k:
            walk(lo, lo + k)
            out.append(subtree_hash(lo + k, hi, read))
        else:
            out_left = subtree_hash(lo, lo + k, read)
            walk(lo + k, hi)
            out.append(out_left)

    walk(0, size)
    return out


def check_consistency(
    proof: Sequence[bytes], size: int, root: bytes, old: int, old_root: bytes
) -> None:
    """Raise ProofError unless the proof shows the tree of `old` leaves (old_root) is a
    prefix of the tree of `size` leaves (root)."""
    if not 0 <= old <= size:
        raise ProofError(f"no consistency proof from {old} to {size}")
    if old == 0 or old == size:
        if proof:
            raise ProofError("a consistency proof from 0 or to the same size must be empty")
        if old == size and old_root != root:
            raise ProofError("two trees of the same size have different roots")
        if old == 0 and old_root != EMPTY_ROOT:
            raise ProofError("the empty tree's root is not SHA-256 of nothing")
        return
    rest = list(proof)

    def run(lo: int, hi: int) -> tuple[bytes, bytes]:
        """(the old tree's hash over lo..min(hi, old), the new tree's over lo..hi)."""
        if old == hi:
            if lo == 0:
                return old_root, old_root
            if len(rest) != 1:
                raise ProofError("the consistency proof has the wrong length")
            value = rest.pop()
            return value, value
        if not rest:
            raise ProofError("the consistency proof is too short")
        sibling = rest.pop()
        k = _split(hi - lo)
        if old <= lo + k:
            before, after = run(lo, lo + k)
            return before, node_hash(after, sibling)
        before, after = run(lo + k, hi)
        return node_hash(sibling, before), node_hash(sibling, after)

    before, after = run(0, size)
    if rest or before != old_root or after != root:
        raise ProofError(f"the tree of {old} leaves is not a prefix of the tree of {size}")
