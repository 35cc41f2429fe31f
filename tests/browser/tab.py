"""A reader's tab on the site, and the checks of what the math on a page looks like."""

from __future__ import annotations

import re

from mlnotes_site.chromium import LEFTOVER_TEX, wait_for_math

DESKTOP = {"width": 1280, "height": 900}


class Reader:
    """A browser tab on the site that records what a reader should never see: console
    errors, uncaught exceptions, HTTP errors and requests that leave localhost."""

    def __init__(self, browser, base_url: str, **context_options):
        self.base = base_url
        self.problems: list[str] = []
        self.console: list[str] = []
        context_options.setdefault("viewport", DESKTOP)
        self.context = browser.new_context(sink=self.problems, **context_options)
        self.page = self.context.new_page()
        watch(self.page, self.problems, self.console)

    def open(self, path: str):
        self.page.goto(self.base + path, wait_until="load")
        wait_for_math(self.page)
        return self.page

    def close(self):
        self.context.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def watch(page, problems: list[str], console: list[str]) -> None:
    """Record the page's console messages in `console`, and its console errors, uncaught
    exceptions and HTTP errors in `problems`."""

    def on_console(message):
        console.append(f"{message.type}: {message.text}")
        if message.type == "error":
            where = message.location.get("url", "")
            problems.append(f"console error: {message.text}" + (f" {where}" if where else ""))

    page.on("console", on_console)
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status}: {r.url}"))


def scheme_of(page) -> str:
    return page.evaluate("document.body.getAttribute('data-md-color-scheme')")


def toggle_palette(page) -> str:
    """Click Material's palette toggle (the visible label) and return the new scheme."""
    before = scheme_of(page)
    page.locator("form[data-md-component=palette] label[for^='__palette_']:visible").click()
    page.wait_for_function(
        "s => document.body.getAttribute('data-md-color-scheme') !== s", arg=before
    )
    page.wait_for_timeout(100)
    return scheme_of(page)


# Resolves once every running animation and transition that ends has ended (or been
# cancelled), or after 2 s: an endless one (a spinner) never finishes.
ANIMATIONS_SETTLED = """() => Promise.race([
    Promise.all(document.getAnimations()
        .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
        .map(a => a.finished.catch(() => null))),
    new Promise(resolve => setTimeout(resolve, 2000)),
])"""


# The characters of typeset math: CHTML (MathJax 4) draws each glyph as an
# <mjx-c class="mjx-cXXXX"> (XXXX its code point) holding the character, in the font that
# MathJax's stylesheet gives it (MathJax 3 drew it as CSS ::before content).
GLYPHS_JS = """
window.__mathText = el => [...el.querySelectorAll('mjx-c')].map(c => {
    const k = [...c.classList].find(k => /^mjx-c[0-9A-F]+$/.test(k));
    return k ? String.fromCodePoint(parseInt(k.slice(5), 16)) : '?';
}).join('');
"""

