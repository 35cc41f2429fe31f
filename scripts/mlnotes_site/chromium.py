"""Serve a built site on localhost and drive Debian's headless Chromium: for the printer
(`make pdf`), the browser tests and the developer tools (screenshots, page benchmarks).
"""

from __future__ import annotations

import functools
import http.server
import threading
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@contextmanager
def serve(site: Path):
    """Serve `site` on a free localhost port; yield the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test and tool output readable
        pass


# The TeX left as text in the article (code and typeset math removed): math MathJax did
# not typeset. Catches $$, \( \[, $...$ (notebook cells) and TeX macros.
LEFTOVER_TEX = r"""() => {
    const article = (document.querySelector('article') || document.body).cloneNode(true);
    article.querySelectorAll('pre, code, mjx-container, mjx-assistive-mml, script, style').forEach(e => e.remove());
    const hits = article.textContent.match(/\$\$|\$[^$\n]{1,200}\$|\\\(|\\\[|\\[a-zA-Z]{2,}\{|\\(frac|sum|left|mathbf|omega|theta|lambda|sigma|mu|pi|alpha)\b/g) || [];
    return hits.slice(0, 5);
}"""


def set_scheme(page, scheme: str) -> None:
    """Switch Material's palette to `default` (light) or `slate` (dark)."""
    page.evaluate(
        """(scheme) => {
            document.body.setAttribute('data-md-color-scheme', scheme);
            const input = document.querySelector(`input[data-md-color-scheme="${scheme}"]`);
            if (input) { input.checked = true; }
        }""",
        scheme,
    )


# Whether the current page typesets its math in the browser: only a site built with
# mlnotes-typeset disabled, where overrides/main.html loads MathJax on every page. Every
# page's math, the notebook pages' too, is typeset when the site is built
# (scripts/mlnotes_site/plugins/typeset.py).
CLIENT_MATH = "() => !!document.querySelector('script[src*=\"mathjax/tex-\"]')"


# Every font the page's layout now asks for has arrived. The math fonts (MathJax's, one
# file per range of glyphs) are fetched when a glyph first needs one (on a phone, for the
# boxes it skips, when they are shown), and until a file arrives its lines have the fallback
# font's height (a CI run of test_phone measured 24 px of difference between two layouts).
FONTS_LOADED = """async () => {
    document.documentElement.getBoundingClientRect();  // lay out: ask for the fonts it needs
    await document.fonts.ready;
}"""


def wait_for_math(page, timeout: float = 20000) -> None:
    """Wait until the current page shows its math: a page typeset when the site was built
    needs only its fonts; where the browser typesets it, MathJax must have typeset it."""
    if not page.evaluate(CLIENT_MATH):
        page.evaluate(FONTS_LOADED)
        return
    page.wait_for_function(
        "() => window.MathJax && MathJax.startup && MathJax.startup.promise && window.mlnotesTypeset > 0",
        timeout=timeout,
    )
    page.evaluate("() => MathJax.startup.promise.then(() => document.fonts.ready).then(() => true)")


# After a click that navigates instantly to `path`: the page has been swapped in (its URL
# and its canonical link, which Material replaces with the content) and, where the browser
# typesets math (mlnotes-typeset disabled), MathJax has typeset it since `n` typesets
# (window.mlnotesTypeset before the click).
INSTANT_ARRIVED = """([path, n]) => location.pathname === '/' + path
    && (document.querySelector('link[rel=canonical]')?.href || '').endsWith('/' + path)
    && (!window.MathJax || (window.mlnotesTypeset || 0) > (n || 0))"""
