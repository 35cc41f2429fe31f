"""Material for MkDocs' parts without a public API that the site's build uses.

- `search_entries` / `set_search_entries` (`make serve`'s incremental builds): the search
  plugin indexes the pages it renders into `search_index.entries` (a list, one entry a
  section) and, under `mkdocs serve`, merges them into the last build's index
  (`search_index_prev`) when it writes it;
- `blog_dir`: the blog plugin's folder (its public `blog_dir` option);
- `stage_card_fonts` / `check_card_fonts` (mlnotes-cards): the social plugin draws a card's
  text with the font files it finds in `<cache_dir>/fonts/<family>/<style>.ttf`, and
  downloads the family when that folder is missing (`SocialPlugin._resolve_font`);
  mlnotes-cards puts a font from a package there and checks the plugin resolves to it;
- `card_path`: where the social plugin writes a page's card (`SocialPlugin._generate`'s
  naming, under its `cards_dir`); tests/test_cards.py checks it against every built page.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

from mlnotes_site.upstream.check import Checker, installed

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


def card_font(cache_dir: Path, family: str, style: str) -> Path:
    """Where the social plugin (cache folder `cache_dir`) looks for `family` in `style`."""
    return Path(cache_dir) / "fonts" / family / f"{style}.ttf"


def stage_card_fonts(cache_dir: Path, family: str, styles: dict[str, Path]) -> None:
    """Copy each font file of `styles` (style name -> file) where the plugin looks for it;
    a file already there with the same bytes is left as it is."""
    for style, source in styles.items():
        target = card_font(cache_dir, family, style)
        data = Path(source).read_bytes()
        if not target.is_file() or target.read_bytes() != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)


def check_card_fonts(social, family: str, styles: dict[str, Path]) -> None:
    """Stop the build (PluginError) unless the social plugin `social` resolves every style of
    `styles` to the file `stage_card_fonts` put there (not to a download)."""
    resolve = getattr(social, "_resolve_font", None)
    problem = None
    if not callable(resolve):
        problem = "has no `SocialPlugin._resolve_font`"
    else:
        for style in styles:
            expected = card_font(social.config.cache_dir, family, style)
            try:
                found = resolve(family, style)
            except Exception as err:  # noqa: BLE001 - any failure means the adapter is stale
                problem = f"fails to resolve {family} {style} ({err})"
                break
            if Path(found).resolve() != expected.resolve():
                problem = f"resolves {family} {style} to {found}, not {expected}"
                break
    if problem:
        raise PluginError(
            f"mlnotes-cards: Material's social plugin ({DIST} {installed(DIST)}) {problem}: "
            f"scripts/mlnotes_site/upstream/material.py was written against {DIST}=={PIN} "
            "(pyproject.toml pins it); install that version, or update the adapter"
        )


def card_path(file, use_directory_urls: bool) -> str:
    """The path of the card of the page of `file` (a MkDocs File), under `cards_dir`."""
    suffix = "/index.html" if use_directory_urls and file.name != "index" else ".html"
    return file.dest_uri.replace(suffix, ".png")
