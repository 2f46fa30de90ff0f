"""Another commit of this repository checked out beside this one, for side-by-side benchmarks
(`build.py bench --load|--endpoint --against REF`, `build.py shots --against REF`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tools.build.sources import ROOT


@contextmanager
def worktree(ref: str) -> Iterator[tuple[Path, str]]:
    """Commit `ref` checked out in a temporary git worktree (with this checkout's
    node_modules), and the commit's id; removed afterwards."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{ref}^{{commit}}"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    tree = Path(tempfile.mkdtemp(prefix="bench-ref-")) / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(tree), commit],
                   cwd=ROOT, check=True)  # fmt: skip
    try:
        (tree / "node_modules").symlink_to(ROOT / "node_modules")
        yield tree, commit
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
        shutil.rmtree(tree.parent, ignore_errors=True)


def build_site(tree: Path, out: Path) -> None:
    """Build the site of the checkout at `tree` into out with that checkout's own `dist`
    command (this virtualenv's Python)."""
    command = [sys.executable, "-m", "tools", "dist", "--out", str(out)]
    subprocess.run(command, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
