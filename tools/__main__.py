"""Dispatch `python -m tools COMMAND ARGS...` to the module tools.commands.<command>.

Each command module defines `main(argv: list[str]) -> int`; adding a command is
adding a module, so separate pieces of work never edit one shared table.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

from tools import commands


def available() -> list[str]:
    """Names of the commands that have a module."""
    names = (m.name for m in pkgutil.iter_modules(commands.__path__))
    return sorted(name.replace("_", "-") for name in names)


def main(argv: list[str]) -> int:
    """Run the named command with the remaining arguments."""
    if not argv:
        print("commands: " + ", ".join(available()))
        return 2
    name = argv[0]
    if name not in available():
        print(f"unknown command {name!r}; commands: {', '.join(available())}", file=sys.stderr)
        return 2
    module = importlib.import_module("tools.commands." + name.replace("-", "_"))
    result: int = module.main(argv[1:])
    return result


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
