"""The page's VERIFY says what kind of play and pool it checked, and refuses a free TRY win's
proof (its pool retired, the proof rebuilt from its public reveal) answered for a paid play,
and a paid play's pool said to be one of free plays (issue 30). Its steps in the public log
(issue 48): the sale in a signed, witnessed checkpoint of one history with the one this browser
kept, a changed record and a split view each failing at its step, a play not yet logged said
plainly; and the prizes remaining on the lobby's cards and in Rules and Prizes. Real server,
real browser."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.chromium.conftest import Watch
from tests.chromium.test_accessibility import violations
from tests.chromium.test_lab_riches import VIEWPORTS, api
from tests.endpoint.test_verify import claims, forged_detail, rebuild
from tools.build.localserver import local_server

ROOT = Path(__file__).resolve().parents[2]
GAME = "lab-riches"


def free_win(page: Page, server: str) -> tuple[int, str, dict[str, Any]]:
    """The player's free plays until one wins: (its number, its token, its claims)."""
    for _ in range(200):
        given = api(page, server, "POST", "/api/try", {"game": GAME})
        payload = claims(given["token"])
        if payload["prize_pence"] > 0:
            return int(given["play_number"]), given["token"], payload
    raise AssertionError("200 free plays and no win")


def verify(page: Page, number: int) -> None:
    """VERIFY of the play, from My Games."""
    page.get_by_role("button", name=f"VERIFY play {number}", exact=True).click(timeout=30_000)


def logged(page: Page, server: str, number: int) -> dict[str, Any]:
    """The play's `log` once a checkpoint of the public log covers its sale (published every
    few seconds while sales run)."""
    for _ in range(120):
        found = api(page, server, "GET", f"/api/plays/{number}").get("log")
        if found:
            return dict(found)
        time.sleep(0.5)
    raise AssertionError(f"no checkpoint covered play {number} within a minute")


