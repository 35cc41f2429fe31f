"""The reader's experience, in headless Chromium (issue 5).

One test (or a few) per point of the issue: the landing page and the blog index; math
(typeset, numbered, `\\eqref` links that jump, and all of it surviving five pages of
Material's instant navigation); figures (palette toggle, alt text, captions); search;
notebooks (executed, typeset by the site's MathJax, downloadable); offline; the sources
page; accessibility (heading order, alt text, axe-core, the figure palettes' contrast).

Every page is opened on the localhost server of `conftest.py`, and every request that
would leave localhost is refused and reported.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from mlnotes_site.chromium import (
    CHROMIUM,
    CHROMIUM_ARGS,
    INSTANT_ARRIVED,
    LEFTOVER_TEX,
    wait_for_math,
)

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}

POST = "blog/sinusoidal-embeddings/"
NOTES = ["notes/probability/", "notes/linear-algebra/", "notes/cnn/"]
CONTENT = [POST, *NOTES]

# The seed versions the site ports (docs/sources.md), with the date of each.
SEEDS = {
    "000": "2024-12-24",
    "001": "2024-12-27",
    "002": "2024-12-30",
    "003": "2025-11-23",
    "004": "2025-07-15",
}

SEARCHES = {
    "Monty Hall": "notes/probability/",
    "Gram-Schmidt": "notes/linear-algebra/",
    "sinusoidal": POST,
    "stride": "notes/cnn/",
}


# --------------------------------------------------------------------------------------
# Browser helpers
# --------------------------------------------------------------------------------------


class Reader:
    """A browser tab on the site that records what a reader should never see."""

    def __init__(self, browser, base_url: str, **context_options):
        self.base = base_url
        self.problems: list[str] = []
        self.console: list[str] = []
        self.context = browser.new_context(
            viewport={"width": 1280, "height": 900}, **context_options
        )
        self.context.route("**/*", self._guard)
        self.page = self.context.new_page()
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda e: self.problems.append(f"uncaught: {e}"))
        self.page.on(
            "response",
            lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"),
        )

    def _guard(self, route):
        url = route.request.url
        if url.startswith(("data:", "blob:")) or (urlparse(url).hostname or "") in LOCAL_HOSTS:
            route.continue_()
        else:
            self.problems.append(f"request leaves localhost: {url}")
            route.abort()

    def _on_console(self, message):
        self.console.append(f"{message.type}: {message.text}")
        if message.type == "error":
            self.problems.append(f"console error: {message.text}")

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


@pytest.fixture
def reader(browser, base_url):
    with Reader(browser, base_url) as r:
        yield r


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


def math_problems(page, console: list[str]) -> list[str]:
    state = math_state(page)
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
    leftover = page.evaluate(LEFTOVER_TEX)
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


# --------------------------------------------------------------------------------------
# Built-site helpers (static HTML)
# --------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------
# 1. Landing page and blog index
# --------------------------------------------------------------------------------------

DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b(?:January|February|March|April|May|June|July|August|September|"
    r"October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\.? \d{1,2},? \d{4}\b"
)

# For each link to `path` in the article: the text of the row or list item around it.
ENTRY_TEXT = """(path) => [...document.querySelectorAll('article a[href]')]
    .filter(a => new URL(a.href).pathname === '/' + path)
    .map(a => {
        const row = a.closest('tr, li, dd, p, .md-post, section') || a.parentElement;
        return {link: a.textContent.trim(), text: row.textContent.replace(/\\s+/g, ' ').trim()};
    })"""


@pytest.mark.browser
def test_landing_page_lists_the_post_and_the_notes(reader):
    page = reader.open("")
    intro = page.evaluate(
        """() => [...document.querySelectorAll('article > p')].map(p => p.textContent).join(' ')"""
    )
    assert len(intro.split()) >= 20, f"the landing page does not say what the site is: {intro!r}"
    failures = []
    for path in CONTENT:
        entries = page.evaluate(ENTRY_TEXT, path)
        if not entries:
            failures.append(f"{path}: not linked from the landing page")
            continue
        entry = max(entries, key=lambda e: len(e["text"]))
        summary = DATE.sub("", entry["text"].replace(entry["link"], ""))
        if not DATE.search(entry["text"]):
            failures.append(f"{path}: no date beside the link: {entry['text']!r}")
        if len(re.findall(r"[A-Za-z]{3,}", summary)) < 6:
            failures.append(f"{path}: no one-line summary beside the link: {entry['text']!r}")
    assert not failures, "\n".join(failures)
    assert not reader.problems, reader.problems


BLOG_EXCERPTS = """() => [...document.querySelectorAll('article.md-post--excerpt')].map(post => ({
    title: (post.querySelector('.md-post__content h2, .md-post__content h1') || {}).textContent,
    date: (post.querySelector('time') || {}).textContent,
    categories: [...post.querySelectorAll('.md-meta__list a[href*="category"]')].map(a => a.textContent.trim()),
    meta: post.querySelector('.md-meta__list') ? post.querySelector('.md-meta__list').textContent.replace(/\\s+/g, ' ') : '',
    words: [...post.querySelectorAll('.md-post__content p')].map(p => p.textContent).join(' ').split(/\\s+/).filter(Boolean).length,
    more: [...post.querySelectorAll('.md-post__action a')].map(a => new URL(a.href).pathname),
}))"""


@pytest.mark.browser
def test_blog_index_shows_excerpt_categories_and_reading_time(reader):
    page = reader.open("blog/")
    posts = page.evaluate(BLOG_EXCERPTS)
    assert posts, "the blog index lists no post"
    for post in posts:
        assert post["date"] and DATE.search(post["date"]), post
        assert post["categories"], f"no category: {post}"
        assert re.search(r"\d+ min read", post["meta"]), f"no reading time: {post}"
        assert post["words"] >= 25, (
            f"the excerpt is too short (put <!-- more --> after a paragraph): {post}"
        )
        assert post["more"], f"no 'Continue reading' link: {post}"
    assert "/" + POST in {p for post in posts for p in post["more"]}
    # each category page exists and lists the post
    for href in page.evaluate(
        """() => [...document.querySelectorAll('.md-meta__list a[href*="category"]')].map(a => new URL(a.href).pathname)"""
    ):
        assert href.startswith("/blog/category/"), href
        assert POST.split("/")[-2] in (
            reader.context.request.get(reader.base + href.lstrip("/")).text()
        ), href
    assert not reader.problems, reader.problems


# --------------------------------------------------------------------------------------
# 2. Math
# --------------------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.parametrize("path", CONTENT)
def test_math_is_typeset_numbered_and_linked(reader, path):
    page = reader.open(path)
    state = math_state(page)
    assert state["containers"] > 0, f"{path}: no math typeset"
    problems = math_problems(page, reader.console)
    assert not problems, f"{path}:\n" + "\n".join(problems)
    # display equations that carry a \label are numbered: a page that references its
    # equations has numbers and every reference has a target (checked above)
    if state["refs"]:
        assert state["numbers"], f"{path}: \\eqref links but no numbered equation"
    assert not reader.problems, reader.problems


# With JavaScript off (the math is typeset when the site is built): what the page shows.
NO_JS_STATE = r"""() => {
    const article = document.querySelector('article');
    const wrappers = [...article.querySelectorAll('.arithmatex')];
    return {
        wrappers: wrappers.length,
        untypeset: wrappers.filter(w => !w.querySelector('mjx-container')).slice(0, 3).map(w => w.textContent.slice(0, 80)),
        // TeX shown as text: a delimiter or a macro in what a reader sees
        rawTex: (article.innerText.match(/\\\(|\\\[|\\frac/g) || []).length,
        // a notebook cell's $...$ left as text (code, where a $ is code, left out)
        rawDollars: (() => {
            const text = article.cloneNode(true);
            text.querySelectorAll('pre, code, mjx-container, script, style').forEach(e => e.remove());
            return text.textContent.match(/\$\$|\$[^$\n]{1,200}\$/g) || [];
        })(),
        mathText: wrappers.map(w => w.innerText).join(' ').match(/\\[a-zA-Z]+/g) || [],
        mathjaxScripts: [...document.querySelectorAll('script[src]')].map(s => s.src).filter(s => /mathjax/i.test(s)),
        styles: article.querySelectorAll('style.mlnotes-math-styles').length,
        // glyphs not in MathJax's font: the page's math stylesheet is missing or incomplete
        unstyled: [...article.querySelectorAll('mjx-container mjx-c')]
            .filter(c => !/MJX-/.test(getComputedStyle(c).fontFamily)).length,
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
}"""


@pytest.mark.browser
def test_math_is_typeset_without_javascript_and_fits_a_phone(site, base_url, browser):
    """The post, each notes page and each notebook page show all their math typeset with
    JavaScript disabled (no raw TeX, no $...$, no math script) and nothing scrolls sideways
    at 360 px."""
    pages = [POST] + [p for p in site.pages() if p.startswith(("notes/", "notebooks/"))]
    assert len([p for p in pages if p.startswith("notebooks/")]) >= 4, pages
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 780})
    failures = []
    try:
        page = context.new_page()
        for path in pages:
            page.goto(base_url + path)
            page.evaluate("() => document.fonts.ready.then(() => true)")
            state = page.evaluate(NO_JS_STATE)
            if not state["wrappers"]:
                failures.append(f"{path}: no math")
            if state["untypeset"]:
                failures.append(f"{path}: math not typeset: {state['untypeset']}")
            if state["rawTex"] or state["mathText"] or state["rawDollars"]:
                failures.append(
                    f"{path}: raw TeX shown: {state['rawTex']} {state['mathText'][:3]} {state['rawDollars'][:3]}"
                )
            if state["mathjaxScripts"]:
                failures.append(f"{path}: loads MathJax: {state['mathjaxScripts']}")
            if state["styles"] != 1 or state["unstyled"]:
                failures.append(
                    f"{path}: {state['styles']} math stylesheets, {state['unstyled']} glyphs not in MathJax's font"
                )
            if state["overflow"] > 0:
                failures.append(f"{path}: scrolls sideways by {state['overflow']} px at 360 px")
    finally:
        context.close()
    assert not failures, "\n".join(failures)


# Every layout shift of the page, with the elements that moved (the Layout Instability API).
LAYOUT_SHIFTS = """window.__shifts = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__shifts.push({
    value: e.value,
    moved: e.sources.map(s => s.node && s.node.nodeType === 1 ? s.node.className : String(s.node)),
}); }).observe({type: 'layout-shift', buffered: true});"""


@pytest.mark.browser
def test_the_posts_sidebar_appears_below_the_article_on_a_phone_without_moving(browser, base_url):
    """On a phone Material shows a post's authors and dates after the article; while the
    long article is parsed (the CPU slowed 4x, as Lighthouse's phone) the sidebar is not
    painted above the part that has arrived and then pushed down (docs/stylesheets/extra.css)."""
    context = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True)
    try:
        page = context.new_page()
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
        page.add_init_script(LAYOUT_SHIFTS)
        page.goto(base_url + POST, wait_until="load")
        page.wait_for_timeout(500)
        shifts = page.evaluate("window.__shifts")
        boxes = page.evaluate(
            """() => ['.md-content--post > article', '.md-sidebar--post'].map(s => {
                const e = document.querySelector(s), r = e.getBoundingClientRect();
                return {display: getComputedStyle(e).display, top: r.top, bottom: r.bottom};
            })"""
        )
    finally:
        context.close()
    article, sidebar = boxes
    assert sidebar["display"] != "none" and sidebar["top"] >= article["bottom"] - 1, boxes
    moved = [s for s in shifts if any("md-sidebar--post" in m for m in s["moved"])]
    assert not moved, f"the post's sidebar moved while the page loaded: {moved}"


# The boxes of the article a phone may skip rendering (docs/stylesheets/extra.css:
# content-visibility) and, in those skipped now, every expression outside a closed <details>,
# marked for the accessibility check.
SKIPPED_MATH = """() => {
    const boxes = [...document.querySelectorAll('article.md-content__inner *')]
        .filter(e => getComputedStyle(e).contentVisibility === 'auto');
    const skipped = boxes.filter(e => e.firstElementChild
        && !e.firstElementChild.checkVisibility({contentVisibilityAuto: true}));
    const math = skipped.flatMap(e => [...e.querySelectorAll('math')])
        .filter(m => !m.closest('details:not([open])'));
    math.forEach((m, i) => m.setAttribute('data-skipped-math', i));
    return {boxes: boxes.length, skipped: skipped.length, math: math.length};
}"""

# Where the article's headings, equations and tables are, and how tall the page is.
LANDMARKS = """() => ({
    height: document.documentElement.scrollHeight,
    tops: [...document.querySelectorAll('article.md-content__inner :is(h2, h3, .mlnotes-equation, table)')]
        .filter(e => !e.closest('details:not([open])'))  // not laid out: no place to compare
        .map(e => Math.round(e.getBoundingClientRect().top + scrollY)),
})"""

LONG_PAGES = [
    POST,
    "notes/probability/",
    "notes/linear-algebra/",
    "sources/",
    "reference/embeddings/",
]


# Wait until the page stops scrolling (no change over 10 frames), whatever moved it.
SETTLED = """() => new Promise(done => {
    let last = scrollY, still = 0;
    const tick = () => { still = scrollY === last ? still + 1 : 0; last = scrollY;
        still >= 10 ? done(scrollY) : requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
})"""


# Where the element with this id is, from the top of the screen.
TOP_OF = "id => document.getElementById(id).getBoundingClientRect().top"

# The element 200 px down the screen, by its text, and where it is.
AT_TOP = """() => { const e = document.elementFromPoint(180, 200);
    return [e.tagName + ' ' + e.textContent.slice(0, 80), e.getBoundingClientRect().top] }"""


def _phone(browser):
    return browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True)


def _read_down(page, url):
    """Load the page and scroll it a screen-ish at a time down to 18,000 px (past the
    post's paragraphs that hold only an anchor); return what is then at the top."""
    page.goto(url, wait_until="load")
    for _ in range(30):
        page.evaluate("scrollBy(0, 600)")
        page.wait_for_timeout(50)
    page.evaluate(SETTLED)
    return page.evaluate(AT_TOP)


@pytest.mark.browser
@pytest.mark.parametrize(
    "path,bundle", [(path, True) for path in LONG_PAGES] + [("sources/", False)]
)
def test_the_boxes_a_phone_skips_look_the_same_once_shown(browser, base_url, path, bundle):
    """The skipped boxes, once rendered (with the containment content-visibility brings),
    leave every heading, equation and table where it is with nothing skipped, and nothing
    they hold is cut at their edges (outside a box that scrolls). Also on sources without
    Material's bundle: its tables as the HTML has them, bare, as the page arrives."""
    context = _phone(browser)
    try:
        page = context.new_page()
        if not bundle:
            page.route("**/assets/javascripts/bundle.*.js", lambda route: route.abort())
        page.goto(base_url + path, wait_until="load")
        if not bundle:  # the tables as the HTML has them: none wrapped, many bare
            tables = page.evaluate(
                "[document.querySelectorAll('.md-typeset__scrollwrap').length,"
                " document.querySelectorAll('article.md-content__inner > table:not([class])').length]"
            )
            assert tables[0] == 0 and tables[1] >= 5, tables
        found = page.evaluate(SKIPPED_MATH)
        clipped = page.evaluate(
            """() => {
            const boxes = [...document.querySelectorAll('article.md-content__inner *')]
                .filter(e => getComputedStyle(e).contentVisibility === 'auto');
            for (const e of boxes) { e.style.contentVisibility = 'visible'; e.style.contain = 'layout paint style'; }
            const cut = [];
            for (const e of boxes) {
                if (getComputedStyle(e).overflowX !== 'visible') continue;  // scrolls: clips already
                const r = e.getBoundingClientRect(), c = getComputedStyle(e);
                const edge = [r.left + parseFloat(c.borderLeftWidth), r.right - parseFloat(c.borderRightWidth),
                              r.top + parseFloat(c.borderTopWidth), r.bottom - parseFloat(c.borderBottomWidth)];
                for (const d of e.querySelectorAll('*')) {
                    if (d.closest('mjx-assistive-mml') || !d.checkVisibility()) continue;
                    let p = d.parentElement, scrolls = false;
                    for (; p && p !== e; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') scrolls = true;
                    if (scrolls) continue;
                    const q = d.getBoundingClientRect();
                    if (!q.width || !q.height) continue;
                    const out = Math.max(edge[0] - q.left, q.right - edge[1], edge[2] - q.top, q.bottom - edge[3]);
                    // 4 px: a wide equation's scroll box in a correction box reaches 4 px past
                    // the box's padding onto its border (Material: margin -0.8rem, padding
                    // 0.6rem); more than that only within the box's overflow-clip-margin
                    const margin = Math.max(4, parseFloat(c.overflowClipMargin) || 0);
                    if (out > margin + 0.5) { cut.push(`${e.className || e.tagName}: ${d.tagName} ${Math.round(out)} px`); break; }
                }
            }
            return cut;
        }"""
        )
        shown = page.evaluate(LANDMARKS)
        page.evaluate(  # then the page with nothing skipped: no containment at all
            "for (const e of document.querySelectorAll('article.md-content__inner *'))"
            " if (e.style.contain) { e.style.contentVisibility = ''; e.style.contain = ''; }"
        )
        page.evaluate("document.documentElement.classList.remove('mlnotes-skip-offscreen')")
        assert page.evaluate(SKIPPED_MATH)["boxes"] == 0  # the switch overrides/main.html uses
        whole = page.evaluate(LANDMARKS)
    finally:
        context.close()
    assert found["boxes"] >= 5 and found["skipped"] >= 1, found
    assert not clipped, clipped
    assert shown["height"] == whole["height"], (shown["height"], whole["height"])
    moved = [(a, b) for a, b in zip(shown["tops"], whole["tops"]) if abs(a - b) > 1]
    assert len(shown["tops"]) == len(whole["tops"]) > 5 and not moved, moved[:5]


# Material's code blocks on the page, and which of them are mounted (have the copy button).
COPY_BUTTONS = """() => { const blocks = [...document.querySelectorAll('article pre > code')];
    const without = blocks.filter(c => !c.parentElement.querySelector('.md-code__button'));
    return {blocks: blocks.length, without: without.map(c => c.textContent.slice(0, 40))} }"""


@pytest.mark.browser
@pytest.mark.parametrize("path", [POST, "notes/probability/"])
def test_every_code_block_gets_its_copy_button_once_read_to(browser, base_url, path):
    """Material mounts a code block (its copy button) only once it is in view (content.lazy,
    mkdocs.yml): reading down a phone's page with every Check block open, every block gets
    its button, those in the boxes the phone skips too."""
    context = _phone(browser)
    try:
        page = context.new_page()
        page.goto(base_url + path, wait_until="load")
        at_load = page.evaluate(COPY_BUTTONS)
        page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")
        y = 0
        while y < page.evaluate("document.scrollingElement.scrollHeight"):
            page.evaluate(f"scrollTo(0, {y})")
            page.wait_for_timeout(80)
            y += 400
        page.wait_for_timeout(300)
        read = page.evaluate(COPY_BUTTONS)
    finally:
        context.close()
    # Far blocks are not mounted as the page arrives (else this test would show nothing)
    assert at_load["blocks"] >= 15 and len(at_load["without"]) > at_load["blocks"] // 2, at_load
    assert read["blocks"] == at_load["blocks"] and not read["without"], read


# The code blocks that scroll sideways outside closed Check blocks: how many, how many of
# them Material has not mounted yet, and those the keyboard cannot reach (no tabindex).
WIDE_CODE = """() => { const wide = [...document.querySelectorAll('article pre > code')]
    .filter(c => !c.closest('details:not([open])') && c.scrollWidth > c.clientWidth);
    return {wide: wide.length,
        unmounted: wide.filter(c => !c.parentElement.querySelector('.md-code__button')).length,
        unfocusable: wide.filter(c => c.getAttribute('tabindex') !== '0').map(c => c.textContent.slice(0, 40))} }"""


@pytest.mark.browser
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


@pytest.mark.browser
def test_links_reloads_and_going_back_land_where_nothing_is_skipped(browser, base_url):
    """A skipped box stands in with an estimated height; where a position is computed (a link
    to a heading or an equation, a reload, back and forward), nothing is skipped, so the
    reader lands exactly where the page without skipping would put them."""
    context = _phone(browser)
    try:
        page = context.new_page()
        page.goto(base_url + POST, wait_until="load")
        assert page.evaluate(SKIPPED_MATH)["skipped"] >= 1
        ids = page.evaluate(
            "[...document.querySelectorAll('article.md-content__inner "
            ":is(h2[id], h3[id], .mlnotes-equation[id])')].map(e => e.id)"
        )
        off = []
        # skipping as on a plain load, 4 of these 10 landed 62 to 117 px off
        for target in ids[::3]:
            page.goto(base_url + POST + "#" + target, wait_until="load")
            page.evaluate(SETTLED)
            assert page.evaluate(SKIPPED_MATH)["boxes"] == 0  # an address with a part of the page
            linked = page.evaluate(TOP_OF, target)
            # where the browser scrolls it now that every box is rendered, whatever it estimated
            expected = page.evaluate(
                "id => { const e = document.getElementById(id); e.scrollIntoView(); "
                "return e.getBoundingClientRect().top }",
                target,
            )
            if abs(linked - expected) > 1:
                off.append((target, linked, expected))
            page.goto("about:blank")
        assert len(ids[::3]) >= 8 and not off, off

        # a link to a correction box, followed from a plain load of the page, and from the
        # page with nothing skipped
        landed = []
        for skipping in (True, False):
            page.goto(base_url + POST, wait_until="load")
            if not skipping:
                page.evaluate("document.documentElement.classList.remove('mlnotes-skip-offscreen')")
            assert (page.evaluate(SKIPPED_MATH)["skipped"] > 0) == skipping
            link = page.locator(f"article a[href*='{POST}#correction-']").last  # made absolute
            target = link.get_attribute("href").split("#")[1]
            link.click()
            page.evaluate(SETTLED)
            assert page.evaluate(SKIPPED_MATH)["boxes"] == 0
            landed.append(page.evaluate(TOP_OF, target))
        assert abs(landed[0] - landed[1]) <= 1, (target, landed)

        # a reload, after reading down the page: the reader sees the same text at the top
        before = _read_down(page, base_url + POST)
        page.reload(wait_until="load")
        page.wait_for_timeout(300)
        page.evaluate(SETTLED)
        rendered_all = not page.evaluate(
            "document.documentElement.classList.contains('mlnotes-skip-offscreen')"
        )
        after = page.evaluate(AT_TOP)

        # back, with Material's instant navigation, to the post read down to the same place.
        # Up to three tries: the reviewer saw this step land off 2 times in 8 on a page with
        # nothing skipped at all (a race in driving the browser; CI saw it once too); without
        # the popstate guard it landed on another element in the run that checked it.
        tries = []
        for _ in range(3):
            read = _read_down(page, base_url + POST)
            page.wait_for_timeout(300)  # Material keeps the position for going back
            page.evaluate("document.querySelector('a[href$=\"/notes/cnn/\"]').click()")
            page.wait_for_function(INSTANT_ARRIVED, arg=["notes/cnn/", 0])
            page.go_back()
            page.wait_for_function(INSTANT_ARRIVED, arg=[POST, 0])
            page.wait_for_timeout(300)
            page.evaluate(SETTLED)
            returned = page.evaluate(AT_TOP)
            tries.append((read, returned))
            if returned[0] == read[0] and abs(returned[1] - read[1]) <= 1:
                break

        # a jump (find in page, a dragged scroll bar): nothing is skipped from then on
        page.goto(base_url + POST, wait_until="load")
        assert page.evaluate(SKIPPED_MATH)["skipped"] > 0
        page.evaluate("scrollTo(0, 12000)")
        page.evaluate(SETTLED)
        jumped = page.evaluate(SKIPPED_MATH)["boxes"]
        # a link to a text on the page (#:~:text=): nothing is skipped
        page.goto(base_url + POST + "#:~:text=linear", wait_until="load")
        text_link = page.evaluate(SKIPPED_MATH)["boxes"]
    finally:
        context.close()
    assert rendered_all
    assert after[0] == before[0] and abs(after[1] - before[1]) <= 1, (before, after)
    assert any(r[0] == b[0] and abs(r[1] - b[1]) <= 1 for b, r in tries), tries
    assert jumped == 0 and text_link == 0, (jumped, text_link)


@pytest.mark.browser
@pytest.mark.parametrize("path", [POST, "notes/probability/"])
def test_a_phone_skips_rendering_far_boxes_but_a_screen_reader_gets_their_math(
    browser, base_url, path
):
    """At 360 px the boxes far below the first screen are not rendered until they near it,
    and Chromium's accessibility tree (on, as a screen reader turns it on) still holds each
    of their expressions as MathML."""
    reading = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--force-renderer-accessibility"]
    )
    try:
        page = reading.new_page(viewport={"width": 360, "height": 780})
        page.goto(base_url + path, wait_until="load")
        found = page.evaluate(SKIPPED_MATH)
        assert found["skipped"] >= 10 and found["math"] >= 20, found
        cdp = page.context.new_cdp_session(page)
        cdp.send("Accessibility.enable")
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        missing = []
        for i in range(found["math"]):
            node = cdp.send(
                "DOM.querySelector", {"nodeId": root, "selector": f'math[data-skipped-math="{i}"]'}
            )
            ax = cdp.send(
                "Accessibility.getPartialAXTree",
                {"nodeId": node["nodeId"], "fetchRelatives": False},
            )["nodes"][0]
            if ax.get("ignored") or ax.get("role", {}).get("value") != "MathMLMath":
                missing.append(i)
    finally:
        reading.close()
    assert not missing, (
        f"{len(missing)} of {found['math']} skipped expressions not exposed: {missing[:10]}"
    )


@pytest.mark.browser
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


@pytest.mark.browser
def test_the_post_numbers_its_equations(reader):
    state = math_state(reader.open(POST))
    assert state["displays"] >= 10, state["displays"]
    assert len(state["numbers"]) >= 10, (
        f"only {len(state['numbers'])} numbered equations on the post"
    )
    assert len(state["refs"]) >= 3, f"only {len(state['refs'])} \\eqref links on the post"


def _in_view(page, element_id: str) -> bool:
    return page.evaluate(
        """id => { const t = document.getElementById(id); if (!t) return false;
                   const r = t.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }""",
        element_id,
    )


@pytest.mark.browser
def test_eqref_links_jump_to_their_equation(reader):
    page = reader.open(POST)
    refs = page.locator("article mjx-container a[href*='#mjx-eqn']")
    count = refs.count()
    assert count >= 2, f"{count} \\eqref links on the post"
    # the first click on a freshly opened page (Material re-fetches the page), then another
    for index in (count - 1, 0):
        link = refs.nth(index)
        target = unquote(urlparse(link.evaluate("a => a.href")).fragment)
        link.scroll_into_view_if_needed()
        # scroll the link so that its target is out of view before clicking
        page.evaluate(
            """id => { const t = document.getElementById(id); const r = t.getBoundingClientRect();
                       if (r.bottom > 0 && r.top < innerHeight) window.scrollBy(0, r.top > 0 ? -innerHeight : innerHeight); }""",
            target,
        )
        link = refs.nth(index)
        link.scroll_into_view_if_needed()
        link.click()
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


@pytest.mark.browser
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
        problems = math_problems(page, reader.console)
        failures += [f"{path} (after {len(visited)} instant navigations): {p}" for p in problems]
    assert len(visited) >= 5, f"visited only {visited}: " + "\n".join(failures)
    assert not failures, "\n".join(failures)
    # offline: nothing left localhost on the way, notebooks included
    assert not reader.problems, reader.problems


# --------------------------------------------------------------------------------------
# 3. Figures
# --------------------------------------------------------------------------------------

FIGURES = """() => [...document.querySelectorAll('article figure')].filter(f => f.querySelector('img')).map(f => ({
    id: f.id,
    images: [...f.querySelectorAll('img')].map(img => ({
        src: img.getAttribute('src'), alt: img.getAttribute('alt') || '',
        visible: img.offsetParent !== null && img.getBoundingClientRect().width > 0 && getComputedStyle(img).display !== 'none',
    })),
    caption: f.querySelector('figcaption') ? f.querySelector('figcaption').textContent.replace(/\\s+/g, ' ').trim() : null,
    links: [...f.querySelectorAll('figcaption a[href]')].map(a => ({href: a.href, hash: new URL(a.href).hash, samePage: new URL(a.href).pathname === location.pathname})),
}))"""

ONLY = re.compile(r"#only-(light|dark)$")


def _figures_by_theme(figures: list[dict]) -> dict[str, list[str]]:
    """For each figure, which of its palette variants are visible."""
    return {
        f["id"] or f"figure {i}": sorted(
            ONLY.search(img["src"]).group(1)
            for img in f["images"]
            if img["visible"] and ONLY.search(img["src"])
        )
        for i, f in enumerate(figures)
    }


def toggle_palette(page) -> str:
    """Click Material's palette toggle (the visible label) and return the new scheme."""
    before = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    page.locator("form[data-md-component=palette] label[for^='__palette_']:visible").click()
    page.wait_for_function(
        "s => document.body.getAttribute('data-md-color-scheme') !== s", arg=before
    )
    page.wait_for_timeout(100)
    return page.evaluate("document.body.getAttribute('data-md-color-scheme')")


WEAK_ALT = re.compile(
    r"^(figure|image|img|plot|chart|graph|picture|screenshot)?\s*\d*$|\.(svg|png|jpe?g)$", re.I
)


@pytest.mark.browser
@pytest.mark.parametrize("path", CONTENT)
def test_figures_follow_the_palette_and_have_alt_text_and_captions(site, reader, path):
    """Light variant under the light palette, dark under the dark one (the test clicks
    Material's toggle); alt text that says what the figure shows; a caption that links
    to the script that drew it and to the mlnotes function it calls."""
    page = reader.open(path)
    figures = page.evaluate(FIGURES)
    assert figures, f"{path}: no figure"
    failures = []
    expected = {"default": ["light"], "slate": ["dark"]}
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "default"
    for scheme in ("default", "slate", "default"):  # light, toggle to dark, toggle back
        if scheme != page.evaluate("document.body.getAttribute('data-md-color-scheme')"):
            assert toggle_palette(page) == scheme
        shown = _figures_by_theme(page.evaluate(FIGURES))
        wrong = {fig: variants for fig, variants in shown.items() if variants != expected[scheme]}
        if wrong:
            failures.append(f"under the {scheme} palette, visible variants are {wrong}")
    for i, fig in enumerate(figures):
        name = fig["id"] or f"figure {i + 1}"
        variants = sorted(
            ONLY.search(img["src"]).group(1) for img in fig["images"] if ONLY.search(img["src"])
        )
        if variants != ["dark", "light"]:
            failures.append(
                f"{name}: images {[img['src'] for img in fig['images']]} are not one #only-light and one #only-dark"
            )
        for img in fig["images"]:
            alt = img["alt"].strip()
            if len(alt.split()) < 5 or WEAK_ALT.search(alt):
                failures.append(f"{name}: alt text {alt!r} does not say what the figure shows")
        if not fig["caption"]:
            failures.append(f"{name}: no figcaption")
            continue
        scripts = [
            link
            for link in fig["links"]
            if link["samePage"] and link["hash"].startswith("#script-")
        ]
        if not scripts:
            failures.append(
                f"{name}: the caption does not link to the script that drew it (#script-...)"
            )
        for link in scripts:
            if not page.evaluate("id => !!document.getElementById(id)", unquote(link["hash"][1:])):
                failures.append(f"{name}: caption link {link['hash']} has no target on the page")
        api = [link for link in fig["links"] if "/reference/" in urlparse(link["href"]).path]
        if not api:
            failures.append(
                f"{name}: the caption does not link to the mlnotes function it calls (API reference)"
            )
        for link in api:
            if not static_target_exists(site, link["href"].replace(reader.base, "/")):
                failures.append(f"{name}: API link {link['href']} does not resolve")
    assert not failures, f"{path}:\n" + "\n".join(failures)
    assert not reader.problems, reader.problems


# --------------------------------------------------------------------------------------
# 4. Search
# --------------------------------------------------------------------------------------


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


@pytest.mark.browser
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


# A search result tapped on a phone: (query, the result's page, its anchor or None for
# the page's own result), each tapped from far down another page.
SEARCH_TAPS = [
    ("bayes", "notes/probability/", "bayes-rule"),
    ("convolution", "notes/cnn/", "the-receptive-field"),
    ("bayes", "notes/probability/", None),
]

# Tap the result linking to this page and anchor ("" for none); its address, or null.
TAP_RESULT = """([path, hash]) => {
    const link = [...document.querySelectorAll('a.md-search-result__link')].find(a => {
        const url = new URL(a.href); return url.pathname.endsWith(path) && url.hash === hash; });
    if (link) link.click();
    return link ? link.href : null;
}"""

# Where the reader is: the anchor's distance below where the browser puts a target (its
# scroll-margin-top), or the page's offset when there is no anchor.
LANDED = """(id) => {
    const e = id && document.getElementById(id);
    return e ? e.getBoundingClientRect().top - parseFloat(getComputedStyle(e).scrollMarginTop) : scrollY;
}"""


@pytest.mark.browser
def test_a_search_result_tapped_on_a_phone_lands_where_it_links(browser, base_url):
    """Material locks a phone's page while search is open and unlocks it after search
    closes, and the search's backdrop widens the page as it shrinks; instant navigation's
    scroll to the result's anchor (or to the new page's top) was lost, cut short or undone
    (landing 1,900 to 9,000 px off, or at the old page's offset: reviewer, stop 26).
    docs/javascripts/instant-navigation.js scrolls again once all that is over."""
    context = _phone(browser)
    page = context.new_page()
    failures = []
    try:
        for query, path, anchor in SEARCH_TAPS:
            page.goto(base_url + "notes/linear-algebra/", wait_until="load")
            page.evaluate("scrollTo(0, 3000)")
            page.locator("label.md-header__button[for=__search]").click()  # the search button
            page.locator("input.md-search__input").press_sequentially(query, delay=20)
            settled_results(page)
            href = page.evaluate(TAP_RESULT, [path, "#" + anchor if anchor else ""])
            if href is None:
                failures.append(f"{query!r}: no result links to {path}#{anchor}")
                continue
            try:  # where it lands, within 2 px, within 10 s
                page.wait_for_function(
                    f"id => Math.abs(({LANDED})(id)) <= 2", arg=anchor, timeout=10000
                )
            except PlaywrightTimeout:  # reported below, with where it is
                pass
            page.wait_for_timeout(500)  # and still there half a second on
            off = page.evaluate(LANDED, anchor)
            if anchor and page.evaluate("location.hash") != "#" + anchor:
                failures.append(
                    f"{query!r} -> {href}: the address is {page.evaluate('location.href')}"
                )
            if abs(off) > 2:
                what = (
                    f"#{anchor} is {off:.0f} px below its place"
                    if anchor
                    else f"the page is at {off:.0f} px, not its top"
                )
                failures.append(f"{query!r} -> {href}: {what}")
    finally:
        context.close()
    assert not failures, "\n".join(failures)


# --------------------------------------------------------------------------------------
# 5. Notebooks
# --------------------------------------------------------------------------------------

NOTEBOOK_STATE = """() => ({
    cells: document.querySelectorAll('.jp-Notebook [id^="cell-id="]').length,
    code: document.querySelectorAll('.jp-Notebook .jp-CodeCell').length,
    prompts: [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim()),
    outputs: document.querySelectorAll('.jp-CodeCell .jp-OutputArea-output').length,
    errors: document.querySelectorAll('.jp-RenderedText[data-mime-type="application/vnd.jupyter.stderr"], .jp-OutputArea-output .ansi-red-fg').length,
    markdownMath: document.querySelectorAll('.jp-RenderedMarkdown mjx-container, .jp-MarkdownOutput mjx-container').length,
    mathjaxScripts: [...document.querySelectorAll('script[src]')].map(s => s.src).filter(s => /mathjax/i.test(s)),
    version: window.MathJax && MathJax.version,
    download: [...document.querySelectorAll('a[href$=".ipynb"]')].map(a => ({href: a.href, download: a.hasAttribute('download')})),
})"""


def notebook_pages(site) -> list[str]:
    return [p for p in site.pages() if p.startswith("notebooks/")]


@pytest.mark.browser
def test_every_notebook_is_rendered_executed_typeset_and_downloadable(site, reader):
    import nbformat

    pages = notebook_pages(site)
    assert len(pages) >= 4, pages
    failures = []
    for path in pages:
        page = reader.open(path)
        state = page.evaluate(NOTEBOOK_STATE)
        if not state["cells"]:
            failures.append(f"{path}: no notebook cells rendered")
            continue
        if not state["code"]:
            failures.append(f"{path}: no code cell")
        if state["code"] and not state["outputs"]:
            failures.append(f"{path}: no cell output (not executed at build time?)")
        if state["code"] and not any(re.search(r"\[\d+\]", p) for p in state["prompts"]):
            failures.append(f"{path}: no execution count on any code cell: {state['prompts'][:3]}")
        if state["errors"]:
            failures.append(f"{path}: {state['errors']} error outputs")
        # typeset when the site is built (mlnotes-typeset), as every page: no MathJax loads
        if state["mathjaxScripts"] or state["version"]:
            failures.append(
                f"{path}: MathJax loaded ({state['mathjaxScripts']}, version {state['version']}): "
                "the notebook's math should be typeset when the site is built"
            )
        failures += [f"{path}: {p}" for p in math_problems(page, reader.console)]
        downloads = [d for d in state["download"] if d["download"]]
        if not downloads:
            failures.append(f"{path}: no .ipynb download link")
            continue
        response = page.request.get(downloads[0]["href"])
        if not response.ok:
            failures.append(f"{path}: download {downloads[0]['href']} -> HTTP {response.status}")
            continue
        notebook = nbformat.reads(response.text(), as_version=4)
        nbformat.validate(notebook)
        if len(notebook.cells) != state["cells"]:
            failures.append(
                f"{path}: the download has {len(notebook.cells)} cells, the page {state['cells']}"
            )
        has_math = any(c.cell_type == "markdown" and "$" in c.source for c in notebook.cells)
        if has_math and not state["markdownMath"]:
            failures.append(f"{path}: markdown cells have $math$ but none is typeset")
    assert not failures, "\n".join(failures)
    assert not reader.problems, reader.problems


# --------------------------------------------------------------------------------------
# 7. Sources page
# --------------------------------------------------------------------------------------

# For each "Correction" admonition: ids that point at it (the admonition, anything in
# it, or anything between the heading of its section and it, the heading included).
CORRECTIONS = """() => {
    const boxes = [...document.querySelectorAll('article .admonition, article details')]
        .filter(b => /^\\s*correction/i.test((b.querySelector('.admonition-title, summary') || {}).textContent || ''));
    const ids = el => [el, ...el.querySelectorAll('[id]')].map(e => e.id).filter(Boolean);
    return boxes.map(box => {
        const found = new Set(ids(box));
        let el = box.previousElementSibling;
        while (el) {
            ids(el).forEach(id => found.add(id));
            if (/^H[1-6]$/.test(el.tagName)) break;
            el = el.previousElementSibling;
        }
        return {title: (box.querySelector('.admonition-title, summary') || {}).textContent.trim(),
                text: box.textContent.replace(/\\s+/g, ' ').trim().slice(0, 80), ids: [...found]};
    });
}"""

SOURCES_LINKS = """() => [...document.querySelectorAll('article a[href]')]
    .filter(a => !a.closest('.md-source-file, .headerlink'))
    .map(a => ({href: a.href, text: a.textContent.trim(), row: (a.closest('tr, li, p') || a).textContent.replace(/\\s+/g, ' ').trim()}))"""


@pytest.mark.browser
def test_sources_page_lists_seeds_and_links_every_correction(site, reader):
    page = reader.open("sources/")
    rows = page.evaluate(
        """() => [...document.querySelectorAll('article tr')].map(r => [...r.cells].map(c => c.textContent.trim()))"""
    )
    failures = []
    for seed, date in SEEDS.items():
        row = next((r for r in rows if any(re.fullmatch(rf"`?{seed}`?", cell) for cell in r)), None)
        if row is None:
            failures.append(f"seed {seed} is not in a table on the sources page")
            continue
        if date not in " ".join(row):
            failures.append(f"seed {seed}: no date {date} in its row {row}")
        if len(" ".join(row).split()) < 6:
            failures.append(f"seed {seed}: its row does not say what came from it: {row}")
    links = page.evaluate(SOURCES_LINKS)
    # every link of the sources page that points into the site resolves
    internal = [link for link in links if link["href"].startswith(reader.base)]
    for link in internal:
        if not static_target_exists(site, "/" + link["href"][len(reader.base) :]):
            # equation anchors exist only after MathJax: checked in the browser below
            if "#mjx-eqn" not in link["href"]:
                failures.append(f"sources link {link['href']} ({link['text']!r}) does not resolve")
    # every correction on the site is linked from the sources page
    linked = {}
    for link in internal:
        parsed = urlparse(link["href"])
        linked.setdefault(parsed.path, set()).add(unquote(parsed.fragment))
    total = 0
    for path in CONTENT:
        page = reader.open(path)
        corrections = page.evaluate(CORRECTIONS)
        total += len(corrections)
        targets = linked.get("/" + path, set())
        for fragment in targets:
            if fragment.startswith("mjx-eqn") and not page.evaluate(
                "id => !!document.getElementById(id)", fragment
            ):
                failures.append(f"sources link /{path}#{fragment} has no target")
        for correction in corrections:
            if not targets & set(correction["ids"]):
                failures.append(
                    f"/{path}: correction {correction['text']!r} is not linked from the sources page"
                )
    assert total > 0, "no 'Correction' admonition on any page"
    assert not failures, "\n".join(failures)
    assert not reader.problems, reader.problems


# --------------------------------------------------------------------------------------
# 8. Accessibility
# --------------------------------------------------------------------------------------


def test_headings_are_in_order_and_images_have_alt(site):
    failures = []
    for path in site.pages():
        content = content_of(site, path)
        levels = [int(h.name[1]) for h in content.find_all(re.compile(r"^h[1-6]$"))]
        if not levels or levels[0] != 1 or levels.count(1) != 1:
            failures.append(f"/{path}: headings {levels[:6]}... need exactly one h1, first")
        for previous, level in zip(levels, levels[1:]):
            if level > previous + 1:
                failures.append(f"/{path}: heading level skips from h{previous} to h{level}")
                break
        for img in content.find_all("img"):
            if not (img.get("alt") or "").strip():
                failures.append(f"/{path}: image {str(img.get('src'))[:60]} has no alt text")
    assert not failures, "\n".join(failures)


# One page of each kind (the notes pages are built like the post, which has the most math).
AXE_PAGES = ["", "blog/", POST, "notebooks/probability/", "reference/probability/", "sources/"]

AXE_RUN = """(rules) => axe.run(document, {
    runOnly: rules ? {type: 'rule', values: rules} : {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']},
    // MathJax's assistive MathML is visually hidden on purpose, for screen readers; in
    // the second (colour) pass, typeset math (body text colour) is skipped: it is slow
    exclude: rules ? [['mjx-container']] : [['mjx-assistive-mml']],
    resultTypes: ['violations'],
}).then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').split('\\n').slice(1, 2).join(''))})))"""

# Only these rules depend on the palette: the light palette runs every WCAG 2.1 AA rule,
# then the toggle switches to slate and these run again.
AXE_COLOUR_RULES = ["color-contrast", "link-in-text-block"]


@pytest.mark.browser
def test_axe_core_finds_no_violations_in_either_palette(reader):
    assert AXE.exists(), f"{AXE} is missing: run `npm ci` (any make target does)"
    failures = []
    for path in AXE_PAGES:
        page = reader.open(path)
        page.add_script_tag(path=str(AXE))
        for scheme, rules in (("default", None), ("slate", AXE_COLOUR_RULES)):
            if page.evaluate("document.body.getAttribute('data-md-color-scheme')") != scheme:
                assert toggle_palette(page) == scheme
            for violation in page.evaluate(AXE_RUN, rules):
                failures.append(
                    f"/{path} [{scheme}] {violation['id']} ({violation['impact']}): {violation['help']}: {violation['nodes']}"
                )
        toggle_palette(page)  # back to light for the next page (Material remembers it)
    assert not failures, "\n".join(failures)
    assert not reader.problems, reader.problems


def _luminance(colour: str) -> float:
    rgb = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours (1 to 21)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# Material's page backgrounds: default (white) and slate (hsl(225, 15%, 14%)).
BACKGROUNDS = {"light": "#ffffff", "dark": "#1e2129"}


def test_contrast_helper():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_figure_palette_contrast(theme):
    """Lines and marks need 3:1 against the page (WCAG 1.4.11), text 4.5:1 (1.4.3)."""
    import matplotlib as mpl

    from mlnotes import plotting

    background = BACKGROUNDS[theme]
    with plotting.style(theme):
        cycle = [mpl.colors.to_hex(c["color"]) for c in mpl.rcParams["axes.prop_cycle"]]
        text = {
            key: mpl.colors.to_hex(mpl.rcParams[key])
            for key in ("text.color", "axes.labelcolor", "xtick.labelcolor", "ytick.labelcolor")
        }
    palette = [c.lower() for c in plotting.PALETTE] if theme == "light" else []
    failures = [
        f"text {key} {c}: {contrast(c, background):.2f}:1 < 4.5:1"
        for key, c in text.items()
        if contrast(c, background) < 4.5
    ]
    low = sorted({c for c in cycle + palette if contrast(c, background) < 3.0})
    if low:
        used = _figures_using(low, theme)
        failures += [
            f"{c}: {contrast(c, background):.2f}:1 against {background} < 3:1"
            + (f", used in {', '.join(used[c])}" if used.get(c) else "")
            for c in low
        ]
    assert not failures, f"{theme} theme:\n" + "\n".join(failures)


def _figures_using(colours: list[str], theme: str) -> dict[str, list[str]]:
    """Which built figures draw with each colour (for the failure message only)."""
    folder = ROOT / "docs" / "figures"
    found: dict[str, list[str]] = {}
    for svg in sorted(folder.glob("*.svg")):
        if svg.stem.endswith("-dark") != (theme == "dark"):
            continue
        text = svg.read_text(errors="replace").lower()
        for c in colours:
            if c.lower() in text:
                found.setdefault(c, []).append(svg.stem)
    return found
