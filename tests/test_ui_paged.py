"""Turning a page of How To Play (engine/ui/scenes/paged.py): the new page's text slides in
from the side it comes from, fading in, and the screen rests again once it is in place."""

from __future__ import annotations

from itertools import pairwise

import pytest

from engine.ui import transition
from tests.test_ui_lab_riches import SIZES, ReadingShell, payload


def slides(shell: ReadingShell) -> list[float]:
    """The sideways moves drawn in the last frame (the turning text's)."""
    return [float(c[1]) for c in shell.drawn if c[0] == "translate" and c[1] and not c[2]]


@pytest.mark.parametrize("reduced", [False, True])
def test_a_turned_page_s_text_slides_in_then_the_screen_rests(reduced: bool) -> None:
    params = {"fast": "0", **({"reducedMotion": "1"} if reduced else {})}
    shell = ReadingShell(SIZES["desktop"], {"play_number": 1, "payload": payload([])}, params)
    shell.frame()
    shell.press("howto")
    while shell.app.scene.name != "howto" or shell.app.changing():
        shell.frame()
    assert shell.frame().drew is False  # at rest on page 1
    shell.press("next")
    assert shell.app.changing()
    seen, drew = [], []
    for _ in range(40):
        result = shell.frame()
        drew.append(result.drew)
        seen.append(slides(shell) if result.drew else None)
        if not shell.app.changing():
            break
    assert all(drew) and any(t.startswith("2 / ") for t in shell.texts)
    seconds = transition.REDUCED_SECONDS if reduced else transition.SECONDS
    assert len(drew) == pytest.approx(seconds * 60, abs=2)
    moves = [m for m in seen[:-1] if m]
    if reduced:
        assert moves == []  # it only fades in
    else:
        offsets = [m[-1] for m in moves]
        assert offsets and offsets[0] > 0 and all(a > b for a, b in pairwise(offsets))
    assert not seen[-1]  # the frame that ends it draws the page in place
    assert shell.frame().drew is False  # then nothing: the screen rests
