"""backends.browser.start on a restored interpreter: the text widths it measured before are
kept when measured with the same fonts, so a returning visit's first frame asks the browser
only for new texts (docs/changelog.md, 2026-12-03 night)."""

from __future__ import annotations

import json
import sys
import types

import pytest

from backends import browser


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float, str, bool]]:
    """Pyodide's `js` module as the worker makes it: its text measure, which records each
    text it is asked to measure."""
    asked: list[tuple[str, float, str, bool]] = []

    def measure(s: str, size: float, family: str, bold: bool) -> float:
        asked.append((s, size, family, bold))
        return len(s) * size * 0.55

    js = types.ModuleType("js")
    js.lotteryMeasureText = measure  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "js", js)
    # a fresh interpreter's: no canvas yet
    monkeypatch.setattr(browser, "_canvas", None)
    monkeypatch.setattr(browser, "_fonts", None)
    return asked


def first_frame(fonts: str) -> None:
    browser.start(1280, 720, json.dumps({"game": "lab-riches"}), "{}", fonts)
    assert json.loads(browser.frame(0.0, "[]"))["cmds"] is not None


def test_a_restart_with_the_same_fonts_measures_no_text_again(
    measured: list[tuple[str, float, str, bool]],
) -> None:
    first_frame('[{"body": "x"}, [["/f.woff2", "loaded"]]]')
    assert measured, "the first frame measured no text"
    before = len(measured)
    first_frame('[{"body": "x"}, [["/f.woff2", "loaded"]]]')
    assert len(measured) == before  # every width kept


def test_a_restart_with_other_fonts_measures_afresh(
    measured: list[tuple[str, float, str, bool]],
) -> None:
    first_frame('[{"body": "x"}, [["/f.woff2", "error"]]]')  # measured in the fallback font
    first_time = list(measured)
    measured.clear()
    first_frame('[{"body": "x"}, [["/f.woff2", "loaded"]]]')
    assert sorted(measured) == sorted(first_time)
    measured.clear()
    first_frame("")  # fonts not named: nothing is kept
    assert sorted(measured) == sorted(first_time)
