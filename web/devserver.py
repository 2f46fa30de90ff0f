"""One local server: the static site from dist/ and the signing endpoint's ASGI app beside it.

Static files are served by ServeStatic, which picks the .br or .gz copy the browser
accepts and marks content-hashed and versioned files immutable; every other path goes to
the endpoint app (whose routes all live under /api).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from servestatic import ServeStaticASGI

IMMUTABLE = re.compile(r"^/(pyodide/\d[^/]*/|.*\.[0-9a-f]{10}\.[a-z0-9]+$)")


def is_immutable(path: str, url: str) -> bool:
    """True for files whose URL changes whenever their content does."""
    return bool(IMMUTABLE.match(url))


def endpoint_app() -> Any:
    """The signing endpoint's ASGI app, configured from the environment."""
    from web.endpoint.app import create_app
    from web.endpoint.settings import Settings

    return create_app(Settings.from_env())


def create_app(dist: Path, api: Any | None = None) -> ServeStaticASGI:
    """The combined ASGI app serving dist/ in front of the endpoint."""
    if not (dist / "index.html").exists():
        raise FileNotFoundError(f"{dist} has no index.html: run `python3 build.py dist` first")
    return ServeStaticASGI(
        api if api is not None else endpoint_app(),
        root=str(dist),
        index_file=True,
        max_age=0,
        immutable_file_test=is_immutable,
    )
