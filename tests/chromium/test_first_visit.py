"""The page as a good citizen: a clean first visit, a strict Content-Security-Policy with
cross-origin isolation, a description, no render-blocking stylesheet, swapped preloaded fonts,
and a player's session found again rather than replaced."""

from __future__ import annotations

from playwright.sync_api import Browser, Response, expect

from tests.chromium.conftest import Watch, open_game
from tests.chromium.test_lab_riches import PHONE

SPLASH_FONT = "/assets/fonts/fredoka-latin-700-normal.woff2"


def test_a_clean_first_visit(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2)
    # Every answer in the context, the service worker's too (it precaches the release).
    answers: list[Response] = []
    context.on("response", lambda r: answers.append(r))
    page = context.new_page()
    watch = Watch(page, server)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £")
    expect(page.get_by_role("button", name="PLAY Lab Riches")).to_be_enabled()  # the lobby
    page.wait_for_function("() => window.lottery.stats.snapshot === 'saved'", timeout=30_000)
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active !== null)")
    page.wait_for_timeout(500)

    assert watch.errors == []  # no console error, no 4xx/5xx answer, no CSP violation
    assert watch.violations == [] and watch.failed == [] and watch.foreign == []
    assert [f"{r.status} {r.url}" for r in answers if r.status >= 400] == []
    assert page.evaluate("window.crossOriginIsolated") is True
    # The first visit went straight to a new session: the wallet was never asked (and 401'd).
    api = page.evaluate(
        "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
        ".filter((p) => p.startsWith('/api/'))"
    )
    assert "/api/session" in api and "/api/wallet" not in api
    assert page.evaluate("localStorage.getItem('lottery.session')") == "true"
    page.context.close()


def test_the_page_sends_its_security_headers(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    response = page.goto(server + "/")
    assert response is not None
    headers = response.headers
    csp = headers["content-security-policy"]
    for directive in (
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval' 'sha256-",
        "connect-src 'self'",
        "img-src 'self' data: blob:",
        "worker-src 'self'",
        "frame-ancestors 'none'",
    ):
        assert directive in csp, directive
    assert "unsafe-inline" not in csp and "'unsafe-eval'" not in csp
    assert headers["cross-origin-opener-policy"] == "same-origin"
    assert headers["cross-origin-embedder-policy"] == "require-corp"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    context.close()


def test_the_head_describes_the_page_and_blocks_nothing(browser: Browser, server: str) -> None:
    page, watch = open_game(browser, server, viewport=PHONE)
    description = page.locator("meta[name='description']").get_attribute("content")
    assert description and "Lab Riches" in description and len(description) >= 50
    # No stylesheet to wait for: the shell's CSS is all inline.
    assert page.locator("link[rel='stylesheet']").count() == 0
    # The splash's title font is preloaded (a font is fetched in CORS mode: crossorigin) ...
    preload = page.locator("link[rel='preload'][as='font']")
    assert preload.count() == 1
    assert preload.get_attribute("href") == SPLASH_FONT
    assert preload.get_attribute("crossorigin") is not None
    assert "Lab Display" in page.evaluate(
        "getComputedStyle(document.querySelector('#splash h1')).fontFamily"
    )
    # ... and used once: the @font-face fetch reuses the preloaded response.
    fetched = page.evaluate(
        "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
    )
    assert fetched.count(SPLASH_FONT) == 1
    # Every web font swaps; the page itself needs only the splash's.
    faces = page.evaluate(
        "[...document.fonts].map((f) => [f.family.replace(/\"/g, ''), f.display, f.status])"
    )
    assert len(faces) == 3 and all(display == "swap" for _, display, _ in faces), faces
    assert ["Lab Display", "swap", "loaded"] in faces, faces
    # The canvas is drawn in the worker, which loads all three into its own font set before
    # Python's first frame (text is measured there).
    worker_faces = page.evaluate("() => window.lottery.stats.fonts")
    assert sorted(map(tuple, worker_faces)) == [
        ("Lab Body", "400", "loaded"),
        ("Lab Body", "700", "loaded"),
        ("Lab Display", "700", "loaded"),
    ], worker_faces
    assert watch.errors == []
    page.context.close()


def test_a_returning_player_keeps_the_session(browser: Browser, server: str) -> None:
    page, watch = open_game(browser, server, viewport=PHONE, query="?game=lab-riches")
    expect(page.locator("#log")).to_contain_text("Balance £")
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active !== null)")
    api: list[str] = []
    page.on(
        "response",
        lambda r: (
            api.append(f"{r.request.method} {r.url.split('/api/')[1]} {r.status}")
            if "/api/" in r.url
            else None
        ),
    )

    # Back later: the wallet answers; no new session (a new account) is started.
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £")
    assert "GET wallet 200" in api and not any(" session " in call for call in api), api

    # From a release before the flag: a service worker controls the page, so the wallet is
    # asked first too, and the flag is set again.
    page.evaluate("localStorage.removeItem('lottery.session')")
    api.clear()
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £")
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert "GET wallet 200" in api and not any(" session " in call for call in api), api
    assert page.evaluate("localStorage.getItem('lottery.session')") == "true"
    assert watch.errors == []

    # The session expired (its cookie is gone): the wallet says 401 and a new one starts.
    page.context.clear_cookies()
    api.clear()
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £")
    assert api[:2] == ["GET wallet 401", "POST session 201"], api
    page.context.close()


def test_every_preload_is_used_on_each_page(browser: Browser, server: str) -> None:
    """Chromium warns of a preload not used within a few seconds of the load (each of the
    worker's scripts, every page load, while the page preloaded them `as="script"`)."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    warned: list[str] = []
    page.on("console", lambda m: warned.append(m.text) if "preload" in m.text else None)
    for query in ("/", "/?game=lab-riches", "/?game=power-puck-shot"):
        page.goto(server + query)
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.wait_for_timeout(4_000)  # past the few seconds Chromium waits before it warns
    assert warned == []
    context.close()
