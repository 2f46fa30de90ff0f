"""The token's signature check (web/shell/js/signature.js): a browser whose WebCrypto has no
Ed25519 (Chromium before 137, Safari before 17, Firefox before 129) plays, tries and replays
through the @noble/ed25519 fallback and refuses a tampered token; a browser that has it never
downloads the fallback; and the fallback answers as WebCrypto does, good signature or bad."""

from __future__ import annotations

import re
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from playwright.sync_api import Browser, Page, expect

from tests.chromium.conftest import Watch
from tests.chromium.test_lab_riches import DESKTOP, api, choose, pence_of, play_through
from tests.chromium.test_lab_riches_resume import forge_purchases

# An old browser's WebCrypto: every Ed25519 call is refused with the NotSupportedError
# DOMException that Chromium < 137, Safari < 17 and Firefox < 129 give for an unknown algorithm.
NO_ED25519 = """(() => {
  const subtle = crypto.subtle;
  const named = (a) => String(typeof a === "string" ? a : a && a.name).toLowerCase() === "ed25519";
  const refuse = () => Promise.reject(new DOMException("Unrecognized name.", "NotSupportedError"));
  for (const method of ["importKey", "verify", "generateKey", "sign"]) {
    const real = subtle[method].bind(subtle);
    const at = method === "importKey" ? 2 : 0;  // where the algorithm is among the arguments
    subtle[method] = (...args) => (named(args[at]) ? refuse() : real(...args));
  }
})();"""
FALLBACK = re.compile(r"/ed25519\.[0-9a-f]+\.js$")


def game(browser: Browser, server: str, query: str, *, old: bool) -> tuple[Page, Watch, list[str]]:
    """A fresh player on a Lab Riches page (`query`), in an old browser or a current one; the
    URLs of the fallback it fetched."""
    context = browser.new_context(viewport=DESKTOP)
    if old:
        context.add_init_script(NO_ED25519)
    page = context.new_page()
    watch = Watch(page, server)
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if FALLBACK.search(r.url) else None)
    page.goto(f"{server}/?game=lab-riches&fast=1{query}")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    return page, watch, fetched


def reopen(page: Page, server: str, query: str) -> None:
    """The same player on another Lab Riches page."""
    page.goto(f"{server}/?game=lab-riches&fast=1{query}")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)


def test_a_browser_without_ed25519_plays_tries_and_replays(browser: Browser, server: str) -> None:
    page, watch, fetched = game(browser, server, "", old=True)
    refused = page.evaluate(
        """() => crypto.subtle.importKey("raw", new Uint8Array(32), {name: "Ed25519"}, false,
          ["verify"]).then(() => "imported", (e) => e.name)"""
    )
    assert refused == "NotSupportedError"
    log = page.locator("#log")
    expect(log).to_contain_text("Balance £", timeout=30_000)
    before = api(page, server, "GET", "/api/wallet")["balance_pence"]
    choose(page, server, [{"feature": "row", "pence": 500}])
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    play_through(page)
    assert pence_of(log.inner_text()) == 500
    page.get_by_role("button", name="FINISH", exact=True).click()
    expect(page.get_by_role("button", name="PLAY AGAIN", exact=True)).to_be_visible(timeout=30_000)
    number = int(re.findall(r"Play number (\d+) finished", log.inner_text())[-1])
    assert api(page, server, "GET", f"/api/plays/{number}")["prize_pence"] == 500
    assert api(page, server, "GET", "/api/wallet")["balance_pence"] == before + 500 - 300

    reopen(page, server, "&mode=try")  # TRY: a free play, its token checked the same way
    page.get_by_role("button", name="TRY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    play_through(page)
    page.get_by_role("button", name="FINISH", exact=True).click()
    expect(page.get_by_role("button", name="ALL GAMES", exact=True)).to_be_visible(timeout=30_000)

    reopen(page, server, f"&replay={number}")  # REPLAY of the paid play
    expect(page.locator("#log")).to_contain_text(f"Replay of play number {number}.")
    expect(page.get_by_role("button", name="ALL GAMES", exact=True)).to_be_visible(timeout=120_000)
    assert pence_of(page.locator("#log").inner_text()) == 500
    assert fetched, "the fallback was never fetched"
    assert watch.errors == []
    page.context.close()


def test_a_browser_without_ed25519_refuses_a_tampered_token(browser: Browser, server: str) -> None:
    page, _watch, fetched = game(browser, server, "", old=True)
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
    choose(page, server, [])
    forge_purchases(page)
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.locator("#log")).to_contain_text("could not be verified", timeout=30_000)
    expect(page.get_by_role("button", name="GO", exact=True)).to_have_count(0)
    assert fetched  # refused by the fallback, not for want of one
    page.context.close()


