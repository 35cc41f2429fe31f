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
from mlnotes_site.figure_builder import FigureProject  # noqa: E402
from mlnotes.plotting import style  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SITE = FigureProject.at(ROOT)  # this repository, the site's project
SCRIPTS = SITE.discover()


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
    math_modules = {p.name for p in figure_builder.dependencies(SITE, path)} - {
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
    """The scratch project of conftest, with scripts/figures/; its `mlnotes` first on
    sys.path (the workers, forked, import it: the builder checks they draw with the
    project's own), its figure cache its own."""
    (scratch_package / "scripts" / "figures").mkdir(parents=True)
    monkeypatch.syspath_prepend(str(scratch_package))
    monkeypatch.delenv("MLNOTES_FIGURE_CACHE", raising=False)
    return scratch_package


@pytest.fixture
def project(tree) -> FigureProject:
    return FigureProject.at(tree)


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


def test_dependencies_follow_mlnotes_imports_transitively(tree, project):
    script = _script(tree, "x", "from mlnotes.alpha import A\nimport numpy\n")
    deps = {p.name for p in figure_builder.dependencies(project, script)}
    assert deps == {"__init__.py", "plotting.py", "alpha.py", "beta.py"}
    script = _script(tree, "y", "from mlnotes import gamma\n")
    assert {p.name for p in figure_builder.dependencies(project, script)} == {
        "__init__.py",
        "plotting.py",
        "gamma.py",
    }


def test_cache_key_changes_only_with_what_the_figure_depends_on(tree, project):
    script = _script(tree, "x", "from mlnotes.alpha import A\n")

    def key(**kwargs):
        return figure_builder.cache_key(project, script, **kwargs)

    first = key()
    (tree / "mlnotes" / "gamma.py").write_text("G = 4\n")  # not imported by the script
    (tree / "page.md").write_text("# edited page\n")
    assert key() == first
    (tree / "mlnotes" / "beta.py").write_text("B = 3\n")  # imported through alpha
    key_beta = key()
    assert key_beta != first
    (tree / "mlnotes" / "plotting.py").write_text("STYLE = 2\n")  # the style
    assert key() != key_beta
    assert key(versions="matplotlib=0") != key()


def test_build_is_cached_deterministic_and_cleans_up(tree, project, capsys):
    _script(tree, "line", DRAWING.format(value=1))
    assert figure_builder.build(project, jobs=1) == 0
    light, dark = project.outputs("line")
    first = light.read_bytes(), dark.read_bytes()
    assert first[0] != first[1]  # the dark variant really differs
    assert b"<dc:date>" not in first[0]  # no date metadata
    assert "line: built in" in capsys.readouterr().out

    assert figure_builder.build(project, jobs=1) == 0
    assert "line: up to date" in capsys.readouterr().out

    assert figure_builder.build(project, force=True, jobs=1) == 0
    assert (light.read_bytes(), dark.read_bytes()) == first  # same inputs, same bytes

    (tree / "scripts" / "figures" / "line.py").unlink()
    figure_builder.build(project, jobs=1)
    assert not light.exists() and not dark.exists()  # no stale figure left behind


def test_a_figure_being_written_is_a_file_mkdocs_does_not_collect(tmp_path):
    """A build reading docs/ while figures are drawn (another process: a second build, a
    test) must not collect a half-written file (a strict build failed so, copying a
    `.svg.tmp` that had been renamed away)."""
    from mkdocs.structure.files import _default_exclude

    target = tmp_path / "docs" / "figures" / "line-dark.svg"
    partial = figure_builder.partial_path(target)
    assert partial.parent == target.parent  # renamed into place on the same file system
    relative = partial.relative_to(tmp_path / "docs").as_posix()
    assert _default_exclude.match_file(relative), f"MkDocs would collect {relative}"
    assert not _default_exclude.match_file("figures/line-dark.svg")  # the check can fail


def test_a_failing_script_fails_the_build_names_itself_and_leaves_no_stale_figure(
    tree, project, capsys
):
    _script(tree, "good", DRAWING.format(value=1))
    _script(tree, "flaky", DRAWING.format(value=2))
    assert figure_builder.build(project, jobs=2) == 0
    _script(tree, "flaky", DRAWING.format(value="1 / 0"))
    assert figure_builder.build(project, jobs=2) == 1
    err = capsys.readouterr().err
    assert "scripts/figures/flaky.py" in err and "ZeroDivisionError" in err
    assert not any(p.exists() for p in project.outputs("flaky"))
    assert all(p.exists() for p in project.outputs("good"))
    assert not project.stamp("flaky").key_file.exists()  # nor its record


def test_a_missing_module_is_reported_at_the_scripts_own_line(tree, project, capsys):
    """A figure script that imports a module that does not exist: the error names the
    script and the line of the import, not the import recorder (keys.py) it ran under."""
    _script(tree, "typo", '"""A typo."""\nimport matplotlib\nimport mlnotes.nosuchmodule\n')
    assert figure_builder.build(project, jobs=1) == 1
    error = figure_builder.last_run(project)["failed"]["typo"]
    frames = [line.strip() for line in error.splitlines() if line.strip().startswith("File ")]
    assert frames[-1].startswith(f'File "{tree / "scripts/figures/typo.py"}", line 3'), error
    assert figure_builder.keys.__file__ not in error
    assert error.rstrip().endswith("ModuleNotFoundError: No module named 'mlnotes.nosuchmodule'")
    assert "(scripts/figures/typo.py)" in capsys.readouterr().err


def test_the_figures_are_drawn_with_the_projects_own_mlnotes(tree, project, monkeypatch):
    """The builder keys a figure on the project's `mlnotes/`: drawing it with another
    `mlnotes` (one that an install put first on sys.path) fails, saying which."""
    _script(tree, "line", DRAWING.format(value=1))
    monkeypatch.syspath_prepend(str(ROOT))  # this repository's mlnotes, first
    assert figure_builder.build(project, jobs=1) == 1
    error = figure_builder.last_run(project)["failed"]["line"]
    assert f"the figures import mlnotes from {ROOT / 'mlnotes'}, not the project's" in error


def test_unknown_figure_name_is_a_clear_error(tree, project):
    _script(tree, "line", DRAWING.format(value=1))
    with pytest.raises(SystemExit, match="no figure script named nope"):
        figure_builder.build(project, ["nope"])


# --- the warm builder of `make serve` (mlnotes-figures) ------------------------------------

# Runs the plugin as `mkdocs serve` does, on the scratch project, from a copy of the build's
# package (PYTHONPATH), whose figure builder and keys.py it edits between builds.
SERVE = r"""
import json, sys
from pathlib import Path
from types import SimpleNamespace
from mlnotes_site import figure_builder, keys
from mlnotes_site.plugins.figures import FiguresPlugin

tree = Path(sys.argv[1])
plugin = FiguresPlugin()
assert plugin.load_config({"jobs": 1}) == ([], [])
plugin.on_startup(command="serve", dirty=True)
project = figure_builder.FigureProject.at(tree)


def build(label):
    plugin.on_pre_build(config=SimpleNamespace(config_file_path=str(tree / "mkdocs.yml")))
    built = figure_builder.last_run(project)["built"]
    pid = plugin.builder.process.pid
    print("BUILD " + json.dumps({"label": label, "builder": pid, "built": built}), flush=True)


def edit(module, old, new):
    path = Path(module.__file__)
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


build("first")
build("again")
edit(figure_builder, "Build the site's figures", "Build, reworded, the site's figures")
build("builder docstring")
edit(figure_builder, "    t0 = time.perf_counter()", "    print('[figures] EDITED', flush=True)\n    t0 = time.perf_counter()")
build("builder code")
edit(keys, "def digest(", "EDITED = 1\n\n\ndef digest(")
build("keys code")
builder = plugin.builder.process
plugin.on_shutdown()
print("STOPPED " + json.dumps(builder.poll() is not None), flush=True)
"""


@pytest.mark.slow
def test_the_serves_builder_draws_with_the_code_on_disk(tree, tmp_path):
    """`make serve` keeps one builder process with warm workers from build to build, and
    replaces it when the builder's code or keys.py's changes (not for a docstring): the
    next build runs the new code, and every figure, keyed on that code, is drawn again."""
    import json
    import os
    import shutil
    import subprocess
    import sys

    _script(tree, "x", DRAWING.format(value=1))
    code = tmp_path / "code"
    shutil.copytree(
        Path(figure_builder.__file__).parent,
        code / "mlnotes_site",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    driver = tmp_path / "serve.py"
    driver.write_text(SERVE)
    env = {k: v for k, v in os.environ.items() if k != "MLNOTES_FIGURE_CACHE"}
    result = subprocess.run(
        [sys.executable, str(driver), str(tree)],
        env={**env, "PYTHONPATH": str(code)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    builds = {}
    for line in out.splitlines():
        if line.startswith("BUILD "):
            build = json.loads(line.removeprefix("BUILD "))
            builds[build.pop("label")] = build
    assert [(label, b["built"]) for label, b in builds.items()] == [
        ("first", ["x"]),
        ("again", []),
        ("builder docstring", []),
        ("builder code", ["x"]),
        ("keys code", ["x"]),
    ]
    pids = [b["builder"] for b in builds.values()]
    assert pids[0] == pids[1] == pids[2]  # warm from build to build
    assert len({pids[2], pids[3], pids[4]}) == 3  # a new builder after each code edit
    edited = out.index('"label": "builder code"')
    assert "[figures] EDITED" in out[out.index('"label": "builder docstring"') : edited]
    assert "[figures] EDITED" not in out[: out.index('"label": "builder docstring"')]
    assert out.rstrip().endswith("STOPPED true")


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


def test_style_defaults_to_the_light_theme():
    """style() is style("light"): the light grid colour, not the dark one."""
    with style():
        default = plt.rcParams["grid.color"]
    with style("dark"):
        dark = plt.rcParams["grid.color"]
    assert (default, dark) == ("#d0d7de", "#3d4350")
