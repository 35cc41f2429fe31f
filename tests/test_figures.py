"""The figure scripts and the figure builder (scripts/mlnotes_site/figure_builder.py)."""

from __future__ import annotations

import ast
import importlib.util
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from mlnotes_site import figure_builder  # noqa: E402
from mlnotes.plotting import style  # noqa: E402

SCRIPTS = figure_builder.discover()


# --- every figure script --------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_figure_script_runs_in_both_themes(name):
    path = SCRIPTS[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree)
    assert doc and "\n\n" in doc, f"{path.name}: needs a docstring with a title and a paragraph"
    assert any(isinstance(n, ast.If) and "__main__" in ast.unparse(n.test) for n in tree.body), (
        f"{path.name}: needs an `if __name__ == '__main__':` guard"
    )
    math_modules = {p.name for p in figure_builder.dependencies(path)} - {
        "__init__.py",
        "plotting.py",
    }
    assert math_modules, f"{path.name}: computes nothing through mlnotes"

    spec = importlib.util.spec_from_file_location(f"_fig_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for theme in ("light", "dark"):
        with style(theme):
            fig = module.make_figure()
        assert isinstance(fig, Figure), f"{name}.make_figure() returned {type(fig).__name__}"
        assert fig.axes, f"{name}: the figure has no axes"
        plt.close(fig)


# --- the builder, on a scratch tree ---------------------------------------------------


@pytest.fixture
def tree(scratch_package, monkeypatch):
    """The scratch project of conftest, with scripts/figures/ and docs/figures/."""
    scripts = scratch_package / "scripts" / "figures"
    scripts.mkdir(parents=True)
    monkeypatch.setattr(figure_builder, "SCRIPTS", scripts)
    monkeypatch.setattr(figure_builder, "OUT", scratch_package / "docs" / "figures")
    monkeypatch.setattr(figure_builder, "CACHE", scratch_package / ".cache" / "figures")
    return scratch_package


def _script(tree: Path, name: str, body: str) -> Path:
    path = tree / "scripts" / "figures" / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    return path


DRAWING = '''\
"""A line.

Drawn for the builder's tests.
"""
import matplotlib.pyplot as plt


def make_figure():
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1, 2], [0, {value}, 0])
    ax.set(title="t")
    return fig
'''


def test_dependencies_follow_mlnotes_imports_transitively(tree):
    script = _script(tree, "x", "from mlnotes.alpha import A\nimport numpy\n")
    deps = {p.name for p in figure_builder.dependencies(script)}
    assert deps == {"__init__.py", "plotting.py", "alpha.py", "beta.py"}
    script = _script(tree, "y", "from mlnotes import gamma\n")
    assert {p.name for p in figure_builder.dependencies(script)} == {
        "__init__.py",
        "plotting.py",
        "gamma.py",
    }


def test_cache_key_changes_only_with_what_the_figure_depends_on(tree):
    script = _script(tree, "x", "from mlnotes.alpha import A\n")
    key = figure_builder.cache_key(script)
    (tree / "mlnotes" / "gamma.py").write_text("G = 4\n")  # not imported by the script
    (tree / "page.md").write_text("# edited page\n")
    assert figure_builder.cache_key(script) == key
    (tree / "mlnotes" / "beta.py").write_text("B = 3\n")  # imported through alpha
    key_beta = figure_builder.cache_key(script)
    assert key_beta != key
    (tree / "mlnotes" / "plotting.py").write_text("STYLE = 2\n")  # the style
    assert figure_builder.cache_key(script) != key_beta
    assert figure_builder.cache_key(script, versions="matplotlib=0") != figure_builder.cache_key(
        script
    )


def test_build_is_cached_deterministic_and_cleans_up(tree, capsys):
    _script(tree, "line", DRAWING.format(value=1))
    assert figure_builder.build(jobs=1) == 0
    light, dark = figure_builder.outputs("line")
    first = light.read_bytes(), dark.read_bytes()
    assert first[0] != first[1]  # the dark variant really differs
    assert b"<dc:date>" not in first[0]  # no date metadata
    assert "line: built in" in capsys.readouterr().out

    assert figure_builder.build(jobs=1) == 0
    assert "line: up to date" in capsys.readouterr().out

    assert figure_builder.build(force=True, jobs=1) == 0
    assert (light.read_bytes(), dark.read_bytes()) == first  # same inputs, same bytes

    (tree / "scripts" / "figures" / "line.py").unlink()
    figure_builder.build(jobs=1)
    assert not light.exists() and not dark.exists()  # no stale figure left behind


def test_a_failing_script_fails_the_build_names_itself_and_leaves_no_stale_figure(tree, capsys):
    _script(tree, "good", DRAWING.format(value=1))
    _script(tree, "flaky", DRAWING.format(value=2))
    assert figure_builder.build(jobs=2) == 0
    _script(tree, "flaky", DRAWING.format(value="1 / 0"))
    assert figure_builder.build(jobs=2) == 1
    err = capsys.readouterr().err
    assert "scripts/figures/flaky.py" in err and "ZeroDivisionError" in err
    assert not any(p.exists() for p in figure_builder.outputs("flaky"))
    assert all(p.exists() for p in figure_builder.outputs("good"))


def test_unknown_figure_name_is_a_clear_error(tree):
    _script(tree, "line", DRAWING.format(value=1))
    with pytest.raises(SystemExit, match="no figure script named nope"):
        figure_builder.build(["nope"])


# --- the palette's docstring ------------------------------------------------------------


def _contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        rgb = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_palette_has_3_to_1_contrast_against_white_and_slate():
    # mlnotes.plotting.PALETTE: "at least 3:1 contrast (WCAG 1.4.11) against white *and*
    # against Material's slate background #1e2129. A script may use them in either theme."
    # (tests/browser/test_accessibility.py checks the palette against white only, in the light theme.)
    from mlnotes.plotting import PALETTE

    assert _contrast("#000000", "#ffffff") == pytest.approx(21.0)
    ratios = {(c, bg): _contrast(c, bg) for c in PALETTE for bg in ("#ffffff", "#1e2129")}
    assert min(ratios.values()) >= 3.0, {k: round(v, 2) for k, v in ratios.items() if v < 3}


def test_a_mistyped_root_is_an_error_naming_it(tmp_path, capsys):
    """`--root` at a folder that does not exist stops at once, naming the option and the
    folder, and writes nothing there."""
    from mlnotes_site import figure_builder

    typo = tmp_path / "no-such-project"
    with pytest.raises(SystemExit) as exit_:
        figure_builder.main(["--root", str(typo)])
    assert exit_.value.code == 2
    assert f"--root {typo}: no such folder" in capsys.readouterr().err
    assert not typo.exists()
