"""`build.py play-native [--width W --height H] [--api URL] [--scene check]`: a desktop window.

The game talks to a running endpoint (`build.py serve` starts one; default
http://127.0.0.1:8000) for its session, purchases and finishes, as the browser does. Account's
"Use a sign-in code" asks for the code in the terminal the window was started from.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timedelta

import httpx

from backends.endpoint_shell import EndpointShell
from backends.native import run_window
from engine.ui.games import first_scene
from tools.build import atlas


def ask_in_terminal(prompt: str) -> str | None:
    """What the player types in the terminal (None when there is none, or on Ctrl-D/Ctrl-C)."""
    if not sys.stdin.isatty():
        return None
    try:
        return input(prompt)
    except (EOFError, KeyboardInterrupt):
        return None


def main(argv: list[str]) -> int:
    """Open the window and run until it is closed."""
    parser = argparse.ArgumentParser(prog="build.py play-native")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--api", default="http://127.0.0.1:8000", help="the endpoint's base URL")
    parser.add_argument("--scene", default="", help="'check' for the system check")
    parser.add_argument("--game", default="", help="open this game (default: the lobby)")
    parser.add_argument("--fast", action="store_true", help="faster animations")
    args = parser.parse_args(argv)
    offset = datetime.now().astimezone().utcoffset() or timedelta()
    # times in this computer's zone, as the page's shell gives the browser's (web/shell/app.js)
    params = {
        "scene": args.scene,
        "fast": "1" if args.fast else "",
        "tz": str(int(offset.total_seconds()) // 60),
    }
    start = {**params, "game": args.game}
    with httpx.Client(base_url=args.api, timeout=30) as client:
        run_window(
            lambda: first_scene(start),
            (args.width, args.height),
            EndpointShell(client, ask_in_terminal if sys.stdin.isatty() else None),
            lambda page: first_scene({**params, **page}),
            atlas.native_folder(),  # the art's atlases, built on first use
        )
    return 0
