"""The `mlnotes-assets` plugin (mkdocs.yml `plugins:`): what the pages load and link that is not a page.

What configuration can do is configured instead: the search boost of the post and the
notes is in `.meta.yml` files (Material's meta plugin), the notebook download button and
the offline download link are in overrides/main.html.

- on_config: give the feed its channel image and, offline, the iframe-worker polyfill
  (below); resolve mkdocs-jupyter's cache folder against the project. Its cache needs
  no help: it is keyed on the bytes of the notebook it renders, which is the copy
  mlnotes-notebooks executed (re-executed when the notebook or the code of an `mlnotes`
  module it imports changes).
- on_files: serve MathJax 4 and its font from `node_modules/` as `javascripts/mathjax/` (no CDN),
  `mlnotes-offline.zip` (made by `make offline`) and `mlnotes.pdf` (made by `make pdf`)
  when they exist, and in the offline build the iframe-worker shim from `node_modules/`
  (on_config names it).
- on_page_context: `in_book_pdf`, for the pages the PDF prints (overrides/main.html).
- on_page_content: on notebook pages, resolve links to Markdown sources as MkDocs does
  for pages (`../notes/cnn.md` -> `../../notes/cnn/`, or `../notes/cnn.html` offline:
  nbconvert leaves them as written), and drop nbconvert's MathJax 2 configuration.

What it serves is the project's, where `npm ci`, `make offline` and `make pdf` put it:
MathJax and the shim from the `node_modules` that Node finds from mkdocs.yml's folder, the
zip and the PDF next to mkdocs.yml. Its one option is `enabled`.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel

from mlnotes_site import node_modules, project_path, project_root

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page

# in the project's node_modules
MATHJAX = "mathjax"
# MathJax 4: tex-chtml.js plus what its loader fetches on demand, under the same root
# (`[mathjax]`): TeX extensions (autoload, \require), the menu's and the accessibility
# extensions' components, and the speech rule engine's worker and locale maps.
MATHJAX_PARTS = ("tex-chtml.js", "input", "output", "ui", "a11y", "sre")
# The font is a package of its own (@mathjax/mathjax-newcm-font, MathJax 4's default): its
# CHTML woff2 files and the glyph data MathJax loads per character range ("dynamic").
# Served as `[mathjax]/fonts/mathjax-newcm-font/chtml/`: mathjax-config.js points the
# loader's `fonts` path there (its default is the jsDelivr CDN).
MATHJAX_FONT = "@mathjax/mathjax-newcm-font"
MATHJAX_FONT_PARTS = ("chtml",)
NOTEBOOKS = "notebooks/"
# next to mkdocs.yml (relative to its folder, as `make` writes them)
OFFLINE_ZIP = Path("mlnotes-offline.zip")  # written by `make offline`
BOOK_PDF = Path("mlnotes.pdf")  # written by `make pdf` (scripts/mlnotes_site/printer.py)
# Material's offline plugin runs search on file:// through the iframe-worker shim, which it
# loads from unpkg.com unless a polyfill of that name is configured: serve npm's copy.
IFRAME_WORKER = "iframe-worker/shim/index.js"
IFRAME_WORKER_URI = "javascripts/iframe-worker/shim.js"


def _node_modules(config: MkDocsConfig) -> Path:
    return node_modules(project_root(config))


def _mathjax_files(config: MkDocsConfig) -> list[File]:
    modules = _node_modules(config)
    mathjax, font = modules / MATHJAX, modules / MATHJAX_FONT
    if not (mathjax / "tex-chtml.js").exists():
        raise PluginError(
            f"MathJax is not installed ({mathjax}/tex-chtml.js is missing): "
            "run `npm ci` in the project's folder (or any make target, which runs it)"
        )
    if not (font / "chtml").is_dir():
        raise PluginError(
            f"MathJax's font is not installed ({font}/chtml is missing): "
            "run `npm ci` in the project's folder (or any make target, which runs it)"
        )
    files = []
    for root, parts, dest in (
        (mathjax, MATHJAX_PARTS, "javascripts/mathjax"),
        (font, MATHJAX_FONT_PARTS, "javascripts/mathjax/fonts/mathjax-newcm-font"),
    ):
        for part in parts:
            src = root / part
            paths = [src] if src.is_file() else sorted(p for p in src.rglob("*") if p.is_file())
            for path in paths:
                rel = path.relative_to(root).as_posix()
                files.append(
                    File.generated(
                        config,
                        f"{dest}/{rel}",
                        abs_src_path=str(path),
                        inclusion=InclusionLevel.NOT_IN_NAV,
                    )
                )
    return files


def _offline(config: MkDocsConfig) -> bool:
    """Is this the build of `make offline` (Material's offline plugin enabled)?"""
    offline = config.plugins.get("material/offline")
    return offline is not None and bool(offline.config.enabled)


def _iframe_worker(config: MkDocsConfig) -> list[File]:
    if not _offline(config):
        return []
    shim = _node_modules(config) / IFRAME_WORKER
    if not shim.exists():
        raise PluginError(
            f"{shim} is missing: run `npm ci` in the project's folder (or any make target)"
        )
    return [File.generated(config, IFRAME_WORKER_URI, abs_src_path=str(shim))]


def _offline_zip(config: MkDocsConfig) -> list[File]:
    """The zip of `make offline`, for the landing page's link (overrides/main.html reads
    `config.extra.offline_zip`). Never put into the offline copy itself."""
    zipped = project_path(config, OFFLINE_ZIP)
    if not zipped.exists() or _offline(config):
        return []
    config.extra["offline_zip"] = {
        "url": zipped.name,
        "megabytes": round(zipped.stat().st_size / 1e6, 1),
    }
    return [
        File(
            zipped.name,
            str(zipped.parent),
            config.site_dir,
            config.use_directory_urls,
        )
    ]


def book_chapters() -> tuple[str, ...]:
    """The pages the PDF prints, as URL paths (`notes/cnn/`): printer.py's CHAPTERS."""
    from mlnotes_site.printer import CHAPTERS

    return tuple(CHAPTERS)


def page_path(dest_uri: str) -> str:
    """`notes/cnn/index.html` (or offline `notes/cnn.html`) -> `notes/cnn/`."""
    if dest_uri.endswith("index.html"):
        return dest_uri[: -len("index.html")]
    return dest_uri[: -len(".html")] + "/" if dest_uri.endswith(".html") else dest_uri


def _book_pdf(config: MkDocsConfig) -> list[File]:
    """The PDF of `make pdf`, linked from the landing page and from each page it prints
    (overrides/main.html reads `config.extra.book_pdf`)."""
    book = project_path(config, BOOK_PDF)
    if not book.exists():
        return []
    config.extra["book_pdf"] = {
        "url": book.name,
        "megabytes": round(book.stat().st_size / 1e6, 1),
        "chapters": book_chapters(),
    }
    return [
        File(
            book.name,
            str(book.parent),
            config.site_dir,
            config.use_directory_urls,
        )
    ]


# Notebook pages: nbconvert's template adds a MathJax 2 configuration block
# (<script type="text/x-mathjax-config">, calling MathJax.Hub.Config) after the
# custom_mathjax_url script. It is inert on a full page load, but Material's instant
# navigation re-runs the scripts of the page it swaps in without their `type`, so it ran
# as JavaScript and threw (MathJax 3 and 4 have no MathJax.Hub). The notebook pages' math is
# typeset when the site is built (mlnotes-typeset): drop the block.
MATHJAX2_CONFIG = re.compile(r'<script type="text/x-mathjax-config">.*?</script>', re.S)


MARKDOWN_LINK = re.compile(r'href="([^":#?]+\.md)(#[^"]*)?"')


def _resolve_page_links(html: str, page: Page, files: Files) -> str:
    def resolve(match):
        src = posixpath.normpath(
            posixpath.join(posixpath.dirname(page.file.src_uri), match.group(1))
        )
        target = files.get_file_from_path(src)
        if target is None:
            raise PluginError(
                f"{page.file.src_uri}: links to {match.group(1)}, which is not a page"
            )
        return f'href="{target.url_relative_to(page.file)}{match.group(2) or ""}"'

    return MARKDOWN_LINK.sub(resolve, html)


class AssetsConfig(base.Config):
    """An unknown option fails the strict build."""

    enabled = c.Type(bool, default=True)
    """Serve MathJax, the offline shim, the zip and the PDF (false: none of them)."""


class AssetsPlugin(BasePlugin[AssetsConfig]):
    """MathJax, the offline copy's shim, the offline zip, the PDF, the feed's image and
    the notebook pages' links."""

    @event_priority(100)  # before mkdocs-rss-plugin's on_config, which writes the channel
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        if not self.config.enabled:
            return config
        rss = config.plugins.get("rss")
        if rss is not None and not rss.config.image:
            # The feed's channel image: Material's favicon, at the site's address. Without an
            # `image:`, mkdocs-rss-plugin 1.19.0 writes <image><url>None</url>, and `image:`
            # takes an absolute URL, which mkdocs.yml cannot compose from SITE_URL.
            favicon = config.theme.get("favicon") or "assets/images/favicon.png"
            rss.config.image = urljoin(config.site_url, favicon)
        if _offline(config):  # before the offline plugin's on_config, which reads the polyfills
            config.extra["polyfills"] = [
                *config.extra.get("polyfills", []),
                IFRAME_WORKER_URI,
            ]
        jupyter = config.plugins.get("mkdocs-jupyter")
        if jupyter is not None and jupyter.config.get("cache"):
            cache_dir = Path(jupyter.config["cache_dir"])
            if not cache_dir.is_absolute():
                jupyter.config["cache_dir"] = str(project_path(config, cache_dir))
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        # `mkdocs serve` keeps the config between builds
        config.extra.pop("offline_zip", None)
        config.extra.pop("book_pdf", None)
        if not self.config.enabled:
            return files
        # the notebooks' downloads (notebooks/<name>.ipynb, executed) are notebooks.py's
        for f in _mathjax_files(config):
            files.append(f)
        for f in _iframe_worker(config) + _offline_zip(config) + _book_pdf(config):
            files.append(f)
        return files

    def on_page_context(
        self, context: dict[str, Any], *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> dict[str, Any]:
        """`in_book_pdf`: the page is one the PDF prints (overrides/main.html links the PDF).
        Read from the page's destination here, not in on_files: the blog plugin moves its
        posts (blog/posts/x.md -> blog/x/) after on_files."""
        book = config.extra.get("book_pdf")
        context["in_book_pdf"] = bool(book) and page_path(page.file.dest_uri) in book["chapters"]
        return context

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        if self.config.enabled and page.file.src_uri.startswith(NOTEBOOKS):
            html = _resolve_page_links(html, page, files)
            return MATHJAX2_CONFIG.sub("", html)
        return html
