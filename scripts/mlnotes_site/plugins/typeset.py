"""The `mlnotes-typeset` plugin (mkdocs.yml `plugins:`): the pages' math typeset when the
site is built (scripts/mlnotes_site/typesetter.py, MathJax 4 in Node), so that reading a page
needs no math JavaScript.

It works on each page's final HTML (on_post_page), so everything before it (the search
index, the feed, mlnotes-citations' citations, mlnotes-equations' links and `data-eqrefs`,
mlnotes-incremental's records) sees the arithmatex TeX as Python-Markdown writes it.

The stylesheet a page's math needs goes at the start of the page's <article>, not in
<head>: Material's instant navigation swaps the article in with the page and drops the
<head> elements the previous page did not have. Its font URLs are relative to the page
(the font is served at javascripts/mathjax/fonts/ by mlnotes-assets).

Where Material writes a heading as text, its math becomes readable text
(mathtext.readable_math: `n = 16`, not `$n = 16$` or `\\(n = 16\\)`): the navigation's and
the table of contents' links (on_post_page) and the search index's titles and texts
(on_post_build, after the search plugin wrote it; a notebook page's $...$ too). There an
`\\eqref` shows its number on the page, from mlnotes-equations (which has numbered every
page's equations by then); in the navigation, "(eq.)".

Each TeX error is a warning naming the page, the section (the id of the heading before it:
on an API page, the function's) and the expression (a strict build fails). It is the
site's only TeX check.

One Typesetter (one Node process, started only for a page not in the cache) per build;
under `mkdocs serve` it lives as long as the server. After a build that is not a serve,
the process stops and, after a whole build (not `--dirty`), the cache files the build did
not use are deleted.

The notebook pages (mkdocs-jupyter: `$...$` in their markdown cells, no arithmatex) are
typeset too: typeset.mjs finds their math as MathJax found it in the browser, puts it in
arithmatex wrappers (typesetter.wrap_notebook_math, cached as the pages are), and the page is
then typeset as any other. No page loads MathJax, except when this plugin is disabled:
overrides/main.html then loads it on every page (`config.extra.mlnotes_typeset` tells it).

Options:

    plugins:
      - mlnotes-typeset:
          enabled: true           # false: MathJax on every page, and no TeX error reported
          cache: .cache/typeset   # one file per page's math, relative to mkdocs.yml

MathJax is the project's: the `node_modules` that Node finds from mkdocs.yml's folder.
"""

from __future__ import annotations

import bisect
import json
import posixpath
import re
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger

from mlnotes_site import node_modules, project_root
from mlnotes_site.mathtext import readable_math
from mlnotes_site.typesetter import (
    MATH,
    SITE_FONT_DIR,
    Typesetter,
    notebook_elements,
    stylesheet,
    typeset_html,
    wrap_notebook_math,
)

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

log = get_plugin_logger("typeset")

ARTICLE = re.compile(r'(<article class="md-content__inner[^"]*"[^>]*>)')


# a link of Material's navigation or table of contents, and its content
NAV_LINK = re.compile(r'(<(a|label)\b[^>]*\bclass="md-nav__link[^"]*"[^>]*>)(.*?)(</\2>)', re.S)


def readable_search_index(
    site_dir: Path,
    notebook_urls: set[str],
    numbers: dict[str, dict[str, int]] | None = None,
) -> None:
    """The search index (Material's search plugin wrote it: its on_post_build runs first)
    with its math as text: a result shows `n = 16`, not `\\(n = 16\\)` or `$n = 16$` (the
    notebook pages' $...$), and a search for `n = 16` finds it. `numbers`: each page's
    equation numbers, {page URL: {label: N}}, for its `\\eqref`s."""
    path = site_dir / "search" / "search_index.json"
    if not path.is_file():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    changed = False
    for doc in index.get("docs", []):
        url = doc.get("location", "").split("#")[0]
        dollars = url in notebook_urls
        refs = (numbers or {}).get(url)
        for field in ("title", "text"):
            if isinstance(doc.get(field), str):
                new = readable_math(doc[field], dollars=dollars, refs=refs)
                changed |= new != doc[field]
                doc[field] = new
    if changed:
        path.write_text(json.dumps(index, separators=(",", ":")), encoding="utf-8")  # as Material


def equation_numbers(config, urls: dict[str, str]) -> dict[str, dict[str, int]]:
    """Each page's equation numbers, {page URL: {label: N}}, from mlnotes-equations (it
    numbers a page's equations as the page renders: all of them by on_post_build), or {}
    without that plugin. `urls`: {src_uri: page URL}."""
    equations = (getattr(config, "plugins", None) or {}).get("mlnotes-equations")
    numbers = equations.page_numbers() if equations is not None else {}
    return {urls[src]: labels for src, labels in numbers.items() if src in urls}


