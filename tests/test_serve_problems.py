"""The author's mistakes under `make serve` (scripts/mlnotes_site/plugins/problems.py): the server keeps
running, each page a mistake touches says so (file or key, line, message), nothing stale
is served as current, and fixing the file brings the page back without a restart.

One `mkdocs serve --dirty` (what `make serve` runs) on a tiny project (tests/tiny.py) with
mkdocstrings, mkdocs-jupyter and seven of the site's own plugins (not meta, search, blog,
rss, offline or social, nor mlnotes-assets, -cite or -cards), mkdocs.yml's `watch:` folders (checked below),
its own `mlnotes` package, figure script, notebook, bibliography and
copy of the build code, goes through five mistakes in its files, each made and then
fixed: a figure script that raises, an unknown citation key, a broken TeX expression, a
notebook cell that raises, a syntax error in its `mlnotes`; and an edit of the build code,
which asks for a restart. What is checked is the plugins' behaviour, which needs no more
than one page of each kind (tests/test_serve.py serves the whole site). Correctness only,
never timing.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import tiny
from test_figure_blocks import SCRIPT
from test_plugins_tiny import MKDOCSTRINGS, TINY_PACKAGE

BANNER = b"mlnotes-build-problem"
WAIT = 120  # seconds for a rebuild to show (the tiny project's take a few)

# a page with a citation, an equation and a figure; the API page of the package's module
# that the figure script imports; a notebook
FILES = {
    **TINY_PACKAGE,
    "scripts/figures/x.py": SCRIPT,  # with its ALT, as a figure block needs
    "docs/index.md": "# Home\n",
    "docs/references.bib": tiny.BIB,
    "docs/notes/page.md": (
        "# Tiny notes\n\nDeep nets [@goodfellow2016].\n\n"
        "$$\n\\begin{equation} A = s^2 \\label{eq:area} \\end{equation}\n$$\n\n"
        "/// figure | x\nThe area of a square.\n///\n"
    ),
    "docs/reference/shapes.md": "# `mlnotes.shapes`\n\n::: mlnotes.shapes\n",
    "docs/notebooks/nb.py": "# %% [markdown]\n# # A notebook\n\n# %%\nprint(6 * 7)\n",
}
# the site's plugins that take part (mkdocs.yml's order), on the project's own folders
_API = copy.deepcopy(MKDOCSTRINGS)
# the package's functions have no docstrings: shown all the same, under their full names
_API["mkdocstrings"]["handlers"]["python"]["options"].update(
    show_if_no_docstring=True, show_root_heading=True, show_root_full_path=True
)
PLUGINS = [
    _API,
    {"mkdocs-jupyter": {"include": ["notebooks/*.py", "notebooks/*.ipynb"], "execute": False}},
    {"mlnotes-figures": {"jobs": 1}},
    "mlnotes-notebooks",
    {"mlnotes-citations": {"bib_file": "references.bib"}},
    "mlnotes-equations",
    "mlnotes-incremental",
    "mlnotes-typeset",
    "mlnotes-problems",
]
SETTINGS = {
    "markdown_extensions": [
        *tiny.MARKDOWN_EXTENSIONS,
        "pymdownx.superfences",
        {"pymdownx.snippets": {"base_path": ["."], "check_paths": True}},
    ],
    # as mkdocs.yml: `mkdocs serve` watches docs/ and mkdocs.yml only, unless told
    "watch": ["mlnotes", "scripts/figures", "scripts/mlnotes_site"],
    "nav": [
        {"Home": "index.md"},
        {"Notes": ["notes/page.md"]},
        {"Notebooks": ["notebooks/nb.py"]},
        {"API reference": ["reference/shapes.md"]},
    ],
}


def served_project(tmp_path, monkeypatch, files=None, **settings):
    """The tiny project (FILES and `files`, SETTINGS and `settings`) under `mkdocs serve
    --dirty`: its folder and the server."""
    # the project's figure cache in its own folder (for its builds; the server's environment
    # is bench_loop.ENV's, read at import: a developer's MLNOTES_FIGURE_CACHE reaches it,
    # harmless, the cache being keyed by content)
    monkeypatch.delitem(tiny.ENV, "MLNOTES_FIGURE_CACHE", raising=False)
    monkeypatch.delenv("MLNOTES_FIGURE_CACHE", raising=False)
    tree = tiny.project(
        tmp_path / "tree",
        {**FILES, **(files or {})},
        plugins=PLUGINS,
        node_modules=True,
        **{**SETTINGS, **settings},
    )
    return tree, tiny.serve(tree, tmp_path / "serve.log", monkeypatch, timeout=300)


def test_the_tiny_project_watches_what_the_site_watches():
    """The serve tests' project watches the folders mkdocs.yml has MkDocs watch (beside
    docs/ and mkdocs.yml): the build-code edit below reaches the serve only through
    `watch: scripts/mlnotes_site`, so the site's serve must watch it too."""
    from mkdocs.config import load_config

    site = load_config(str(tiny.ROOT / "mkdocs.yml"))
    watched = {Path(p).resolve().relative_to(tiny.ROOT).as_posix() for p in site.watch}
    assert set(SETTINGS["watch"]) <= watched, watched


def _has(*needles: bytes):
    return lambda body: all(n in body for n in needles)


def _clean(body: bytes) -> bool:
    return BANNER not in body


