"""Fixtures shared by every test folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.dist import build


@pytest.fixture(scope="session")
def dist_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static site built once for the session (as `build.py dist` builds it)."""
    out = tmp_path_factory.mktemp("dist")
    build(out)
    return out
