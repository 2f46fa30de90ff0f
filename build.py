#!/usr/bin/env python3
"""The project's one entry point: bootstrap the environment, then run a command in it.

    python3 build.py serve            set up, build dist/, serve on http://127.0.0.1:8000
    python3 build.py test [ARGS]      set up with test tools, run the whole pytest suite
    python3 build.py dist [--api-url URL] [--out DIR]
    python3 build.py play-native | endpoint | math | pool | certify | books | bench ...

This file uses the standard library only: it creates .venv, installs the Python
dependencies pinned in pyproject.toml and the npm packages pinned in
package-lock.json, and then runs `python -m tools COMMAND ...` inside .venv.
A stamp of the lock files decides whether anything needs installing again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP_NAME = ".lottery-stamp"
MIN_PYTHON = (3, 11)
TEST_COMMANDS = {"test", "bench"}


def venv_python() -> Path:
    """Path of the virtual environment's interpreter."""
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def say(message: str) -> None:
    """Print a bootstrap progress line (to stderr: stdout is the command's, e.g. its JSON)."""
    print(f"[build] {message}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kwargs: object) -> None:
    """Run a set-up command, its output on stderr, stopping the build if it fails."""
    kwargs.setdefault("stdout", sys.stderr)
    result = subprocess.run(cmd, cwd=ROOT, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        sys.exit(f"[build] failed ({result.returncode}): {' '.join(cmd)}")


def fingerprint(*names: str) -> str:
    """Hash the contents of the given project files (missing files count as empty)."""
    digest = hashlib.sha256()
    for name in names:
        path = ROOT / name
        digest.update(name.encode())
        digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()


def stamp_ok(path: Path, value: str) -> bool:
    """True when the stamp file at path records value."""
    return path.exists() and path.read_text().strip() == value


def ensure_python_deps(with_test: bool) -> None:
    """Create .venv and install the pinned dependencies (and test extras) if stale."""
    groups = ["main", "test"] if with_test else ["main"]
    stamp = VENV / f"{STAMP_NAME}-{'-'.join(groups)}"
    value = fingerprint("pyproject.toml") + sys.version
    if stamp_ok(stamp, value):
        return
    if not venv_python().exists():
        say("creating .venv")
        venv.EnvBuilder(with_pip=True).create(VENV)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    if with_test:
        requirements += project["optional-dependencies"]["test"]
    say(f"installing {len(requirements)} pinned Python packages")
    pip = [str(venv_python()), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    run([*pip, *requirements])
    stamp.write_text(value + "\n")


def ensure_node_deps() -> None:
    """Install the npm packages (Pyodide, fonts, the JS tools) from package-lock.json."""
    stamp = ROOT / "node_modules" / STAMP_NAME
    value = fingerprint("package.json", "package-lock.json")
    if stamp_ok(stamp, value):
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("[build] Node.js 20+ with npm is required: https://nodejs.org/")
    say("installing npm packages from package-lock.json")
    run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"])
    stamp.write_text(value + "\n")


def can_apt() -> bool:
    """True on a Debian-like Linux, as root (CI's machine): Debian's packages can be installed."""
    return sys.platform.startswith("linux") and os.geteuid() == 0 and bool(shutil.which("apt-get"))


def apt_install(packages: list[str]) -> None:
    """apt-get install the packages (once more after apt-get update if the lists were stale)."""
    say(f"installing Debian's {', '.join(packages)} (apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    quiet = {"stdout": subprocess.DEVNULL, "env": env}
    if subprocess.run(["apt-get", "install", "-y", *packages], **quiet).returncode:  # type: ignore[call-overload]
        run(["apt-get", "update"], **quiet)
        run(["apt-get", "install", "-y", *packages], **quiet)


def ensure_chromium() -> None:
    """Make a Chromium available for Playwright: the system one, or install one."""
    if os.environ.get("LOTTERY_CHROMIUM") or shutil.which("chromium"):
        return
    if can_apt():
        apt_install(["chromium"])
        return
    stamp = VENV / f"{STAMP_NAME}-playwright-chromium"
    if not stamp.exists():
        say("installing Playwright's Chromium")
        run([str(venv_python()), "-m", "playwright", "install", "chromium"])
        stamp.write_text("ok\n")


def ensure_engines() -> None:
    """The other browsers players have, as Debian ships them, for tests/firefox_webkit: Firefox ESR
    (driven over WebDriver BiDi, no geckodriver) and WebKitGTK's WebKitWebDriver under Xvfb.
    Installed as root with apt-get; without them the smoke suite fails on CI (CI=true)."""
    wanted = {"firefox-esr": "firefox-esr", "WebKitWebDriver": "webkit2gtk-driver", "Xvfb": "xvfb"}
    packages = [package for tool, package in wanted.items() if not shutil.which(tool)]
    if packages and can_apt():
        apt_install(packages)


def ensure_nginx() -> None:
    """The static web server the deployment test serves dist/ with (Debian's nginx, as root)."""
    if not shutil.which("nginx") and can_apt():
        apt_install(["nginx-light", "libnginx-mod-http-brotli-static"])


def main(argv: list[str]) -> int:
    """Bootstrap as much as the command needs, then run it inside .venv."""
    if sys.version_info < MIN_PYTHON:
        sys.exit("[build] Python 3.11 or newer is required")
    if not argv or argv[0] in {"-h", "--help", "help"}:
        print(__doc__)
        return 0
    command = argv[0]
    with_test = command in TEST_COMMANDS
    ensure_python_deps(with_test)
    ensure_node_deps()
    if with_test:
        ensure_chromium()
        ensure_nginx()
        ensure_engines()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [str(venv_python()), "-m", "tools", *argv]
    try:
        return subprocess.run(cmd, cwd=ROOT, env=env).returncode
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
