"""MkDocs' parts without a public API that `make serve`'s incremental builds use.

- `render`: `mkdocs.commands.build._populate_page`, to render a page that a `--dirty`
  build skipped (Material's blog plugin calls it too);
- `rendered_title` / `set_rendered_title`: `Page._title_from_render`, the title a page's
  first heading gave it, which the navigation shows;
- `anchor_links` / `anchors` (and their setters): `Page.links_to_anchors` and
  `Page.present_anchor_ids`, which `Page.validate_anchor_links` reads after the build;
- `DIRTY_WARNING`: the text of the warning MkDocs logs on every `--dirty` build;
- `hold`: MkDocs' `--dirty` build renders a page whose source is newer than its HTML.
"""

from __future__ import annotations

import inspect
import os

from mkdocs.commands import build as _build
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from mlnotes_site.upstream.check import Checker, named

DIST, PIN = "mkdocs", "1.6.1"
CHECK = Checker("MkDocs", DIST, PIN, __name__)
DIRTY_WARNING = "A 'dirty' build is being performed"


def check() -> None:
    """Stop the serve (PluginError) if MkDocs lacks what this module uses."""
    populate = getattr(_build, "_populate_page", None)
    if not callable(populate) or not {"page", "config", "files", "dirty"} <= set(
        inspect.signature(populate).parameters
    ):
        CHECK.fail("mkdocs.commands.build._populate_page", "a function")
    CHECK.need(Page, "Page._title_from_render", str)
    for name in ("links_to_anchors", "present_anchor_ids"):
        # read after the build by Page.validate_anchor_links
        if not hasattr(Page, name) or not named(Page, name):
            CHECK.fail(f"Page.{name}", "an attribute")
    if not callable(getattr(Page, "validate_anchor_links", None)):
        CHECK.fail("Page.validate_anchor_links", "a function")
    if DIRTY_WARNING not in inspect.getsource(_build):
        CHECK.fail(f'the warning "{DIRTY_WARNING}"', "a log message")


def render(page: Page, config: MkDocsConfig, files: Files) -> None:
    """Read and render a page that MkDocs' `--dirty` build skipped."""
    _build._populate_page(page, config, files, dirty=True)


def rendered_title(page: Page) -> str | None:
    """The title the page's first heading gave it at its render (None if none)."""
    return page._title_from_render


def set_rendered_title(page: Page, title: str | None) -> None:
    page._title_from_render = title


def anchor_links(page: Page) -> dict[str, dict[str, str]]:
    """`{target src_uri: {anchor: link}}`: the page's links to other pages' anchors."""
    return {target.src_uri: dict(links) for target, links in (page.links_to_anchors or {}).items()}


def set_anchor_links(page: Page, links: dict[str, dict[str, str]], files: Files) -> None:
    found = {}
    for target_uri, anchors in links.items():
        target = files.get_file_from_path(target_uri)
        if target is not None:
            found[target] = dict(anchors)
    page.links_to_anchors = found


def anchors(page: Page) -> set[str] | None:
    """The anchors the page has (that other pages may link to), None if it was not rendered."""
    return None if page.present_anchor_ids is None else set(page.present_anchor_ids)


def set_anchors(page: Page, ids: set[str] | None) -> None:
    page.present_anchor_ids = None if ids is None else set(ids)


def hold(file: File) -> None:
    """Keep a `--dirty` build from rendering `file` for being newer than its HTML: a view
    Material's blog plugin writes to a temporary file on every build (a category page)
    would otherwise be rendered without its posts' excerpts."""
    if file.abs_src_path and os.path.isfile(file.abs_src_path):
        os.utime(file.abs_src_path, (0, 0))
