"""tools/bench/browsers.py without a browser: how a WebKitGTK tab meets its driver's failures. The
driver here is a stand-in for WebKitWebDriver (a third party's process), answering as it was
seen to answer on CI; the tabs themselves are driven for real by tests/firefox_webkit/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import WebDriverException

from tools.bench import browsers
from tools.bench.browsers import WEBKIT_SCRIPT_TRIES, WebKitTab


class Driver:
    """Answers each script with the next of `answers`: a JSON text, or an error to raise."""

    def __init__(self, *answers: str | WebDriverException) -> None:
        self.answers = list(answers)
        self.calls = 0

    def execute_async_script(self, script: str, *args: Any) -> str:
        self.calls += 1
        answer = self.answers.pop(0)
        if isinstance(answer, WebDriverException):
            raise answer
        return answer


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """Where the tab's WebKitWebDriver and MiniBrowser would have printed."""
    return tmp_path / "webkit.log"


def tab(driver: Driver, monkeypatch: pytest.MonkeyPatch, log: Path, printed: str = "") -> WebKitTab:
    monkeypatch.setattr(browsers.time, "sleep", lambda _s: None)
    made = object.__new__(WebKitTab)  # no MiniBrowser: only the driver's answers matter here
    made.driver = driver  # type: ignore[assignment]
    made.log = log
    made.log.write_text(printed)
    return made


def test_a_script_answered_with_no_message_is_asked_again(
    monkeypatch: pytest.MonkeyPatch, log: Path
) -> None:
    driver = Driver(WebDriverException(""), '["GO"]')
    assert tab(driver, monkeypatch, log).js("() => 1") == ["GO"]
    assert driver.calls == 2


def test_a_driver_that_keeps_failing_fails_the_test(
    monkeypatch: pytest.MonkeyPatch, log: Path
) -> None:
    driver = Driver(*[WebDriverException("")] * WEBKIT_SCRIPT_TRIES)
    with pytest.raises(WebDriverException):
        tab(driver, monkeypatch, log).js("() => 1")
    assert driver.calls == WEBKIT_SCRIPT_TRIES


def test_an_error_that_says_what_went_wrong_is_not_asked_again(
    monkeypatch: pytest.MonkeyPatch, log: Path
) -> None:
    driver = Driver(WebDriverException("no such window"), '"never"')
    with pytest.raises(WebDriverException, match="no such window"):
        tab(driver, monkeypatch, log).js("() => 1")
    assert driver.calls == 1


def test_a_failure_carries_what_minibrowser_printed(
    monkeypatch: pytest.MonkeyPatch, log: Path
) -> None:
    lines = "".join(f"line {n}\n" for n in range(100)) + "WebProcess CRASHED\n"
    driver = Driver(WebDriverException("Could not parse script result"))
    with pytest.raises(WebDriverException) as failed:
        tab(driver, monkeypatch, log, lines).js("() => 1")
    (note,) = failed.value.__notes__
    assert note.endswith("line 99\nWebProcess CRASHED")
    assert "line 40\n" not in note  # only the last lines


def test_an_error_thrown_in_the_page_is_reported_as_the_pages(
    monkeypatch: pytest.MonkeyPatch, log: Path
) -> None:
    driver = Driver('{"page_error": "TypeError: x is undefined"}')
    with pytest.raises(AssertionError, match="in the page: TypeError"):
        tab(driver, monkeypatch, log).js("() => x.y")
