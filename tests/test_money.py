import pytest

from engine.money import MAX_LIMIT_PENCE, format_pounds, parse_pounds


def test_format_pounds() -> None:
    assert format_pounds(25_000_000) == "£250,000.00"
    assert format_pounds(25_000_000, always_pence=False) == "£250,000"
    assert format_pounds(305) == "£3.05"
    assert format_pounds(5, always_pence=False) == "£0.05"
    assert format_pounds(-300) == "-£3.00"


def test_format_pounds_refuses_floats() -> None:
    with pytest.raises(TypeError):
        format_pounds(3.0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("typed", "pence"),
    [("20", 2_000), ("12.50", 1_250), ("12.5", 1_250), ("0.99", 99), (".5", 50), ("12.", 1_200),
     (" £1,000 ", 100_000), ("0", 0), ("100000000", MAX_LIMIT_PENCE)],
)  # fmt: skip
def test_parse_pounds_reads_whole_pounds_or_pounds_and_pence(typed: str, pence: int) -> None:
    assert parse_pounds(typed) == pence


@pytest.mark.parametrize(
    ("typed", "says"),
    [("", "Type an amount"), ("ten", "Type an amount"), ("1.2.3", "Type an amount"),
     ("£", "Type an amount"), ("١٢", "Type an amount"), ("-5", "below £0.00"),
     ("−5", "below £0.00"), ("1.005", "two places"), ("100000000.01", "at most £100,000,000")],
)  # fmt: skip
def test_parse_pounds_refuses_with_a_sentence_a_player_can_read(typed: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        parse_pounds(typed)
