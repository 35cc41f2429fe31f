"""On a desktop: what a reader following links, typing and switching palettes sees, each
test on a tab of its own (tab.py's Reader): equation references that jump, math surviving five
pages of Material's instant navigation, search, the palette switch, code that scrolls
sideways taking the keyboard's focus.
"""

from __future__ import annotations

from urllib.parse import unquote, urlparse

import pytest
from playwright.sync_api import Error as PlaywrightError

from mlnotes_site.chromium import INSTANT_ARRIVED, wait_for_math

from .snapshots import POST
from .tab import page_math_problems, settled_results, toggle_palette

pytestmark = pytest.mark.browser

SEARCHES = {
    "Monty Hall": "notes/probability/",
    "Gram-Schmidt": "notes/linear-algebra/",
    "sinusoidal": POST,
    "stride": "notes/cnn/",
}


WIDE_CODE = """() => { const wide = [...document.querySelectorAll('article pre > code')]
    .filter(c => !c.closest('details:not([open])') && c.scrollWidth > c.clientWidth);
    return {wide: wide.length,
        unmounted: wide.filter(c => !c.parentElement.querySelector('.md-code__button')).length,
        unfocusable: wide.filter(c => c.getAttribute('tabindex') !== '0').map(c => c.textContent.slice(0, 40))} }"""


@pytest.mark.parametrize("path", [POST, "reference/probability/"])
def test_code_that_scrolls_sideways_takes_focus_before_material_mounts_it(reader, path):
    """Where the device hovers, a code block that scrolls sideways takes the keyboard's focus
    (Material's tabindex) before Material mounts it (content.lazy), and so does one in a
    Check block once that is opened (docs/javascripts/reader.js)."""
    page = reader.open(path)
    assert page.evaluate("matchMedia('(hover)').matches")
    at_load = page.evaluate(WIDE_CODE)
    page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")
    page.wait_for_timeout(300)
    opened = page.evaluate(WIDE_CODE)
    assert at_load["unmounted"] >= 1 and not at_load["unfocusable"], at_load
    assert opened["unmounted"] > at_load["unmounted"] and not opened["unfocusable"], opened
    assert not reader.problems, reader.problems


def test_the_palettes_restyle_rule_is_out_until_the_reader_switches(reader):
    """palette.css's `[data-md-color-switching] *` rule is out by the time Material's
    palette mounts (overrides/main.html: with it, the mount restyles every element twice;
    it was taken out at DOMContentLoaded, after Material had mounted, until stop 27) and is back
    in time for a switch, which still switches."""
    count = """() => {
        const all = list => [...list].flatMap(r => (r.cssRules ? [r, ...all(r.cssRules)] : [r]));
        return [...document.styleSheets].filter(s => /palette/.test(s.href || ''))
            .flatMap(s => all(s.cssRules))
            .filter(r => (r.selectorText || '').includes('data-md-color-switching')).length;
    }"""
    # the rule's count each time Material sets the attribute as the page loads
    reader.page.add_init_script(
        """window.__rulesAtMount = [];
        const set = Element.prototype.setAttribute;
        Element.prototype.setAttribute = function (name, value) {
            if (name === 'data-md-color-switching' && window.__rulesAtMount)
                window.__rulesAtMount.push((%s)());
            return set.call(this, name, value);
        };
        addEventListener('load', () => { Element.prototype.setAttribute = set; });"""
        % count
    )
    page = reader.open(POST)
    assert page.evaluate("window.__rulesAtMount") == [0]  # Material mounted, without the rule
    assert page.evaluate(count) == 0
    page.evaluate(
        """count => { const set = document.body.setAttribute.bind(document.body);
        window.__rulesAtSwitch = [];
        document.body.setAttribute = (name, value) => {
            if (name === 'data-md-color-switching') window.__rulesAtSwitch.push(eval(count)());
            return set(name, value);
        }; }""",
        count,
    )
    scheme = toggle_palette(page)
    assert page.evaluate("window.__rulesAtSwitch") == [1]  # back before Material set it
    assert page.evaluate(count) == 1
    assert toggle_palette(page) != scheme
    assert page.evaluate(count) == 1


def _in_view(page, element_id: str) -> bool:
    return page.evaluate(
        """id => { const t = document.getElementById(id); if (!t) return false;
                   const r = t.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }""",
        element_id,
    )


