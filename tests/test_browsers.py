"""tools/browsers.py without a browser: how a WebKitGTK tab meets its driver's failures. The
driver here is a stand-in for WebKitWebDriver (a third party's process), answering as it was
seen to answer on CI; the tabs themselves are driven for real by tests/browsers/."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.common.exceptions import WebDriverException

from tools import browsers
from tools.browsers import WEBKIT_SCRIPT_TRIES, WebKitTab


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


def tab(driver: Driver, monkeypatch: pytest.MonkeyPatch) -> WebKitTab:
    monkeypatch.setattr(browsers.time, "sleep", lambda _s: None)
    made = object.__new__(WebKitTab)  # no MiniBrowser: only the driver's answers matter here
    made.driver = driver  # type: ignore[assignment]
    return made


def test_a_script_answered_with_no_message_is_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    driver = Driver(WebDriverException(""), '["GO"]')
    assert tab(driver, monkeypatch).js("() => 1") == ["GO"]
    assert driver.calls == 2


def test_a_driver_that_keeps_failing_fails_the_test(monkeypatch: pytest.MonkeyPatch) -> None:
    driver = Driver(*[WebDriverException("")] * WEBKIT_SCRIPT_TRIES)
    with pytest.raises(WebDriverException):
        tab(driver, monkeypatch).js("() => 1")
    assert driver.calls == WEBKIT_SCRIPT_TRIES


def test_an_error_that_says_what_went_wrong_is_not_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    driver = Driver(WebDriverException("no such window"), '"never"')
    with pytest.raises(WebDriverException, match="no such window"):
        tab(driver, monkeypatch).js("() => 1")
    assert driver.calls == 1


def test_an_error_thrown_in_the_page_is_reported_as_the_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    driver = Driver('{"page_error": "TypeError: x is undefined"}')
    with pytest.raises(AssertionError, match="in the page: TypeError"):
        tab(driver, monkeypatch).js("() => x.y")