def test_a_browser_with_ed25519_never_fetches_the_fallback(browser: Browser, server: str) -> None:
    page, watch, fetched = game(browser, server, "", old=False)
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
    choose(page, server, [])
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    assert fetched == []
    assert watch.errors == []
    page.context.close()


L = 2**252 + 27742317777372353535851937790883648493  # the order of Ed25519's base point


def cases() -> list[dict[str, Any]]:
    """Signatures good and bad, as hex: key, message, signature."""
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    other = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    stranger = other.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    message = b"eyJhbGciOiJFZERTQSJ9.eyJwcml6ZV9wZW5jZSI6NTAwfQ"
    signature = key.sign(message)
    s = int.from_bytes(signature[32:], "little")

    def flip(data: bytes, at: int) -> bytes:
        return data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :]

    identity = (1).to_bytes(32, "little")
    rows = {
        "good": (public, message, signature),
        "good, empty message": (public, b"", key.sign(b"")),
        "R changed": (public, message, flip(signature, 0)),
        "S changed": (public, message, flip(signature, 40)),
        "S + L (not canonical)": (public, message, signature[:32] + (s + L).to_bytes(32, "little")),
        "message changed": (public, flip(message, 5), signature),
        "another key": (stranger, message, signature),
        "all zeros": (public, message, bytes(64)),
        "63 bytes": (public, message, signature[:63]),
        "key of small order": (identity, message, identity + bytes(32)),
        "key off the curve": (bytes([2]) + bytes(31), message, signature),
    }
    return [
        {"name": name, "key": k.hex(), "msg": m.hex(), "sig": sig.hex()}
        for name, (k, m, sig) in rows.items()
    ]


AGREE = """async (cases) => {
  const hex = (h) => Uint8Array.from(h.match(/../g) || [], (x) => parseInt(x, 16));
  const { verify } = await import(window.lottery.config.ed25519);
  const out = {};
  for (const c of cases) {
    let native;
    try {
      const key = await crypto.subtle.importKey("raw", hex(c.key), { name: "Ed25519" }, false,
        ["verify"]);
      native = await crypto.subtle.verify({ name: "Ed25519" }, key, hex(c.sig), hex(c.msg));
    } catch (e) {
      native = false;  // a key WebCrypto will not import: the page refuses the token
    }
    out[c.name] = [native, await verify(hex(c.sig), hex(c.msg), hex(c.key))];
  }
  return out;
}"""


def test_the_fallback_answers_as_webcrypto_does(browser: Browser, server: str) -> None:
    page, _watch, _fetched = game(browser, server, "", old=False)
    answers = page.evaluate(AGREE, cases())
    page.context.close()
    assert answers.pop("good") == [True, True]
    assert answers.pop("good, empty message") == [True, True]
    # The one difference: Chromium's WebCrypto (156) takes the identity point as a key and the
    # identity as a signature of anything; the fallback refuses a key of small order (noble's
    # strict branch). No key the endpoint publishes is of small order, and refusing is safer.
    assert answers.pop("key of small order")[1] is False
    assert answers == {name: [False, False] for name in answers}
