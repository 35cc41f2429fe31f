"""Adapters to what other packages do not offer as public API, one module per package.

Each module names the version it was written against (`PIN`, as pyproject.toml pins the
package: tests/test_incremental_upstream.py keeps them equal) and has a `check` that
`make serve` runs when it starts, so that an upgrade that renamed or removed what it uses
stops the serve at once with a message naming the attribute, the installed version and
the pinned one, instead of serving a site that differs from a clean build. Everything
else in the build uses the packages' public APIs only.

- `mkdocs`: rendering a page a `--dirty` build skipped, a page's title from its render,
  its anchors and links to other pages' anchors, the dirty-build warning's text;
- `material`: the search plugin's index entries, the blog's views, where the social plugin
  looks for a card's font and writes a card (mlnotes-cards checks those when it starts);
- `rss`: mkdocs-rss-plugin's lists of the pages in the feeds.
"""

from __future__ import annotations

from mlnotes_site.upstream import material, mkdocs, rss

ADAPTERS = (mkdocs, material, rss)
