"""Browser end-to-end fixtures: the built site on the real dev server, headless Chromium."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, ViewportSize, sync_playwright

from tools.dist import ROOT

ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    """The system Chromium when there is one (else Playwright's own)."""
    return os.environ.get("LOTTERY_CHROMIUM") or shutil.which("chromium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(dist_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real dev server (site + endpoint) in a subprocess; yields its base URL."""
    port = free_port()
    var = tmp_path_factory.mktemp("var")
    env = {**os.environ, "LOTTERY_VAR_DIR": str(var), "LOTTERY_TEST_MODE": "1"}
    env["PYTHONPATH"] = str(ROOT)
    env.pop("DATABASE_URL", None)
    log = (var / "server.log").open("w")
    cmd = [sys.executable, "-m", "tools", "serve", "--no-build", "--dist", str(dist_dir)]
    proc = subprocess.Popen(
        [*cmd, "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/", timeout=2):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError((var / "server.log").read_text()) from None
            time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(10)
    log.close()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    b = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
    yield b
    b.close()


class Watch:
    """What a page did: requests to other origins and errors it logged."""

    def __init__(self, page: Page, origin: str) -> None:
        self.foreign: list[str] = []
        self.errors: list[str] = []
        page.on(
            "request",
            lambda r: (
                None if r.url.startswith((origin, "data:", "blob:")) else self.foreign.append(r.url)
            ),
        )
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on(
            "response",
            lambda r: self.errors.append(f"{r.status} {r.url}") if r.status >= 400 else None,
        )


def open_game(
    browser: Browser, url: str, *, viewport: ViewportSize, query: str = ""
) -> tuple[Page, Watch]:
    """A fresh browser context on the game, waiting until Python has drawn its first frame."""
    context = browser.new_context(viewport=viewport, device_scale_factor=2)
    page = context.new_page()
    watch = Watch(page, url)
    page.goto(url + "/" + query)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    return page, watch


def screenshot(page: Page, name: str) -> Path:
    """Save a screenshot as a test artifact."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
