"""Node.js for the tests that run the shell's or an outsider's JavaScript."""

from __future__ import annotations

import shutil


def node() -> str:
    """The `node` binary. The README's set-up needs it (build.py installs the npm packages
    with it), so a missing one is a broken install: fail, saying so, rather than skip."""
    found = shutil.which("node")
    assert found is not None, "Node.js is not installed: the README's set-up needs it (Node.js 20)"
    return found
