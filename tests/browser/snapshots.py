"""Snapshots: each page visited once per viewport, and what the read-only tests read.

A desktop visit (1280 x 900) records the page as it loads in the light palette (its
math, ids, equation tags, links, figures, notebook plots, notebook and sources tables,
axe-core's findings on AXE_PAGES), clicks Material's palette toggle to dark (figures,
notebook plots, axe-core's colour rules), and back to light (figures again). A phone visit
(360 x 800) records the smoke checks (MathJax errors, undefined macros, TeX left as text,
images that did not load) and the page's width, in both palettes for the reading pages,
at 360 px and once widened to 1280 px. Each visit has a context of its own and keeps what
went wrong while it ran (console errors, uncaught exceptions, HTTP errors, requests that
leave localhost, a probe that timed out) in `problems`. Pages are visited when a test
first asks for them, once per session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mlnotes_site.chromium import LEFTOVER_TEX, set_scheme, wait_for_math

from .tab import (
    ANIMATIONS_SETTLED,
    DESKTOP,
    MATH_STATE,
    scheme_of,
    toggle_palette,
    watch,
)

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

POST = "blog/sinusoidal-embeddings/"
NOTES = ["notes/probability/", "notes/linear-algebra/", "notes/cnn/"]
CONTENT = [POST, *NOTES]
# The reading pages: a phone visit measures their width in both palettes.
READING = [*CONTENT, "notes/sinusoidal-embeddings-in-practice/"]
PHONE = {"width": 360, "height": 800}

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


# --------------------------------------------------------------------------------------
# What a desktop visit records (each a function of no argument, run in the page)
# --------------------------------------------------------------------------------------

# Every element id on the page (the targets of links and \eqref's).
IDS = "() => [...document.querySelectorAll('[id]')].map(e => e.id)"

# The tag MathJax gives each labelled equation, by the id of its tag cell (the first
# element with that id, as getElementById finds it): CHTML draws its characters with CSS,
# so the text of the tag cell, or else of the first label cell of the assistive MathML.
EQUATION_TAGS = """() => {
    const tags = {};
    for (const td of document.querySelectorAll('[id^="mjx-eqn"]')) {
        if (td.id in tags) continue;
        const c = td.closest('mjx-container');
        const mml = c && c.querySelector('mjx-assistive-mml mlabeledtr > mtd:first-child');
        tags[td.id] = (td.innerText.trim() || (mml ? mml.textContent : '')).trim();
    }
    return tags;
}"""

# For each display block: the hook's count of the numbered equations before it, and the
# first equation number MathJax gives the block (from its assistive MathML).
BLOCK_NUMBERS = """() => [...document.querySelectorAll('.arithmatex[data-eqn-start]')].map(div => {
    const tag = div.querySelector('mjx-assistive-mml mlabeledtr > mtd:first-child');
    return [Number(div.dataset.eqnStart), tag ? tag.textContent.trim() : null];
}).filter(([, tag]) => tag !== null)"""

# Each link of the article: its path, its text, and the text of the row or list item
# around it.
ENTRIES = """() => [...document.querySelectorAll('article a[href]')].map(a => {
    const row = a.closest('tr, li, dd, p, .md-post, section') || a.parentElement;
    return {path: new URL(a.href).pathname, link: a.textContent.trim(),
            text: row.textContent.replace(/\\s+/g, ' ').trim()};
})"""

INTRO = "() => [...document.querySelectorAll('article > p')].map(p => p.textContent).join(' ')"

BLOG_EXCERPTS = """() => [...document.querySelectorAll('article.md-post--excerpt')].map(post => ({
    title: (post.querySelector('.md-post__content h2, .md-post__content h1') || {}).textContent,
    date: (post.querySelector('time') || {}).textContent,
    categories: [...post.querySelectorAll('.md-meta__list a[href*="category"]')].map(a => a.textContent.trim()),
    meta: post.querySelector('.md-meta__list') ? post.querySelector('.md-meta__list').textContent.replace(/\\s+/g, ' ') : '',
    words: [...post.querySelectorAll('.md-post__content p')].map(p => p.textContent).join(' ').split(/\\s+/).filter(Boolean).length,
    more: [...post.querySelectorAll('.md-post__action a')].map(a => new URL(a.href).pathname),
}))"""

CATEGORY_LINKS = """() => [...document.querySelectorAll('.md-meta__list a[href*="category"]')].map(a => new URL(a.href).pathname)"""

FIGURES = """() => [...document.querySelectorAll('article figure')].filter(f => f.querySelector('img')).map(f => ({
    id: f.id,
    images: [...f.querySelectorAll('img')].map(img => ({
        src: img.getAttribute('src'), alt: img.getAttribute('alt') || '',
        visible: img.offsetParent !== null && img.getBoundingClientRect().width > 0 && getComputedStyle(img).display !== 'none',
    })),
    caption: f.querySelector('figcaption') ? f.querySelector('figcaption').textContent.replace(/\\s+/g, ' ').trim() : null,
    links: [...f.querySelectorAll('figcaption a[href]')].map(a => ({href: a.href, hash: new URL(a.href).hash, samePage: new URL(a.href).pathname === location.pathname})),
}))"""

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
    mlnotesDownload: (document.querySelector('a.mlnotes-download') || {}).href || null,
})"""

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

