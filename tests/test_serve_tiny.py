"""`mkdocs serve --dirty` (what `make serve` runs) on a tiny project (tests/tiny.py) with the
site's plugins: after an edit of each kind of input -- a page, a folder's `.meta.yml`, a
file under docs/ that is not a page, a theme override template -- the served site equals a
fresh `mkdocs build --strict` of the same tree, which exits 0 with no warning.

The same check as tests/test_serve.py's on the whole site, in half a minute instead of
minutes (marked slow all the same: over 10 s).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import bench_loop
import pytest
import tiny
from test_serve import _normalize


TEMPLATE = """\
{% extends "base.html" %}
{% block content %}
  {{ super() }}
  <p class="tiny-override">Override one</p>
{% endblock %}
"""

FILES = {
    "overrides/main.html": TEMPLATE,
    "docs/index.md": "# Home\n\nSee [the page](notes/page.md) and [the data](notes/data.txt).\n",
    "docs/references.bib": tiny.BIB,
    "docs/notes/.meta.yml": "search:\n  boost: 2\n",
    "docs/notes/page.md": (
        "# A page\n\nDeep nets [@goodfellow2016].\n\n"
        "$$\n\\begin{equation}\\label{eq:tiny} x = \\frac{a}{b} \\end{equation}\n$$\n\n"
        "## A section\n\nPage text one.\n"
    ),
    "docs/notes/other.md": "# Another page\n\nLinks to [a section](page.md#a-section).\n",
    "docs/notes/data.txt": "data one\n",
}

PLUGINS = [
    "meta",
    "search",
    "mlnotes-assets",
    {"mlnotes-apparatus": {"bib_file": "references.bib"}},
    "mlnotes-incremental",
    "mlnotes-typeset",
    "mlnotes-problems",
]


def _compare(server: bench_loop.Server, tree: Path, clean: Path) -> None:
    """The served site equals a strict build of `tree` into `clean` (which has no warning)."""
    built = tiny.build(tree, clean)
    assert built.returncode == 0, built.stderr[-3000:]
    assert built.warnings == [], built.warnings
    served_dir = server.site_dir()
    served_files = sorted(
        p.relative_to(served_dir).as_posix() for p in served_dir.rglob("*") if p.is_file()
    )
    assert served_files == built.files
    urls = (server.url.encode(), b"http://127.0.0.1:8000/")
    differ = []
    for rel in built.files:
        if rel.endswith((".html", ".xml", ".gz", ".json")):
            served = server.get(rel)  # what the browser gets (with the livereload script)
            assert served is not None, f"{rel} is not served"
        else:
            served = (served_dir / rel).read_bytes()
        if _normalize(rel, served, urls) != _normalize(rel, (clean / rel).read_bytes(), urls):
            differ.append(rel)
    assert differ == [], f"served files differ from a clean build: {differ}"


# about 30 s: the server, and a strict build after each edit (tests/tiny.py)
@pytest.mark.slow
def test_served_tiny_site_equals_a_strict_build_after_each_kind_of_edit(tmp_path, monkeypatch):
    tree = tiny.project(
        tmp_path / "tree",
        FILES,
        plugins=PLUGINS,
        theme={"name": "material", "custom_dir": "overrides"},
        watch=["overrides"],  # as mkdocs.yml: `mkdocs serve` watches no theme folder unless told,
    )
    (tree / ".venv").symlink_to(
        Path(sys.executable).parent.parent
    )  # bench_loop runs .venv/bin/mkdocs
    monkeypatch.setenv("PYTHONPATH", tiny.pythonpath())
    server = bench_loop.Server(tree, tmp_path / "serve.log", timeout=120)
    try:
        server.settle(quiet=0.5, timeout=120)
        _compare(server, tree, tmp_path / "clean0")

        # a page: its text
        page = tree / "docs/notes/page.md"
        page.write_text(page.read_text().replace("Page text one.", "Page text two."))
        server.wait_for("notes/page/", lambda b: b"Page text two." in b, timeout=120)
        server.settle(quiet=0.5, timeout=120)
        _compare(server, tree, tmp_path / "clean1")

        # a folder's .meta.yml: every page under it (the search boost in the index)
        (tree / "docs/notes/.meta.yml").write_text("search:\n  boost: 3\n")
        server.wait_for(
            "search/search_index.json",
            lambda b: any(d.get("boost") == 3 for d in json.loads(b)["docs"]),
            timeout=120,
        )
        server.settle(quiet=0.5, timeout=120)
        _compare(server, tree, tmp_path / "clean2")

        # a file under docs/ that is not a page: copied as it is
        (tree / "docs/notes/data.txt").write_text("data two\n")
        server.wait_for("notes/data.txt", lambda b: b == b"data two\n", timeout=120)
        server.settle(quiet=0.5, timeout=120)
        _compare(server, tree, tmp_path / "clean3")

        # a theme override template: every page
        (tree / "overrides/main.html").write_text(TEMPLATE.replace("Override one", "Override two"))
        server.wait_for("notes/other/", lambda b: b"Override two" in b, timeout=120)
        server.settle(quiet=0.5, timeout=120)
        _compare(server, tree, tmp_path / "clean4")
    finally:
        server.close()


def test_make_serve_watches_the_theme_overrides():
    """`mkdocs serve` watches a theme's folders only with --watch-theme (`make serve` does
    not pass it): without `watch:` listing the custom_dir, an edit of overrides/main.html
    is rebuilt only when something else changes (the serve test above, whose tiny project
    lists it the same way, timed out waiting for the template's edit without it)."""
    import yaml
    from mkdocs.utils.yaml import get_yaml_loader

    with open(tiny.ROOT / "mkdocs.yml", encoding="utf-8") as f:
        config = yaml.load(f, Loader=get_yaml_loader())
    assert config["theme"]["custom_dir"] in config["watch"]
