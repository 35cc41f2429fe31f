"""The site anywhere (issue 11): at its real address, served from any host and port, from
disk, and in a feed reader.

The session build (conftest.py) says it is deployed at SITE_URL (https://example.org/mlnotes/)
and is served on a random localhost port; the offline copy is `make offline`'s build,
opened from `file://`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from email.utils import parsedate_to_datetime
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml
from conftest import ROOT, SITE_URL
from mlnotes_site.chromium import INSTANT_ARRIVED, LEFTOVER_TEX, wait_for_math

CANONICAL = re.compile(r'<link rel="canonical" href="([^"]+)"')
FEED_LINK = re.compile(r'<link rel="alternate" type="application/rss\+xml"[^>]*href="([^"]+)"')
POSTS = sorted((ROOT / "docs" / "blog" / "posts").glob("*.md"))
# mark the first visible link of the sidebar to the page at `path` (relative to the root)
MARK_LINK = """(path) => {
    document.querySelectorAll('[data-deploy-target]').forEach(e => e.removeAttribute('data-deploy-target'));
    const link = [...document.querySelectorAll('.md-sidebar--primary a.md-nav__link[href]')]
        .filter(a => new URL(a.href).pathname === '/' + path && a.getClientRects().length)[0];
    if (link) link.setAttribute('data-deploy-target', '1');
    return Boolean(link);
}"""


def _html_pages(site) -> list[Path]:
    return [
        p
        for p in sorted(site.path.rglob("*.html"))
        if p.relative_to(site.path).parts[0] not in ("assets", "javascripts")
    ]


# --------------------------------------------------------------------------------------
# At its real address
# --------------------------------------------------------------------------------------


def test_canonical_links_and_the_sitemap_name_site_url(site):
    sitemap = ET.parse(site.path / "sitemap.xml").getroot()
    locs = [
        e.text.strip() for e in sitemap.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")
    ]
    assert len(locs) >= 10 and all(loc.startswith(SITE_URL) for loc in locs), locs
    for path in site.pages():
        html = (site.path / path / "index.html").read_text(encoding="utf-8")
        assert CANONICAL.findall(html) == [SITE_URL + path], path
        assert "127.0.0.1:8000" not in html, f"{path} names the local default address"
        assert SITE_URL + path in locs, f"{path} is not in sitemap.xml"


@pytest.mark.browser
def test_instant_navigation_wherever_the_site_is_served(site, base_url, browser):
    """Served on a random port, not at SITE_URL: clicks still swap pages in, no reload."""
    assert not base_url.startswith(SITE_URL)
    page = browser.new_page()
    try:
        page.goto(base_url)
        wait_for_math(page)
        assert page.get_attribute('link[rel="canonical"]', "href") == SITE_URL
        page.evaluate("window.__notReloaded = true")
        for path in ("notes/probability/", "notes/cnn/", "blog/"):
            assert page.evaluate(MARK_LINK, path), f"{page.url}: no link to {path}"
            before = page.evaluate("window.mlnotesTypeset")
            page.click("[data-deploy-target]")
            page.wait_for_function(INSTANT_ARRIVED, arg=[path, before], timeout=20000)
            assert page.evaluate("window.__notReloaded === true"), f"{path}: a full page load"
            assert page.get_attribute('link[rel="canonical"]', "href") == SITE_URL + path
        page.go_back()
        page.wait_for_function("() => location.pathname === '/notes/cnn/'", timeout=20000)
        assert page.evaluate("window.__notReloaded === true"), "back: a full page load"
    finally:
        page.close()


# --------------------------------------------------------------------------------------
# In a feed reader
# --------------------------------------------------------------------------------------


def _front_matter(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n", 2)[1])


def test_the_feed_has_every_post_with_title_date_summary_and_link(site):
    channel = ET.parse(site.path / "feed_rss_created.xml").getroot().find("channel")
    assert channel.findtext("link") == SITE_URL
    assert channel.find("image").findtext("url").startswith(SITE_URL)
    items = {item.findtext("link"): item for item in channel.findall("item")}
    assert POSTS and len(items) == len(POSTS), sorted(items)
    for post in POSTS:
        meta = _front_matter(post)
        link = f"{SITE_URL}blog/{meta['slug']}/"
        assert link in items, f"{post.name}: no item links to {link}"
        item = items[link]
        title = re.search(r"^# (.+)$", post.read_text(encoding="utf-8"), flags=re.M).group(1)
        assert item.findtext("title") == title
        # the date of the front matter, not of a git commit: the same in any clone or copy
        assert parsedate_to_datetime(item.findtext("pubDate")).date() == meta["date"]["created"]
        assert item.findtext("description") == " ".join(meta["description"].split())
        assert (
            site.path / urlparse(link).path.removeprefix(urlparse(SITE_URL).path) / "index.html"
        ).exists()


def test_the_updated_feed_dates_posts_by_their_revision(site):
    channel = ET.parse(site.path / "feed_rss_updated.xml").getroot().find("channel")
    dates = {
        item.findtext("link"): parsedate_to_datetime(item.findtext("pubDate")).date()
        for item in channel.findall("item")
    }
    for post in POSTS:
        meta = _front_matter(post)
        assert dates[f"{SITE_URL}blog/{meta['slug']}/"] == meta["date"].get(
            "updated", meta["date"]["created"]
        )


def test_every_page_links_the_feed_from_its_head(site):
    for html in _html_pages(site):
        text = html.read_text(encoding="utf-8")
        head = text[: text.index("</head>")]
        hrefs = FEED_LINK.findall(head)
        assert hrefs, f"{html.relative_to(site.path)}: no feed link in <head>"
        for href in hrefs:
            # 404.html links from the site's root path (/mlnotes/...): it is served at any path
            prefix = urlparse(SITE_URL).path
            target = (
                site.path / href.removeprefix(prefix)
                if href.startswith(prefix)
                else html.parent / href
            )
            assert target.resolve().is_file(), f"{html.relative_to(site.path)}: {href}"


# --------------------------------------------------------------------------------------
# From disk
# --------------------------------------------------------------------------------------


def test_the_offline_copy_has_a_file_for_every_link(offline_site):
    """Pages are files (notes/cnn.html), so every local link opens a file, never a folder."""
    broken = []
    for html in _html_pages(offline_site):
        if (
            html.name == "404.html"
        ):  # links from the site's root path: a server shows it, not a disk
            continue
        for href in re.findall(r'<a [^>]*href="([^"#?]+)[^"]*"', html.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", href):
                continue
            target = (html.parent / href).resolve()
            if not target.is_file():
                broken.append(f"{html.relative_to(offline_site.path)}: {href}")
    assert not broken, "\n".join(sorted(set(broken))[:20])
    assert (offline_site.path / "search" / "search_index.js").is_file()  # search without a server


@pytest.mark.browser
def test_the_offline_copy_reads_from_disk(offline_site, browser):
    problems: list[str] = []
    page = browser.new_page()
    page.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    try:
        page.goto((offline_site.path / "index.html").as_uri())
        # click through to a note, as a reader would
        page.locator(
            '.md-sidebar--primary a.md-nav__link[href$="notes/probability.html"]'
        ).first.click()
        page.wait_for_load_state("load")
        assert page.url.endswith("/notes/probability.html"), page.url
        wait_for_math(page)
        assert page.locator("article h1").first.text_content().startswith("Probability")
        assert page.locator("article mjx-container").count() > 20
        assert page.locator("mjx-merror").count() == 0
        assert page.evaluate(LEFTOVER_TEX) == []
        figures = page.evaluate(
            """() => [...document.querySelectorAll('article figure img')]
                .filter(img => getComputedStyle(img).display !== 'none')
                .map(img => [img.getAttribute('src'), img.complete && img.naturalWidth > 0])"""
        )
        assert figures and all(ok for _, ok in figures), figures
        # search, from the index shipped as a script
        page.locator("input.md-search__input").click()
        page.keyboard.type("Monty Hall")  # key by key, as Material listens
        result = page.locator(".md-search-result__item a").first
        result.wait_for(timeout=15000)
        assert "notes/probability.html" in result.get_attribute("href")
        # a notebook's cells that scroll sideways take the keyboard's focus (reader.js)
        page.goto((offline_site.path / "notebooks" / "probability.html").as_uri())
        cells = page.evaluate(
            """() => [...document.querySelectorAll('.highlight-ipynb, .jp-OutputArea-output pre')]
                .filter(el => el.scrollWidth > el.clientWidth)
                .map(el => el.getAttribute('tabindex'))"""
        )
        assert cells and all(t == "0" for t in cells), cells
        assert not problems, problems
    finally:
        page.close()


def test_the_offline_zip_is_linked_from_the_landing_page_when_present(tmp_path, monkeypatch):
    """`make site` after `make offline`: the zip goes into the site, and into no offline copy."""
    from mkdocs.config import load_config

    from mlnotes_site.plugins import assets

    zipped = tmp_path / "mlnotes-offline.zip"
    monkeypatch.setattr(assets, "OFFLINE_ZIP", zipped)
    config = load_config(str(ROOT / "mkdocs.yml"))
    assert assets._offline_zip(config) == [] and "offline_zip" not in config.extra
    zipped.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip
    [file] = assets._offline_zip(config)
    assert (
        file.dest_uri == "mlnotes-offline.zip"
        and config.extra["offline_zip"]["url"] == "mlnotes-offline.zip"
    )
    monkeypatch.setenv("OFFLINE", "true")
    config = load_config(str(ROOT / "mkdocs.yml"))
    assert assets._offline_zip(config) == []


def test_site_url_defaults_to_the_local_address(monkeypatch):
    from mkdocs.config import load_config

    monkeypatch.delenv("SITE_URL", raising=False)
    assert load_config(str(ROOT / "mkdocs.yml")).site_url == "http://127.0.0.1:8000/"
    monkeypatch.setenv("SITE_URL", "https://someone.github.io/mlnotes/")
    assert load_config(str(ROOT / "mkdocs.yml")).site_url == "https://someone.github.io/mlnotes/"
