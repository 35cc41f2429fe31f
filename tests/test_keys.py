"""The content keys (scripts/mlnotes_site/keys.py): a key changes when what it covers
changes, and only then; it is the same in another checkout of the project (another
absolute path, other file times), so a cache restored on another machine stays valid."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from mlnotes_site import figure_builder, keys
from mlnotes_site.figure_builder import FigureProject
from mlnotes_site.plugins import notebooks
from mlnotes_site.plugins.incremental import signatures

MODULE = '''"""A module."""

# a comment
def f(x):
    """Docstring of f."""
    return x + 1  # trailing comment
'''


def _project(root: Path) -> Path:
    """A tiny project: mlnotes/ (alpha imports beta; gamma stands alone), a figure script,
    a notebook, mkdocs.yml and a docs/ dotfile."""
    package = root / "mlnotes"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "plotting.py").write_text("STYLE = 1\n")
    (package / "alpha.py").write_text("from . import beta\nA = 1\n")
    (package / "beta.py").write_text(MODULE)
    (package / "gamma.py").write_text("G = 3\n")
    (root / "scripts" / "figures").mkdir(parents=True)
    (root / "scripts" / "figures" / "fig.py").write_text("from mlnotes.alpha import A\n")
    (root / "docs" / "notebooks").mkdir(parents=True)
    (root / "docs" / "notebooks" / "nb.py").write_text("# %%\nfrom mlnotes import alpha\n")
    (root / "docs" / ".meta.yml").write_text("search:\n  boost: 2\n")
    (root / "mkdocs.yml").write_text("site_name: t\n")
    return root


def _figure_and_notebook_keys(root: Path) -> tuple[str, str]:
    project = FigureProject.at(root)
    figure = figure_builder.cache_key(project, root / "scripts/figures/fig.py", versions="fixed")
    notebook = notebooks.notebook_key(root / "docs" / "notebooks" / "nb.py", root)
    return figure, notebook


def _global_key(root: Path) -> str:
    config = SimpleNamespace(config_file_path=str(root / "mkdocs.yml"), docs_dir=str(root / "docs"))
    return signatures.global_key(root, config, inputs=("mlnotes", "scripts"))


# --- the key ----------------------------------------------------------------------------


def test_the_framing_of_a_key_is_fixed():
    """The bytes a key hashes are part of every cache's validity: a change here invalidates
    every cache once (figures redrawn, notebooks executed, TeX checked again)."""
    assert (
        keys.digest("k", [("a", "b"), ("c", b"d")])
        == "b2bb0924dec15c38bc146dd198a9de0832302867b21e1e865174823ffc9f7ea6"
    )


def test_parts_are_framed_so_no_two_lists_of_parts_collide():
    base = keys.digest("k", [("a", "bc")])
    assert keys.digest("k", [("ab", "c")]) != base  # the name/value boundary counts
    assert keys.digest("k", [("a", "b"), ("c", "")]) != keys.digest("k", [("a", "bc")])
    assert keys.digest("other", [("a", "bc")]) != base  # the kind counts
    assert keys.digest("k", [("a", b"bc")]) != base  # bytes and text are told apart
    assert keys.digest("k", [("a", "bc")]) == base  # and the same parts give the same key


def test_a_file_is_keyed_by_its_content_and_its_path_in_the_project(tmp_path):
    (tmp_path / "a").mkdir()
    path = tmp_path / "a" / "x.txt"
    path.write_text("one")

    def key(p=path):
        return keys.Key("k").file(p, tmp_path).hexdigest()

    first = key()
    os.utime(path, (1, 1))  # a new mtime, the same bytes
    assert key() == first
    path.write_text("two")
    assert key() != first
    path.write_text("one")
    assert key() == first
    other = tmp_path / "a" / "y.txt"  # the same bytes under another name
    other.write_text("one")
    assert key(other) != first


def test_a_missing_file_raises_unless_allowed_and_differs_from_an_empty_one(tmp_path):
    path = tmp_path / "x"
    with pytest.raises(FileNotFoundError):
        keys.Key("k").file(path, tmp_path)
    missing = keys.Key("k").file(path, tmp_path, missing_ok=True).hexdigest()
    path.write_bytes(b"")
    assert keys.Key("k").file(path, tmp_path, missing_ok=True).hexdigest() != missing


def test_a_key_refuses_a_file_outside_the_project(tmp_path):
    (tmp_path / "project").mkdir()
    outside = tmp_path / "x.py"
    outside.write_text("X = 1\n")
    with pytest.raises(ValueError, match="not under"):
        keys.Key("k").file(outside, tmp_path / "project")
    with pytest.raises(ValueError, match="not under"):
        keys.Key("k").code(outside, tmp_path / "project")


@pytest.mark.parametrize(
    "edit, same",
    [
        (lambda s: s.replace("Docstring of f.", "Docstring of f, edited."), True),
        (lambda s: s.replace("# a comment", "# another comment"), True),
        (lambda s: s.replace("  # trailing comment", ""), True),
        (lambda s: s.replace("x + 1", "x + 2"), False),
        (lambda s: s.replace("def f(x):", "def f(x)"), False),  # a syntax error
    ],
)
def test_a_code_key_ignores_docstrings_and_comments_only(tmp_path, edit, same):
    path = tmp_path / "m.py"
    path.write_text(MODULE)
    before = keys.Key("k").code(path, tmp_path).hexdigest()
    path.write_text(edit(MODULE))
    assert (keys.Key("k").code(path, tmp_path).hexdigest() == before) is same


# --- imports ----------------------------------------------------------------------------


def test_imports_follow_the_package_transitively(tmp_path):
    root = _project(tmp_path)
    package = root / "mlnotes"
    script = root / "scripts" / "figures" / "fig.py"
    assert [p.name for p in keys.imports(script, package)] == ["__init__.py", "alpha.py", "beta.py"]
    assert [p.name for p in keys.imports(script, package, always=("plotting",))] == [
        "__init__.py",
        "alpha.py",
        "beta.py",
        "plotting.py",
    ]
    script.write_text("import numpy\nfrom mlnotes import gamma\n")
    assert [p.name for p in keys.imports(script, package)] == ["__init__.py", "gamma.py"]
    script.write_text("def broken(:\n")
    with pytest.raises(SyntaxError):
        keys.imports(script, package)


# --- the build's keys, in two checkouts -------------------------------------------------


def test_the_builds_keys_are_the_same_in_another_checkout(tmp_path):
    """A cache restored into another checkout (another absolute path, every file with a
    new mtime) is still valid: the figure, notebook and serve keys there are equal."""
    here = _project(tmp_path / "here")
    there = tmp_path / "elsewhere" / "checkout"
    shutil.copytree(here, there)  # copy2: same mtimes; set new ones below
    for path in there.rglob("*"):
        os.utime(path, (10**9, 10**9))
    keys_here = (*_figure_and_notebook_keys(here), _global_key(here))
    keys_there = (*_figure_and_notebook_keys(there), _global_key(there))
    assert keys_here == keys_there
    assert len(set(keys_here)) == 3  # three different keys, not one constant


def test_the_builds_keys_follow_the_code_not_its_docstrings(tmp_path):
    root = _project(tmp_path)
    figure, notebook = _figure_and_notebook_keys(root)
    serve = _global_key(root)
    beta = root / "mlnotes" / "beta.py"
    beta.write_text(MODULE.replace("Docstring of f.", "Docstring of f, rewritten."))
    assert _figure_and_notebook_keys(root) == (figure, notebook)
    assert _global_key(root) != serve  # the serve's key is over bytes: any edit re-renders
    beta.write_text(MODULE.replace("x + 1", "x - 1"))
    new_figure, new_notebook = _figure_and_notebook_keys(root)
    assert new_figure != figure and new_notebook != notebook
    # gamma is imported by neither
    (root / "mlnotes" / "gamma.py").write_text("G = 4\n")
    assert _figure_and_notebook_keys(root) == (new_figure, new_notebook)


def test_the_figure_workers_code_key_covers_every_module(tmp_path):
    project = FigureProject.at(_project(tmp_path))
    first = figure_builder.code_key(project)
    (project.package / "gamma.py").write_text('"""Gamma."""\nG = 3  # documented\n')
    assert figure_builder.code_key(project) == first
    (project.package / "gamma.py").write_text("G = 4\n")  # imported by no figure, but a
    assert figure_builder.code_key(project) != first  # warm worker may have imported it


# --- imports recorded at run time -------------------------------------------------------

RECORDER = r"""
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
import pkgx.beta  # loaded before the recorder: its imports ran unseen, so it loads again
from mlnotes_site.keys import ImportRecorder