def _scroll_to_click(page, link) -> str:
    """Put `link`'s target out of view, scroll to the link and click it; its target's id."""
    target = unquote(urlparse(link.evaluate("a => a.href")).fragment)
    link.scroll_into_view_if_needed()
    # scroll the link so that its target is out of view before clicking
    page.evaluate(
        """id => { const t = document.getElementById(id); const r = t.getBoundingClientRect();
                   if (r.bottom > 0 && r.top < innerHeight) window.scrollBy(0, r.top > 0 ? -innerHeight : innerHeight); }""",
        target,
    )
    link.scroll_into_view_if_needed()
    link.click()
    return target


def test_eqref_links_jump_to_their_equation(reader):
    page = reader.open(POST)
    refs = page.locator("article mjx-container a[href*='#mjx-eqn']")
    count = refs.count()
    assert count >= 2, f"{count} \\eqref links on the post"
    # the first click on a freshly opened page (Material re-fetches the page), then another
    for index in (count - 1, 0):
        # Material may swap the article for the one it re-fetched while a link is being
        # scrolled to (a loaded machine): the link is then found again in the new article
        for attempt in range(3):
            try:
                target = _scroll_to_click(page, refs.nth(index))
                break
            except PlaywrightError as exc:
                if "not attached" not in str(exc) or attempt == 2:
                    raise
        page.wait_for_function(
            """id => { const t = document.getElementById(id); if (!t) return false;
                       const r = t.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }""",
            arg=target,
            timeout=10000,
        )
        assert _in_view(page, target)
    assert not reader.problems, reader.problems


# The instant-navigation tour: each step clicks a link (the sidebar, or the blog index's
# "Continue reading"), never page.goto, so Material swaps the page in without reloading
# its scripts. The post comes last: its sidebar shows the post's metadata, not the nav.
TOUR = [
    "notes/probability/",
    "notebooks/probability/",
    "notes/linear-algebra/",
    "notes/probability/",  # again: its labels must not be "multiply defined"
    "notes/cnn/",
    "blog/",
    POST,
]

MARK_LINK = """(path) => {
    document.querySelectorAll('[data-reader-target]').forEach(e => e.removeAttribute('data-reader-target'));
    const links = [...document.querySelectorAll('.md-sidebar--primary a.md-nav__link[href], article a[href]')]
        .filter(a => { const u = new URL(a.href); return u.pathname === '/' + path && !u.hash; });
    const link = links.find(a => a.getClientRects().length && getComputedStyle(a).visibility !== 'hidden');
    if (!link) return false;
    link.setAttribute('data-reader-target', '1');
    return true;
}"""


def test_math_survives_instant_navigation(reader):
    page = reader.open("")
    page.evaluate("window.__readerNotReloaded = true")
    failures = []
    visited = []
    for path in TOUR:
        if not page.evaluate(MARK_LINK, path):
            failures.append(f"from {page.url}: no link to {path} to click")
            break
        before = page.evaluate("window.mlnotesTypeset")
        reader.console.clear()
        page.click("[data-reader-target]", timeout=5000)
        page.wait_for_function(INSTANT_ARRIVED, arg=[path, before], timeout=20000)
        wait_for_math(page)
        visited.append(path)
        if not page.evaluate("window.__readerNotReloaded === true"):
            failures.append(f"{path}: full page load, not instant navigation")
            break
        problems = page_math_problems(page, reader.console)
        failures += [f"{path} (after {len(visited)} instant navigations): {p}" for p in problems]
    assert len(visited) >= 5, f"visited only {visited}: " + "\n".join(failures)
    assert not failures, "\n".join(failures)
    # offline: nothing left localhost on the way, notebooks included
    assert not reader.problems, reader.problems


def test_search_returns_the_right_page_first(reader):
    page = reader.open("")
    failures = []
    for query, expected in SEARCHES.items():
        page.locator("label.md-search__icon, .md-search__input").first.click()
        box = page.locator("input.md-search__input")
        box.fill("")
        box.type(query, delay=20)
        try:
            href, titles = settled_results(page)
        except TimeoutError as exc:  # no result at all, or a list that never settles
            failures.append(f"{query!r}: {exc}")
            continue
        if href != "/" + expected:
            failures.append(
                f"{query!r}: first result is {href}, expected /{expected} (top titles: {titles})"
            )
    assert not failures, "\n".join(failures)
    assert not reader.problems, reader.problems
