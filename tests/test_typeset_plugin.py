"""The `mlnotes-typeset` plugin (scripts/mlnotes_site/plugins/typeset.py): each page's final
HTML gets its math typeset, the math stylesheet at the start of its article with font URLs
relative to the page, each TeX error a warning naming the page; the cache is pruned after
a build, not under `mkdocs serve`. A fake typesetter stands in for Node here (the real one:
tests/test_typeset.py; the built site: tests/browser/; tiny projects: tests/test_plugins_tiny.py)."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from mlnotes_site.plugins import typeset as typeset_plugin
from mlnotes_site.plugins.typeset import TypesetPlugin, font_url

PAGE = (
    "<html><head><title>t</title></head><body>"
    '<article class="md-content__inner md-typeset"><h1>T</h1>'
    r'<p><span class="arithmatex">\(x\)</span></p><h2 id="x-heading">X</h2>'
    r'<p><span class="arithmatex">\(\fracc{a}\)</span></p>'
    "</article></body></html>"
)
CSS = '@font-face { src: url("@mathjax/mathjax-newcm-font/chtml/woff2/a.woff2") }'


class FakeTypesetter:
    def __init__(self, node_modules, cache_dir=None):
        self.node_modules = node_modules
        self.cache_dir = cache_dir
        self.used = set()
        self.closed = self.pruned = 0

    def __call__(self, items):
        return {
            "items": [
                {
                    "html": f"<mjx-container>{i}</mjx-container>",
                    "error": "Undefined control sequence \\fracc" if "fracc" in it["tex"] else None,
                }
                for i, it in enumerate(items)
            ],
            "css": CSS,
        }

    def find(self, elements):
        # typeset.mjs's FIND, for $...$ only
        return {
            "find": [
                re.sub(r"\$([^$]+)\$", r'<span class="arithmatex">\\(\1\\)</span>', e)
                for e in elements
            ],
            "errors": [],
        }

    def close(self):
        self.closed += 1

    def prune(self):
        self.pruned += 1
        return 0


@pytest.fixture
def plugin(monkeypatch, tmp_path):
    monkeypatch.setattr(typeset_plugin, "Typesetter", FakeTypesetter)
    p = TypesetPlugin()
    errors, warnings = p.load_config({"cache": str(tmp_path / "typeset")})
    assert not errors and not warnings
    p.on_startup(command="build", dirty=False)
    config = SimpleNamespace(
        extra={}, config_file_path=str(tmp_path / "mkdocs.yml"), site_dir=str(tmp_path / "site")
    )
    p.on_config(config)
    return p, config


def page(src_uri: str, dest_uri: str):
    return SimpleNamespace(
        file=SimpleNamespace(src_uri=src_uri, dest_uri=dest_uri),
        url=dest_uri.removesuffix("index.html"),
    )


def test_font_url_is_relative_to_the_page():
    assert font_url("index.html") == "javascripts/mathjax/fonts/mathjax-newcm-font/"
    assert font_url("sources/index.html") == "../javascripts/mathjax/fonts/mathjax-newcm-font/"
    assert font_url("notes/cnn.html") == "../javascripts/mathjax/fonts/mathjax-newcm-font/"
    assert (
        font_url("blog/sinusoidal-embeddings/index.html")
        == "../../javascripts/mathjax/fonts/mathjax-newcm-font/"
    )


def test_a_page_is_typeset_with_its_stylesheet_in_the_article(plugin, caplog):
    p, config = plugin
    assert config.extra["mlnotes_typeset"] is True
    with caplog.at_level(logging.WARNING):
        out = p.on_post_page(PAGE, page=page("notes/x.md", "notes/x/index.html"), config=config)
    assert r"\(" not in out and out.count("<mjx-container>") == 2
    head, article = out.split('<article class="md-content__inner md-typeset">')
    assert "mlnotes-math-styles" not in head
    assert article.startswith('<style class="mlnotes-math-styles">')
    assert (
        'url("../../javascripts/mathjax/fonts/mathjax-newcm-font/chtml/woff2/a.woff2")' in article
    )
    # the TeX error: a warning naming the page and the expression (a strict build fails)
    [warning] = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "notes/x.md: TeX error in inline math" in warning
    assert "fracc" in warning
    assert warning.endswith("(section #x-heading)")  # the heading before it


NOTEBOOK_PAGE = (
    "<html><head><title>t</title></head><body>"
    '<nav class="md-nav md-nav--secondary"><a href="#s" class="md-nav__link">'
    '<span class="md-ellipsis">Sizes ($n = 16$)</span></a></nav>'
    '<article class="md-content__inner md-typeset"><div class="jp-Cell">'
    '<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput"><p>$x$ and $y$</p></div>'
    '<div class="jp-InputArea"><pre>$z$</pre></div>'
    "</div></article></body></html>"
)


def test_a_notebook_page_is_typeset_too(plugin):
    """A notebook page's $...$ (its markdown cells) is put in arithmatex wrappers by
    typeset.mjs (a fake here: tests/test_typeset.py has the real one), then typeset."""
    p, config = plugin
    out = p.on_post_page(
        NOTEBOOK_PAGE, page=page("notebooks/x.py", "notebooks/x/index.html"), config=config
    )
    assert out.count("<mjx-container>") == 2 and "$x$" not in out
    assert "<pre>$z$</pre>" in out  # not a notebook cell's text
    assert out.count("mlnotes-math-styles") == 1
    # its table of contents: the heading's math as text
    assert '<span class="md-ellipsis">Sizes (n = 16)</span>' in out


def test_the_search_index_gets_its_math_as_text(plugin, tmp_path):
    p, config = plugin
    p.on_post_page(
        NOTEBOOK_PAGE, page=page("notebooks/x.py", "notebooks/x/index.html"), config=config
    )
    (tmp_path / "search").mkdir()
    index = {
        "config": {},
        "docs": [
            {"location": "notebooks/x/#s", "title": "Sizes ($n = 16$)", "text": "<p>$a$</p>"},
            {"location": "notes/y/", "title": "Y", "text": r"<p>\(x^{2}\) costs $5</p>"},
        ],
    }
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(index))
    config.site_dir = str(tmp_path)
    p.on_post_build(config=config)
    docs = json.loads((tmp_path / "search" / "search_index.json").read_text())["docs"]
    assert [(d["title"], d["text"]) for d in docs] == [
        ("Sizes (n = 16)", "<p>a</p>"),
        ("Y", "<p>x^2 costs $5</p>"),  # $ is math on a notebook page only
    ]


def test_the_search_index_shows_the_pages_equation_numbers(plugin, tmp_path):
    """An `\\eqref` in the search index shows its number on its page (mlnotes-equations
    numbered every page's equations by on_post_build), and its display math reads as text."""
    p, config = plugin
    files = SimpleNamespace(
        documentation_pages=lambda: [
            SimpleNamespace(src_uri="index.md", url="./"),
            SimpleNamespace(src_uri="notes/p.md", url="notes/p/"),
        ]
    )
    p.on_files(files, config=config)
    config.plugins = {
        "mlnotes-equations": SimpleNamespace(
            page_numbers=lambda: {"notes/p.md": {"eq:bayes": 2}, "index.md": {"eq:bayes": 7}}
        )
    }
    display = r"\[\begin{equation} p(h \mid y) = x \label{eq:bayes} \end{equation}\]"
    index = {
        "docs": [
            {
                "location": "notes/p/#b",
                "title": "B",
                "text": f"{display} by \\(\\eqref{{eq:bayes}}\\)",
            },
            {"location": "", "title": "Home", "text": r"see \(\eqref{eq:bayes}\)"},
            {"location": "other/", "title": "O", "text": r"see \(\eqref{eq:bayes}\)"},
        ]
    }
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(index))
    config.site_dir = str(tmp_path)
    p.on_post_build(config=config)
    docs = json.loads((tmp_path / "search" / "search_index.json").read_text())["docs"]
    assert [d["text"] for d in docs] == [
        "p(h | y) = x by (2)",
        "see (7)",
        "see (eq.)",  # a page mlnotes-equations did not number
    ]


