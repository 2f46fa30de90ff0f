"""Finite pools: exact counts, given key and entropy, Merkle proofs that verify and fail.

Saving and loading pools (web/endpoint/pools/files.py) is tested in tests/endpoint/.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
from collections import Counter
from collections.abc import Callable

import pytest

from engine.games import load_table
from engine.math.leaves import KEY_BYTES
from engine.math.merkle import empty_root, node
from engine.math.pool import CHUNK, Pool, PoolEntry, derive, verify_proof
from engine.math.table import PrizeTable, Tier
from engine.outcome import Composition, Part


def lay_out(table: PrizeTable, size: int, key: bytes | None = None) -> Pool:
    """A pool under the given (or a fresh secret) key, shuffled with `secrets`."""
    secret = key if key is not None else secrets.token_bytes(KEY_BYTES)
    return Pool.lay_out(table, size, key=secret, entropy=secrets.token_bytes)


def counter_entropy(label: bytes) -> Callable[[int], bytes]:
    """A deterministic byte source: SHAKE-256 of a label and a call counter."""
    calls = 0

    def entropy(n: int) -> bytes:
        nonlocal calls
        calls += 1
        return hashlib.shake_256(label + calls.to_bytes(8, "big")).digest(n)

    return entropy


def small_table(base: int = 100) -> PrizeTable:
    """A small Lab Riches-like table (not the published one) for quick pools."""
    row = Composition.of([Part("row", 300)])
    meter = Composition.of([Part("meter", 400)])
    two = Composition.of([Part("row", 300), Part("instant", 300)])
    tiers = (
        Tier(0, base - 40, ((Composition(), 1),)),
        Tier(300, 30, ((row, 2), (Composition.of([Part("instant", 300)]), 1))),
        Tier(400, 6, ((meter, 1),)),
        Tier(600, 4, ((two, 1),)),
    )
    return PrizeTable("lab-riches", "Lab Riches", "lab-riches/1", 300, base, tiers, 600)


@pytest.fixture(scope="module")
def base_pool() -> Pool:
    return lay_out(load_table("power-puck-shot"), 2_000_000)


def test_base_pool_counts_equal_the_table(base_pool: Pool) -> None:
    table = load_table("power-puck-shot")
    expected = Counter({t.prize_pence: t.count for t in table.tiers})
    assert base_pool.tier_counts() == expected
    for tier in table.tiers:
        for comp, count in tier.composition_counts():
            assert base_pool.outcome_counts()[(tier.prize_pence, comp)] == count


def test_base_pool_proofs_verify(base_pool: Pool) -> None:
    root = base_pool.root.hex()
    for index in (0, 1, 255, 256, 1_234_567, base_pool.size - 1):
        proof = base_pool.proof(index)
        assert len(proof) == base_pool.depth == 21
        assert verify_proof(root, base_pool.entry(index), proof)


def test_the_pools_leaf_of_an_entry_is_its_own(base_pool: Pool) -> None:
    """Pool.leaf (the outcome's hash from the pool's tails) is the entry's own leaf, for
    entries of every outcome."""
    seen: set[int] = set()
    for index in range(0, base_pool.size, 997):
        entry = base_pool.entry(index)
        assert base_pool.leaf(entry) == entry.leaf()
        seen.add(base_pool.codes[index])
    assert len(seen) > 1


def test_scaled_pool_counts_are_the_table_times_the_scale() -> None:
    table = small_table()
    pool = lay_out(table, 700)
    assert pool.size == 700
    assert pool.tier_counts() == Counter({0: 420, 300: 210, 400: 42, 600: 28})
    row = Composition.of([Part("row", 300)])
    assert pool.outcome_counts()[(300, row)] == 140


def test_outcomes_and_indices_read_the_codes() -> None:
    pool = lay_out(small_table(), 200)
    meter = Composition.of([Part("meter", 400)])
    found = pool.indices(400)
    assert len(found) == 12 and found == pool.indices(composition=meter)
    assert all(pool.outcome(i) == (400, meter) == (pool.entry(i).prize_pence, meter) for i in found)
    assert len(pool.indices(300)) == 60 and len(pool.indices()) == 200
    assert pool.indices(300, meter) == []


def test_size_must_be_a_multiple_of_the_base_pool() -> None:
    with pytest.raises(ValueError, match="multiple of 100"):
        lay_out(small_table(), 150)
    with pytest.raises(ValueError, match="32 bytes"):
        lay_out(small_table(), 100, key=b"short")


def test_the_pool_is_made_only_of_the_key_and_the_entropy_given() -> None:
    key, table = bytes(range(32)), small_table()
    first = Pool.lay_out(table, 1_000, key=key, entropy=counter_entropy(b"one"))
    again = Pool.lay_out(table, 1_000, key=key, entropy=counter_entropy(b"one"))
    other = Pool.lay_out(table, 1_000, key=key, entropy=counter_entropy(b"two"))
    assert list(first.codes) == list(again.codes) and first.root == again.root
    assert list(other.codes) != list(first.codes) and other.root != first.root
    assert other.outcome_counts() == first.outcome_counts()


@pytest.mark.parametrize("size", [100, 300, 1_000])
def test_every_proof_verifies(size: int) -> None:
    pool = lay_out(small_table(), size)
    root = pool.root.hex()
    assert pool.pool_id == root[:16]
    for index in range(size):
        assert verify_proof(root, pool.entry(index), pool.proof(index))


def test_a_changed_entry_fails() -> None:
    pool = lay_out(small_table(), 1_000)
    root, index = pool.root.hex(), 517
    entry, proof = pool.entry(index), pool.proof(index)
    other = Composition.of([Part("meter", 400)])
    changes = [
        dataclasses.replace(entry, index=index ^ 1),
        dataclasses.replace(entry, prize_pence=entry.prize_pence + 100),
        dataclasses.replace(
            entry, composition=other if entry.composition != other else Composition()
        ),
        dataclasses.replace(entry, seed=bytes(16)),
        dataclasses.replace(entry, salt=bytes(a ^ 1 for a in entry.salt)),
    ]
    for changed in changes:
        assert not verify_proof(root, changed, proof)
    assert not verify_proof(root, pool.entry(index + 1), proof)


def test_a_changed_sibling_or_root_fails() -> None:
    pool = lay_out(small_table(), 1_000)
    root, index = pool.root.hex(), 300
    entry, proof = pool.entry(index), pool.proof(index)
    for level in range(len(proof)):
        changed = list(proof)
        changed[level] = ("0" if proof[level][0] != "0" else "1") + proof[level][1:]
        assert not verify_proof(root, entry, changed)
    assert not verify_proof(root, entry, proof[:-1])
    assert not verify_proof(root, entry, [*proof, proof[-1]])
    assert not verify_proof("00" * 32, entry, proof)
    assert not verify_proof(root, entry, ["not hex", *proof[1:]])


def test_the_root_is_the_documented_tree() -> None:
    key = bytes(range(32))
    pool = lay_out(small_table(), 100, key=key)
    leaves = [pool.entry(i).leaf() for i in range(100)]
    level = leaves + [bytes(32)] * (CHUNK - 100)
    while len(level) > 1:
        level = [node(level[i], level[i + 1]) for i in range(0, len(level), 2)]
    assert pool.root == level[0]
    assert empty_root(1) == node(bytes(32), bytes(32))
    seed, salt = derive(key, 42)
    assert (pool.entry(42).seed, pool.entry(42).salt) == (seed, salt)
    assert len(seed) == len(salt) == 16


def test_entries_read_in_any_order_derive_their_own_seed_and_salt() -> None:
    """Pool.entry keeps the last chunk's stream: reading in order, across a chunk's end,
    backwards and at random gives each entry the seed and salt `derive` gives it alone."""
    key = bytes(range(32))
    pool = lay_out(small_table(), 1000, key=key)
    order = [*range(200, 600), *range(999, -1, -7), 3, 900, 4, 256, 255, 511, 512]
    for index in order:
        entry = pool.entry(index)
        assert (entry.seed, entry.salt) == derive(key, index), index


def test_an_auditor_recomputes_a_leaf_from_docs_math_md() -> None:
    key = bytes(range(32))
    pool = lay_out(small_table(), 1_000, key=key)
    index = 700
    entry = pool.entry(index)
    data = entry.to_json()
    stream = hashlib.shake_256(b"lottery-pool-entry/1" + key + (index // 256).to_bytes(8, "big"))
    derived = stream.digest(8192)[32 * (index % 256) :][:32]
    assert derived.hex() == data["seed"] + data["salt"]
    parts = json.dumps(data["composition"], sort_keys=True, separators=(",", ":")).encode()
    outcome = hashlib.sha256(data["prize_pence"].to_bytes(8, "big") + parts).digest()
    leaf = hashlib.sha256(b"\x00" + index.to_bytes(8, "big") + derived + outcome).digest()
    assert leaf == entry.leaf()
    value = leaf
    for level, sibling in enumerate(pool.proof(index)):
        pair = (
            (bytes.fromhex(sibling), value)
            if index >> level & 1
            else (value, bytes.fromhex(sibling))
        )
        value = hashlib.sha256(b"\x01" + pair[0] + pair[1]).digest()
    assert value == pool.root


def test_the_pool_order_differs_between_runs() -> None:
    table = small_table()
    first, second = lay_out(table, 1_000), lay_out(table, 1_000)
    assert list(first.codes) != list(second.codes)
    assert first.key != second.key
    assert first.root != second.root
    assert first.outcome_counts() == second.outcome_counts()


def test_entry_json_round_trips() -> None:
    pool = lay_out(small_table(), 100)
    entry = pool.entry(7)
    data = entry.to_json()
    assert set(data) == {"index", "prize_pence", "composition", "seed", "salt"}
    assert len(data["seed"]) == len(data["salt"]) == 32
    assert PoolEntry.from_json(data) == entry
