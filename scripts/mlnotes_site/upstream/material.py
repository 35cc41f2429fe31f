"""Material for MkDocs' parts without a public API that `make serve`'s incremental builds use.

- `search_entries` / `set_search_entries`: the search plugin indexes the pages it renders
  into `search_index.entries` (a list, one entry a section) and, under `mkdocs serve`,
  merges them into the last build's index (`search_index_prev`) when it writes it;
- `blog_dir`: the blog plugin's folder (its public `blog_dir` option).
"""

from __future__ import annotations

from mkdocs.plugins import BasePlugin

from mlnotes_site.upstream.check import Checker

DIST, PIN = "mkdocs-material", "9.8.2"


def check(search: BasePlugin | None, blog: BasePlugin | None) -> None:
    """Stop the serve (PluginError) if the search or blog plugin (when configured) lacks what
    this module uses."""
    if search is not None:
        checker = Checker("search", DIST, PIN, __name__)
        checker.need(search, "search_index", object)
        checker.need(search, "search_index_prev", object)
        # the index is made in the search plugin's on_config
        index = getattr(search, "search_index", None) or checker.klass(
            type(search).__module__, "SearchIndex"
        )
        checker.need(index, "search_index.entries", list)
    if blog is not None:
        Checker("blog", DIST, PIN, __name__).need(blog.config, "config.blog_dir", str)


def search_entries(search: BasePlugin) -> list:
    """The search index's entries so far in this build, in the order indexed."""
    return search.search_index.entries


def set_search_entries(search: BasePlugin, entries: list) -> None:
    """The index the search plugin writes after this build: `entries`, whole (not merged
    with the last build's)."""
    search.search_index.entries = entries
    search.search_index_prev = None


def blog_dir(blog: BasePlugin) -> str:
    """The blog's folder under docs/, with a trailing `/`."""
    return blog.config.blog_dir.strip("/") + "/"
