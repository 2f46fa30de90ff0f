"""engine/tlog/records.py: each record type's canonical bytes, and anything else refused."""

from __future__ import annotations

import pytest

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
