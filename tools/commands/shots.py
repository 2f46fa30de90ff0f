"""`build.py shots [--against REF] --out DIR [--json]`: the contact sheets of a build (this
checkout's, or commit REF's): every game's splash, Main Game, Bonus Game, Prize Game, money-back
end, big win and top prize at four window sizes, played in headless Chromium against the
endpoint in test mode (docs/presentation.md, tools/shots/)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tools.shots.run import run


def main(argv: list[str]) -> int:
    """Photograph a build and draw its contact sheets; print a summary (JSON with --json)."""
    parser = argparse.ArgumentParser(prog="build.py shots")
    parser.add_argument("--against", metavar="REF", help="photograph commit REF's build instead")
    parser.add_argument("--out", type=Path, required=True, help="where the PNGs and sheets go")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON only")
    args = parser.parse_args(argv)
    summary = run(args.out.resolve(), args.against)
    failed = any(found["missing"] for found in summary["games"].values())
    if args.json:
        print(json.dumps(summary, sort_keys=True))
        return 1 if failed else 0
    print(f"commit {summary['commit']}")
    for game, found in summary["games"].items():
        print(f"{game}: {found['sheet']} ({found['sheet_bytes'] / 1e3:.0f} kB)")
        for missing in found["missing"]:
            print(f"  not shot: {missing}")
    return 1 if failed else 0
