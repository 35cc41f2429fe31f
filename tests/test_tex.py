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
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(tex, "CACHE", tmp_path / "checked.json")
    monkeypatch.setattr(
        tex,
        "_STATE",
        {"process": None, "cache": None, "salt": None, "serve": False, "dirty": False},
    )
    tex.on_pre_build(None)
    yield tmp_path / "checked.json"
    tex._stop()


def test_the_checker_finds_tex_errors_and_passes_the_sites_tex(fresh_cache):
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
    errors = tex.check(good + bad)
    assert errors[: len(good)] == [None] * len(good)
    assert all(errors[len(good) :]), errors
    assert "fracc" in errors[len(good)]


def test_results_are_cached_by_content_and_saved(fresh_cache):
    tex.check([(r"\alpha", False)])
    tex.on_post_build(None)
    assert fresh_cache.is_file()
    tex._stop()
    tex._STATE.update(cache=None, salt=None)
    tex.on_pre_build(None)
    started = []
    real = tex._process
    tex._process = lambda: started.append(1) or real()
    try:
        assert tex.check([(r"\alpha", False)]) == [None]  # from the cache: no Node process
        assert not started
        assert tex.check([(r"\beta", False)]) == [None]
        assert started
    finally:
        tex._process = real


def test_a_broken_expression_fails_the_strict_build_naming_the_page(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nFine: $a^2$.\n")
    (tmp_path / "docs" / "broken.md").write_text("# Broken\n\nA slip: $\\fracc{a}{b}$.\n")
    (tmp_path / "mkdocs.yml").write_text(
        textwrap.dedent(f"""\
        site_name: t
        markdown_extensions:
          - pymdownx.arithmatex:
              generic: true
        hooks:
          - {ROOT / "scripts" / "mlnotes_site" / "tex.py"}
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