recorder = ImportRecorder("pkgx").install()
assert "pkgx.beta" not in sys.modules
seen = {}


def run(name, source):
    recorder.forget(name)
    module = type(sys)(name)
    exec(compile(source, name, "exec"), module.__dict__)
    if hasattr(module, "main"):
        module.main()
    seen[name] = recorder.files(name)


run("first", "from pkgx.alpha import A")  # alpha imports beta at its top
run("second", "import pkgx.alpha")  # alpha and beta are loaded already: still recorded
run("third", "from pkgx import gamma")  # a submodule named in `from pkgx import ...`
run("fourth", "def main():\n    import importlib\n    importlib.import_module('pkgx.delta')")
run("fifth", "X = 1")
run("first", "import pkgx.gamma")  # a new version of `first`: what the old one imported goes
print(json.dumps(seen))
"""


def test_a_warm_process_records_what_each_script_imported(tmp_path):
    """`keys.ImportRecorder` in one process that runs several scripts, as a warm figure
    worker does: a module an earlier script loaded still counts for a later one."""
    import json
    import subprocess
    import sys

    package = tmp_path / "pkgx"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "alpha.py").write_text("from . import beta\nA = 1\n")
    (package / "beta.py").write_text("B = 2\n")
    (package / "gamma.py").write_text("G = 3\n")
    (package / "delta.py").write_text("D = 4\n")
    out = subprocess.run(
        [sys.executable, "-c", RECORDER, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == {
        "first": ["__init__.py", "gamma.py"],
        "second": ["__init__.py", "alpha.py", "beta.py"],
        "third": ["__init__.py", "gamma.py"],
        "fourth": ["__init__.py", "delta.py"],
        "fifth": ["__init__.py"],
    }


STYLES = """
import contextlib

