"""`build.py dist [--api-url URL] [--out DIR]`: build only the static site."""

from __future__ import annotations

import argparse
from pathlib import Path

from tools.build.dist import build
from tools.build.sources import ROOT
from tools.build.zips import game_zip_names, zip_parts


def main(argv: list[str]) -> int:
    """Build dist/ (or DIR) for a static host, pointing at the endpoint URL."""
    parser = argparse.ArgumentParser(prog="build.py dist")
    parser.add_argument(
        "--api-url", default="", help="endpoint origin, e.g. https://api.example.com"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    result = build(args.out.resolve(), args.api_url)
    total = sum(int(str(f["bytes"])) for f in result.manifest.values())
    print(f"built {len(result.manifest)} files ({total / 1e6:.1f} MB with .br/.gz) in {result.out}")
    parts = zip_parts()
    print(f"game zips: {len(game_zip_names())} source files + .pyc, in {len(parts)} zips:")
    for name in sorted(result.manifest):
        if name.startswith("py/") and name.endswith(".zip"):
            part = name.removeprefix("py/").split(".")[0]
            files = len(parts["" if part == "game" else part])
            raw, br = (int(str(result.manifest[n]["bytes"])) for n in (name, name + ".br"))
            print(f"  {name}: {files} files, {raw / 1e3:.0f} kB ({br / 1e3:.0f} kB brotli)")
    s = result.stdlib
    print(
        f"standard library: {s['modules']} modules, {s['trimmed_br_bytes'] / 1e3:.0f} kB brotli "
        f"(full python_stdlib.zip: {s['full_bytes'] / 1e3:.0f} kB)"
    )
    print(
        f"texts compiled at build time (named tuples, dataclasses): {s['start_code_texts']} "
        f"({s['start_code_bytes'] / 1e3:.0f} kB in the standard library)"
    )
    return 0
