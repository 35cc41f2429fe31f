"""The content keys of code (scripts/mlnotes_site/keys.py's `code_digest`, the figure
builder's `cache_key`): a figure runs again when its code or the code it imports changes,
and only then (a docstring or comment edit re-runs nothing). The notebooks' keys are
tests/test_notebooks.py's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mlnotes_site import figure_builder, keys
from mlnotes_site.figure_builder import FigureProject

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def tree(scratch_package):
    """The scratch project of conftest (alpha imports beta; gamma stands alone), with a
    figure scripts folder."""
    (scratch_package / "scripts" / "figures").mkdir(parents=True)
    return scratch_package


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
