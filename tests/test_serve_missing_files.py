"""`make serve` with files that do not exist (yet) (scripts/mlnotes_site/plugins/problems.py):
a new author's page, written before its figure script, its listing's snippet and its
module, and a figure script renamed while serving. The server starts and keeps serving,
every request is answered, the page's banner names each missing file with the page's file
and line, and the page recovers when the file appears. (Before, pymdownx.snippets'
SnippetMissingError or mkdocstrings' PluginError ended the serve at its first build, and
made every request of a later build wait for ever.) Correctness only, never timing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import bench_loop  # scripts/dev, on sys.path through pytest's `pythonpath` (pyproject.toml)

ROOT = Path(__file__).resolve().parent.parent
BANNER = b"mlnotes-build-problem"
WAIT = 600  # seconds for a rebuild to show (a first drawing of a figure included)

# a new page with a figure block, a snippet and an equation, and an API page of a new
# module: as CONTRIBUTING.md's "Adding a page" has an author write them
PAGE = """\
# The softmax

A new page, written first.

$$
\\begin{equation}
\\sigma(z)_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}} \\label{eq:softmax}
\\end{equation}
$$

/// figure | softmax_curve
The softmax of two inputs.
///

A listing:

```text
--8<-- "docs/notes/softmax-table.txt"
```
"""
API = "# `mlnotes.activations`\n\n::: mlnotes.activations\n"
MODULE = '''"""Activation functions."""

import numpy as np


def softmax(z: np.ndarray) -> np.ndarray:
    """The softmax of a vector.

    Args:
        z: a 1-D array.

    Returns:
        The softmax of `z`.
    """
    e = np.exp(np.asarray(z, dtype=float) - np.max(z))
    return e / e.sum()
'''


def _has(*needles: bytes):
    return lambda body: body is not None and all(n in body for n in needles)


def _clean(*needles: bytes):
    return lambda body: body is not None and BANNER not in body and all(n in body for n in needles)


@pytest.mark.slow
def test_a_new_page_before_its_files_and_a_renamed_script_keep_the_serve_up(tmp_path):
    tree = bench_loop.scratch_copy(tmp_path / "tree", ROOT, seed_figures=True)
    (tree / "docs/notes/softmax.md").write_text(PAGE, encoding="utf-8")
    (tree / "docs/reference/activations.md").write_text(API, encoding="utf-8")
    config = tree / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    text = text.replace(
        "      - notes/cnn.md\n", "      - notes/cnn.md\n      - notes/softmax.md\n"
    )
    text = text.replace(
        "      - reference/cnn.md\n", "      - reference/cnn.md\n      - reference/activations.md\n"
    )
    config.write_text(text, encoding="utf-8")
    figure_line = PAGE[: PAGE.index("/// figure")].count("\n") + 1
    table_line = PAGE[: PAGE.index('--8<-- "docs')].count("\n") + 1

    # the serve starts, and each page says what is missing, where
    server = bench_loop.Server(tree, tmp_path / "serve.log")
    try:
        server.settle()
        assert server.proc.poll() is None
        page, api = "notes/softmax/", "reference/activations/"
        body = server.get(page)
        for needle in (
            f"docs/notes/softmax.md:{figure_line}: a figure block names "
            "scripts/figures/softmax_curve.py, which does not exist",
            f"docs/notes/softmax.md:{table_line}: --8&lt;-- &#x27;docs/notes/softmax-table.txt&#x27;: no such file",
        ):
            assert needle.encode() in body, needle
        assert b"The softmax" in body and b'id="eq:softmax"' in body  # the page is there
        assert _has(BANNER, b"docs/reference/activations.md:3: ::: mlnotes.activations: no module")(
            server.get(api)
        )
        assert _clean()(server.get("notes/cnn/"))  # the other pages are as they were

        # the files appear: the pages follow, without their banners
        (tree / "docs/notes/softmax-table.txt").write_text("z  softmax(z)\n", encoding="utf-8")
        server.wait_for(page, _has(b"softmax(z)"), timeout=WAIT)
        script = tree / "scripts/figures/cnn_output_size.py"
        (tree / "scripts/figures/softmax_curve.py").write_text(
            script.read_text(encoding="utf-8"), encoding="utf-8"
        )
        (tree / "mlnotes/activations.py").write_text(MODULE, encoding="utf-8")
        server.wait_for(page, _clean(b"make_figure", b"figures/softmax_curve.svg"), timeout=WAIT)
        server.wait_for(api, _clean(b"mlnotes.activations.softmax"), timeout=WAIT)
        assert server.get("figures/softmax_curve.svg") is not None
        server.settle()

        # a figure script renamed while serving: no request waits, the page that lists it
        # says which file is missing, and renamed back the page is as before
        renamed = script.with_name("cnn_output_size_renamed.py")
        script.rename(renamed)
        server.wait_for(
            "notes/cnn/",
            _has(
                BANNER,
                b"docs/notes/cnn.md:",
                b"a figure block names scripts/figures/cnn_output_size.py, which does not exist",
            ),
            timeout=WAIT,
        )
        assert server.get("") is not None and server.get("notes/probability/") is not None
        renamed.rename(script)
        server.wait_for("notes/cnn/", _clean(b"make_figure"), timeout=WAIT)
        assert server.get("figures/cnn_output_size.svg") is not None
        assert server.proc.poll() is None
    finally:
        server.close()
