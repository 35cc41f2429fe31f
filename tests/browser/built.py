"""The built site's files, read without a browser."""

from __future__ import annotations

from html import unescape
from urllib.parse import unquote, urlparse


def html_of(site, path: str) -> str:
    return (site.path / path / "index.html").read_text(encoding="utf-8")


def content_of(site, path: str):
    """The main content of a built page, parsed: Material's `.md-content`."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html_of(site, path), "html.parser")
    return soup.select_one("div.md-content") or soup.body


def static_target_exists(site, url: str) -> bool:
    """Whether a site URL (path and #fragment) names a built page and an element on it."""
    parsed = urlparse(url)
    path = unquote(parsed.path).lstrip("/")
    file = site.path / path
    if file.is_dir() or path.endswith("/") or not path:
        file = file / "index.html"
    if not file.exists():
        return False
    if not parsed.fragment:
        return True
    fragment = unquote(parsed.fragment)
    text = unescape(file.read_text(encoding="utf-8", errors="replace"))
    return f'id="{fragment}"' in text or f'name="{fragment}"' in text
