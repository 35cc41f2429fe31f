"""mkdocs-rss-plugin's parts without a public API that `make serve`'s incremental builds use.

The plugin lists the pages it sees rendered (`pages_to_filter`, one `PageInformation` a
page, with its source's `abs_path`) and the entries of its two feeds (`feed_created`,
`feed_updated`), and keeps those lists for the whole `mkdocs serve` process.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.plugins import BasePlugin

from mlnotes_site.upstream.check import Checker

DIST, PIN = "mkdocs-rss-plugin", "1.19.0"
FEEDS = ("feed_created", "feed_updated")


def check(rss: BasePlugin) -> None:
    """Stop the serve (PluginError) if the feed plugin lacks what this module uses."""
    checker = Checker("rss", DIST, PIN, __name__)
    models = "mkdocs_rss_plugin.models"
    checker.need(rss, "pages_to_filter", list)
    for feed in FEEDS:
        checker.need(rss, feed, object)
        # the feeds are made in the plugin's on_startup
        owner = getattr(rss, feed, None) or checker.klass(models, "RssFeedBase")
        checker.need(owner, f"{feed}.entries", list)
    page_information = checker.klass(models, "PageInformation")
    if "abs_path" not in getattr(page_information, "__dataclass_fields__", {}):
        checker.fail("PageInformation.abs_path", "a field")


def reset(rss: BasePlugin) -> None:
    """Empty the plugin's lists of pages and feed entries (kept for the whole serve)."""
    rss.pages_to_filter = []
    for feed in FEEDS:
        getattr(rss, feed).entries = []


def pages(rss: BasePlugin) -> list:
    """The pages the feeds list in this build, in the order the plugin saw them."""
    return list(rss.pages_to_filter)


def set_pages(rss: BasePlugin, entries: list) -> None:
    rss.pages_to_filter = entries


def source(entry: object) -> Path:
    """The source file of a page the feeds list."""
    return Path(entry.abs_path)
