"""`mkdocs serve --dirty` (what `make serve` runs) on a tiny project (tests/tiny.py) with the
site's plugins: after an edit of each kind of input -- a page, a folder's `.meta.yml`, a
file under docs/ that is not a page, a theme override template, a heading another page
links to (renamed, then the link fixed), the build code -- the served site equals a fresh
`mkdocs build --strict` of the same tree, which exits 0 with no warning. In between, the
serve reports what a strict build fails on: the link to the renamed heading's old anchor,
and the edited build code (which it keeps loaded: "restart `make serve`").

The tiny project has its own copy of the build code (scripts/mlnotes_site/, as the site has
it): the serve loads the plugins from that copy, so the test edits it, never this tree's.

The same check as tests/test_serve.py's on the whole site, in half a minute instead of
minutes (marked slow all the same: over 10 s).
"""

from __future__ import annotations

import json
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
    "mlnotes-notebooks",
    {"mlnotes-citations": {"bib_file": "references.bib"}},
    "mlnotes-equations",
    "mlnotes-incremental",
    "mlnotes-typeset",
    "mlnotes-problems",
]


BANNER = b"mlnotes-build-problem"
# MkDocs' warning (validation: anchors: warn) about other.md's link once page.md's heading is renamed
DEAD_ANCHOR = (
    "Doc file 'notes/other.md' contains a link 'page.md#a-section', "
    "but the doc 'notes/page.md' does not contain an anchor '#a-section'"
)
RESTART = "restart `make serve`"


def _log_since(server: bench_loop.Server, start: int) -> str:
    """What the server logged since offset `start` of its log."""
    with open(server.log.name, encoding="utf-8", errors="replace") as f:
        f.seek(start)
        return f.read()


def _log_size(server: bench_loop.Server) -> int:
    server.log.flush()
    return Path(server.log.name).stat().st_size


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
        # as mkdocs.yml: `mkdocs serve` watches no theme folder unless told, nor the build code
        watch=["overrides", "scripts/mlnotes_site"],
        validation={"anchors": "warn"},  # as mkdocs.yml: a link to a missing anchor fails
    )
    server = tiny.serve(tree, tmp_path / "serve.log", monkeypatch)
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

        # a heading another page links to, renamed: a strict build fails on the dead anchor,
        # and the serve warns the same (only page.md is re-rendered, other.md has the link)
        start = _log_size(server)
        page.write_text(page.read_text().replace("## A section", "## A renamed section"))
        server.wait_for("notes/page/", lambda b: b'id="a-renamed-section"' in b, timeout=120)
        server.settle(quiet=0.5, timeout=120)
        built = tiny.build(tree, tmp_path / "clean5")
        assert built.returncode != 0 and any(DEAD_ANCHOR in w for w in built.warnings), (
            built.stderr[-3000:]
        )
        assert DEAD_ANCHOR in _log_since(server, start)
        # an unrelated edit: the link is still dead, and the serve says so again
        start = _log_size(server)
        (tree / "docs/index.md").write_text(FILES["docs/index.md"] + "\nHome text two.\n")
        server.wait_for("", lambda b: b"Home text two." in b, timeout=120)
        server.settle(quiet=0.5, timeout=120)
        assert DEAD_ANCHOR in _log_since(server, start)
        # the link fixed (only other.md is re-rendered, page.md has the anchor)
        start = _log_size(server)
        other = tree / "docs/notes/other.md"
        other.write_text(other.read_text().replace("#a-section", "#a-renamed-section"))
        server.wait_for("notes/other/", lambda b: b"#a-renamed-section" in b, timeout=120)
        server.settle(quiet=0.5, timeout=120)
        assert "WARNING" not in _log_since(server, start)
        _compare(server, tree, tmp_path / "clean6")
        # a link to an anchor that is missing on a page not re-rendered: the serve warns too
        start = _log_size(server)
        other.write_text(other.read_text().replace("#a-renamed-section", "#no-such-section"))
        server.wait_for("notes/other/", lambda b: b"#no-such-section" in b, timeout=120)
        server.settle(quiet=0.5, timeout=120)
        assert "does not contain an anchor '#no-such-section'" in _log_since(server, start)
        other.write_text(other.read_text().replace("#no-such-section", "#a-renamed-section"))
        server.wait_for("notes/other/", lambda b: b"#a-renamed-section" in b, timeout=120)
        server.settle(quiet=0.5, timeout=120)
        _compare(server, tree, tmp_path / "clean7")

        # the build code: MkDocs keeps the plugin modules it imported, so the serve asks for a
        # restart, in the terminal and on every page, until the file is as it was
        start = _log_size(server)
        code = tree / "scripts/mlnotes_site/plugins/incremental/plugin.py"
        original = code.read_text(encoding="utf-8")
        code.write_text(original + "\n# an edit\n", encoding="utf-8")
        for url in ("", "notes/page/", "notes/other/"):
            server.wait_for(url, lambda b: BANNER in b and RESTART.encode() in b, timeout=120)
        server.settle(quiet=0.5, timeout=120)
        logged = _log_since(server, start)
        assert (
            "scripts/mlnotes_site/plugins/incremental/plugin.py changed" in logged
            and RESTART in logged
        )
        code.write_text(original, encoding="utf-8")
        for url in ("", "notes/page/", "notes/other/"):
            server.wait_for(url, lambda b: BANNER not in b, timeout=120)
        server.settle(quiet=0.5, timeout=120)
        _compare(server, tree, tmp_path / "clean8")
        assert server.proc.poll() is None
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
