"""`build.py serve [--host H] [--port P] [--no-build]`: build dist/ and serve site + endpoint."""

from __future__ import annotations

import argparse
from pathlib import Path

import uvicorn

from tools.build.dist import build
from tools.build.sources import ROOT
from web.devserver import create_app
from web.endpoint.http.protocol import JsonErrorsProtocol


def main(argv: list[str]) -> int:
    """Build the site, then serve it and the endpoint on one local server until Ctrl+C."""
    parser = argparse.ArgumentParser(prog="build.py serve")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--no-build", action="store_true", help="serve dist/ as it is")
    args = parser.parse_args(argv)
    if not args.no_build:
        build(args.dist.resolve())
    app = create_app(args.dist.resolve())
    print(
        f"Serving the game on http://{args.host}:{args.port}/  (press Ctrl+C to stop)", flush=True
    )
    # The development server sits behind no proxy: never believe X-Forwarded-For.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        proxy_headers=False,
        http=JsonErrorsProtocol,
    )
    return 0
