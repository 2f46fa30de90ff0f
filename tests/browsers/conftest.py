"""Fixtures of the smoke suite in Firefox ESR and WebKitGTK: one browser per engine for the
module, the real dev server (tests/conftest.py's `server`). A machine without an engine skips its
tests, except on CI (CI=true), where that fails: build.py installs them there."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from tools.browsers import ENGINES, Tab, missing


@pytest.fixture(scope="module", params=sorted(ENGINES))
def engine(request: pytest.FixtureRequest) -> Iterator[Callable[[], Tab]]:
    """A maker of fresh tabs (each a new player) in Firefox ESR, then in WebKitGTK."""
    name = request.param
    lacking = missing(name)
    if lacking:
        why = f"{name}: no {', '.join(lacking)} (build.py's ensure_engines installs them as root)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    with ENGINES[name]() as new_tab:
        yield new_tab
