"""The pool's commitment: a SHA-256 Merkle tree over the entries' leaf hashes.

The tree is perfect: a pool of n entries fills the first n leaves of 2**depth, the rest are
EMPTY. An inner node is SHA-256(0x01 || left || right); a proof is the sibling path, leaf level
first, and bit k of the index says whether the sibling at level k sits on the left (1) or right.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache

EMPTY = bytes(32)
NODE_PREFIX = b"\x01"


def node(left: bytes, right: bytes) -> bytes:
    """The hash of an inner node from its two children."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


@cache
def empty_root(height: int) -> bytes:
    """The root of a subtree of 2**height EMPTY leaves."""
    value = EMPTY
    for _ in range(height):
        value = node(value, value)
    return value


def levels(leaves: Sequence[bytes], height: int, base: int = 0) -> list[list[bytes]]:
    """Every level of a subtree of 2**height nodes at height base (missing ones empty)."""
    if not leaves or len(leaves) > 1 << height:
        raise ValueError(f"{len(leaves)} nodes do not fit a tree of height {height}")
    out = [list(leaves)]
    for level in range(base, base + height):
        below = out[-1]
        pad = empty_root(level)
        if len(below) % 2:
            below = [*below, pad]
        sha = hashlib.sha256
        out.append(
            [sha(NODE_PREFIX + below[i] + below[i + 1]).digest() for i in range(0, len(below), 2)]
        )
    return out


def root_of(leaves: Sequence[bytes], height: int) -> bytes:
    """The root of a subtree of 2**height leaves (missing ones EMPTY)."""
    return levels(leaves, height)[-1][0]


def path(tree: list[list[bytes]], index: int, base: int = 0) -> list[bytes]:
    """The sibling path of a node, lowest level first, from levels(..., base) of its tree."""
    out = []
    for level, nodes in enumerate(tree[:-1]):
        sibling = index ^ 1
        out.append(nodes[sibling] if sibling < len(nodes) else empty_root(base + level))
        index >>= 1
    return out


def climb(leaf: bytes, index: int, siblings: Sequence[bytes]) -> bytes:
    """The root reached from a leaf at index through its sibling path."""
    value = leaf
    for sibling in siblings:
        value = node(sibling, value) if index & 1 else node(value, sibling)
        index >>= 1
    return value
