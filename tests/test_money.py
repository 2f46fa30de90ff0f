import pytest

from engine.money import format_pounds


def test_format_pounds() -> None:
    assert format_pounds(25_000_000) == "£250,000.00"
    assert format_pounds(25_000_000, always_pence=False) == "£250,000"
    assert format_pounds(305) == "£3.05"
    assert format_pounds(5, always_pence=False) == "£0.05"
    assert format_pounds(-300) == "-£3.00"


def test_format_pounds_refuses_floats() -> None:
    with pytest.raises(TypeError):
        format_pounds(3.0)  # type: ignore[arg-type]