@pytest.mark.slow
def test_mistakes_show_in_the_served_page_and_recover(tmp_path, monkeypatch):
    tree, server = served_project(tmp_path, monkeypatch)
    try:
        server.settle(quiet=0.5, timeout=WAIT)
        page, figure = "notes/page/", "figures/x.svg"
        assert _clean(server.get(page)) and server.get(figure) is not None

        # 1. a figure script that raises: the page that shows it names the script, the
        #    line and the message; its old SVG is gone (not served as if current)
        script = tree / "scripts/figures/x.py"
        good = script.read_text(encoding="utf-8")
        script.write_text(
            good.replace(
                "def make_figure(",
                'def make_figure(*a, **k):\n    raise ValueError("loop figure mistake")\n\n\ndef _unused(',
                1,
            ),
            encoding="utf-8",
        )
        raised_at = good[: good.index("def make_figure(")].count("\n") + 2
        server.wait_for(
            page,
            _has(
                BANNER,
                b"scripts/figures/x.py",
                b"loop figure mistake",
                f"line {raised_at}".encode(),
            ),
            timeout=WAIT,
        )
        assert server.get(figure) is None
        assert server.get("") is not None  # the server is up, other pages served
        script.write_text(good, encoding="utf-8")
        server.wait_for(page, _clean, timeout=WAIT)
        assert server.get(figure) is not None
        server.settle(quiet=0.5, timeout=WAIT)

        # 2. an unknown citation key: the page names the key
        notes = tree / "docs/notes/page.md"
        text = notes.read_text(encoding="utf-8")
        notes.write_text(text + "\nA claim [@nosuchkey2099].\n", encoding="utf-8")
        server.wait_for(page, _has(BANNER, b"nosuchkey2099", b"notes/page.md"), timeout=WAIT)
        notes.write_text(text, encoding="utf-8")
        server.wait_for(page, _clean, timeout=WAIT)
        server.settle(quiet=0.5, timeout=WAIT)

        # 2b. a broken TeX expression: the page names it and the TeX error
        notes.write_text(text + "\nA slip: $\\fracc{a}{b}$.\n", encoding="utf-8")
        server.wait_for(page, _has(BANNER, b"TeX error", b"fracc", b"notes/page.md"), timeout=WAIT)
        notes.write_text(text, encoding="utf-8")
        server.wait_for(page, _clean, timeout=WAIT)
        server.settle(quiet=0.5, timeout=WAIT)

        # 3. a notebook cell that raises: the notebook's page names the file, the line of the
        #    cell and the message, shows no stale outputs, and offers no stale download
        nb_page, nb_download = "notebooks/nb/", "notebooks/nb.ipynb"
        assert b"42" in server.get(nb_page) and server.get(nb_download) is not None
        notebook = tree / "docs/notebooks/nb.py"
        source = notebook.read_text(encoding="utf-8")
        lines = source.count("\n")
        notebook.write_text(
            source + '\n# %%\nraise RuntimeError("loop notebook mistake")\n', encoding="utf-8"
        )
        server.wait_for(nb_page, _has(BANNER, b"loop notebook mistake"), timeout=WAIT)
        body = server.get(nb_page)
        assert f"docs/notebooks/nb.py:{lines + 3}: RuntimeError".encode() in body
        assert server.get(nb_download) is None
        notebook.write_text(source, encoding="utf-8")
        server.wait_for(nb_page, _clean, timeout=WAIT)
        assert server.get(nb_download) is not None
        server.settle(quiet=0.5, timeout=WAIT)

        # 4. a syntax error in the project's mlnotes: the API page names the module, the line
        #    and the error; the page whose figure imports it says so too; the server survives
        api = "reference/shapes/"
        assert b"mlnotes.shapes.area" in server.get(api)
        module = tree / "mlnotes/shapes.py"
        code = module.read_text(encoding="utf-8")
        module.write_text(code + "\ndef broken(:\n    pass\n", encoding="utf-8")
        line = code.count("\n") + 2
        # (mlnotes-equations, which reads the package, warns of it too: the `:::` line
        # names what mlnotes-problems found)
        where = f"docs/reference/shapes.md:3: ::: mlnotes.shapes: mlnotes/shapes.py:{line}"
        server.wait_for(api, _has(BANNER, f"{where}: SyntaxError".encode()), timeout=WAIT)
        server.wait_for(page, _has(BANNER, b"scripts/figures/x.py"), timeout=WAIT)
        assert server.get(figure) is None
        module.write_text(code, encoding="utf-8")
        server.wait_for(api, lambda b: _clean(b) and b"mlnotes.shapes.area" in b, timeout=WAIT)
        server.wait_for(page, _clean, timeout=WAIT)
        assert server.get(figure) is not None
        server.settle(quiet=0.5, timeout=WAIT)

        # 5. the build code itself (the project's copy): Python keeps the plugin modules it
        #    imported, so every page asks for a restart until the file is as the server loaded it
        hook = tree / "scripts/mlnotes_site/plugins/problems.py"
        original = hook.read_text(encoding="utf-8")
        hook.write_text(original + "\n# an edit\n", encoding="utf-8")
        server.wait_for(
            "",
            _has(BANNER, b"scripts/mlnotes_site/plugins/problems.py changed", b"restart"),
            timeout=WAIT,
        )
        assert b"restart" in server.get(page)
        hook.write_text(original, encoding="utf-8")
        server.wait_for("", _clean, timeout=WAIT)
        assert server.proc.poll() is None
    finally:
        server.close()
