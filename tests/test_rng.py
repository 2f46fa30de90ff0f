"""The project's random stream: the spec in docs/rng.md, golden vectors, no modulo bias."""

import hashlib
from collections import Counter

import pytest

from engine.rng import DOMAIN, Stream

ZERO = bytes(16)
COUNTING = bytes.fromhex("000102030405060708090a0b0c0d0e0f")


def test_blocks_follow_the_spec() -> None:
    stream = Stream(COUNTING)
    expected = b"".join(
        hashlib.sha256(b"lottery-rng/v1" + COUNTING + i.to_bytes(8, "big")).digest()
        for i in range(20)
    )
    assert DOMAIN == b"lottery-rng/v1"
    assert stream.read(5) + stream.read(600) + stream.read(35) == expected


def test_golden_vectors() -> None:
    stream = Stream(ZERO)
    assert stream.read(8).hex() == "a2de176a5218ea9a"
    assert [stream.below(10) for _ in range(10)] == [7, 9, 6, 0, 9, 6, 4, 1, 8, 8]
    assert [stream.below(1000) for _ in range(5)] == [275, 330, 806, 892, 115]
    assert [stream.below(2**40) for _ in range(2)] == [485647806963, 702653569686]
    other = Stream(COUNTING)
    items = list(range(10))
    other.shuffle(items)
    assert items == [0, 3, 5, 8, 2, 1, 7, 4, 6, 9]
    assert other.choice("abcdef") == "a"
    assert other.weighted([1, 2, 3]) == 2
    assert other.sample(range(20), 4) == [8, 7, 17, 4]


def test_below_rejects_the_biased_tail() -> None:
    # For n = 200 a byte >= 200 is rejected: the first byte of this stream is 0xa2 = 162 (kept).
    stream = Stream(ZERO)
    first = stream.read(1)[0]
    assert Stream(ZERO).below(200) == (first if first < 200 else Stream(ZERO).below(200))
    # 0xde = 222 is the second byte: rejected for n = 200, so the third byte is used.
    stream = Stream(ZERO)
    stream.read(1)
    raw = Stream(ZERO).read(3)
    assert raw[1] >= 200
    assert stream.below(200) == raw[2] % 200


def test_byte_is_below_256_across_fills() -> None:
    # byte() is below(256) without its loop: the same values, the same bytes consumed, across
    # the buffer's refills (8 blocks of 32 bytes each), mixed with the other helpers.
    fast, slow = Stream(COUNTING), Stream(COUNTING)
    for i in range(2_000):
        assert fast.byte() == slow.below(256)
        if i % 7 == 0:
            assert fast.below(5) == slow.below(5)
    assert fast.read(40) == slow.read(40)


def test_below_is_uniform_enough() -> None:
    stream = Stream(b"uniform")
    counts = Counter(stream.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_400 < count < 10_600 for count in counts.values())


def test_same_seed_same_stream_and_bad_arguments() -> None:
    assert Stream(b"x").read(100) == Stream(b"x").read(100)
    assert Stream(b"x").read(32) != Stream(b"y").read(32)
    with pytest.raises(ValueError):
        Stream(b"x").below(0)
    with pytest.raises(ValueError):
        Stream(b"x", version=2)


def test_sample_is_distinct_and_between_is_inclusive() -> None:
    stream = Stream(b"sample")
    picked = stream.sample(range(5), 5)
    assert sorted(picked) == [0, 1, 2, 3, 4]
    values = {stream.between(3, 5) for _ in range(200)}
    assert values == {3, 4, 5}
