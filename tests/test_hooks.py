"""The build's content keys: a figure or notebook runs again when its code changes, and
only then (a docstring or comment edit re-runs nothing); mkdocs-jupyter's own cache is
used as it ships, its private functions untouched."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mkdocs_jupyter import plugin

from mlnotes_site import figure_builder, keys
from mlnotes_site.figure_builder import FigureProject
from mlnotes_site.plugins import notebooks

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def tree(scratch_package):
    """The scratch project of conftest (alpha imports beta; gamma stands alone), with a
    notebooks folder and a figure script."""
    (scratch_package / "docs" / "notebooks").mkdir(parents=True)
    (scratch_package / "scripts" / "figures").mkdir(parents=True)
    return scratch_package


def _notebook(tree: Path, body: str) -> Path:
    path = tree / "docs" / "notebooks" / "nb.py"
    path.write_text("# %% [markdown]\n# # A notebook\n\n# %%\n" + body)
    return path


def test_notebook_dependencies_follow_its_mlnotes_imports(tree):
    nb = _notebook(tree, "from mlnotes.alpha import A\nimport numpy\n")
    names = {p.name for p in keys.dependencies(nb, tree / "mlnotes", notebooks.ALWAYS)}
    assert names == {"__init__.py", "plotting.py", "alpha.py", "beta.py"}


def test_a_notebook_that_does_not_parse_depends_on_all_of_mlnotes(tree):
    nb = _notebook(tree, "%timeit 1 + 1\n")  # a magic jupytext did not comment out
    names = {p.name for p in keys.dependencies(nb, tree / "mlnotes", notebooks.ALWAYS)}
    assert names == {"__init__.py", "plotting.py", "alpha.py", "beta.py", "gamma.py"}
    nb.write_bytes(b"# %%\nx = '\xff'\n")  # not UTF-8
    names = {p.name for p in keys.dependencies(nb, tree / "mlnotes", notebooks.ALWAYS)}
    assert names == {"__init__.py", "plotting.py", "alpha.py", "beta.py", "gamma.py"}


CODE = '''"""Module docstring."""

# a comment
def f(x):
    """Docstring of f."""
    return x + 1  # trailing comment


class C:
    """Docstring of C."""

    def g(self):
        """Docstring of g."""
        return 2
'''


@pytest.mark.parametrize(
    "edit, same",
    [
        (lambda s: s.replace("Docstring of f.", "Docstring of f, edited."), True),
        (lambda s: s.replace('"""Module docstring."""', '"""Module docstring.\n\nMore."""'), True),
        (lambda s: s.replace("# a comment", "# another comment\n# and one more"), True),
        (lambda s: s.replace('"""Docstring of g."""', ""), True),  # a docstring removed
        (lambda s: s.replace("return x + 1  #", "return (\n        x + 1\n    )  #"), True),
        (lambda s: s.replace("x + 1", "x + 2"), False),
        (lambda s: s.replace("return 2", "return 2.0"), False),
        (lambda s: s.replace("def g(self)", "def h(self)"), False),
        (lambda s: s + "\nLIMIT = 'a string'\n", False),  # a string that is not a docstring
        (
            lambda s: s.replace("return 2", '"""Not a docstring: not first."""\n        return 2'),
            False,
        ),
        (lambda s: s.replace("def f(x):", "def f(x)"), False),  # a syntax error
    ],
)
def test_code_digest_changes_with_the_code_only(tmp_path, edit, same):
    path = tmp_path / "m.py"
    path.write_text(CODE)
    before = keys.code_digest(path)
    path.write_text(edit(CODE))
    assert (keys.code_digest(path) == before) is same


def test_a_module_that_does_not_parse_is_keyed_on_its_bytes(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def f(:\n")
    first = keys.code_digest(path)
    path.write_text("def f(:\n# a comment\n")
    assert keys.code_digest(path) != first


def test_a_figure_key_follows_its_script_and_the_code_it_imports(tree):
    script = tree / "scripts" / "figures" / "fig.py"
    script.write_text('"""A figure."""\nfrom mlnotes.alpha import A\n')
    beta = tree / "mlnotes" / "beta.py"

    def key():
        return figure_builder.cache_key(FigureProject.at(tree), script, versions="fixed")

    first = key()
    beta.write_text('"""Beta, documented."""\nB = 2  # the same value\n')
    (tree / "mlnotes" / "gamma.py").write_text("G = 4\n")  # not imported
    assert key() == first
    beta.write_text("B = 3\n")  # behaviour, imported through alpha
    second = key()
    assert second != first
    script.write_text('"""A figure, retitled."""\nfrom mlnotes.alpha import A\n')
    assert key() != second  # the script itself counts by its bytes


def test_a_notebook_key_ignores_docstring_edits_of_what_it_imports(tree):
    nb = _notebook(tree, "from mlnotes.alpha import A\nprint(A)\n")
    beta = tree / "mlnotes" / "beta.py"
    first = notebooks._notebook_key(nb, tree)
    beta.write_text('"""Beta, documented."""\n\nB = 2\n')
    assert notebooks._notebook_key(nb, tree) == first
    beta.write_text("B = 3\n")
    assert notebooks._notebook_key(nb, tree) != first


def test_nothing_reads_a_docstring_at_run_time():
    """`keys.code_digest` drops docstrings: true only while no figure, notebook or mlnotes
    module reads one (a figure titled from a `__doc__` would go stale)."""
    sources = [
        *(ROOT / "mlnotes").rglob("*.py"),
        *(ROOT / "scripts" / "figures").glob("*.py"),
        *(ROOT / "docs" / "notebooks").glob("*.py"),
    ]
    assert len(sources) > 15
    readers = [p.name for p in sources if re.search(r"__doc__|getdoc", p.read_text())]
    assert not readers, f"these read a docstring at run time: {readers}"


def test_the_site_config_leaves_mkdocs_jupyter_as_it_ships():
    """No private function of mkdocs-jupyter is replaced: its cache key hashes the
    notebook it renders, which is the executed copy notebooks.py writes."""
    from mkdocs.config import load_config

    original = plugin._compute_cache_key
    config = load_config(str(ROOT / "mkdocs.yml"))
    ran = []
    for name, site_plugin in config.plugins.items():
        if name.startswith("mlnotes-") and hasattr(site_plugin, "on_config"):
            site_plugin.on_config(config)
            ran.append(name)
    assert "mlnotes-assets" in ran
    assert plugin._compute_cache_key is original
    assert plugin._compute_cache_key.__module__ == "mkdocs_jupyter.plugin"
    assert not hasattr(plugin._compute_cache_key, "__wrapped__")


# the site's plugins in order, each with one option (None: it has none); tests/test_plugins_tiny.py
# checks that a misspelt option of each fails the strict build of a tiny project
SITE_PLUGINS = {
    "mlnotes-figures": "jobs",
    "mlnotes-assets": None,
    "mlnotes-notebooks": "notebook_cache",
    "mlnotes-citations": "bib_file",
    "mlnotes-cite": "authors_file",
    "mlnotes-cards": None,
    "mlnotes-equations": "package",
    "mlnotes-incremental": "global_inputs",
    "mlnotes-typeset": "cache",
    "mlnotes-problems": None,
}


def test_the_site_plugins_are_configured_in_order_after_the_others():
    """The build's features are plugins under `plugins:` (entry points of pyproject.toml),
    last and in the order their hooks (mkdocs.yml `hooks:`, before) ran: at one event priority, the earlier runs first."""
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    assert not config.hooks  # no `hooks:`: every feature is a plugin with its options checked
    names = list(config.plugins)
    ours = [n for n in names if n.startswith("mlnotes-")]
    assert ours == list(SITE_PLUGINS)
    others = [n for n in names if not n.startswith("mlnotes-") and n != "autorefs"]
    assert names.index(ours[0]) > max(names.index(n) for n in others)


# `make serve`'s figure builder process and its warm workers (scripts/mlnotes_site/plugins/figures.py)
# must not outlive the server: the builder ends at the end of its input (the server's pipe),
# but a process pool's worker holds both ends of its task queue, so it would wait for ever
# unless it watched for its parent (figure_builder.warm_worker).
SERVER = """
import json, sys, time
from types import SimpleNamespace
from mlnotes_site.plugins.figures import FiguresPlugin

