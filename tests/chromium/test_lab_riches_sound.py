"""Lab Riches sound in the browser: off by default, offered on the splash, turned on by the
player, kept with its volumes, turned off.

The cues and the music bed are played with Web Audio in headless Chromium (no audio device is
needed: the AudioContext still runs); `window.lottery.stats.sounds` counts what was played.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.chromium.conftest import open_game, screenshot
from tests.chromium.test_lab_riches import GO_TAKEN, VIEWPORTS, choose
from tests.chromium.test_lab_riches_screens import targets_fit

FOCUSED = "() => document.activeElement && document.activeElement.textContent"


def sounds(page: Page) -> dict[str, Any]:
    """The shell's record of the cues it played and the AudioContext's state."""
    record: dict[str, Any] = page.evaluate("() => window.lottery.stats.sounds")
    return record


def press_go(page: Page) -> None:
    """GO, once it is enabled; returns when the press was taken."""
    go = page.get_by_role("button", name="GO", exact=True)
    expect(go).to_be_enabled(timeout=30_000)
    go.click()
    page.wait_for_function(GO_TAKEN, timeout=30_000)  # 10 s ran out once on a loaded machine


def tab_to(page: Page, label: str) -> None:
    """Tab from the top of the page until the mirror's button `label` has the focus."""
    page.locator("body").focus()
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == label:
            break
    assert page.evaluate(FOCUSED) == label


def heard(page: Page, cue: str) -> None:
    """Waits until the shell has played `cue`; on a timeout, says what it had played, how many
    frames it had run and what the narration said, so that a failure on a loaded CI machine can be
    told apart (a cue never sent, a frame clock stopped, a press not taken)."""
    try:
        page.wait_for_function(
            f"() => (window.lottery.stats.sounds.counts[{cue!r}] || 0) >= 1", timeout=60_000
        )
    except Exception as error:
        state = page.evaluate(
            "() => ({sounds: window.lottery.stats.sounds, frames: window.lottery.stats.frames,"
            " log: document.querySelector('#log').textContent.slice(-600)})"
        )
        raise AssertionError(f"no {cue!r} sound: {state}") from error


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_sound_is_off_until_turned_on_is_kept_and_turns_off(
    browser: Browser, server: str, view: str
) -> None:
    page, watch = open_game(
        browser, server, viewport=VIEWPORTS[view], query="?game=lab-riches&fast=1"
    )
    log = page.locator("#log")
    expect(log).to_contain_text("Balance £")
    choose(page, server, [])
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="Sound: off", exact=True)).to_be_visible(timeout=60_000)
    targets_fit(page, view)
    screenshot(page, f"lab-riches-{view}-sound-off")
    press_go(page)
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=30_000)
    assert sounds(page) == {"played": 0, "last": None, "counts": {}, "context": "none",
                            "music": "", "loops": 0, "voices": 0, "volumes": [0, 0]}  # fmt: skip

    # Tab reaches the setting; Enter turns it on (a key press: a gesture, so audio may start).
    tab_to(page, "Sound: off")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Sound: on", exact=True)).to_be_visible()
    expect(log).to_contain_text("Sound on")
    page.wait_for_function("() => window.lottery.stats.sounds.context === 'running'")
    assert sounds(page)["counts"] == {"press": 1}
    assert page.evaluate("() => localStorage.getItem('lottery.sound')") == "true"
    press_go(page)
    # The same cue twice in one frame sounds once (engine/ui/app.py), so on a loaded machine the
    # four column sweeps of a GO may share frames: at least one column sound, not four.
    heard(page, "go")
    heard(page, "column")

    # A reload remembers the setting, but makes no AudioContext before the player's next press.
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    resume = page.get_by_role("button", name="RESUME", exact=True)
    expect(resume).to_be_visible(timeout=30_000)
    page.wait_for_timeout(300)
    assert sounds(page)["context"] == "none" and sounds(page)["played"] == 0
    resume.click()
    expect(page.get_by_role("button", name="Sound: on", exact=True)).to_be_visible()
    page.wait_for_function("() => window.lottery.stats.sounds.context === 'running'")
    assert sounds(page)["last"] == "press"
    targets_fit(page, view)
    screenshot(page, f"lab-riches-{view}-sound-on")

    # Off: the context is suspended and a GO plays nothing.
    page.get_by_role("button", name="Sound: on", exact=True).click()
    expect(page.get_by_role("button", name="Sound: off", exact=True)).to_be_visible()
    expect(log).to_contain_text("Sound off")
    page.wait_for_function("() => window.lottery.stats.sounds.context === 'suspended'")
    played = sounds(page)["played"]
    press_go(page)
    page.wait_for_timeout(1_000)
    assert sounds(page)["played"] == played
    assert page.evaluate("() => localStorage.getItem('lottery.sound')") == "false"
    assert watch.foreign == []  # nothing fetched for the sound
    assert watch.errors == []
    page.context.close()


