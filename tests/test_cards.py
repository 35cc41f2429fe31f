"""Social cards (issue 33): every page names a card in its Open Graph and Twitter tags, at
an absolute address under SITE_URL that the site has, a 1200 x 630 PNG that shows the
page's title (read back by OCR: Debian's tesseract, which `.ci/run` installs) and, on the
pages that can be cited, the author; the page never loads it; the offline copy has none.
The cards' cache is keyed on what the social plugin does not key them on (plugins/cards.py).
"""

from __future__ import annotations

import difflib
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from PIL import Image, ImageOps

from browser.built import parsed, text_without
from conftest import SITE_URL

ROOT = Path(__file__).resolve().parents[1]
# the pages whose front matter names authors and dates (plugins/cite.py): an article's card
CITABLE = {
    "blog/sinusoidal-embeddings/": ROOT / "docs/blog/posts/sinusoidal-embeddings.md",
    "notes/probability/": ROOT / "docs/notes/probability.md",
    "notes/linear-algebra/": ROOT / "docs/notes/linear-algebra.md",
    "notes/cnn/": ROOT / "docs/notes/cnn.md",
}
AUTHOR = "Giovani Tavares"


def front_matter(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n", 2)[1])


def soup(site, page: str) -> BeautifulSoup:
    """The built page, parsed once per test process (shared: never change it)."""
    return parsed(site.path / page / "index.html")


def tags(doc: BeautifulSoup) -> dict[str, str]:
    found = {}
    for meta in doc.find_all("meta"):
        key = meta.get("property") or meta.get("name")
        if key and (key.startswith(("og:", "twitter:", "article:"))):
            assert key not in found, f"{key} twice"
            found[key] = meta.get("content", "")
    return found


def page_title(doc: BeautifulSoup, page: str) -> str:
    """The page's title as its h1 shows it (the landing page: its front matter's, the site's name)."""
    if not page:
        return "mlnotes"
    return " ".join(text_without(doc.find("h1"), ".headerlink, .anchor-link").split())


def words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) >= 3]


def ocr(png: Path) -> str:
    """The text of a card's title and author area (dark text on white, enlarged: tesseract
    reads it better), by Debian's tesseract."""
    tesseract = shutil.which("tesseract")
    if not tesseract:
        pytest.fail("tesseract not found: apt-get install tesseract-ocr (.ci/run installs it)")
    image = Image.open(png).convert("L").crop((40, 140, 960, 480))
    image = ImageOps.invert(image).resize((image.width * 2, image.height * 2))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    result = subprocess.run(
        [tesseract, "stdin", "stdout", "--psm", "6"],
        input=buffer.getvalue(),
        capture_output=True,
        timeout=60,
    )
    return result.stdout.decode("utf-8", "replace")


def shows(text: str, expected: str) -> list[str]:
    """The words of `expected` that `text` does not show (OCR may misread a letter)."""
    seen = words(text)
    return [w for w in words(expected) if not difflib.get_close_matches(w, seen, 1, 0.75)]


def test_every_page_names_its_card_in_open_graph_and_twitter_tags(site):
    pages = site.pages()
    assert len(pages) >= 20
    for page in pages:
        doc = soup(site, page)
        t = tags(doc)
        title = page_title(doc, page)
        assert t.get("og:title") == (f"{title} - mlnotes" if page else "mlnotes"), page
        assert t.get("og:description"), page
        assert t.get("twitter:card") == "summary_large_image", page
        image = t.get("og:image", "")
        assert image.startswith(SITE_URL) and image.endswith(".png"), (page, image)
        assert t.get("twitter:image") == image, page
        assert (t.get("og:image:width"), t.get("og:image:height")) == ("1200", "630"), page
        png = site.path / image.removeprefix(SITE_URL)
        assert png.is_file(), (page, png)
        with Image.open(png) as im:
            assert (im.format, im.size) == ("PNG", (1200, 630)), (page, im.format, im.size)
        assert t.get("og:url") == SITE_URL + page, page
        # the title drawn on the card (mlnotes-cards sets it before the page renders)
        assert t.get("og:image:alt") == t.get("twitter:image:alt") == title, page
        # the page names the card, it never loads it
        loaded = [
            el
            for el in doc.find_all(["img", "link", "script", "source"])
            if "assets/images/social"
            in (el.get("src", "") + el.get("href", "") + el.get("srcset", ""))
        ]
        assert not loaded, (page, loaded)


def test_the_site_has_exactly_the_cards_its_pages_name(site):
    """No card without a page (mlnotes-cards removes those of deleted pages, by the social
    plugin's naming: mlnotes_site.upstream.material.card_path), none missing."""
    named = {tags(soup(site, page))["og:image"].removeprefix(SITE_URL) for page in site.pages()}
    cards = {
        p.relative_to(site.path).as_posix()
        for p in (site.path / "assets" / "images" / "social").rglob("*")
        if p.is_file()
    }
    assert cards == named


def test_the_description_is_whole(site):
    """The post's description quotes a title: the tags carry all of it (issue 33)."""
    doc = soup(site, "blog/sinusoidal-embeddings/")
    expected = " ".join(front_matter(CITABLE["blog/sinusoidal-embeddings/"])["description"].split())
    assert doc.find("meta", attrs={"name": "description"})["content"] == expected
    assert tags(doc)["og:description"] == expected
    assert '"Attention Is All You Need"' in expected


def test_an_article_has_its_dates_and_the_other_pages_are_websites(site):
    for page in site.pages():
        t = tags(soup(site, page))
        if page in CITABLE:
            date = front_matter(CITABLE[page])["date"]
            assert t["og:type"] == "article", page
            assert t["article:published_time"] == str(date["created"]), page
            assert t.get("article:modified_time") == (
                str(date["updated"]) if "updated" in date else None
            ), page
        else:
            assert t["og:type"] == "website", page
            assert "article:published_time" not in t, page


