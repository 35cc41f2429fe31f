"""`ruff check` and `ruff format --check` (pinned in pyproject.toml's test extra, configured
under [tool.ruff]) pass on the project's Python: the package, the build and dev scripts,
the figure scripts, the notebooks and the tests (`ruff check` the listings too; the
formatter leaves the author's listings and the pages' code blocks as written); every
plugin event method has type hints."""

from __future__ import annotations

import ast
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


def unannotated_events(source: str) -> list[str]:
    """`name: what is missing` for each `on_*` method of `source` without a type hint on
    a parameter (`self` aside) or on its return."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not node.name.startswith("on_"):
            continue
        a = node.args
        params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, (a.vararg, a.kwarg))]
        missing = [p.arg for p in params if p.arg != "self" and p.annotation is None]
        if node.returns is None:
            missing.append("return")
        if missing:
            found.append(f"{node.name}:{node.lineno}: {', '.join(missing)}")
    return found


def test_every_plugin_event_method_has_type_hints():
    plugins = sorted((ROOT / "scripts" / "mlnotes_site" / "plugins").rglob("*.py"))
    events = sum(s.count("def on_") for s in (p.read_text() for p in plugins))
    assert events > 20  # the plugins' events are found at all
    missing = {
        str(p.relative_to(ROOT)): found
        for p in plugins
        if (found := unannotated_events(p.read_text(encoding="utf-8")))
    }
    assert not missing, missing


def test_an_event_method_without_type_hints_is_found():
    source = "class P:\n    def on_page_markdown(self, markdown, *, page: int, **kwargs):\n        pass\n"
    assert unannotated_events(source) == ["on_page_markdown:2: markdown, kwargs, return"]