LOOPING = "() => (s => s.music === 'lab-riches' && s.loops >= 1)(window.lottery.stats.sounds)"


def test_the_splash_offers_sound_and_keeps_the_choice_and_the_volumes(
    browser: Browser, server: str
) -> None:
    page, watch = open_game(
        browser, server, viewport=VIEWPORTS["phone"], query="?game=lab-riches&fast=1"
    )
    log = page.locator("#log")
    expect(log).to_contain_text("Balance £")
    expect(page.get_by_role("button", name="Sound off", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Music 50%", exact=True)).to_have_count(0)
    assert sounds(page)["context"] == "none"

    # The offer by keyboard: Enter on Sound on is the gesture; the bed loops on the music bus.
    tab_to(page, "Sound on")
    page.keyboard.press("Enter")
    expect(log).to_contain_text("Sound on")
    page.wait_for_function(LOOPING, timeout=30_000)
    record = sounds(page)
    assert record["context"] == "running" and record["volumes"] == [0.5, 1.0]
    assert record["voices"] > 100  # the bed's pass is a hundred voices and more
    assert page.evaluate("() => localStorage.getItem('lottery.sound')") == "true"

    # Music one step down; the effects keep theirs.
    page.get_by_role("button", name="Music 50%", exact=True).click()
    expect(page.get_by_role("button", name="Music 25%", exact=True)).to_be_visible()
    expect(log).to_contain_text("Music volume 25%")
    page.wait_for_function("() => window.lottery.stats.sounds.volumes[0] === 0.25")
    assert sounds(page)["volumes"] == [0.25, 1.0]
    assert page.evaluate("() => localStorage.getItem('lottery.music')") == "25"

    # A reload keeps both, and starts nothing before the player's next press.
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    effects = page.get_by_role("button", name="Effects 100%", exact=True)
    expect(effects).to_be_visible(timeout=30_000)
    expect(page.get_by_role("button", name="Music 25%", exact=True)).to_be_visible()
    page.wait_for_timeout(300)
    assert sounds(page)["context"] == "none" and sounds(page)["music"] == ""
    effects.click()
    page.wait_for_function(LOOPING, timeout=30_000)
    page.wait_for_function("() => window.lottery.stats.sounds.volumes[1] === 0.75")
    assert sounds(page)["volumes"] == [0.25, 0.75] and sounds(page)["last"] == "press"
    screenshot(page, "lab-riches-phone-splash-sound-on")

    # Sound off stops the bed and suspends the context.
    page.get_by_role("button", name="Sound off", exact=True).click()
    expect(log).to_contain_text("Sound off")
    page.wait_for_function("() => window.lottery.stats.sounds.context === 'suspended'")
    assert sounds(page)["music"] == ""
    expect(page.get_by_role("button", name="Music 25%", exact=True)).to_have_count(0)
    assert page.evaluate("() => localStorage.getItem('lottery.sound')") == "false"
    assert watch.foreign == [] and watch.errors == []
    page.context.close()
