"""`ruff check` and `ruff format --check` (pinned in pyproject.toml's test extra, configured
under [tool.ruff]) pass on the project's Python: the package, the build and dev scripts,
the figure scripts, the notebooks and the tests (`ruff check` the listings too; the
formatter leaves the author's listings and the pages' code blocks as written)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_check_passes():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--output-format", "concise", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_check_passes():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_check_would_fail_on_an_unused_import(tmp_path):
    """The configuration really lints: a file with an unused import fails."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n")
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--config", str(ROOT / "pyproject.toml"), str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1 and "F401" in result.stdout