TABLE_ROWS = """() => [...document.querySelectorAll('article tr')].map(r => [...r.cells].map(c => c.textContent.trim()))"""

SOURCES_LINKS = """() => [...document.querySelectorAll('article a[href]')]
    .filter(a => !a.closest('.md-source-file, .headerlink'))
    .map(a => ({href: a.href, text: a.textContent.trim(), row: (a.closest('tr, li, p') || a).textContent.replace(/\\s+/g, ' ').trim()}))"""

THEMED_PLOTS = "() => document.querySelectorAll('.mlnotes-themed-plot').length"

# Recorded on every desktop visit in the light palette as it loads.
LOADED = {
    "ids": IDS,
    "equation_tags": EQUATION_TAGS,
    "block_numbers": BLOCK_NUMBERS,
    "entries": ENTRIES,
    "intro": INTRO,
    "excerpts": BLOG_EXCERPTS,
    "category_links": CATEGORY_LINKS,
    "figures": FIGURES,
    "notebook": NOTEBOOK_STATE,
    "corrections": CORRECTIONS,
    "table_rows": TABLE_ROWS,
    "sources_links": SOURCES_LINKS,
    "themed_plots": THEMED_PLOTS,
}

# Each notebook plot (drawn in both figure styles, one shown per palette): the images
# shown (visible as Playwright's `:visible` has it: a box of some size, not
# visibility-hidden), and the mean luminance of the one shown drawn over the page's
# background (the figures are transparent), over the whole image and over its outer
# frame (8% of each side: axis labels, ticks and background, where the themes differ; a
# heatmap's body does not). The plots load lazily: the one measured is fetched first.
PLOTS = """async () => {
    const bg = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);
    const shown = img => { const r = img.getBoundingClientRect();
        return img.checkVisibility() && getComputedStyle(img).visibility === 'visible' && r.width > 0 && r.height > 0; };
    const luminance = async img => {
        img.loading = 'eager';  // a plot out of view is not fetched yet (loading="lazy")
        await img.decode().catch(() => null);
        const canvas = document.createElement('canvas');
        const w = canvas.width = img.naturalWidth, h = canvas.height = img.naturalHeight;
        const ctx = canvas.getContext('2d');
        ctx.fillStyle = `rgb(${bg[0]}, ${bg[1]}, ${bg[2]})`;
        ctx.fillRect(0, 0, w, h);
        ctx.drawImage(img, 0, 0);
        const d = ctx.getImageData(0, 0, w, h).data;
        const mx = Math.ceil(0.08 * w), my = Math.ceil(0.08 * h);
        let all = 0, frame = 0, nframe = 0;
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
            const i = 4 * (y * w + x);
            const l = (0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2]) / 255;
            all += l;
            if (x < mx || x >= w - mx || y < my || y >= h - my) { frame += l; nframe++; }
        }
        return { all: all / (w * h), frame: frame / nframe };
    };
    const plots = [];
    for (const plot of document.querySelectorAll('.mlnotes-themed-plot')) {
        const visible = [...plot.querySelectorAll('img')].filter(shown);
        plots.push({visible: visible.map(img => img.className),
                    luminance: visible.length === 1 ? await luminance(visible[0]) : null});
    }
    return plots;
}"""


def _all(probes: dict[str, str]) -> str:
    """One function of the page that returns every probe's result, by name."""
    return "() => ({" + ", ".join(f"{name!r}: ({js})()" for name, js in probes.items()) + "})"


# --------------------------------------------------------------------------------------
# What a phone visit records
# --------------------------------------------------------------------------------------

BROKEN_IMAGES = """() => [...document.querySelectorAll('article img')]
    .filter(img => !(img.complete && img.naturalWidth > 0))
    .map(img => img.getAttribute('src'))"""

# Undefined macros are drawn in red by MathJax's noundefined extension.
RED_MATH = """() => [...document.querySelectorAll('mjx-container [style*="color"]')]
    .filter(e => /red|rgb\\(255, 0, 0\\)/.test(e.getAttribute('style')))
    .map(e => e.textContent).slice(0, 5)"""

