"""The real dev server in a subprocess, and headless Chromium's settings, for tests and benches."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tools.build.sources import ROOT

# Chromium keeps only the last --disable-features switch, so this one repeats Playwright's own
# list (playwright-core 1.65, chromiumSwitches.ts) and adds the omnibox popup WebUI: headless
# Chromium starts a renderer for it with every new tab, which competed with the page for this
# machine's two cores (warm load 0.9 s with it, 0.55 s without). Puppeteer disables it too.
DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "WebUIOmniboxPopup",
    "WebUIOmniboxAimPopup",
]

# Headless on a machine with no outside network: no GPU, no background calls to Google.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join(DISABLED_FEATURES),
]


def chromium_path() -> str | None:
    """The system Chromium when there is one (else Playwright's own)."""
    return os.environ.get("LOTTERY_CHROMIUM") or shutil.which("chromium")


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def local_server(
    dist: Path,
    var: Path | None = None,
    *,
    test_mode: bool = True,
    limits_required: bool = False,
    env: dict[str, str] | None = None,
    root: Path = ROOT,
) -> Iterator[str]:
    """`build.py serve --no-build` on a free port with its own var/ (SQLite); yields its URL.
    `root` is the checkout whose server it is (another commit's worktree for a comparison).

    Its fresh accounts buy without choosing limits first (LOTTERY_LIMITS_REQUIRED=0) unless
    `limits_required`: the tests and benchmarks that buy are about other things.

    The server's output goes to var/server.log, shown if it fails to start.
    """
    own_var = var is None
    var = Path(tempfile.mkdtemp(prefix="lottery-var-")) if var is None else var
    var.mkdir(parents=True, exist_ok=True)
    port = free_port()
    environ = {**os.environ, "LOTTERY_VAR_DIR": str(var), "PYTHONPATH": str(root), **(env or {})}
    environ.pop("DATABASE_URL", None)
    environ["LOTTERY_LIMITS_REQUIRED"] = "1" if limits_required else "0"
    if test_mode:
        environ["LOTTERY_TEST_MODE"] = "1"
    cmd = [sys.executable, "-m", "tools", "serve", "--no-build", "--dist", str(dist)]
    log_path = var / "server.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [*cmd, "--port", str(port)], cwd=root, env=environ, stdout=log, stderr=subprocess.STDOUT
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(url + "/", timeout=2):
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(log_path.read_text()) from None
                    time.sleep(0.2)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
            if own_var:
                shutil.rmtree(var, ignore_errors=True)
