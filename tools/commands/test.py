"""`build.py test [PYTEST ARGS]`: run the whole pytest suite (extra arguments pass through)."""

from __future__ import annotations

import pytest


def main(argv: list[str]) -> int:
    """Run pytest with the given arguments."""
    return int(pytest.main(argv))
