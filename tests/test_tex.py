"""Every TeX expression is checked when the site is built (scripts/mlnotes_site/tex.py): a broken
one fails the strict build, naming the page and the expression."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mlnotes_site import tex

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def checker(tmp_path):
    """A fresh mlnotes-tex plugin whose cache is a scratch file."""
    plugin = tex.TexPlugin()
    plugin.cache_file = tmp_path / "checked.json"
    plugin.on_pre_build(config=None)
    yield plugin
    plugin._stop()


def test_the_checker_finds_tex_errors_and_passes_the_sites_tex(checker):
    good = [
        (r"\frac{a}{b}", False),
        (r"\begin{equation} x \label{eq:a} \end{equation}", True),
        (
            r"\mathbb{R}^{d} \boldsymbol{x} \operatorname{Var} \cancel{x} \eqref{eq:elsewhere}",
            False,
        ),
        (r"\begin{pmatrix} 1 \\ 2 \end{pmatrix} \underbrace{a}_{b} \text{ok}", True),
    ]
    bad = [(r"\fracc{a}{b}", False), ("x^{2", False), (r"\begin{align} a \end{aligned}", True)]
    errors = checker.check(good + bad)
    assert errors[: len(good)] == [None] * len(good)
    assert all(errors[len(good) :]), errors
    assert "fracc" in errors[len(good)]


def test_results_are_cached_by_content_and_saved(checker, monkeypatch):
    checker.check([(r"\alpha", False)])
    checker.on_post_build(config=None)
    assert checker.cache_file.is_file()
    checker._stop()
    checker.cache, checker.salt = None, None
    checker.on_pre_build(config=None)
    started = []
    real = checker._process
    monkeypatch.setattr(checker, "_process", lambda: started.append(1) or real())
    assert checker.check([(r"\alpha", False)]) == [None]  # from the cache: no Node process
    assert not started
    assert checker.check([(r"\beta", False)]) == [None]
    assert started


def test_a_broken_expression_fails_the_strict_build_naming_the_page(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nFine: $a^2$.\n")
    (tmp_path / "docs" / "broken.md").write_text("# Broken\n\nA slip: $\\fracc{a}{b}$.\n")
    (tmp_path / "mkdocs.yml").write_text(
        textwrap.dedent("""\
        site_name: t
        markdown_extensions:
          - pymdownx.arithmatex:
              generic: true
        plugins:
          - mlnotes-tex
        """)
    )
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode != 0
    assert (
        "broken.md: TeX error in inline math '\\\\fracc{a}{b}': Undefined control sequence \\fracc"
        in result.stderr
    ), result.stderr[-3000:]
    assert "index.md: TeX error" not in result.stderr