plugin = FiguresPlugin()
assert plugin.load_config({"jobs": 1}) == ([], [])
plugin.on_startup(command="serve", dirty=True)
plugin.on_pre_build(config=SimpleNamespace(config_file_path=sys.argv[1]))
builder = plugin.builder.process.pid
with open(f"/proc/{builder}/task/{builder}/children") as f:
    children = [int(pid) for pid in f.read().split()]
print("PIDS", json.dumps([builder, *children]), flush=True)
time.sleep(600)
"""


def test_the_serves_figure_builder_and_workers_exit_when_the_server_is_killed(scratch_package):
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    script = scratch_package / "server.py"
    script.write_text(SERVER)
    server = subprocess.Popen(
        [sys.executable, str(script), str(scratch_package / "mkdocs.yml")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = next(line for line in server.stdout if line.startswith("PIDS "))
        pids = json.loads(line.removeprefix("PIDS "))
        assert len(pids) >= 2, pids  # the builder, and its worker (and its resource tracker)
        for pid in pids:
            os.kill(pid, 0)  # alive while their server is
        server.send_signal(signal.SIGKILL)  # no clean-up in the server: they must notice
        server.wait()
        deadline = time.monotonic() + 60
        alive = set(pids)
        while alive and time.monotonic() < deadline:
            for pid in list(alive):
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    alive.discard(pid)
            time.sleep(0.2)
        for pid in alive:
            os.kill(pid, signal.SIGKILL)
        assert not alive, f"the figure builder's processes {alive} outlived their killed server"
    finally:
        if server.poll() is None:
            server.kill()