def test_each_card_shows_its_pages_title_and_the_author_of_the_notes(site):
    cards = {}
    for page in site.pages():
        doc = soup(site, page)
        title = page_title(doc, page)
        png = site.path / tags(doc)["og:image"].removeprefix(SITE_URL)
        text = ocr(png)
        missing = shows(text, title)
        assert not missing, f"{page}: the card does not show {missing} of {title!r}: {text!r}"
        by = not shows(text, AUTHOR)
        assert by == (page in CITABLE), f"{page}: author shown: {by}; OCR: {text!r}"
        cards[page] = png.read_bytes()
    assert len(set(cards.values())) == len(cards), "two pages share a card"


def test_the_readmes_card_is_the_posts_card_as_the_build_draws_it(site):
    """README.md shows the post's card from a copy in the repository (cards are drawn at
    build time, into the site): the copy has the pixels the build draws. On a failure, copy
    `<site>/assets/images/social/blog/sinusoidal-embeddings.png` to .github/readme/card.png."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](.github/readme/card.png)" in readme
    copy = Image.open(ROOT / ".github" / "readme" / "card.png")
    built = Image.open(
        site.path / "assets" / "images" / "social" / "blog" / "sinusoidal-embeddings.png"
    )
    assert copy.size == built.size == (1200, 630)
    assert copy.convert("RGBA").tobytes() == built.convert("RGBA").tobytes()


def test_the_offline_copy_has_no_cards(offline_site):
    assert not (offline_site.path / "assets" / "images" / "social").exists()
    for html in offline_site.path.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "og:image" not in text and "assets/images/social" not in text, html


# ---------------------------------------------------------------------------------------
# The cache key (no build)
# ---------------------------------------------------------------------------------------


def test_the_cards_key_follows_the_font_and_the_layout(tmp_path):
    from mlnotes_site.plugins.cards import card_fonts, cards_key

    fonts = card_fonts()
    assert set(fonts) == {"Regular", "Bold"}
    layout = tmp_path / "layout.yml"
    layout.write_text("size: {width: 1200, height: 630}\n")
    copies = {s: tmp_path / p.name for s, p in fonts.items()}
    for style, path in fonts.items():
        copies[style].write_bytes(path.read_bytes())
    key = cards_key(copies, layout)
    assert cards_key(copies, layout) == key  # deterministic
    copies["Bold"].write_bytes(copies["Bold"].read_bytes() + b"\0")
    assert cards_key(copies, layout) != key
    copies["Bold"].write_bytes(fonts["Bold"].read_bytes())
    layout.write_text("size: {width: 1200, height: 600}\n")
    assert cards_key(copies, layout) != key


def test_the_social_plugin_draws_with_the_staged_font_and_a_keyed_cache(tmp_path):
    """mlnotes-cards' on_config, on the social plugin as mkdocs.yml configures it: the
    cache folder is keyed, the font is where the plugin resolves it, nothing is fetched."""
    from mkdocs.config import load_config

    from mlnotes_site.plugins.cards import FAMILY, card_fonts
    from mlnotes_site.upstream import material

    config = load_config(str(ROOT / "mkdocs.yml"))
    social = config.plugins["material/social"]
    cards = config.plugins["mlnotes-cards"]
    social.config.cache_dir = str(tmp_path / "social")
    cards.on_config(config)
    cache = Path(social.config.cache_dir)
    assert cache.parent == tmp_path / "social" and re.fullmatch(r"[0-9a-f]{16}", cache.name)
    # on_config ran the adapter's check: the plugin resolves each style to the staged file
    for style, source in card_fonts().items():
        staged = material.card_font(cache, FAMILY, style)
        assert staged.read_bytes() == source.read_bytes()
    # a stale key's folder is removed, the current one kept
    stale = tmp_path / "social" / "0123456789abcdef"
    stale.mkdir()
    social.config.cache_dir = str(tmp_path / "social")
    cards.on_config(config)
    assert not stale.exists() and cache.is_dir()


def test_the_adapter_stops_the_build_if_the_plugin_would_look_elsewhere(tmp_path):
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    from mlnotes_site.plugins.cards import FAMILY, card_fonts
    from mlnotes_site.upstream import material

    fonts = card_fonts()
    material.stage_card_fonts(tmp_path, FAMILY, fonts)

    class Moved:  # an upgrade that keeps its fonts in another folder
        config = SimpleNamespace(cache_dir=str(tmp_path))

        def _resolve_font(self, family, style, variant=""):
            return str(tmp_path / "elsewhere" / f"{style}.ttf")

    with pytest.raises(PluginError, match="mkdocs-material"):
        material.check_card_fonts(Moved(), FAMILY, fonts)

    class Renamed:  # an upgrade without the method
        config = SimpleNamespace(cache_dir=str(tmp_path))

    with pytest.raises(PluginError, match="_resolve_font"):
        material.check_card_fonts(Renamed(), FAMILY, fonts)


def test_a_cards_title_is_the_heading_as_it_renders():
    from mlnotes_site.markup import first_heading, heading_text

    assert heading_text("# `mlnotes.cnn`: Convolutions") == "mlnotes.cnn: Convolutions"
    assert heading_text("# References {#references}") == "References"
    assert heading_text("# A *b* &amp; c") == "A b & c"
    assert first_heading("Intro.\n\n# The title\n\n# Another\n") == "The title"
    assert first_heading("## Only a section\n") is None
