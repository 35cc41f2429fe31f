"""Browser smoke test: every built page, opened once in headless Chromium.

Each page is opened at a phone's width (360 px), checked there, then the window is widened
to a desktop's (1280 px) and checked again, in the same visit. A page fails on a console error, an uncaught exception, any request that leaves
localhost, a MathJax error or undefined macro, math left untypeset (raw `$$`, `\\frac`,
`\\begin`), or an image that does not load. On a phone (360 px) and a desktop, no page
scrolls sideways: long math breaks or scrolls in its own box.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from mlnotes_site.chromium import LEFTOVER_TEX, set_scheme, wait_for_math

pytestmark = pytest.mark.browser

LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]"}

BROKEN_IMAGES = """() => [...document.querySelectorAll('article img')]
    .filter(img => !(img.complete && img.naturalWidth > 0))
    .map(img => img.getAttribute('src'))"""

# Undefined macros are drawn in red by MathJax's noundefined extension.
RED_MATH = """() => [...document.querySelectorAll('mjx-container [style*="color"]')]
    .filter(e => /red|rgb\\(255, 0, 0\\)/.test(e.getAttribute('style')))
    .map(e => e.textContent).slice(0, 5)"""


def open_page(browser, url: str, viewport: dict | None = None):
    """Open `url`; return the page and the problems seen while it loaded."""
    problems: list[str] = []
    context = browser.new_context(viewport=viewport) if viewport else browser.new_context()

    def guard(route):
        host = urlparse(route.request.url).hostname or ""
        if route.request.url.startswith(("data:", "blob:")) or host in LOCAL_HOSTS:
            route.continue_()
        else:
            problems.append(f"request leaves localhost: {route.request.url}")
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.on(
        "console",
        lambda m: (
            m.type == "error"
            and problems.append(f"console error: {m.text} {m.location.get('url', '')}")
        ),
    )
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status}: {r.url}"))
    page.goto(url, wait_until="load")
    return page, problems


def check_every_page(
    browser, base_url: str, pages: list[str], check, viewport: dict | None = None
) -> dict:
    """Open each page, wait for MathJax, run `check(page, path)` (a list of problems).

    Returns {path: problems} for the pages with any, the load's problems included; a
    timeout waiting for MathJax is a problem of that page.
    """
    failures = {}
    for path in pages:
        page, problems = open_page(browser, base_url + path, viewport=viewport)
        try:
            wait_for_math(page)
            problems += mathjax_errors(page)
            problems += check(page, path)
        except Exception as exc:  # a timeout waiting for MathJax is a failure of this page
            problems.append(f"{type(exc).__name__}: {exc}")
        finally:
            page.context.close()
        if problems:
            failures[path] = problems
    return failures


def mathjax_errors(page) -> list[str]:
    """The page's MathJax errors (red boxes), as one problem line, or none."""
    merrors = page.locator("mjx-merror").count()
    return (
        [f"{merrors} MathJax errors: {page.locator('mjx-merror').first.text_content()}"]
        if merrors
        else []
    )


# The reading pages, checked in both palettes at each width.
CONTENT = [
    "blog/sinusoidal-embeddings/",
    "notes/probability/",
    "notes/linear-algebra/",
    "notes/cnn/",
    "notes/sinusoidal-embeddings-in-practice/",
]

# What makes a page wider than the window: the document's width, and the elements that
# reach past the window's right edge without a scrolling box of their own between them
# and the page (a display equation, table or code block that scrolls in its box is fine).
WIDTH = """() => {
    const scrolls = e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
        const o = getComputedStyle(a).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; } return false; };
    const sticking = [...document.querySelectorAll('article *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !scrolls(e))
        .slice(0, 3).map(e => `<${e.tagName.toLowerCase()} class="${e.className}">: ${(e.textContent || '').trim().slice(0, 40)}`);
    return {scrollWidth: document.documentElement.scrollWidth, innerWidth, sticking};
}"""


# Resolves once every running animation and transition that ends has ended (or been
# cancelled), or after 2 s: an endless one (a spinner) never finishes.
SETTLED = """() => Promise.race([
    Promise.all(document.getAnimations()
        .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
        .map(a => a.finished.catch(() => null))),
    new Promise(resolve => setTimeout(resolve, 2000)),
])"""


def smoke_problems(page) -> list[str]:
    """Undefined macros (red math), TeX left untypeset, images that did not load."""
    problems = []
    red = page.evaluate(RED_MATH)
    if red:
        problems.append(f"undefined macros (red math): {red}")
    leftover = page.evaluate(LEFTOVER_TEX)
    if leftover:
        problems.append(f"untypeset TeX in the text: {leftover}")
    broken = page.evaluate(BROKEN_IMAGES)
    if broken:
        problems.append(f"images that did not load: {broken}")
    return problems


def width_problems(page, path: str, width: int) -> list[str]:
    """The page wider than a `width` px window, in each palette (both for reading pages)."""
    problems = []
    for scheme in ("default", "slate") if path in CONTENT else ("default",):
        set_scheme(page, scheme)
        measured = page.evaluate(WIDTH)
        if measured["scrollWidth"] > measured["innerWidth"] or measured["sticking"]:
            problems.append(
                f"[{scheme}] the page is {measured['scrollWidth']} px wide in a {width} px window: "
                f"{measured['sticking']}"
            )
    set_scheme(page, "default")
    return problems


def test_every_page_in_one_visit(site, base_url, browser):
    """Every built page, opened once: its smoke checks, and no sideways scroll at a phone's
    360 px nor, the same page widened, at a desktop's 1280 px."""
    pages = site.pages()
    assert len(pages) >= 10, pages

    def check(page, path):
        problems = smoke_problems(page) + width_problems(page, path, 360)
        page.set_viewport_size({"width": 1280, "height": 800})
        # the resize's layout, then the transitions it starts (Material's search field eases
        # to its new width over a quarter second: the page is 1334 px wide meanwhile)
        page.wait_for_timeout(100)
        page.evaluate(SETTLED)
        return problems + width_problems(page, path, 1280)

    failures = check_every_page(
        browser, base_url, pages, check, viewport={"width": 360, "height": 800}
    )
    assert not failures, "\n".join(f"{p}:\n  " + "\n  ".join(v) for p, v in failures.items())
