"""`build.py headers [--dist DIR] [--nginx]`: the security headers a static host must send.

They depend on the build (the Content-Security-Policy names the hashes of index.html's inline
script and style, and the endpoint's origin when it is on another one), so an operator prints
them for the dist/ they upload: as `Name: value` lines, or with --nginx as `add_header` lines to
include in each `location` of docs/deployment.md's server block.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tools.build.sources import ROOT
from web.devserver import security_headers


def nginx_lines(headers: dict[str, str]) -> list[str]:
    """The headers as nginx `add_header ... always;` directives."""
    return [f'add_header {name} "{value}" always;' for name, value in headers.items()]


def main(argv: list[str]) -> int:
    """Print the headers of a built site."""
    parser = argparse.ArgumentParser(prog="build.py headers")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="the built site")
    parser.add_argument("--nginx", action="store_true", help="as nginx add_header lines")
    args = parser.parse_args(argv)
    if not (args.dist / "index.html").is_file():
        parser.error(f"{args.dist} has no index.html: run `python3 build.py dist` first")
    headers = security_headers(args.dist)
    lines = nginx_lines(headers) if args.nginx else [f"{k}: {v}" for k, v in headers.items()]
    print("\n".join(lines))
    return 0
