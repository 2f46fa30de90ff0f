"""One local server: the static site from dist/ and the signing endpoint's ASGI app beside it.

Static files are served by ServeStatic, which picks the .br or .gz copy the browser
accepts and marks content-hashed and versioned files immutable; every other path goes to
the endpoint app (whose routes live under /api, and the public log's files under /log).

Every static file also carries the security headers of `security_headers(dist)`: a strict
Content-Security-Policy (its hashes and API origin read from the built index.html), cross-origin
isolation (COOP + COEP) and the usual hardening headers. `build.py headers` prints them, as a
static host must send them for that build (docs/deployment.md).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from wsgiref.headers import Headers

from servestatic import ServeStaticASGI

IMMUTABLE = re.compile(r"^/(pyodide/\d[^/]*/|.*\.[0-9a-f]{10}\.[a-z0-9]+$)")
# Script types a browser runs (a <script type="application/json"> is data: CSP ignores it).
RUNNABLE = {"", "module", "text/javascript", "application/javascript"}


def is_immutable(path: str, url: str) -> bool:
    """True for files whose URL changes whenever their content does."""
    return bool(IMMUTABLE.match(url))


class _Inline(HTMLParser):
    """The inline scripts (that run) and styles of a page, and its JSON config."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.scripts: list[str] = []
        self.styles: list[str] = []
        self.config: dict[str, Any] = {}
        self._open: tuple[str, dict[str, str | None]] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._open, self._text = (tag, dict(attrs)), []

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open is None or tag != self._open[0]:
            return
        (kind, attrs), text = self._open, "".join(self._text)
        self._open = None
        if kind == "style":
            self.styles.append(text)
        elif attrs.get("id") == "lottery-config":
            self.config = json.loads(text)
        elif "src" not in attrs and (attrs.get("type") or "").lower() in RUNNABLE:
            self.scripts.append(text)


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def api_origin(api: str) -> str | None:
    """The origin of the configured API URL, or None when it is the site's own ("" or a path)."""
    parts = urlsplit(api)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else None


def content_security_policy(index_html: str) -> str:
    """The page's CSP: only this origin (and the configured API), WebAssembly compiled, the
    inline scripts and styles of index.html allowed by their hashes, never framed."""
    page = _Inline()
    page.feed(index_html)
    page.close()
    scripts = " ".join(["'self'", "'wasm-unsafe-eval'", *map(_sha256, page.scripts)])
    styles = " ".join(["'self'", *map(_sha256, page.styles)])
    api = api_origin(str(page.config.get("api") or ""))
    connect = "'self'" + (f" {api}" if api else "")
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {scripts}",
            f"style-src {styles}",
            "img-src 'self' data: blob:",
            "font-src 'self'",
            f"connect-src {connect}",
            "worker-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ]
    )


def security_headers(dist: Path) -> dict[str, str]:
    """The headers every static file of this build is served with."""
    return {
        "Content-Security-Policy": content_security_policy((dist / "index.html").read_text()),
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Embedder-Policy": "require-corp",
        "Cross-Origin-Resource-Policy": "same-origin",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


GAMES_VARIABLE = "LOTTERY_GAMES"  # packages of games to register beside the registry's (a, b)


def endpoint_app() -> Any:
    """The signing endpoint's ASGI app, configured from the environment; the games named by
    LOTTERY_GAMES (their packages, comma-separated: a game kept outside engine/, such as the
    tests' own) are registered first (engine.games.register)."""
    from engine import games
    from web.endpoint.app import create_app
    from web.endpoint.settings import Settings

    for package in filter(None, os.environ.get(GAMES_VARIABLE, "").split(",")):
        games.register(package.strip())

    return create_app(Settings.from_env())


def create_app(dist: Path, api: Any | None = None) -> ServeStaticASGI:
    """The combined ASGI app serving dist/ in front of the endpoint."""
    if not (dist / "index.html").exists():
        raise FileNotFoundError(f"{dist} has no index.html: run `python3 build.py dist` first")
    secure = security_headers(dist)

    def add_headers(headers: Headers, path: str, url: str) -> None:
        for name, value in secure.items():
            headers[name] = value

    return ServeStaticASGI(
        api if api is not None else endpoint_app(),
        root=str(dist),
        index_file=True,
        max_age=0,
        immutable_file_test=is_immutable,
        add_headers_function=add_headers,
    )
