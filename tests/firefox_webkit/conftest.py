"""Fixtures of the smoke suite in Firefox ESR and WebKitGTK: one browser per engine for the
module, the real dev server (tests/conftest.py's `server`). A machine without an engine skips its
tests, except on CI (CI=true), where that fails: build.py installs them there."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from tools.bench.browsers import ENGINES, Tab, missing


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


# Tests run again after a browser lost its page (test_smoke.WEBKIT_LOSSES): what the lost run
# met, with what MiniBrowser printed, is shown at the end, where a passing rerun would hide it.
RERUNS: list[pytest.TestReport] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.outcome == "rerun":  # type: ignore[comparison-overlap]  # pytest-rerunfailures'
        RERUNS.append(report)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for report in RERUNS:
        terminalreporter.write_sep("-", f"lost and run again: {report.nodeid}")
        terminalreporter.write_line(report.longreprtext[-8000:])
