"""The Merkle tree under any number of leaves: every path climbs to the root, and only it."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.math import merkle


def leaf(n: int) -> bytes:
    return hashlib.sha256(n.to_bytes(4, "big")).digest()


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=300), st.data())
def test_every_path_climbs_to_the_root(count: int, data: st.DataObject) -> None:
    height = (count - 1).bit_length()
    leaves = [leaf(n) for n in range(count)]
    tree = merkle.levels(leaves, height)
    root = tree[-1][0]
    index = data.draw(st.integers(min_value=0, max_value=count - 1))
    siblings = merkle.path(tree, index)
    assert len(siblings) == height
    assert merkle.climb(leaves[index], index, siblings) == root
    other = data.draw(st.integers(min_value=0, max_value=count - 1))
    if other != index:
        assert merkle.climb(leaves[other], index, siblings) != root
        assert merkle.climb(leaves[index], other, siblings) != root or height == 0


def test_a_taller_tree_pads_with_empty_subtrees() -> None:
    leaves = [leaf(n) for n in range(3)]
    root = merkle.root_of(leaves, 3)
    low = merkle.node(merkle.node(leaves[0], leaves[1]), merkle.node(leaves[2], merkle.EMPTY))
    assert root == merkle.node(low, merkle.empty_root(2))


def test_upper_levels_pad_with_the_right_height() -> None:
    roots = [leaf(n) for n in range(3)]
    tree = merkle.levels(roots, 2, base=8)
    assert tree[1][1] == merkle.node(roots[2], merkle.empty_root(8))
    assert merkle.path(tree, 2, base=8) == [merkle.empty_root(8), tree[1][0]]
