"""Each upstream's state, merged: for the pages a `--dirty` build does not render, what
their last render gave, so that what the build writes is what a clean build writes.

- the search index (Material's search plugin indexes only the pages it renders): each
  page's entries are kept, and the index is written whole, in a clean build's order;
- the blog's feeds (mkdocs-rss-plugin lists the pages it sees rendered, and keeps its
  lists for the whole serve): each build starts them empty and gets the entries of the
  pages not rendered, in a clean build's order;
- mkdocstrings' objects inventory (`objects.inv`): the objects of the pages not rendered;
- mkdocs-autorefs' anchors (it starts each build empty): those the pages not rendered
  registered at their last render, registered again through its public `register_anchor`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File
from mkdocs.structure.pages import Page

from mlnotes_site.plugins.incremental.state import AnchorCall, Build, ServeState
from mlnotes_site.upstream import material, rss


# --- Material's search index -------------------------------------------------------------


def collect_search(build: Build, search: BasePlugin, page: Page) -> None:
    """The entries the search plugin added for `page` (call after it indexed the page)."""
    entries = material.search_entries(search)
    build.search[page.file.src_uri] = entries[build.search_mark :]
    build.search_mark = len(entries)


def write_search(state: ServeState, build: Build, search: BasePlugin) -> None:
    """Every page's entries, this build's or kept, in a clean build's order: the index the
    search plugin writes (call before it writes)."""
    for uri, entries in build.search.items():
        if uri in state.pages:
            state.pages[uri].search = entries
    material.set_search_entries(
        search,
        [e for uri in build.order if uri in state.pages for e in state.pages[uri].search],
    )


# --- mkdocs-rss-plugin's feeds -----------------------------------------------------------


def merge_feeds(state: ServeState, build: Build, plugin: BasePlugin, pages: Sequence[File]) -> None:
    """The feed entries of every page: this build's for the pages it rendered, the kept
    ones for the others."""
    by_path = {f.abs_src_path: f.src_uri for f in pages}
    fresh = {by_path.get(str(rss.source(entry))): entry for entry in rss.pages(plugin)}
    kept = state.feeds
    for f in pages:
        if f.src_uri in build.rendered:
            if f.src_uri in fresh:
                kept[f.src_uri] = fresh[f.src_uri]
            else:
                kept.pop(f.src_uri, None)
    for uri in set(kept) - {f.src_uri for f in pages}:
        del kept[uri]
    rss.set_pages(plugin, [kept[f.src_uri] for f in pages if f.src_uri in kept])


# --- mkdocstrings' inventory ---------------------------------------------------------------


def merge_inventory(state: ServeState, build: Build, inventory: dict, urls: Sequence[str]) -> None:
    """mkdocstrings' `inventory` (its public `handlers.inventory`, which it writes as
    objects.inv in on_env) lists the objects of the pages this build rendered: add the kept
    ones of the other pages, in a clean build's order. `urls`: every page's URL, in order."""
    fresh: dict[str, list] = {}
    for item in inventory.values():
        fresh.setdefault(item.uri.split("#", 1)[0], []).append(item)
    kept = state.inventory
    for url in urls:
        if build.full or url in build.rendered_urls:
            kept[url] = fresh.get(url, [])
    for url in set(kept) - set(urls):
        del kept[url]
    inventory.clear()
    for url in urls:
        for item in kept.get(url, []):
            inventory.setdefault(item.name, item)


# --- mkdocs-autorefs' anchors --------------------------------------------------------------


class AnchorRecorder:
    """Records each `register_anchor` call of mkdocs-autorefs' plugin by the page it names
    (its URL), so that a later build can make the calls of the pages it does not render.

    mkdocstrings makes a new autorefs plugin object for every build (when none is
    configured), so `install` wraps the method of each build's object, before any page
    renders; the wrapper calls the plugin's own method with the same arguments.
    """

    def __init__(self) -> None:
        self.calls: dict[str, list[AnchorCall]] = {}

    def install(self, autorefs: BasePlugin) -> None:
        """Record the calls of this build (forgetting the last build's)."""
        self.calls = {}
        if getattr(autorefs.register_anchor, "mlnotes_recorder", None) is self:
            return
        original = autorefs.register_anchor

        def register_anchor(
            page: Page | str,
            identifier: str,
            anchor: str | None = None,
            *,
            title: str | None = None,
            primary: bool = True,
        ) -> Any:
            url = page if isinstance(page, str) else page.url
            self.calls.setdefault(url, []).append(AnchorCall(identifier, anchor, title, primary))
            return original(page, identifier, anchor, title=title, primary=primary)

        register_anchor.mlnotes_recorder = self
        autorefs.register_anchor = register_anchor

    def merge(
        self, state: ServeState, build: Build, autorefs: BasePlugin, pages: Sequence[Page]
    ) -> None:
        """Register again the anchors of the pages this build did not render (before
        autorefs resolves the references, in its on_env), and keep every page's calls."""
        if not build.full:
            for page in pages:
                if page.url not in build.rendered_urls:
                    for call in state.anchors.get(page.url, []):
                        autorefs.register_anchor(
                            page,
                            call.identifier,
                            call.anchor,
                            title=call.title,
                            primary=call.primary,
                        )
        state.anchors = {page.url: list(self.calls.get(page.url, [])) for page in pages}