STYLE = 1


def style(theme):
    return contextlib.nullcontext()
"""

FIGURE = """
import matplotlib.pyplot as plt
{imports}


def make_figure():
{body}
    fig, ax = plt.subplots(figsize=(1, 1))
    ax.plot([0, 1], [0, value])
    return fig
"""


def test_a_figure_is_keyed_on_what_it_imported_when_drawn(tmp_path, monkeypatch, capsys):
    """The figure builder keys a figure drawn before on the `mlnotes` files its worker
    recorded it importing: an import the source scan cannot see (`import_module`) counts,
    and a module a figure imported after another figure loaded it in the same worker
    counts for both."""
    root = _project(tmp_path)
    (root / "mlnotes" / "plotting.py").write_text(STYLES)
    (root / "mlnotes" / "beta.py").write_text("B = 2\n")
    figures = root / "scripts" / "figures"
    (figures / "fig.py").unlink()
    (figures / "a.py").write_text(
        FIGURE.format(imports="from mlnotes.alpha import A", body="    value = A")
    )
    (figures / "b.py").write_text(
        FIGURE.format(imports="from mlnotes import alpha", body="    value = alpha.beta.B")
    )
    dynamic = "    import importlib\n\n    value = importlib.import_module('mlnotes.gamma').G"
    (figures / "c.py").write_text(FIGURE.format(imports="", body=dynamic))
    monkeypatch.delenv("MLNOTES_FIGURE_CACHE", raising=False)
    project = FigureProject.at(root)
    monkeypatch.syspath_prepend(str(root))  # the worker (forked) imports this mlnotes

    def build() -> list[str]:
        capsys.readouterr()
        assert figure_builder.build(project, jobs=1) == 0, figure_builder.last_run(project)
        return sorted(figure_builder.last_run(project)["built"])

    assert build() == ["a", "b", "c"]
    # one worker drew a, then b: alpha and beta were loaded already, and still count for b
    recorded = {n: figure_builder.recorded_imports(project, n) for n in "abc"}
    assert recorded["a"] == ["__init__.py", "alpha.py", "beta.py"]
    assert recorded["b"] == ["__init__.py", "alpha.py", "beta.py"]
    assert recorded["c"] == ["__init__.py", "gamma.py"]
    # c imported what its source does not name: keyed before the run on the scan, it is
    # drawn once more, then keyed on what it imported
    assert build() == ["c"]
    assert build() == []
    gamma = root / "mlnotes" / "gamma.py"
    gamma.write_text('"""Gamma."""\nG = 3  # documented\n')
    assert build() == []
    gamma.write_text("G = 4\n")
    assert build() == ["c"]
    (root / "mlnotes" / "beta.py").write_text("B = 5\n")
    assert build() == ["a", "b"]


def test_a_pages_serve_key_follows_the_failures_of_the_figures_it_shows(tmp_path):
    """`make serve` re-renders a page when a figure it shows fails or recovers (the
    failures are lists of lines, mlnotes-problems)."""
    page = SimpleNamespace(content_bytes=b"![A](../figures/x.svg)\n", src_uri="notes/p.md")
    clean = signatures.scan_page(tmp_path, page, []).signature
    failed = signatures.scan_page(tmp_path, page, [], {"x": ["line 3: ValueError"]}).signature
    assert failed != clean
    assert (
        signatures.scan_page(tmp_path, page, [], {"y": ["line 3: ValueError"]}).signature == clean
    )
    with pytest.raises(TypeError, match="not bytes or str"):
        keys.Key("k").add("a list", ["x"])


def test_a_file_spelt_two_ways_has_one_name(tmp_path):
    """`docs/../mlnotes/x.py` and `mlnotes/x.py` are one file: one name, one key."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "mlnotes").mkdir()
    path = tmp_path / "mlnotes" / "x.py"
    path.write_text("X = 1\n")
    detour = tmp_path / "docs" / ".." / "mlnotes" / "x.py"
    assert keys.relative_name(detour, tmp_path) == "mlnotes/x.py"
    assert keys.relative_name(path, tmp_path / "docs" / "..") == "mlnotes/x.py"
    assert (
        keys.Key("k").file(detour, tmp_path).hexdigest()
        == keys.Key("k").file(path, tmp_path).hexdigest()
    )
    with pytest.raises(ValueError, match="not under"):  # `..` cannot climb out of the project
        keys.relative_name(tmp_path / "mlnotes" / ".." / ".." / "x.py", tmp_path)


