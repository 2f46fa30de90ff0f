"""engine/tlog/tree.py against RFC 6962's definitions written out plainly (MTH, PATH, PROOF)
and RFC 9162's iterative verifiers: every size up to 70, every leaf and every old size."""

from __future__ import annotations

import hashlib

import pytest

from engine.tlog import tree
from engine.tlog.tree import ProofError, leaf_hash, node_hash


def mth(leaves: list[bytes]) -> bytes:
    """RFC 6962 2.1: the Merkle Tree Hash of leaf hashes."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return node_hash(mth(leaves[:k]), mth(leaves[k:]))


def path(m: int, leaves: list[bytes]) -> list[bytes]:
    """RFC 6962 2.1.1: PATH(m, D[n])."""
    if len(leaves) <= 1:
        return []
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    if m < k:
        return [*path(m, leaves[:k]), mth(leaves[k:])]
    return [*path(m - k, leaves[k:]), mth(leaves[:k])]


def subproof(m: int, leaves: list[bytes], whole: bool) -> list[bytes]:
    """RFC 6962 2.1.2: SUBPROOF(m, D[n], b)."""
    n = len(leaves)
    if m == n:
        return [] if whole else [mth(leaves)]
    k = 1 << ((n - 1).bit_length() - 1)
    if m <= k:
        return [*subproof(m, leaves[:k], whole), mth(leaves[k:])]
    return [*subproof(m - k, leaves[k:], False), mth(leaves[:k])]


def rfc9162_inclusion(index: int, size: int, leaf: bytes, proof: list[bytes]) -> bytes:
    """RFC 9162 2.1.3.2's verifier, as written there."""
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            raise ValueError("too long")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while not fn & 1 and fn:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ValueError("too short")
    return r


def rfc9162_consistency(old: int, size: int, old_root: bytes, proof: list[bytes]) -> bytes:
    """RFC 9162 2.1.4.2's verifier: the new root the proof leads to (ValueError if it fails)."""
    if old == size:
        return old_root
    if old & (old - 1) == 0:
        proof = [old_root, *proof]
    fn, sn = old - 1, size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            raise ValueError("too long")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while not fn & 1 and fn:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    if fr != old_root or sn != 0:
        raise ValueError("does not verify")
    return sr


class Store:
    """A log's stored nodes, appended leaf by leaf as the endpoint does."""

    def __init__(self) -> None:
        self.nodes: dict[tuple[int, int], bytes] = {}
        self.size = 0

    def read(self, nodes):  # type: ignore[no-untyped-def]
        return [self.nodes[n] for n in nodes]

    def append(self, leaf: bytes) -> None:
        for node, value in tree.appended(self.size, leaf, self.read):
            assert node not in self.nodes
            self.nodes[node] = value
        self.size += 1


LEAVES = [leaf_hash(f"record {i}".encode()) for i in range(70)]


@pytest.fixture(scope="module")
def store() -> Store:
    s = Store()
    for leaf in LEAVES:
        s.append(leaf)
    return s


def test_stored_nodes_are_about_two_a_leaf(store: Store) -> None:
    assert len(store.nodes) == 2 * 70 - bin(70).count("1")


def test_roots_are_rfc6962_mth(store: Store) -> None:
    assert tree.tree_hash(0, store.read) == hashlib.sha256(b"").digest() == tree.EMPTY_ROOT
    for size in range(1, 71):
        assert tree.tree_hash(size, store.read) == mth(LEAVES[:size])


def test_inclusion_proofs_are_rfc6962_paths_and_verify(store: Store) -> None:
    for size in range(1, 71):
        root = mth(LEAVES[:size])
        for index in range(size):
            proof = tree.prove_inclusion(size, index, store.read)
            assert proof == path(index, LEAVES[:size])
            tree.check_inclusion(proof, size, root, index, LEAVES[index])
            assert rfc9162_inclusion(index, size, LEAVES[index], proof) == root


def test_consistency_proofs_are_rfc6962_subproofs_and_verify(store: Store) -> None:
    for size in range(1, 71):
        root = mth(LEAVES[:size])
        for old in range(1, size + 1):
            proof = tree.prove_consistency(size, old, store.read)
            assert proof == subproof(old, LEAVES[:size], True)
            old_root = mth(LEAVES[:old])
            tree.check_consistency(proof, size, root, old, old_root)
            assert rfc9162_consistency(old, size, old_root, proof) == root


def test_a_changed_hash_fails_every_check(store: Store) -> None:
    size, index = 37, 21
    root = mth(LEAVES[:size])
    proof = tree.prove_inclusion(size, index, store.read)
    for k in range(len(proof)):
        bad = [*proof]
        bad[k] = hashlib.sha256(bad[k]).digest()
        with pytest.raises(ProofError):
            tree.check_inclusion(bad, size, root, index, LEAVES[index])
    with pytest.raises(ProofError):
        tree.check_inclusion(proof[:-1], size, root, index, LEAVES[index])
    with pytest.raises(ProofError):
        tree.check_inclusion([*proof, proof[0]], size, root, index, LEAVES[index])
    old = 13
    consistency = tree.prove_consistency(size, old, store.read)
    for k in range(len(consistency)):
        bad = [*consistency]
        bad[k] = hashlib.sha256(bad[k]).digest()
        with pytest.raises(ProofError):
            tree.check_consistency(bad, size, root, old, mth(LEAVES[:old]))
    # a fork: another tree of the old size is not a prefix
    forked = mth([*LEAVES[: old - 1], leaf_hash(b"another record")])
    with pytest.raises(ProofError):
        tree.check_consistency(consistency, size, root, old, forked)


def test_two_roots_of_one_size_are_inconsistent() -> None:
    with pytest.raises(ProofError, match="same size"):
        tree.check_consistency([], 5, mth(LEAVES[:5]), 5, mth(LEAVES[1:6]))
    tree.check_consistency([], 5, mth(LEAVES[:5]), 0, tree.EMPTY_ROOT)
    with pytest.raises(ProofError):
        tree.check_consistency([LEAVES[0]], 5, mth(LEAVES[:5]), 0, tree.EMPTY_ROOT)


def test_out_of_range_is_refused(store: Store) -> None:
    with pytest.raises(ProofError):
        tree.prove_inclusion(5, 5, store.read)
    with pytest.raises(ProofError):
        tree.prove_consistency(5, 6, store.read)
    with pytest.raises(KeyError):
        tree.tree_hash(71, store.read)
