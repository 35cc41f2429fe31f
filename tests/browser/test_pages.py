"""What each page shows as it loads, read from the session's snapshots (snapshots.py).

Every built page on a phone (360 px, then widened to 1280 px): no console error,
uncaught exception, HTTP error or request leaving localhost; no MathJax error, undefined
macro, TeX left as text or image that did not load; no sideways scroll (long math breaks
or scrolls in its own box). On a desktop: the landing page and the blog index; math
typeset, numbered and linked; figures that follow the palette, with alt text and
captions; notebooks executed, typeset and downloadable; the sources page.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from urllib.parse import unquote, urlparse

import pytest

from .built import static_target_exists
from .snapshots import CONTENT, POST
from .tab import math_problems

pytestmark = pytest.mark.browser

# The seed versions the site ports (docs/sources.md), with the date of each.
SEEDS = {
    "000": "2024-12-24",
    "001": "2024-12-27",
    "002": "2024-12-30",
    "003": "2025-11-23",
    "004": "2025-07-15",
}


# --------------------------------------------------------------------------------------
# Every page, on a phone
# --------------------------------------------------------------------------------------


def _every_page(site, phone) -> dict:
    pages = site.pages()
    assert len(pages) >= 10, pages
    return {path: phone[path] for path in pages}


def _report(failures: dict[str, list[str]]) -> str:
    return "\n".join(f"{p}:\n  " + "\n  ".join(v) for p, v in failures.items())


def test_every_page_loads_without_a_problem(site, phone):
    """No console error, uncaught exception, HTTP error or request leaving localhost, and
    nothing timed out, while the page loaded and was checked."""
    failures = {path: visit.problems for path, visit in _every_page(site, phone).items()}
    assert not any(failures.values()), _report({p: v for p, v in failures.items() if v})


def test_every_page_shows_its_math_and_images(site, phone):
    """No MathJax error, undefined macro (red math), TeX left as text, or image that did
    not load."""
    failures = {}
    for path, visit in _every_page(site, phone).items():
        problems = []
        if visit["merrors"]["count"]:
            problems.append(
                f"{visit['merrors']['count']} MathJax errors: {visit['merrors']['first']}"
            )
        if visit["red"]:
            problems.append(f"undefined macros (red math): {visit['red']}")
        if visit["leftover"]:
            problems.append(f"untypeset TeX in the text: {visit['leftover']}")
        if visit["broken"]:
            problems.append(f"images that did not load: {visit['broken']}")
        if problems:
            failures[path] = problems
    assert not failures, _report(failures)


def test_no_page_scrolls_sideways(site, phone):
    """At a phone's 360 px nor, the same page widened, at a desktop's 1280 px, in each
    palette for the reading pages: long math breaks or scrolls in its own box."""
    failures = {}
    for path, visit in _every_page(site, phone).items():
        problems = [
            f"[{scheme}] the page is {measured['scrollWidth']} px wide in a {width} px window: "
            f"{measured['sticking']}"
            for width, by_scheme in visit["width"].items()
            for scheme, measured in by_scheme.items()
            if measured["scrollWidth"] > measured["innerWidth"] or measured["sticking"]
        ]
        if problems:
            failures[path] = problems
    assert not failures, _report(failures)


# --------------------------------------------------------------------------------------
# Landing page and blog index
# --------------------------------------------------------------------------------------

DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b(?:January|February|March|April|May|June|July|August|September|"
    r"October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\.? \d{1,2},? \d{4}\b"
)


def test_landing_page_lists_the_post_and_the_notes(desktop):
    landing = desktop[""]
    intro = landing["intro"]
    assert len(intro.split()) >= 20, f"the landing page does not say what the site is: {intro!r}"
    failures = []
    for path in CONTENT:
        entries = [e for e in landing["entries"] if e["path"] == "/" + path]
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
    assert not landing.problems, landing.problems


def test_blog_index_shows_excerpt_categories_and_reading_time(desktop, base_url):
    blog = desktop["blog/"]
    posts = blog["excerpts"]
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
    for href in blog["category_links"]:
        assert href.startswith("/blog/category/"), href
        with urllib.request.urlopen(base_url + href.lstrip("/")) as response:
            assert POST.split("/")[-2] in response.read().decode("utf-8"), href
    assert not blog.problems, blog.problems


# --------------------------------------------------------------------------------------
# Math
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CONTENT)
def test_math_is_typeset_numbered_and_linked(desktop, path):
    visit = desktop[path]
    state = visit["math"]
    assert state["containers"] > 0, f"{path}: no math typeset"
    problems = math_problems(state, visit["leftover"], visit.console)
    assert not problems, f"{path}:\n" + "\n".join(problems)
    # display equations that carry a \label are numbered: a page that references its
    # equations has numbers and every reference has a target (checked above)
    if state["refs"]:
        assert state["numbers"], f"{path}: \\eqref links but no numbered equation"
    assert not visit.problems, visit.problems


def test_the_post_numbers_its_equations(desktop):
    state = desktop[POST]["math"]
    assert state["displays"] >= 10, state["displays"]
    assert len(state["numbers"]) >= 10, (
        f"only {len(state['numbers'])} numbered equations on the post"
    )
    assert len(state["refs"]) >= 3, f"only {len(state['refs'])} \\eqref links on the post"


# --------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------

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


WEAK_ALT = re.compile(
    r"^(figure|image|img|plot|chart|graph|picture|screenshot)?\s*\d*$|\.(svg|png|jpe?g)$", re.I
)


@pytest.mark.parametrize("path", CONTENT)
def test_figures_follow_the_palette_and_have_alt_text_and_captions(site, desktop, base_url, path):
    """Light variant under the light palette, dark under the dark one (the snapshot clicks
    Material's toggle); alt text that says what the figure shows; a caption that links
    to the script that drew it and to the mlnotes function it calls."""
    visit = desktop[path]
    figures = visit["figures"]
    assert figures, f"{path}: no figure"
    failures = []
    expected = {"default": ["light"], "slate": ["dark"]}
    # light as it loads, toggled to dark, toggled back to light
    assert visit["schemes"] == ["default", "slate", "default"], visit["schemes"]
    for scheme, seen in zip(
        visit["schemes"], ("figures", "figures_toggled", "figures_toggled_back")
    ):
        shown = _figures_by_theme(visit[seen])
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
            if unquote(link["hash"][1:]) not in visit["ids"]:
                failures.append(f"{name}: caption link {link['hash']} has no target on the page")
        api = [link for link in fig["links"] if "/reference/" in urlparse(link["href"]).path]
        if not api:
            failures.append(
                f"{name}: the caption does not link to the mlnotes function it calls (API reference)"
            )
        for link in api:
            if not static_target_exists(site, link["href"].replace(base_url, "/")):
                failures.append(f"{name}: API link {link['href']} does not resolve")
    assert not failures, f"{path}:\n" + "\n".join(failures)
    assert not visit.problems, visit.problems


# --------------------------------------------------------------------------------------
# Notebooks
# --------------------------------------------------------------------------------------


def notebook_pages(site) -> list[str]:
    return [p for p in site.pages() if p.startswith("notebooks/")]


def test_every_notebook_is_rendered_executed_typeset_and_downloadable(site, desktop):
    import nbformat

    pages = notebook_pages(site)
    assert len(pages) >= 4, pages
    failures = []
    for path in pages:
        visit = desktop[path]
        state = visit["notebook"]
        failures += [f"{path}: {p}" for p in visit.problems]
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
        failures += [
            f"{path}: {p}" for p in math_problems(visit["math"], visit["leftover"], visit.console)
        ]
        downloads = [d for d in state["download"] if d["download"]]
        if not downloads:
            failures.append(f"{path}: no .ipynb download link")
            continue
        try:
            with urllib.request.urlopen(downloads[0]["href"]) as response:
                text = response.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            failures.append(f"{path}: download {downloads[0]['href']} -> HTTP {exc.code}")
            continue
        notebook = nbformat.reads(text, as_version=4)
        nbformat.validate(notebook)
        if len(notebook.cells) != state["cells"]:
            failures.append(
                f"{path}: the download has {len(notebook.cells)} cells, the page {state['cells']}"
            )
        has_math = any(c.cell_type == "markdown" and "$" in c.source for c in notebook.cells)
        if has_math and not state["markdownMath"]:
            failures.append(f"{path}: markdown cells have $math$ but none is typeset")
    assert not failures, "\n".join(failures)


# --------------------------------------------------------------------------------------
# Sources page
# --------------------------------------------------------------------------------------


def test_sources_page_lists_seeds_and_links_every_correction(site, desktop, base_url):
    sources = desktop["sources/"]
    rows = sources["table_rows"]
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
    links = sources["sources_links"]
    # every link of the sources page that points into the site resolves
    internal = [link for link in links if link["href"].startswith(base_url)]
    for link in internal:
        if not static_target_exists(site, "/" + link["href"][len(base_url) :]):
            # equation anchors exist only after MathJax: checked in the browser below
            if "#mjx-eqn" not in link["href"]:
                failures.append(f"sources link {link['href']} ({link['text']!r}) does not resolve")
    # every correction on the site is linked from the sources page
    linked = {}
    for link in internal:
        parsed = urlparse(link["href"])
        linked.setdefault(parsed.path, set()).add(unquote(parsed.fragment))
    total = 0
    problems = list(sources.problems)
    for path in CONTENT:
        visit = desktop[path]
        problems += visit.problems
        corrections = visit["corrections"]
        total += len(corrections)
        targets = linked.get("/" + path, set())
        for fragment in targets:
            if fragment.startswith("mjx-eqn") and fragment not in visit["ids"]:
                failures.append(f"sources link /{path}#{fragment} has no target")
        for correction in corrections:
            if not targets & set(correction["ids"]):
                failures.append(
                    f"/{path}: correction {correction['text']!r} is not linked from the sources page"
                )
    assert total > 0, "no 'Correction' admonition on any page"
    assert not failures, "\n".join(failures)
    assert not problems, problems