def test_an_import_recorder_can_be_uninstalled():
    """`ImportRecorder` as a context manager: the import functions are its own inside, the
    originals after, and what it recorded stays."""
    import builtins
    import importlib

    before = builtins.__import__, importlib.import_module
    with keys.ImportRecorder("mlnotes_no_such_package") as recorder:
        assert builtins.__import__ is not before[0]
        assert importlib.import_module is not before[1]
        recorder.edges["x"] = {"mlnotes_no_such_package.y"}
    assert (builtins.__import__, importlib.import_module) == before
    assert recorder.imported_by("x") == {"mlnotes_no_such_package.y"}
    recorder.uninstall()  # twice is harmless
    assert (builtins.__import__, importlib.import_module) == before


# --- a producer's version, the stamp, the dependency scan ------------------------------


def _module(path: Path, name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_producers_version_is_its_code_by_its_name(tmp_path):
    """`Key.module`: a producer's code as it is on disk now, without docstrings, named by
    its dotted name (not by where it is installed)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for folder in ("a", "b"):
        (tmp_path / folder / "producer.py").write_text(MODULE)
    here = _module(tmp_path / "a" / "producer.py", "pkg.producer")
    there = _module(tmp_path / "b" / "producer.py", "pkg.producer")

    def key(module):
        return keys.Key("k").module(module).hexdigest()

    first = key(here)
    assert key(there) == first  # installed elsewhere: the same version
    assert key(_module(tmp_path / "a" / "producer.py", "pkg.other")) != first  # another producer
    (tmp_path / "a" / "producer.py").write_text(MODULE.replace("Docstring of f.", "Reworded."))
    assert key(here) == first
    (tmp_path / "a" / "producer.py").write_text(MODULE.replace("x + 1", "x + 2"))
    assert key(here) != first  # read from disk: an edit since the import counts


def test_a_stamp_is_fresh_for_its_key_while_its_outputs_exist(tmp_path):
    out = tmp_path / "out.svg"
    stamp = keys.Stamp(tmp_path / "cache", "fig", (out,))
    assert not stamp.fresh("k1") and stamp.imports() is None
    out.write_text("<svg/>")
    stamp.write("k1", ["__init__.py", "alpha.py"])
    assert stamp.fresh("k1") and not stamp.fresh("k2")
    assert stamp.imports() == ["__init__.py", "alpha.py"]
    assert stamp.key_file == tmp_path / "cache" / "fig.key"
    assert stamp.imports_file == tmp_path / "cache" / "fig.imports"
    out.unlink()
    assert not stamp.fresh("k1")  # an output gone: made again
    out.write_text("<svg/>")
    stamp.remove()
    assert not out.exists() and not stamp.key_file.exists() and not stamp.imports_file.exists()
    assert not stamp.fresh("k1")


def test_dependencies_of_a_source_that_does_not_parse_are_the_whole_package(tmp_path):
    root = _project(tmp_path)
    package = root / "mlnotes"
    script = root / "scripts" / "figures" / "fig.py"
    assert [p.name for p in keys.dependencies(script, package, ("plotting",))] == [
        "__init__.py",
        "alpha.py",
        "beta.py",
        "plotting.py",
    ]
    script.write_text("def broken(:\n")
    assert [p.name for p in keys.dependencies(script, package)] == [
        "__init__.py",
        "alpha.py",
        "beta.py",
        "gamma.py",
        "plotting.py",
    ]


def test_an_import_that_failed_under_the_recorder_is_shown_where_it_was_written(tmp_path):
    """`ImportRecorder.format_exception` leaves the recorder's own frames out: the last
    frame is the importing line, which the plain traceback shows one frame earlier."""
    import traceback

    script = tmp_path / "script.py"
    script.write_text("X = 1\nimport mlnotes_no_such_package.y\n")
    with keys.ImportRecorder("mlnotes_no_such_package"):
        try:
            exec(compile(script.read_text(), str(script), "exec"), {"__name__": "script"})
        except ImportError as exc:
            caught = exc
    plain = "".join(traceback.format_exception(caught))
    assert keys.__file__ in plain  # the recorder's frame: what the format leaves out
    shown = keys.ImportRecorder.format_exception(caught)
    frames = [line.strip() for line in shown.splitlines() if line.strip().startswith("File ")]
    assert frames[-1] == f'File "{script}", line 2, in <module>', shown
    assert keys.__file__ not in shown
    assert shown.rstrip().endswith("No module named 'mlnotes_no_such_package'")


def test_only_the_key_module_hashes():
    """Every key goes through keys.py: no other module of the build's package imports
    hashlib."""
    import re

    package = Path(keys.__file__).parent
    others = [
        p.relative_to(package).as_posix()
        for p in package.rglob("*.py")
        if p.name != "keys.py" and re.search(r"^\s*(import|from)\s+hashlib\b", p.read_text(), re.M)
    ]
    assert others == [], others


def test_no_module_of_the_build_is_over_500_lines():
    """The build's package stays split by concern (issue 30): no module over 500 lines."""
    package = Path(keys.__file__).parent
    long = {
        p.relative_to(package).as_posix(): n
        for p in package.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500
    }
    assert long == {}, long
