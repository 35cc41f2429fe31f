"""Material for MkDocs' parts without a public API that the site's build uses.

- `stage_card_fonts` / `check_card_fonts`: the social plugin draws a card's text with the
  font files it finds in `<cache_dir>/fonts/<family>/<style>.ttf`, and downloads the family
  from Google Fonts when that folder is missing (`SocialPlugin._resolve_font`). mlnotes-cards
  puts a font from a package there, so the build fetches nothing, and checks that the
  plugin resolves each style the layout uses to those files.
- `card_path`: where the social plugin writes a page's card (`SocialPlugin._generate`'s
  naming, under its `cards_dir`), so that mlnotes-cards can remove the cards of pages a
  `make serve` no longer has (tests/test_cards.py checks it against every built page).
"""

from __future__ import annotations

import shutil
from importlib import metadata
from pathlib import Path

from mkdocs.exceptions import PluginError

DIST, PIN = "mkdocs-material", "9.8.1"


def _installed() -> str:
    try:
        return metadata.version(DIST)
    except metadata.PackageNotFoundError:
        return "not installed"


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
            f"mlnotes-cards: Material's social plugin ({DIST} {_installed()}) {problem}: "
            f"scripts/mlnotes_site/upstream/material.py was written against {DIST}=={PIN} "
            "(pyproject.toml pins it); install that version, or update the adapter"
        )


def card_path(file, use_directory_urls: bool) -> str:
    """The path of the card of the page of `file` (a MkDocs File), under `cards_dir`."""
    suffix = "/index.html" if use_directory_urls and file.name != "index" else ".html"
    return file.dest_uri.replace(suffix, ".png")
