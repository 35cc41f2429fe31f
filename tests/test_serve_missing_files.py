"""`make serve` with files that do not exist (yet) (scripts/mlnotes_site/plugins/problems.py):
a new author's page, written before its figure script, its listing's snippet and its
module, and a figure script renamed while serving. The server starts and keeps serving,
every request is answered, the page's banner names each missing file with the page's file
and line, and the page recovers when the file appears. (Before, pymdownx.snippets'
SnippetMissingError or mkdocstrings' PluginError ended the serve at its first build, and
made every request of a later build wait for ever.) Correctness only, never timing.

Served: the tiny project of tests/test_serve_problems.py (the site's plugins, its own
`mlnotes`, figure script and build code) with the new page added, with `mkdocs serve
--dirty`: what is checked is the plugins' behaviour, which needs one page of each kind,
not the whole site (tests/test_serve.py serves that).
"""

from __future__ import annotations

import copy

import pytest
from test_serve_problems import SETTINGS, served_project

BANNER = b"mlnotes-build-problem"
WAIT = 120  # seconds for a rebuild to show (the tiny project's take a few)

# a new page with a figure, the figure script's listing, a snippet and an equation, and an
# API page of a new module: as CONTRIBUTING.md's "Writing" has an author write them
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
def test_a_new_page_before_its_files_and_a_renamed_script_keep_the_serve_up(tmp_path, monkeypatch):
    figure_line = PAGE[: PAGE.index("/// figure")].count("\n") + 1
    table_line = PAGE[: PAGE.index('--8<-- "docs')].count("\n") + 1

    # the new pages, and their entries in the nav
    nav = copy.deepcopy(SETTINGS["nav"])
    nav[1]["Notes"].append("notes/softmax.md")
    nav[3]["API reference"].append("reference/activations.md")
    files = {"docs/notes/softmax.md": PAGE, "docs/reference/activations.md": API}

    # the serve starts, and each page says what is missing, where
    tree, server = served_project(tmp_path, monkeypatch, files, nav=nav)
    try:
        server.settle(quiet=0.5, timeout=WAIT)
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
        assert _clean()(server.get("notes/page/"))  # the other pages are as they were

        # the files appear: the pages follow, without their banners
        (tree / "docs/notes/softmax-table.txt").write_text("z  softmax(z)\n", encoding="utf-8")
        server.wait_for(page, _has(b"softmax(z)"), timeout=WAIT)
        script = tree / "scripts/figures/x.py"
        (tree / "scripts/figures/softmax_curve.py").write_text(
            script.read_text(encoding="utf-8"), encoding="utf-8"
        )
        (tree / "mlnotes/activations.py").write_text(MODULE, encoding="utf-8")
        server.wait_for(page, _clean(b"make_figure", b"figures/softmax_curve.svg"), timeout=WAIT)
        server.wait_for(api, _clean(b"mlnotes.activations.softmax"), timeout=WAIT)
        assert server.get("figures/softmax_curve.svg") is not None
        server.settle(quiet=0.5, timeout=WAIT)

        # a figure script renamed while serving: no request waits, the page that lists it
        # says which file is missing, and renamed back the page is as before
        renamed = script.with_name("x_renamed.py")
        script.rename(renamed)
        server.wait_for(
            "notes/page/",
            _has(
                BANNER,
                b"docs/notes/page.md:",
                b"a figure block names scripts/figures/x.py, which does not exist",
            ),
            timeout=WAIT,
        )
        assert server.get("") is not None and server.get("reference/shapes/") is not None
        renamed.rename(script)
        server.wait_for("notes/page/", _clean(b"make_figure"), timeout=WAIT)
        assert server.get("figures/x.svg") is not None
        assert server.proc.poll() is None
    finally:
        server.close()