def test_verify_says_a_paid_play_and_refuses_a_free_win_or_a_pool_of_free_plays(
    browser: Browser, dist_dir: Path, tmp_path: Path
) -> None:
    var = tmp_path / "var"
    with local_server(dist_dir, var) as server:
        context = browser.new_context(viewport=VIEWPORTS["desktop"], service_workers="block")
        page = context.new_page()
        watch = Watch(page, server)
        page.goto(server + "/?fast=1")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        log = page.locator("#log")
        expect(log).to_contain_text("Balance £", timeout=30_000)
        bought = page.request.post(
            server + "/api/plays", data={"game": GAME}, headers={"Idempotency-Key": "paid-1"}
        )
        assert bought.ok, bought.text()
        number = int(bought.json()["play_number"])
        api(page, server, "POST", f"/api/plays/{number}/finish")
        logged(page, server, number)
        page.get_by_role("button", name="My Games", exact=True).click()
        verify(page, number)
        expect(log).to_contain_text("Every step passed: this paid play", timeout=30_000)
        expect(log).to_contain_text("Step 2, The play's entry: passed. The token is a paid play's")
        expect(log).to_contain_text("Published root: passed. The root is the one published before")
        expect(log).to_contain_text("for a pool of paid plays.")
        page.get_by_role("button", name="Back to My Games", exact=True).click()

        # a free win, its pool of free plays retired by the operator's command ...
        won, token, payload = free_win(page, server)
        env = {**os.environ, "LOTTERY_VAR_DIR": str(var)}
        env.pop("DATABASE_URL", None)
        command = [sys.executable, "build.py", "retire-pool", "--game", GAME, "--try"]
        done = subprocess.run(
            [*command, "--close-only", "--json"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        revealed = api(page, server, "GET", f"/api/pools/{GAME}/{payload['pool']}/reveal")
        # ... its proof rebuilt from the reveal and answered as the paid play's detail
        forged = {**forged_detail(won, token, payload, rebuild(revealed)), "play_number": number}

        def free_play(route: Route) -> None:
            route.fulfill(response=route.fetch(), json=forged)

        page.route(f"**/api/plays/{number}", free_play)
        verify(page, number)
        expect(log).to_contain_text("Step 2, The play's entry: FAILED.", timeout=30_000)
        expect(log).to_contain_text("The token is a free TRY play's, not a paid play's")
        expect(log).to_contain_text("The check failed at step 2, The play's entry.")
        page.unroute(f"**/api/plays/{number}")
        page.get_by_role("button", name="Back to My Games", exact=True).click()

        # the paid play's own pool, said to be one of free plays
        def free_pool(route: Route) -> None:
            answer = route.fetch()
            route.fulfill(response=answer, json={**answer.json(), "kind": "try"})

        page.route(f"**/api/pools/{GAME}/*", free_pool)
        verify(page, number)
        expect(log).to_contain_text("Step 5, Published root: FAILED.", timeout=30_000)
        expect(log).to_contain_text("The pool is one of free TRY plays: no paid play comes from")
        expect(log).to_contain_text("The check failed at step 5, Published root.")
        assert watch.errors == []
        context.close()


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_verify_checks_a_play_step_by_step_and_a_tampered_proof_fails_at_the_merkle_step(
    browser: Browser, server: str, view: str
) -> None:
    context = browser.new_context(viewport=VIEWPORTS[view], service_workers="block")
    page = context.new_page()
    watch = Watch(page, server)
    page.goto(server + "/?fast=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
    bought = page.request.post(
        server + "/api/plays", data={"game": GAME}, headers={"Idempotency-Key": "verify-1"}
    )
    assert bought.ok, bought.text()
    number = int(bought.json()["play_number"])
    api(page, server, "POST", f"/api/plays/{number}/finish")
    logged(page, server, number)
    found: dict[str, list[str]] = {}
    page.get_by_role("button", name="My Games", exact=True).click()
    page.get_by_role("button", name=f"VERIFY play {number}", exact=True).click(timeout=30_000)
    log = page.locator("#log")
    expect(log).to_contain_text("Every step passed", timeout=30_000)
    for step in (
        "Signature",
        "The play's entry",
        "Leaf hash",
        "Merkle path",
        "Published root",
        "In the public log",
        "Log signature",
        "Witnesses",
        "Same history",
    ):
        expect(log).to_contain_text(f"{step}: passed.")
    violations(page, "verify", found)
    page.get_by_role("button", name="Back to My Games", exact=True).click()

    def tampered(route: Route) -> None:
        answer = route.fetch()
        detail = answer.json()
        first = detail["proof"][0]
        detail["proof"][0] = ("0" if first[0] != "0" else "1") + first[1:]
        route.fulfill(response=answer, json=detail)

    page.route(f"**/api/plays/{number}", tampered)
    page.get_by_role("button", name=f"VERIFY play {number}", exact=True).click(timeout=30_000)
    expect(log).to_contain_text("Step 4, Merkle path: FAILED.", timeout=30_000)
    expect(log).to_contain_text("The check failed at step 4, Merkle path.")
    assert found == {}
    assert watch.errors == []
    context.close()


def tampered_log(route: Route, change: Any) -> None:
    """The play's detail with its `log` changed by `change(log)`."""
    answer = route.fetch()
    detail = answer.json()
    detail["log"] = change(detail["log"])
    route.fulfill(response=answer, json=detail)


def changed_record(entry: dict[str, Any]) -> dict[str, Any]:
    """The log entry with its sale record's prize changed after the checkpoint."""
    head, sep, checkpoint = entry["proof"].partition("\n\n")
    lines = head.split("\n")
    record = json.loads(base64.b64decode(lines[1].removeprefix("extra ")))
    record["prize_pence"] += 100
    data = json.dumps(record, sort_keys=True, separators=(",", ":")).encode()
    lines[1] = "extra " + base64.b64encode(data).decode()
    return {**entry, "proof": "\n".join(lines) + sep + checkpoint}


def forked(entry: dict[str, Any]) -> str:
    """The proof's checkpoint with another root under the same size: a split view's other half,
    as a browser would have kept it (what it keeps was checked when it was kept)."""
    checkpoint = entry["proof"].partition("\n\n")[2]
    origin, size, root, rest = checkpoint.split("\n", 3)
    other = base64.b64encode(bytes(b ^ 0xFF for b in base64.b64decode(root))).decode()
    return "\n".join([origin, size, other, rest])


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_verify_checks_the_sale_in_the_public_log_and_catches_a_changed_record_and_a_fork(
    browser: Browser, server: str, view: str
) -> None:
    context = browser.new_context(viewport=VIEWPORTS[view], service_workers="block")
    page = context.new_page()
    watch = Watch(page, server)
    page.goto(server + "/?fast=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    log = page.locator("#log")
    expect(log).to_contain_text("Balance £", timeout=30_000)
    # the lobby's cards: the top prizes left, counted from the public log
    expect(log).to_contain_text("top prizes:", timeout=30_000)
    expect(log).to_contain_text("Checked from the public log at entry")
    bought = page.request.post(
        server + "/api/plays", data={"game": GAME}, headers={"Idempotency-Key": f"log-{view}"}
    )
    assert bought.ok, bought.text()
    number = int(bought.json()["play_number"])
    api(page, server, "POST", f"/api/plays/{number}/finish")
    page.get_by_role("button", name="My Games", exact=True).click()

    # not yet in a checkpoint: said plainly, nothing failed
    page.route(f"**/api/plays/{number}", lambda route: tampered_log(route, lambda _: None))
    verify(page, number)
    expect(log).to_contain_text("Step 6, In the public log: not yet.", timeout=30_000)
    expect(log).to_contain_text("Steps 1 to 5 passed. This play is not yet in the public log")
    expect(page.get_by_role("button", name="Check again", exact=True)).to_be_visible()
    page.unroute(f"**/api/plays/{number}")

    # once a checkpoint covers it: every step, the first checkpoint this browser has seen
    entry = logged(page, server, number)
    page.get_by_role("button", name="Check again", exact=True).click()
    expect(log).to_contain_text("Every step passed", timeout=30_000)
    expect(log).to_contain_text("Step 6, In the public log: passed. Entry ")
    expect(log).to_contain_text("Step 7, Log signature: passed. The checkpoint is signed by")
    expect(log).to_contain_text("Step 8, Witnesses: passed.")
    expect(log).to_contain_text("Step 9, Same history: passed. This is the first checkpoint")
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('lottery.log.checkpoint'))")
    assert kept["size"] >= entry["size"] and kept["checkpoint"].endswith("\n")
    page.get_by_role("button", name="Back to My Games", exact=True).click()

    # again: the same history as the checkpoint kept
    page.evaluate("() => { document.querySelector('#log').textContent = ''; }")
    verify(page, number)
    expect(log).to_contain_text("Step 9, Same history: passed.", timeout=30_000)
    expect(log).not_to_contain_text("first checkpoint")
    page.get_by_role("button", name="Back to My Games", exact=True).click()

    # the sale's record changed after the checkpoint
    page.route(f"**/api/plays/{number}", lambda route: tampered_log(route, changed_record))
    verify(page, number)
    expect(log).to_contain_text("Step 6, In the public log: FAILED.", timeout=30_000)
    expect(log).to_contain_text("The check failed at step 6, In the public log.")
    page.unroute(f"**/api/plays/{number}")
    page.get_by_role("button", name="Back to My Games", exact=True).click()

    # a split view: this browser kept a checkpoint of the same size with another root
    now = logged(page, server, number)
    fork = {"size": now["size"], "checkpoint": forked(now)}
    page.evaluate(
        "(kept) => localStorage.setItem('lottery.log.checkpoint', JSON.stringify(kept))", fork
    )
    page.route(f"**/api/plays/{number}", lambda route: tampered_log(route, lambda _: now))
    verify(page, number)
    expect(log).to_contain_text("Step 9, Same history: FAILED.", timeout=30_000)
    expect(log).to_contain_text("(a split view)")
    page.unroute(f"**/api/plays/{number}")
    assert watch.errors == []
    context.close()


def test_rules_and_prizes_shows_the_prizes_remaining_from_the_public_log(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(viewport=VIEWPORTS["phone"], service_workers="block")
    page = context.new_page()
    watch = Watch(page, server)
    page.goto(server + "/?fast=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    log = page.locator("#log")
    expect(log).to_contain_text("Balance £", timeout=30_000)
    remaining = api(page, server, "GET", f"/api/pools/{GAME}/remaining")
    page.get_by_role("button", name="Rules and Prizes of Lab Riches", exact=True).click()
    page.get_by_role("button", name="Next", exact=True).click(timeout=30_000)
    expect(log).to_contain_text("Prizes remaining in the current pool: £250,000", timeout=30_000)
    expect(log).to_contain_text(f"Checked from the public log at entry {remaining['log_size']:,}")
    assert watch.errors == []
    context.close()
