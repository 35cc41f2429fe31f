"""The `mlnotes-incremental` plugin: incremental rebuilds under `mkdocs serve --dirty` (`make serve`).

With `--dirty`, MkDocs re-renders only the pages whose source is newer than their HTML, so
an edit costs one page instead of the whole site. On its own that is wrong in several
ways; this plugin keeps the served site equal to a clean build of the same sources:

- `signatures`: what a page depends on besides its source re-renders it (the files it
  includes, the modules it documents, the functions that compute its equations, its
  figures' failures); a change to what every page reads, to the set of pages, or to a
  page's front matter or title renders every page (every page's navigation shows them);
- `plugin`: the events. The titles and metadata of the pages not rendered are restored
  for the navigation (if a rendered page's changed anyway, every page is rendered in the
  same build); the pages that link to an equation whose number changed are rendered too
  (mlnotes-equations says which); the links and anchors of the pages not rendered are
  kept, so MkDocs' anchor validation warns as a clean strict build fails;
- `merge`: the search index, the blog's feeds, mkdocstrings' inventory and autorefs'
  anchors get the kept entries of the pages not rendered, in a clean build's order;
- `stale`: the files of pages or assets that are gone are deleted from the served site;
- `speed`: the theme's compiled templates kept across builds; MkDocs' dirty-build warning
  (which this plugin makes moot) filtered out;
- `state`: what is kept from one build to the next, as dataclasses.

The plugin does nothing in `mkdocs build` or in `mkdocs serve` without `--dirty`. What it
asks the other mlnotes plugins goes through their methods (`peers`); what it uses of
MkDocs, Material and mkdocs-rss-plugin without a public API goes through the adapters in
`mlnotes_site.upstream`, checked when the serve starts.

Options:

    plugins:
      - mlnotes-incremental:
          enabled: true
          # inputs every page depends on besides those derived from the configuration
          # (the theme's custom_dir, this package, mlnotes-citations' bib file), relative
          # to mkdocs.yml (files or folders)
          global_inputs: []
"""

from __future__ import annotations

from mlnotes_site.plugins.incremental.plugin import IncrementalConfig, IncrementalPlugin

__all__ = ["IncrementalConfig", "IncrementalPlugin"]
