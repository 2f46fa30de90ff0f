"""The linter, the formatter and the type checker are part of the test command."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint() -> None:
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


# The shipped JavaScript (the shell, its workers, the Node scripts) under Biome (lint and
# format, biome.json) and TypeScript's checker over JSDoc types (one tsconfig per global scope:
# the page, the workers, Node), installed from package-lock.json as the ruff and mypy of the JS.
TSCONFIGS = ("web/shell/tsconfig.json", "web/shell/tsconfig.worker.json", "tsconfig.json")


def node_tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a tool of node_modules/.bin (build.py installs them) from the project's root."""
    tool = ROOT / "node_modules" / ".bin" / name
    assert tool.exists(), f"{tool} missing: run `python3 build.py test` to install it"
    return subprocess.run([str(tool), *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_biome_lint() -> None:
    result = node_tool("biome", "lint", "--error-on-warnings", "--max-diagnostics=50")
    assert result.returncode == 0, result.stdout + result.stderr


def test_biome_format() -> None:
    result = node_tool("biome", "format", "--max-diagnostics=50")
    assert result.returncode == 0, result.stdout + result.stderr


def test_tsc() -> None:
    for config in TSCONFIGS:
        result = node_tool("tsc", "--pretty", "false", "-p", config)
        assert result.returncode == 0, f"tsc -p {config}\n" + result.stdout + result.stderr


def test_set_up_output_goes_to_stderr_so_stdout_stays_the_command_s() -> None:
    """`build.py math --json > f` must give JSON even on a fresh clone, while it installs."""
    code = (
        "import sys, build\n"
        "build.say('installing something')\n"
        "build.run([sys.executable, '-c', 'print(\"a set-up tool talking\")'])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "installing something" in result.stderr and "a set-up tool talking" in result.stderr


def test_a_json_command_prints_only_json() -> None:
    result = subprocess.run(
        [sys.executable, "build.py", "math", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    tables = json.loads(result.stdout)
    assert {table["id"] for table in tables} == {"lab-riches", "power-puck-shot"}