# What the math of the current page looks like: errors, equation numbers in order,
# \\eqref links and whether they have a target, glyphs drawn without CSS (blank).
MATH_STATE = (
    GLYPHS_JS
    + """
(() => {
    const root = document.querySelector('article') || document.body;
    // the numbers shown: an equation typeset at build time that is wider than a phone's
    // column also has a line-broken rendering, and only one of the two is displayed
    const labels = [...root.querySelectorAll('mjx-container[display="true"]')]
        .filter(c => c.checkVisibility({visibilityProperty: true}))
        .flatMap(c => [...c.querySelectorAll('mjx-labels mjx-mtd')]);
    const refs = [...root.querySelectorAll('mjx-container a[href*="#mjx-eqn"]')];
    const glyphs = [...root.querySelectorAll('mjx-container mjx-c')];
    // invisible operators (function application, invisible times, ...) have no glyph
    const invisible = /^mjx-c(20[6][0-4]|200[B-D])$/;
    // a glyph drawn blank or in the page's font: MathJax's CSS for it is missing
    const blank = glyphs.filter(c => ![...c.classList].some(k => invisible.test(k))).filter(c => {
        const content = getComputedStyle(c, '::before').content;
        const drawn = c.textContent !== '' || !(!content || content === 'none' || content === 'normal' || content === '""');
        return !drawn || !/MJX-/.test(getComputedStyle(c).fontFamily);
    });
    return {
        containers: root.querySelectorAll('mjx-container').length,
        displays: root.querySelectorAll('mjx-container[display="true"]').length,
        errors: [...root.querySelectorAll('mjx-merror')].map(e => e.getAttribute('data-mjx-error') || __mathText(e)).slice(0, 5),
        numbers: labels.map(l => __mathText(l)),
        refs: refs.map(a => [a.getAttribute('href'), !!document.getElementById(decodeURIComponent(new URL(a.href).hash.slice(1)))]),
        glyphs: glyphs.length,
        blank: blank.length,
        blankSample: blank.slice(0, 5).map(c => c.className),
    };
})()
"""
)


def math_state(page) -> dict:
    return page.evaluate(MATH_STATE)


def check_numbering(state: dict) -> list[str]:
    """Equation numbers are (1), (2), ... in page order: numbering restarts per page."""
    numbers = state["numbers"]
    expected = [f"({i})" for i in range(1, len(numbers) + 1)]
    if numbers != expected:
        return [f"equation numbers {numbers[:8]}... are not (1), (2), ... in order"]
    return []


def math_problems(state: dict, leftover: list[str], console: list[str]) -> list[str]:
    """What is wrong with a page's math: `state` (MATH_STATE), the TeX left as text
    (LEFTOVER_TEX) and the console's messages."""
    found = []
    if state["errors"]:
        found.append(f"MathJax errors: {state['errors']}")
    if state["blank"]:
        found.append(
            f"{state['blank']} of {state['glyphs']} glyphs drawn blank or not in MathJax's font (no CSS rule): {state['blankSample']}"
        )
    found += check_numbering(state)
    missing = [href for href, ok in state["refs"] if not ok]
    if missing:
        found.append(f"\\eqref links without a target: {missing}")
    if leftover:
        found.append(f"untypeset TeX: {leftover}")
    bad_console = [
        c
        for c in console
        if re.search(
            r"multiply defined|can't insert css rule|math input error|MathJax.*error", c, re.I
        )
    ]
    if bad_console:
        found.append(f"MathJax console messages: {bad_console[:3]}")
    return found


def page_math_problems(page, console: list[str]) -> list[str]:
    """`math_problems` of the page as it is now."""
    return math_problems(math_state(page), page.evaluate(LEFTOVER_TEX), console)


def settled_results(page, quiet_ms=1000, timeout_ms=20000):
    """The first result's path and the top three titles, once the list has stopped changing.

    Material's search worker answers every keystroke; on a loaded machine the answer to an
    earlier prefix (or to the previous query) can still be on screen 300 ms after the last
    keystroke (CI, stop 23: the first link was read from the old list and the titles from
    the new one). Reading both in one snapshot, after ``quiet_ms`` without a change, reads
    the answer to the whole query.
    """
    snapshot_js = """() => {
        const items = [...document.querySelectorAll(
            '.md-search-result__list > li.md-search-result__item')];
        const link = items.length && items[0].querySelector('a.md-search-result__link');
        return [link ? new URL(link.href).pathname : null,
                items.slice(0, 3).map(li => (li.querySelector('h1') || {}).textContent || '')];
    }"""
    last, since, waited = None, 0, 0
    while waited < timeout_ms:
        now = page.evaluate(snapshot_js)
        if now != last:
            last, since = now, 0
        elif now[0] is not None and since >= quiet_ms:
            return now[0], now[1]
        page.wait_for_timeout(100)
        since += 100
        waited += 100
    raise TimeoutError(f"no settled result list after {timeout_ms} ms (last: {last})")
