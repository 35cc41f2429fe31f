"""The network guard (guard.py): the pattern Chromium matches agrees with `is_local`, and
a page's request beyond localhost is refused and recorded."""

from __future__ import annotations

import pytest

from .guard import LEAVING, is_local

URLS = {
    "http://127.0.0.1:8000/notes/cnn/": True,
    "http://127.0.0.1/": True,
    "HTTP://LOCALHOST:80/x?y#z": True,
    "http://localhost": True,
    "http://[::1]:9000/assets/x.css": True,
    "ws://localhost:35729/livereload": True,
    "data:image/png;base64,AAAA": True,
    "blob:http://127.0.0.1:8000/1234": True,
    "file:///tmp/offline/index.html": True,
    "about:blank": True,
    "https://example.org/mlnotes/": False,
    "https://cdn.jsdelivr.net/npm/mathjax@4/tex-chtml.js": False,
    "http://127.0.0.1.example.org/": False,
    "http://localhost.example.org:8000/": False,
    "http://127.0.0.2/": False,
    "http://[::2]/": False,
    "wss://example.org/socket": False,
    "ftp://localhost/file": False,
}


@pytest.mark.parametrize("url", URLS)
def test_the_pattern_chromium_matches_is_is_local(url):
    assert is_local(url) is URLS[url]
    assert bool(LEAVING.match(url)) is not URLS[url]


@pytest.mark.browser
def test_a_request_beyond_localhost_is_refused_and_recorded(browser, base_url):
    refused: list[str] = []
    page = browser.new_page(sink=refused)
    try:
        page.goto(base_url)
        page.set_content(
            f'<img id="local" src="{base_url}assets/images/favicon.png">'
            '<img id="remote" src="https://example.org/pixel.png">'
        )
        page.wait_for_load_state("load")
        loaded = page.evaluate(
            "[...document.images].map(i => [i.id, i.complete && i.naturalWidth > 0])"
        )
    finally:
        page.close()
    assert refused == ["request leaves localhost: https://example.org/pixel.png"]
    assert loaded == [["local", True], ["remote", False]]
