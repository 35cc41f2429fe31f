"""The change report (`make diff`, scripts/dev/diff_report.py) on a tiny project in git.

One project, committed once; each test edits the working tree, reports against HEAD and
puts the tree back. The base's record is kept per commit, so after the first report only
the working tree is built (a few seconds each). The figure's pixels are compared in
Debian's Chromium, as the report does.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import diff_report
import pytest
import tiny

pytestmark = pytest.mark.slow

INDEX = r"""# Home

The first sentence stays. The second sentence is the one an edit changes.

$$
\begin{equation} a = b \label{eq:first} \end{equation}
$$

$$
\begin{equation} c = d \label{eq:second} \end{equation}
$$

By $\eqref{eq:second}$, all is well [@goodfellow2016].
"""
WORKED = """# Worked

See [the second equation](index.md#eq:second).

>>> from mlnotes.curve import value
>>> value(3)
6.0
>>> round(value(0.5), 3)
1.0

![A curve](figures/curve.svg)
"""
CURVE = '''"""A straight line."""

SCALE = 2.0


def value(x: float) -> float:
    """The line at `x`: twice `x`."""
    return SCALE * x
'''
FIGURE = '''"""The line."""

import matplotlib.pyplot as plt

from mlnotes.curve import value


def make_figure():
    fig, ax = plt.subplots(figsize=(2, 2))
    xs = [0, 1, 2, 3]
    ax.plot(xs, [value(x) for x in xs])
    return fig
'''
PLOTTING = """\
import matplotlib as mpl

BACKGROUNDS = {"light": "#ffffff", "dark": "#1e2129"}


def style(theme="light"):
    return mpl.rc_context({"axes.facecolor": BACKGROUNDS[theme], "svg.hashsalt": "tiny"})
"""
FILES = {
    "docs/index.md": INDEX,
    "docs/worked.md": WORKED,
    "docs/api.md": "# API\n\n::: mlnotes.curve\n",
    "docs/references.bib": tiny.BIB,
    "mlnotes/__init__.py": '"""A tiny package."""\n',
    "mlnotes/plotting.py": PLOTTING,
    "mlnotes/curve.py": CURVE,
    "scripts/figures/curve.py": FIGURE,
    ".gitignore": "/site/\n.cache/\ndocs/figures/\n/diff-report/\n__pycache__/\n",
}
PLUGINS = [
    {"mlnotes-figures": {"jobs": 1}},
    "mlnotes-citations",
    "mlnotes-equations",
    {"mkdocstrings": {"handlers": {"python": {"paths": ["."]}}}},
]


def _git(tree: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=tree,
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.delenv("MLNOTES_FIGURE_CACHE", raising=False)  # the project's own figure cache
    mp.setenv("PYTHONPATH", tiny.pythonpath())  # this tree's build code (mlnotes_site)
    tree = tiny.project(tmp_path_factory.mktemp("tiny-diff"), FILES, plugins=PLUGINS)
    _git(tree, "init", "-q", "-b", "main")
    _git(tree, "add", ".")
    _git(tree, "commit", "-q", "-m", "tiny")
    yield tree
    mp.undo()


def report(tree: Path, edits: dict[str, str]) -> dict:
    """The report of the working tree with `edits` against HEAD; the tree put back after."""
    for rel, text in edits.items():
        (tree / rel).write_text(text, encoding="utf-8")
    try:
        assert diff_report.main(["--base", "HEAD", "--root", str(tree)]) == 0
    finally:
        _git(tree, "checkout", "-q", "--", ".")
    return json.loads((tree / "diff-report" / "report.json").read_text(encoding="utf-8"))


def test_an_unchanged_tree_gives_an_empty_report_that_says_so(project):
    got = report(project, {})
    assert diff_report.is_empty(got)
    summary = (project / "diff-report" / "summary.md").read_text(encoding="utf-8")
    assert "No change a reader would see" in summary
    assert "No change a reader would see" in (project / "diff-report" / "index.html").read_text()
    assert (project / "diff-report" / "site" / "worked" / "index.html").is_file()  # the preview


def test_a_one_sentence_edit_lists_that_page_only(project):
    got = report(project, {"docs/index.md": INDEX.replace("an edit changes", "was edited")})
    assert [p["page"] for p in got["pages"]] == ["index.md"]
    [hunk] = got["pages"][0]["hunks"]
    assert ["-", "an edit changes."] in hunk and ["+", "was edited."] in hunk
    assert got["figures"]["redrawn"] == [] and got["numbers"]["changed"] == []
    assert got["equations"] == {"labels": [], "citing": []}
    assert got["citations"] == [] and got["api"] == {"added": [], "removed": [], "changed": []}


def test_a_changed_constant_lists_the_numbers_it_moves_and_the_figure_it_redraws(project):
    got = report(project, {"mlnotes/curve.py": CURVE.replace("SCALE = 2.0", "SCALE = 3.0")})
    moved = [(c["page"], c["source"], c["before"], c["after"]) for c in got["numbers"]["changed"]]
    assert moved == [
        ("worked.md", "value(3)\n", "6.0\n", "9.0\n"),
        ("worked.md", "round(value(0.5), 3)\n", "1.0\n", "1.5\n"),
    ]
    [figure] = got["figures"]["redrawn"]
    assert figure["name"] == "curve" and figure["pages"] == ["worked.md"]
    assert figure["pixels"] > 0
    for what in ("before", "after", "difference"):
        assert (project / "diff-report" / "figures" / f"curve-{what}.png").is_file()
    summary = (project / "diff-report" / "summary.md").read_text(encoding="utf-8")
    assert "**curve** redrawn" in summary and "`9.0`" in summary


def test_an_equation_inserted_at_the_top_lists_the_renumbered_labels_and_citing_pages(project):
    new = "# Home\n\n$$\n\\begin{equation} z = 0 \\label{eq:new} \\end{equation}\n$$\n"
    got = report(project, {"docs/index.md": INDEX.replace("# Home\n", new, 1)})
    labels = [(c["page"], c["label"], c["before"], c["after"]) for c in got["equations"]["labels"]]
    assert labels == [
        ("index.md", "eq:new", None, 1),
        ("index.md", "eq:first", 1, 2),
        ("index.md", "eq:second", 2, 3),
    ]
    assert got["equations"]["citing"] == [
        {"page": "index.md", "labels": ["index.md#eq:second"]},
        {"page": "worked.md", "labels": ["index.md#eq:second"]},
    ]
    assert got["figures"]["redrawn"] == [] and got["numbers"]["changed"] == []


def test_a_docstring_only_edit_lists_no_figure(project):
    edited = CURVE.replace("The line at `x`: twice `x`.", "The line through 0 at `x`.")
    got = report(project, {"mlnotes/curve.py": edited})
    assert got["figures"] == {"redrawn": [], "same_pixels": [], "added": [], "removed": []}
    assert got["numbers"]["changed"] == []
    assert [p["page"] for p in got["pages"]] == ["api.md"]  # the docstring is on the API page


def test_a_figure_drawn_again_to_the_same_pixels_is_not_listed(project):
    """A new hash salt in the styles: every figure's key changes and its SVG's ids with
    it (other bytes), but not one pixel: the figure is drawn again and not listed."""
    got = report(project, {"mlnotes/plotting.py": PLOTTING.replace('"tiny"', '"tiny, salted"')})
    built = json.loads((project / ".cache" / "figures" / "last-run.json").read_text())
    assert built["built"] == ["curve"]
    assert got["figures"]["same_pixels"] == ["curve"] and got["figures"]["redrawn"] == []
    assert not (project / "diff-report" / "figures").exists()
    assert "curve" not in (project / "diff-report" / "summary.md").read_text(encoding="utf-8")


def test_a_changed_signature_and_a_new_citation_are_listed(project):
    edited = CURVE.replace("def value(x: float)", "def value(x: float, y: float = 0.0)")
    page = WORKED.replace("See [", "As [@goodfellow2016] says, see [")
    got = report(project, {"mlnotes/curve.py": edited, "docs/worked.md": page})
    assert got["api"]["changed"] == [
        {
            "name": "mlnotes.curve.value",
            "before": "value(x: float) -> float",
            "after": "value(x: float, y: float = 0.0) -> float",
        }
    ]
    assert got["citations"] == [{"page": "worked.md", "added": ["goodfellow2016"], "removed": []}]


SOURCES = """# Sources

## Home

### Corrections

| where | the notes say | corrected | evidence |
|---|---|---|---|
| [the second sentence](index.md#correction-second) | "the one an edit changes" | none does | Check |
"""


def test_a_correction_recorded_on_the_sources_page_and_its_box_are_listed(project):
    box = '\n<div id="correction-second" markdown>\nCorrection: no edit changes it.\n</div>\n'
    try:
        got = report(project, {"docs/sources.md": SOURCES, "docs/index.md": INDEX + box})
    finally:
        (project / "docs" / "sources.md").unlink()
    [row] = got["corrections"]["added"]
    assert row["target"] == "index.md#correction-second" and row["section"] == "Home"
    assert row["quote"] == '"the one an edit changes"'
    assert got["corrections"]["removed"] == []
    assert got["corrections"]["boxes"] == [
        {"page": "index.md", "id": "correction-second", "status": "added"}
    ]
    assert {(p["page"], p["status"]) for p in got["pages"]} == {
        ("index.md", "changed"),
        ("sources.md", "added"),
    }


def test_the_base_worktree_never_checks_out_over_the_project(project):
    """A folder where the base's worktree was, without its own `.git` (a cache restored
    elsewhere, a half-deleted tree): git there would find the project's repository; the
    report makes a new worktree instead, and the project's edit stays."""
    where = project / ".cache" / "diff" / "stray"
    where.mkdir(parents=True)
    (where / "leftover.txt").write_text("x")
    edited = INDEX.replace("stays", "stays, edited")
    (project / "docs" / "index.md").write_text(edited, encoding="utf-8")
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=project, capture_output=True, text=True
        ).stdout.strip()
        diff_report.checkout(project, sha, where)
        assert (project / "docs" / "index.md").read_text(encoding="utf-8") == edited
        assert (where / ".git").is_file() and not (where / "leftover.txt").exists()
        assert (where / "docs" / "index.md").read_text(encoding="utf-8") == INDEX
    finally:
        _git(project, "checkout", "-q", "--", ".")
        _git(project, "worktree", "remove", "--force", str(where))


def test_the_report_never_replaces_a_folder_that_holds_no_report(project, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(SystemExit, match="holds no report"):
        diff_report.main(["--base", "HEAD", "--root", str(project), "--out", str(tmp_path)])
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_working_tree_that_does_not_build_gets_a_summary_saying_so(project):
    broken = FIGURE.replace("    return fig", "    1 / 0\n    return fig")
    (project / "scripts" / "figures" / "curve.py").write_text(broken, encoding="utf-8")
    try:
        with pytest.raises(SystemExit, match="the working tree did not build"):
            diff_report.main(["--base", "HEAD", "--root", str(project)])
    finally:
        _git(project, "checkout", "-q", "--", ".")
    summary = (project / "diff-report" / "summary.md").read_text(encoding="utf-8")
    assert "No report: the site at the working tree did not build" in summary
    assert not (project / "diff-report" / "report.json").exists()
    assert diff_report.is_empty(report(project, {}))  # the next report replaces the note
