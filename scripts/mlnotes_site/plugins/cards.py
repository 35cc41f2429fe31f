"""The `mlnotes-cards` plugin (mkdocs.yml `plugins:`): Material's social cards, drawn offline.

Material's `social` plugin draws each page's card (a 1200 x 630 PNG: the site's name, the
page's title, its author on the pages that can be cited, its description) and writes the
page's Open Graph and Twitter tags, with the card as `og:image` at the address of
`site_url`. What it draws and which tags it writes are the site's layout,
`mlnotes_site/cards/mlnotes.yml` (mkdocs.yml: `cards_layout: mlnotes`). This plugin sets
the social plugin up, before its own on_config:

- the font: DejaVu Sans, Regular and Bold, the copy matplotlib ships (PyPI; the figures'
  font), put where the social plugin looks for a family before it downloads one from
  Google Fonts (the adapter `mlnotes_site.upstream.material`, checked here): the build
  fetches nothing;
- the cache, keyed on content: the social plugin keys each card on its layout and the
  values it draws (title, description, options), not on the font's bytes or its own
  version, so its cache folder is `<cache_dir>/<key>`, `key` (keys.py) over the font
  files, the layout file and the versions of Material, Pillow and CairoSVG; a change of
  any redraws every card, and the folders of other keys are removed;
- the layout's folder (package data) and its `font_family`;
- each card's title, as the page will show it, set before the page renders: the social
  plugin draws a card in a thread while its page renders, and reads the page's title
  there, which rendering changes (the Markdown title's backticks go; a notebook page's
  title is its first heading, which mkdocs-jupyter reads as it renders), so a card showed
  one or the other depending on timing;
- in the offline copy (`make offline`: Material's offline plugin enabled) no cards: no one
  shares a link to a copy on disk, and its pages would name images at `site_url`;
- after a build, the cards of pages the site no longer has are removed (`make serve` keeps
  its site folder between builds, and the social plugin leaves them).

Cards are images the page never loads (only the tags name them). Its one option is
`enabled`.
"""

from __future__ import annotations

import re
import shutil
from importlib import metadata, resources
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority

from mlnotes_site import keys, project_path
from mlnotes_site.markup import first_heading
from mlnotes_site.upstream import material

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

FAMILY = "DejaVu Sans"
# the styles the layout draws, from matplotlib's copy of DejaVu (mpl-data/fonts/ttf)
FONT_FILES = {"Regular": "DejaVuSans.ttf", "Bold": "DejaVuSans-Bold.ttf"}
LAYOUTS = resources.files("mlnotes_site") / "cards"  # package data: mlnotes.yml
LAYOUT_DEFAULT_DIR = "layouts"  # the social plugin's default `cards_layout_dir`
KEY_FOLDER = re.compile(r"[0-9a-f]{16}")
VERSIONED = ("mkdocs-material", "pillow", "cairosvg")


def card_title(page: Page) -> str | None:
    """The title the page will show, known before it renders (None: the plugin's own)."""
    if "title" in page.meta:
        return str(page.meta["title"])
    src = page.file.abs_src_path
    if src and src.endswith((".py", ".ipynb")):  # a notebook (mkdocs-jupyter): its first h1
        import jupytext

        notebook = jupytext.read(src)
        for cell in notebook.cells:
            if cell.cell_type == "markdown" and (title := first_heading(cell.source)):
                return title
        return None
    return first_heading(page.markdown or "")


def card_fonts() -> dict[str, Path]:
    """The font files the cards are drawn with, by style."""
    import matplotlib

    folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    fonts = {style: folder / name for style, name in FONT_FILES.items()}
    missing = [str(p) for p in fonts.values() if not p.is_file()]
    if missing:
        raise PluginError(f"mlnotes-cards: matplotlib's DejaVu Sans is missing: {missing}")
    return fonts


def cards_key(fonts: dict[str, Path], layout: Path) -> str:
    """What a card depends on besides the values the social plugin keys it on."""
    key = keys.Key("social cards")
    for dist in VERSIONED:
        try:
            key.add(dist, metadata.version(dist))
        except metadata.PackageNotFoundError:
            key.add(dist, "not installed")
    for style, path in sorted(fonts.items()):
        key.add(f"font {style}", path.read_bytes())
    return key.add("layout", layout.read_bytes()).hexdigest()


class CardsConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Set Material's social plugin up (false: leave it as mkdocs.yml configures it)."""


class CardsPlugin(BasePlugin[CardsConfig]):
    """Gives Material's social plugin its font, a content-keyed cache and the site's layout."""

    def __init__(self):
        self.social = None  # the social plugin this build draws cards with, if any
        self.files: Files | None = None

    # before the social plugin's on_config, which reads its cache folder's manifest
    @event_priority(100)
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        social = config.plugins.get("material/social")
        self.social = None
        if not self.config.enabled or social is None or not social.config.enabled:
            return config
        offline = config.plugins.get("material/offline")
        if offline is not None and offline.config.enabled:
            social.config.enabled = False
            return config
        layout_dir = Path(str(LAYOUTS))
        if social.config.cards_layout_dir == LAYOUT_DEFAULT_DIR:
            social.config.cards_layout_dir = str(layout_dir.resolve())
        layout = Path(social.config.cards_layout_dir) / f"{social.config.cards_layout}.yml"
        if not layout.is_file():
            raise PluginError(f"mlnotes-cards: no card layout {layout}")
        fonts = card_fonts()
        base_dir = project_path(config, social.config.cache_dir)
        if KEY_FOLDER.fullmatch(base_dir.name):  # a config this plugin already set up
            base_dir = base_dir.parent
        key = cards_key(fonts, layout)[:16]
        cache = base_dir / key
        cache.mkdir(parents=True, exist_ok=True)
        for other in base_dir.iterdir():  # the cards of other keys: stale
            if other.is_dir() and other != cache and KEY_FOLDER.fullmatch(other.name):
                shutil.rmtree(other, ignore_errors=True)
        social.config.cache_dir = str(cache)
        social.config.cards_layout_options.setdefault("font_family", FAMILY)
        family = social.config.cards_layout_options["font_family"]
        material.stage_card_fonts(cache, family, fonts)
        material.check_card_fonts(social, family, fonts)
        self.social = social
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        self.files = files
        return files

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        """The card's title (`layout.title`), before the social plugin draws the card."""
        if self.social is not None:
            title = card_title(page)
            if title:
                social = page.meta.setdefault("social", {})
                social.setdefault("cards_layout_options", {}).setdefault("title", title)
        return markdown

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Remove the cards of pages this build does not have (a page deleted under
        `make serve`); the blog moves its posts after on_files, so their paths are read now."""
        if self.social is None or self.files is None:
            return
        folder = Path(config.site_dir) / self.social.config.cards_dir
        if not folder.is_dir():
            return
        kept = {
            material.card_path(f, config.use_directory_urls)
            for f in self.files.documentation_pages()
        }
        for png in folder.rglob("*.png"):
            if png.relative_to(folder).as_posix() not in kept:
                png.unlink()