MERRORS = """() => { const e = document.querySelectorAll('mjx-merror');
    return {count: e.length, first: e.length ? e[0].textContent : null} }"""

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

SMOKE = {"merrors": MERRORS, "red": RED_MATH, "leftover": LEFTOVER_TEX, "broken": BROKEN_IMAGES}


# --------------------------------------------------------------------------------------
# Visits
# --------------------------------------------------------------------------------------


@dataclass
class Visit:
    """What one visit of a page recorded, and what went wrong while it ran."""

    path: str
    problems: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    records: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str):
        if name not in self.records:  # the visit stopped before it got there
            raise AssertionError(f"/{self.path}: {name!r} not recorded: {self.problems}")
        return self.records[name]


def record_desktop(page, path: str, records: dict) -> None:
    wait_for_math(page)
    records["math"] = page.evaluate(MATH_STATE)
    records["leftover"] = page.evaluate(LEFTOVER_TEX)
    records.update(page.evaluate(_all(LOADED)))
    schemes = [scheme_of(page)]
    records["schemes"] = schemes
    plots = records["themed_plots"] > 0
    axe = path in AXE_PAGES and AXE.exists()
    if plots:
        records["plots"] = {schemes[-1]: page.evaluate(PLOTS)}
    if axe:
        page.add_script_tag(path=str(AXE))
        records["axe"] = {schemes[-1]: page.evaluate(AXE_RUN, None)}
    schemes.append(toggle_palette(page))  # to dark
    page.evaluate(ANIMATIONS_SETTLED)
    records["figures_toggled"] = page.evaluate(FIGURES)
    if plots:
        records["plots"][schemes[-1]] = page.evaluate(PLOTS)
    if axe:
        records["axe"][schemes[-1]] = page.evaluate(AXE_RUN, AXE_COLOUR_RULES)
    schemes.append(toggle_palette(page))  # and back to light
    page.evaluate(ANIMATIONS_SETTLED)
    records["figures_toggled_back"] = page.evaluate(FIGURES)


# Plots that load lazily (loading="lazy": the notebooks' outputs) are fetched now, each
# awaited, so that one that did not load is one that cannot, not one out of view.
LAZY_IMAGES_LOADED = """async () => {
    const lazy = [...document.querySelectorAll('article img[loading=lazy]')];
    for (const img of lazy) img.loading = 'eager';
    await Promise.all(lazy.map(img => img.decode().catch(() => null)));
}"""


def record_phone(page, path: str, records: dict) -> None:
    wait_for_math(page)
    page.evaluate(LAZY_IMAGES_LOADED)
    records.update(page.evaluate(_all(SMOKE)))
    records["width"] = {360: widths(page, path)}
    page.set_viewport_size({"width": 1280, "height": 800})
    # the resize's layout, then the transitions it starts (Material's search field eases
    # to its new width over a quarter second: the page is 1334 px wide meanwhile)
    page.wait_for_timeout(100)
    page.evaluate(ANIMATIONS_SETTLED)
    records["width"][1280] = widths(page, path)


def widths(page, path: str) -> dict[str, dict]:
    """WIDTH in the light palette and, on a reading page, in the dark one (then light again)."""
    measured = {}
    for scheme in ("default", "slate") if path in READING else ("default",):
        set_scheme(page, scheme)
        measured[scheme] = page.evaluate(WIDTH)
    set_scheme(page, "default")
    return measured


class Snapshots:
    """The site's pages, each visited once (when first asked for) in a viewport."""

    def __init__(self, browser, base_url: str, viewport: dict, record):
        self.browser, self.base, self.viewport, self.record = browser, base_url, viewport, record
        self.visits: dict[str, Visit] = {}

    def __getitem__(self, path: str) -> Visit:
        if path not in self.visits:
            self.visits[path] = self._visit(path)
        return self.visits[path]

    def _visit(self, path: str) -> Visit:
        visit = Visit(path)
        context = self.browser.new_context(sink=visit.problems, viewport=self.viewport)
        try:
            page = context.new_page()
            watch(page, visit.problems, visit.console)
            page.goto(self.base + path, wait_until="load")
            self.record(page, path, visit.records)
        except Exception as exc:  # a timeout (waiting for MathJax, a toggle) fails this page
            visit.problems.append(f"{type(exc).__name__}: {exc}")
        finally:
            context.close()
        return visit


def desktop_snapshots(browser, base_url: str) -> Snapshots:
    return Snapshots(browser, base_url, DESKTOP, record_desktop)


def phone_snapshots(browser, base_url: str) -> Snapshots:
    return Snapshots(browser, base_url, PHONE, record_phone)
