"""engine/tlog/records.py: each record type's canonical bytes, and anything else refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tlog import records
from engine.tlog.records import RecordError


def test_each_type_round_trips_in_canonical_form() -> None:
    for record in (
        records.commitment("lab-riches", "p1", "paid", "m", 10, "ab" * 32, [[300, 2], [0, 8]]),
        records.sale(7, "p1", 3, "cd" * 32, 300, 1_700_000_000_000),
        records.closing("p1", "sold_out", 10, 1_700_000_000_000),
        records.reveal("p1", "ef" * 32, 1_700_000_000_000),
    ):
        data = records.encode(record)
        assert b" " not in data and records.decode(data) == record
    assert records.commitment("g", "p", "paid", "m", 1, "r", [[5, 1], [0, 2]])["table"] == [
        [0, 2],
        [5, 1],
    ]


@pytest.mark.parametrize(
    "data",
    [
        b"not json",
        b"[]",
        b'{"type":"bet"}',
        b'{"type":"reveal","pool":"p","digest":"d"}',  # a field missing
        b'{"type":"reveal","pool":"p","digest":"d","time":1,"player":"x"}',  # one more
        b'{"type":"reveal","pool":"p","digest":"d","time":-1}',
        b'{"type":"reveal","pool":"p","digest":"d","time":true}',
        b'{"type":"reveal", "pool":"p","digest":"d","time":1}',  # not canonical
        b'{"pool":"p","type":"reveal","digest":"d","time":1}',
    ],
)
def test_anything_else_is_refused(data: bytes) -> None:
    with pytest.raises(RecordError):
        records.decode(data)


@settings(max_examples=300, deadline=None)
@given(
    play=st.integers(min_value=-2, max_value=2**70),
    pool=st.text(max_size=20) | st.from_regex(r"[0-9a-f]{16}", fullmatch=True),
    index=st.integers(min_value=-2, max_value=2**40),
    leaf=st.text(max_size=70) | st.from_regex(r"[0-9a-f]{64}", fullmatch=True),
    prize=st.integers(min_value=-2, max_value=10**9) | st.booleans(),
    time=st.integers(min_value=-2, max_value=2**50),
)
def test_sale_bytes_are_encodes_bytes(
    play: int, pool: str, index: int, leaf: str, prize: int, time: int
) -> None:
    """The fast path writes exactly what encode writes, and refuses what encode refuses."""
    try:
        want = records.encode(records.sale(play, pool, index, leaf, prize, time))
    except RecordError:
        with pytest.raises(RecordError):
            records.sale_bytes(play, pool, index, leaf, prize, time)
        return
    assert records.sale_bytes(play, pool, index, leaf, prize, time) == want