def test_a_page_without_math_is_unchanged(plugin):
    p, config = plugin
    html = "<html><head></head><body><article class='x'>no math</article></body></html>"
    assert p.on_post_page(html, page=page("a.md", "a/index.html"), config=config) == html


def test_disabled_typesets_nothing_and_tells_the_template(plugin, tmp_path):
    p = TypesetPlugin()
    p.load_config({"enabled": False})
    config = SimpleNamespace(extra={}, config_file_path=str(tmp_path / "mkdocs.yml"))
    p.on_config(config)
    assert config.extra["mlnotes_typeset"] is False
    assert (
        p.on_post_page(PAGE, page=page("notes/x.md", "notes/x/index.html"), config=config) == PAGE
    )


def test_options_are_validated():
    errors, _ = TypesetPlugin().load_config({"enabled": "yes please"})
    assert errors
    _, warnings = TypesetPlugin().load_config({"cahce": ".cache/typeset"})
    assert [name for name, _ in warnings] == ["cahce"]  # a warning: the strict build fails


def test_a_build_closes_and_prunes_a_serve_keeps_the_process(plugin):
    p, config = plugin
    p.on_post_build(config=config)
    assert (p.typesetter.closed, p.typesetter.pruned) == (1, 1)
    p.on_startup(command="serve", dirty=True)
    p.on_post_build(config=config)
    assert (p.typesetter.closed, p.typesetter.pruned) == (1, 1)
    p.on_shutdown()
    assert p.typesetter.closed == 2


def test_a_broken_expression_fails_the_strict_build_naming_the_page(tmp_path):
    """With only mlnotes-typeset (real MathJax in Node): the good page is typeset, the
    broken one fails the strict build with its name and expression."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nFine: $a^2$.\n")
    (tmp_path / "docs" / "broken.md").write_text("# Broken\n\nA slip: $\\fracc{a}{b}$.\n")
    config = textwrap.dedent("""\
        site_name: t
        markdown_extensions:
          - pymdownx.arithmatex:
              generic: true
        plugins:
          - mlnotes-typeset
        """)
    (tmp_path / "mkdocs.yml").write_text(config)
    # the project's MathJax (npm ci): this repository's
    (tmp_path / "node_modules").symlink_to(Path(__file__).resolve().parent.parent / "node_modules")
    build = [sys.executable, "-m", "mkdocs", "build", "-d", str(tmp_path / "site")]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [*build, "--strict"], cwd=tmp_path, capture_output=True, text=True, env=env
    )
    assert result.returncode != 0
    assert (
        "broken.md: TeX error in inline math '\\\\fracc{a}{b}': Undefined control sequence \\fracc"
        in result.stderr
    ), result.stderr[-3000:]
    assert "index.md: TeX error" not in result.stderr
    # not strict: the site is written, its math typeset, the cache under the project
    (tmp_path / "docs" / "broken.md").unlink()
    result = subprocess.run(build, cwd=tmp_path, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "<mjx-container" in html and r"\(a^2\)" not in html
    assert 'class="mlnotes-math-styles"' in html
    assert list((tmp_path / ".cache" / "typeset").glob("*.json.gz"))