HEADING = re.compile(r'<h[1-6][^>]*\sid="([^"]+)"')


def sections(page_html: str) -> list[str | None]:
    """For each arithmatex expression of the page, in order, the id of the last heading
    before it (on an API page, the function's or class's), or None."""
    headings = [(m.start(), m.group(1)) for m in HEADING.finditer(page_html)]
    starts = [start for start, _ in headings]
    found = []
    for m in MATH.finditer(page_html):
        i = bisect.bisect(starts, m.start())
        found.append(headings[i - 1][1] if i else None)
    return found


def font_url(dest_uri: str) -> str:
    """The served mathjax-newcm-font/ folder relative to the page written at `dest_uri`
    (blog/x/index.html, notes/cnn.html offline), ending in /."""
    return posixpath.relpath(SITE_FONT_DIR, posixpath.dirname(dest_uri) or ".") + "/"


class TypesetConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Typeset the pages' math at build time (false: MathJax typesets it in the browser, and
    nothing reports a TeX error: this plugin is the site's only TeX check)."""
    cache = c.Dir(default=".cache/typeset")
    """The typeset pages' math, one file per page, relative to mkdocs.yml's folder."""


class TypesetPlugin(BasePlugin[TypesetConfig]):
    """Replaces the TeX of every arithmatex wrapper by MathJax's CHTML markup."""

    def __init__(self):
        self.typesetter: Typesetter | None = None
        self.serve = False
        self.dirty = False
        self.notebook_urls: set[str] = set()  # the notebook pages, for the search index
        self.files = None  # the site's files, for the search index's equation numbers

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self.serve = command == "serve"
        self.dirty = dirty  # a --dirty build renders only some pages: keep the others' cache

    def on_shutdown(self) -> None:
        self._close()

    def _close(self) -> None:
        if self.typesetter is not None:
            self.typesetter.close()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        config.extra["mlnotes_typeset"] = self.config.enabled
        if self.config.enabled:
            cache = Path(self.config.cache)
            modules = node_modules(project_root(config))
            if (
                self.typesetter is None
                or self.typesetter.cache_dir != cache
                or self.typesetter.node_modules != modules
            ):
                self._close()
                self.typesetter = Typesetter(modules, cache_dir=cache)
            self.typesetter.used = set()
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        self.files = files  # their URLs are read after the build (the blog plugin moves posts)
        return files

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        if not self.config.enabled:
            return output
        notebook = bool(notebook_elements(output))
        if notebook:
            self.notebook_urls.add(page.url)
        # the table of contents and the navigation: math as text (Material writes the
        # headings there as text: a notebook's $n = 16$ would show as such)
        output = NAV_LINK.sub(
            lambda m: m.group(1) + readable_math(m.group(3), dollars=notebook) + m.group(4),
            output,
        )
        if notebook:  # a notebook page: its $...$ in arithmatex wrappers
            try:
                output, errors = wrap_notebook_math(output, self.typesetter.find)
            except RuntimeError as err:
                raise PluginError(f"{page.file.src_uri}: {err}") from err
            for error in errors:
                log.warning(f"{page.file.src_uri}: {error}")
        if "arithmatex" not in output:
            return output
        css = []

        def render(items):
            try:
                answer = self.typesetter(items)
            except RuntimeError as err:
                raise PluginError(f"{page.file.src_uri}: {err}") from err
            css.append(answer["css"])
            return {"items": answer["items"], "css": ""}  # the stylesheet goes in the article

        where = sections(output)
        output, errors = typeset_html(output, render)
        for error in errors:
            section = f" (section #{where[error.index]})" if where[error.index] else ""
            log.warning(f"{page.file.src_uri}: {error}{section}")
        if css:
            style = stylesheet(css[0], font_url(page.file.dest_uri))
            output, n = ARTICLE.subn(lambda m: m.group(1) + style, output, count=1)
            if not n:  # not a Material page: in the <head>
                output = output.replace("</head>", style + "</head>", 1)
        return output

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self.config.enabled:
            # as Page.url and the search index's locations: the home page's is "", not "./"
            urls = {
                f.src_uri: "" if f.url in (".", "./") else f.url
                for f in (self.files.documentation_pages() if self.files is not None else [])
            }
            numbers = equation_numbers(config, urls)
            readable_search_index(Path(config.site_dir), self.notebook_urls, numbers)
        if self.typesetter is None or self.serve:
            return
        self.typesetter.close()
        if not self.dirty:
            self.typesetter.prune()
