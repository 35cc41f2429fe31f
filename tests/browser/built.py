"""The built site's files, read without a browser."""

from __future__ import annotations

import functools
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlparse


def html_of(site, path: str) -> str:
    return (site.path / path / "index.html").read_text(encoding="utf-8")


def parsed(file: Path):
    """A built HTML file, parsed (html.parser) once per test process: the site's pages are
    read by many tests, each parse of the long ones taking a quarter second. Every caller
    gets the same tree, so none may change it."""
    return _parsed(Path(file).resolve())


@functools.cache
def _parsed(file: Path):
    from bs4 import BeautifulSoup

    return BeautifulSoup(file.read_text(encoding="utf-8"), "html.parser")


def text_without(element, selector: str) -> str:
    """`element`'s text, without that of its descendants that match the CSS `selector`
    (a heading's permalink): the shared parsed tree stays as it is."""
    skip = set(map(id, element.select(selector)))
    return "".join(
        s for s in element.find_all(string=True) if not any(id(p) in skip for p in s.parents)
    )


def content_of(site, path: str):
    """The main content of a built page, parsed: Material's `.md-content`."""
    soup = parsed(site.path / path / "index.html")
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
