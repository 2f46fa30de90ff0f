"""`build.py play-native [--width W --height H]`: the game in a desktop window (pygame-ce)."""

from __future__ import annotations

import argparse

from backends.native import run_window
from engine.ui.scenes.check import CheckScene


def main(argv: list[str]) -> int:
    """Open the window and run until it is closed."""
    parser = argparse.ArgumentParser(prog="build.py play-native")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    args = parser.parse_args(argv)
    run_window(CheckScene, (args.width, args.height))
    return 0
