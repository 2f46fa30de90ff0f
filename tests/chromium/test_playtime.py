"""Play time in the browser (web/endpoint/player/playtime.py, engine/ui/visit.py): the endpoint's
reality check shown when the account's run of play says, on a page that began after the run,
and the log-out after an hour of play on two devices: the page says when play can resume, and
its unfinished play still finishes. Driven by the test clock."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from playwright.sync_api import APIRequestContext, Browser, Page, expect

from tests.chromium.conftest import Watch
from tests.chromium.test_lab_riches import VIEWPORTS, api, choose, play_through
from tools.build.localserver import local_server

MINUTE_MS = 60_000


def ms(text: object) -> int:
    """An ISO time of the API in epoch milliseconds."""
    assert isinstance(text, str)
    return round(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def advance(page: Page, url: str, advance_ms: int) -> None:
    """Move the endpoint's test clock on."""
    moved = page.request.post(url + "/api/test/clock", data={"advance_ms": advance_ms})
    assert moved.ok, moved.text()


def buy(laptop: APIRequestContext, url: str, n: int) -> int:
    """A paid play of the other game on the account's other device; the answer's status."""
    headers = {"Idempotency-Key": f"laptop-{n}"}
    # (the first may wait for the fresh server to lay out the game's pool)
    answer = laptop.post(
        url + "/api/plays", data={"game": "power-puck-shot"}, headers=headers, timeout=300_000
    )
    return answer.status


def ready(page: Page) -> None:
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)


def test_the_reality_check_and_the_cooling_off_show_and_an_unfinished_play_finishes(
    browser: Browser, dist_dir: Path, tmp_path: Path
) -> None:
    with local_server(dist_dir, tmp_path / "var") as url:
        context = browser.new_context(viewport=VIEWPORTS["phone"], service_workers="block")
        page = context.new_page()
        watch = Watch(page, url)
        page.goto(url + "/?game=lab-riches&fast=1")
        ready(page)
        code = api(page, url, "POST", "/api/account/code")["code"]
        laptop = browser.new_context().request  # the account's other device
        assert laptop.post(url + "/api/session", data={"code": code}).ok
        # The laptop plays for 19 minutes 52 seconds (a play every 9 minutes: one run).
        assert buy(laptop, url, 0) == 201
        began = ms(api(page, url, "GET", "/api/play-time")["run_started_at"])
        for n in (1, 2):
            advance(page, url, 9 * MINUTE_MS)
            assert buy(laptop, url, n) == 201
        advance(page, url, 2 * MINUTE_MS - 8_000)
        # This page, opened now, has the account's check due in 8 seconds, not in an hour.
        page.reload()
        ready(page)
        choose(page, url, [])
        page.get_by_role("button", name="PLAY", exact=True).click()
        log = page.locator("#log")  # (the check comes at the play's first rest, GO or not yet)
        expect(log).to_contain_text(
            "Reality check. You have played for 20 minutes in this session.", timeout=60_000
        )
        page.get_by_role("button", name="Keep playing", exact=True).click()
        expect(page.get_by_role("button", name="GO", exact=True)).to_be_visible()
        page.wait_for_function(  # acknowledged for the account: the next is 20 minutes on
            "async (url) => { const r = await fetch(url + '/api/play-time');"
            " const t = await r.json(); return Date.parse(t.reality_check_at)"
            " - Date.parse(t.now) > 19 * 60000; }",
            arg=url,
            timeout=30_000,
        )
        state = api(page, url, "GET", "/api/play-time")
        assert ms(state["reality_check_at"]) > began + 39 * MINUTE_MS
        # The page's play is left unfinished; the laptop plays on to the hour.
        for n in (3, 4, 5, 6):
            advance(page, url, 9 * MINUTE_MS)
            assert buy(laptop, url, n) == 201
        advance(page, url, 5 * MINUTE_MS)
        assert buy(laptop, url, 7) == 403  # logged out of play on the laptop
        state = api(page, url, "GET", "/api/play-time")
        assert state["cooling_off"] and ms(state["resumes_at"]) == began + 70 * MINUTE_MS
        # ... and on this page: its unfinished play resumes and finishes, and the next is refused.
        page.reload()
        ready(page)
        page.get_by_role("button", name="RESUME", exact=True).click(timeout=30_000)
        play_through(page)
        page.get_by_role("button", name="FINISH", exact=True).click()
        again = page.get_by_role("button", name="PLAY AGAIN", exact=True)
        expect(again).to_be_visible(timeout=30_000)
        left = api(page, url, "GET", "/api/plays?status=unfinished")["plays"]
        assert [p for p in left if p["game"] == "lab-riches"] == []  # (the laptop's remain)
        before = api(page, url, "GET", "/api/wallet")["balance_pence"]
        again.click()  # back to the splash, and PLAY
        page.get_by_role("button", name="PLAY", exact=True).click(timeout=30_000)
        expect(log).to_contain_text(
            "Your play session has ended: take a break. You can buy plays again at",
            timeout=30_000,
        )
        expect(log).to_contain_text("an unfinished play can still be finished.")
        assert api(page, url, "GET", "/api/wallet")["balance_pence"] == before
        assert [e for e in watch.errors if "403" not in e] == []  # the refusal itself is a 403
        context.close()
