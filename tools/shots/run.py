"""`build.py shots`: build a checkout's site (this one, or commit REF's in a temporary worktree,
served by that commit's own endpoint), serve it in test mode, photograph every game's shots at
every size and draw one contact sheet per game."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from tools.bench.worktree import build_site, worktree
from tools.build.dist import build
from tools.build.localserver import CHROMIUM_ARGS, chromium_path, local_server
from tools.build.sources import ROOT
from tools.shots import camera, sheet
from tools.shots.plan import SIZES, GamePlan, Size, plans

Serve = Callable[[Path], AbstractContextManager[str]]  # a var/ directory -> the server's URL


def this_commit() -> str:
    """This checkout's commit, with '+changes' when its files differ from it."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()  # fmt: skip

    return git("rev-parse", "HEAD") + ("+changes" if git("status", "--porcelain") else "")


@contextmanager
def site(ref: str | None, scratch: Path) -> Iterator[tuple[Serve, str]]:
    """The built site, and how to serve it in test mode on a fresh SQLite database; the
    commit. Each size has its own database: a pool holds one entry of a top prize."""
    if ref is None:
        build(scratch / "dist")
        yield partial(local_server, scratch / "dist"), this_commit()
        return
    with worktree(ref) as (tree, commit):
        build_site(tree, scratch / "dist")
        yield partial(local_server, scratch / "dist", root=tree), commit


def paths(out: Path, plan: GamePlan, size: Size) -> dict[str, Path]:
    """Where each of the game's shots at this size is saved."""
    return {shot: out / plan.game.id / f"{shot}-{size.name}.png" for shot in plan.shots}


def photograph_all(
    serve: Serve, chosen: tuple[GamePlan, ...], sizes: tuple[Size, ...], out: Path
) -> dict[str, dict[str, dict[str, Path]]]:
    """Every chosen game's shots at every size (a server of its own for each size), by game
    id, shot and size name; a play that fails is reported and its shots left out."""
    found: dict[str, dict[str, dict[str, Path]]] = {
        plan.game.id: {shot: {} for shot in plan.shots} for plan in chosen
    }
    with sync_playwright() as p, tempfile.TemporaryDirectory(prefix="shots-var-") as var:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            for size in sizes:
                with serve(Path(var) / size.name) as url:
                    for plan in chosen:
                        taken = camera.photograph(browser, url, plan, size, paths(out, plan, size))
                        for shot, path in taken.items():
                            found[plan.game.id][shot][size.name] = path
        finally:
            browser.close()
    return found


def run(out: Path, against: str | None = None) -> dict[str, Any]:
    """Photograph a build (this checkout's, or commit `against`'s) into out; the summary: the
    commit, the sizes, and per game its contact sheet (path, bytes) and every shot's PNG."""
    out.mkdir(parents=True, exist_ok=True)
    chosen = plans()
    with (
        tempfile.TemporaryDirectory(prefix="shots-") as scratch,
        site(against, Path(scratch)) as (serve, commit),
    ):
        found = photograph_all(serve, chosen, SIZES, out)
    summary: dict[str, Any] = {
        "against": against,
        "commit": commit,
        "sizes": {size.name: size.label for size in SIZES},
        "games": {},
    }
    for plan in chosen:
        rows = found[plan.game.id]
        title = f"{plan.game.id} - {commit[:12]}"  # Pillow's own font has no £
        sheet_path = out / f"{plan.game.id}-{commit[:7]}.webp"
        size = sheet.save(sheet.draw(title, SIZES, rows), sheet_path)
        summary["games"][plan.game.id] = {
            "sheet": str(sheet_path),
            "sheet_bytes": size,
            "shots": {shot: {k: str(v) for k, v in cells.items()} for shot, cells in rows.items()},
            "missing": [
                f"{s}@{z.name}" for s in plan.shots for z in SIZES if z.name not in rows[s]
            ],
        }
    return summary
