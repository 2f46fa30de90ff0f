"""Browser end-to-end fixtures: the built site on the real dev server, headless Chromium."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize

from tools.build.sources import ROOT

ARTIFACTS = ROOT / "test-artifacts"


# Reports every Content-Security-Policy violation of the page to the test (window.lotteryCsp).
CSP_WATCH = """document.addEventListener("securitypolicyviolation", (e) => window.lotteryCsp(
  `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`
));"""


class Watch:
    """What a page did: requests to other origins, errors it logged, answers 4xx/5xx, requests
    that failed, and Content-Security-Policy violations (also counted as errors)."""

    def __init__(self, page: Page, origin: str) -> None:
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.violations: list[str] = []
        self.failed: list[str] = []  # (a reload aborts requests: not an error in itself)
        page.expose_function("lotteryCsp", self._violation)
        page.add_init_script(CSP_WATCH)
        page.on("requestfailed", lambda r: self.failed.append(f"{r.url}: {r.failure}"))
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

    def _violation(self, text: str) -> None:
        self.violations.append(text)
        self.errors.append("CSP: " + text)


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
