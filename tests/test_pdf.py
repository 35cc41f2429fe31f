"""The printable book (`make pdf`: scripts/mlnotes_site/printer.py) and the print stylesheet.

The book is printed once per session from the strict build the other site tests use
(conftest.py's `site`), then read back with pypdf: its text (the worked examples, no
TeX left), its outline, its links, its tags, its contents' page numbers. The print
stylesheet is checked in Chromium on a page of the site read in the dark palette.
"""

from __future__ import annotations

import functools
import multiprocessing
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT, SITE_URL
from mlnotes_site.chromium import CHROMIUM, set_scheme, wait_for_math


@pytest.fixture(scope="module")
def book(site, tmp_path_factory):
    """(what print_book returned, a PdfReader of the book, the built chapters' HTML)."""
    from mlnotes_site import printer as pdf
    from bs4 import BeautifulSoup
    from pypdf import PdfReader

    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} not found: `make pdf` prints with Debian's Chromium (apt-get install -y chromium)"
        )
    out = tmp_path_factory.mktemp("pdf") / "mlnotes.pdf"
    # In a process of its own, as `make pdf` runs it: the browser tests' session-wide
    # Playwright (conftest's `browser`) would refuse a second sync Playwright in this one.
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        info = pool.submit(pdf.print_book, site.path, out).result()
    pages = {
        path: BeautifulSoup(
            (site.path / path / "index.html").read_text(encoding="utf-8"), "html.parser"
        )
        for path in pdf.CHAPTERS
    }
    return info, PdfReader(out), pages


@functools.cache  # the module's one book, read once (pypdf takes seconds per read)
def _text(reader) -> tuple[str, ...]:
    return tuple(page.extract_text() for page in reader.pages)


def _code_lines(pages) -> str:
    """Every code block of the chapters, whitespace removed: code may show TeX (a
    matplotlib label, a docstring), prose may not."""
    return "".join(
        re.sub(r"\s+", "", pre.get_text())
        for soup in pages.values()
        for pre in soup.select("article pre")
    )


@pytest.mark.browser
@pytest.mark.slow
def test_the_book_prints_the_worked_examples(book):
    _, reader, _ = book
    text = "\n".join(_text(reader))
    # the standard normal's quantile, as the probability notes compute it
    assert re.search(r"PPF\(0\.025\)\s*=\s*[−-]1\.96", text)
    # Monty Hall: switching wins with probability 2/3 (the typeset posterior and the doctest)
    assert "Fraction(2, 3)" in text and re.search(r"(?<![\d/])2/3(?![\d/])", text)


@pytest.mark.browser
@pytest.mark.slow
def test_the_book_has_no_raw_tex(book):
    _, reader, pages = book
    code = _code_lines(pages)
    leftovers = []
    for number, page in enumerate(_text(reader), 1):
        # arithmatex's delimiters: math MathJax did not typeset shows them; no code has them
        leftovers += [(number, d) for d in ("\\(", "\\[", "$$") if d in page]
        for line in page.splitlines():
            if re.sub(r"\s+", "", line) in code:
                continue
            leftovers += [
                (number, line)
                for m in re.finditer(
                    r"\\(frac|begin|end|label|eqref|mathbf|sum|left|right)\b", line
                )
            ]
    assert not leftovers, leftovers[:10]


def _heading(tag) -> str:
    for mark in tag.select(".headerlink"):
        mark.decompose()
    return " ".join(tag.get_text(" ", strip=True).split())


@pytest.mark.browser
@pytest.mark.slow
def test_the_book_reads_in_order_with_a_title_page_and_contents(book):
    info, reader, pages = book
    from mlnotes_site import printer as pdf

    text = _text(reader)
    titles = [_heading(soup.select_one("article h1")) for soup in pages.values()]
    # the title page: the author, the post's and the notes' dates, every chapter
    assert "Giovani Tavares" in text[0]
    assert "December 24, 2024" in text[0] and "November 23, 2025" in text[0]
    assert all(title in " ".join(text[0].split()) for title in titles)
    assert [c["path"] for c in info["chapters"]] == list(pdf.CHAPTERS)
    # the outline: one entry per chapter, in reading order, each with its sections
    outline = [entry for entry in reader.outline if not isinstance(entry, list)]
    top = [(e.title, reader.get_destination_page_number(e) + 1) for e in outline]
    chapters = [(t, p) for t, p in top if t in titles]
    assert [t for t, _ in chapters] == titles
    assert [p for _, p in chapters] == sorted(p for _, p in chapters)
    for title, soup in zip(titles, pages.values()):
        index = next(
            i for i, e in enumerate(reader.outline) if not isinstance(e, list) and e.title == title
        )
        children = reader.outline[index + 1]
        assert isinstance(children, list), title
        sections = [_heading(h2) for h2 in soup.select("article h2")]
        assert [c.title for c in children if not isinstance(c, list)] == sections
    # the contents give each chapter the page the outline (and the page numbers) give it
    contents = next(
        i
        for i, page in enumerate(text)
        if page.lstrip().startswith("Contents") or "\nContents\n" in page
    )
    flat = " ".join(" ".join(text[contents : contents + 2]).split())
    for title, page in chapters:
        match = re.search(re.escape(title) + r" (\d+)", flat)
        assert match and int(match.group(1)) == page, (title, page, match and match.group(1))
    # page numbers: every page but the title page ends or starts with its own number
    for number, page in enumerate(text[1:], 2):
        lines = [line.strip() for line in page.strip().splitlines()]
        assert str(number) in (lines[0], lines[-1]), (number, lines[:1], lines[-1:])
    assert not any(line.strip() == "1" for line in text[0].strip().splitlines()[-1:])


@pytest.mark.browser
@pytest.mark.slow
def test_links_jump_inside_the_book_and_out_to_the_site(book):
    _, reader, _ = book
    named = {
        str(name).lstrip("/"): reader.get_destination_page_number(d)
        for name, d in reader.named_destinations.items()
    }
    internal, external = [], []
    for number, page in enumerate(reader.pages):
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            if "/Dest" in annot:
                internal.append((number, str(annot["/Dest"]).lstrip("/")))
            elif "/A" in annot and "/URI" in annot["/A"]:
                external.append(str(annot["/A"]["/URI"]))
    assert internal and all(dest in named for _, dest in internal), [
        d for _, d in internal if d not in named
    ][:5]
    # an equation reference (\eqref) jumps to its equation, on the same chapter's pages
    equations = [(n, d) for n, d in internal if "mjx-eqn" in d]
    assert equations and all(named[d] >= 2 for _, d in equations)
    # sections: the contents to each References section, a citation to its entry there
    assert sum(d.endswith("-references") for _, d in internal) >= 4
    assert any(re.match(r"c\d+-ref-", d) for _, d in internal)
    # the API reference and the notebooks are on the deployed site, not on the local server
    assert any(u.startswith(SITE_URL + "reference/") for u in external)
    assert any(u.startswith(SITE_URL + "notebooks/") for u in external)
    assert not [u for u in external if u.startswith(("http://127.0.0.1", "http://localhost"))]


@pytest.mark.browser
@pytest.mark.slow
def test_the_book_is_tagged(book):
    _, reader, _ = book
    root = reader.trailer["/Root"]
    # /MarkInfo /Marked true: the content is tagged (pypdf: a BooleanObject, whose .value is the bool)
    assert "/MarkInfo" in root and getattr(root["/MarkInfo"].get("/Marked"), "value", None) is True
    assert "/StructTreeRoot" in root
    assert str(root.get("/Lang", "")).startswith("en")


@pytest.mark.browser
@pytest.mark.slow
def test_figures_are_vectors(book):
    """A figure's labels are text in the PDF (a vector SVG), not pixels of an image."""
    _, reader, _ = book
    text = " ".join(" ".join(_text(reader)).split())
    assert "fraction of games won" in text  # the Monty Hall figure's y label
    assert "Discrete pmfs" in text


def test_the_book_pdf_is_served_and_linked_when_present(tmp_path, monkeypatch):
    """`make site` after `make pdf`: the PDF goes into the site, linked from its pages."""
    from types import SimpleNamespace

    from mkdocs.config import load_config

    from mlnotes_site.plugins import assets

    pdf_file = tmp_path / "mlnotes.pdf"
    monkeypatch.setattr(assets, "BOOK_PDF", pdf_file)
    config = load_config(str(ROOT / "mkdocs.yml"))
    plugin = config.plugins["mlnotes-assets"]

    def linked(dest_uri):
        page = SimpleNamespace(file=SimpleNamespace(dest_uri=dest_uri))
        return plugin.on_page_context({}, page=page, config=config, nav=None)["in_book_pdf"]

    assert assets._book_pdf(config) == [] and "book_pdf" not in config.extra
    assert not linked("notes/cnn/index.html")
    pdf_file.write_bytes(b"%PDF-1.4\n%%EOF\n")
    [file] = assets._book_pdf(config)
    assert file.dest_uri == "mlnotes.pdf" and config.extra["book_pdf"]["url"] == "mlnotes.pdf"
    # the pages it prints link it (the post where the blog plugin puts it), the others do not
    assert linked("blog/sinusoidal-embeddings/index.html") and linked("notes/cnn/index.html")
    assert linked("notes/cnn.html")  # the offline copy's file names
    assert not linked("notes/sinusoidal-embeddings-in-practice/index.html") and not linked(
        "index.html"
    )


@pytest.mark.browser
@pytest.mark.slow
def test_a_browsers_print_shows_the_article_open_and_light(browser, base_url):
    """Print (Chrome's Ctrl+P: `beforeprint`, print media) of a page read in the dark palette."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(base_url + "notes/probability/")
        wait_for_math(page)
        set_scheme(page, "slate")
        assert page.locator("article details:not([open])").count() > 0
        page.emulate_media(media="print")
        page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
        page.wait_for_timeout(200)
        state = page.evaluate(
            """() => {
              const shown = (sel) => Array.from(document.querySelectorAll(sel))
                .filter((el) => el.getClientRects().length > 0).length;
              return {
                scheme: document.body.getAttribute("data-md-color-scheme"),
                closed: document.querySelectorAll("article details:not([open])").length,
                chrome: shown(".md-header, .md-sidebar, .md-footer, .md-search, .md-tabs, .md-code__nav, .md-tooltip2, .zeroclipboard-container"),
                light: shown("article img[src$='#only-light']"),
                dark: shown("article img[src$='#only-dark']"),
                background: getComputedStyle(document.body).backgroundColor,
              };
            }"""
        )
        assert state["scheme"] == "default"
        assert state["closed"] == 0
        assert state["chrome"] == 0
        assert state["light"] > 0 and state["dark"] == 0
        page.evaluate("() => window.dispatchEvent(new Event('afterprint'))")
        page.wait_for_timeout(200)
        assert page.evaluate("() => document.body.getAttribute('data-md-color-scheme')") == "slate"
        assert page.locator("article details:not([open])").count() > 0
        # a notebook page: its cells' copy buttons (mkdocs-jupyter's) are not printed either
        page.emulate_media(media="screen")
        page.goto(base_url + "notebooks/cnn/")
        buttons = "() => Array.from(document.querySelectorAll('.zeroclipboard-container')).filter((el) => el.getClientRects().length > 0).length"
        assert page.evaluate(buttons) > 0
        page.emulate_media(media="print")
        assert page.evaluate(buttons) == 0
    finally:
        page.close()


def test_the_deployed_site_links_the_pdf():
    """The Pages build prints the book, for the Pages address, before `make site`
    (which then serves and links it), on a machine with Chromium."""
    from test_workflows import CI, installs_chromium, load, step_running, steps

    build = load(CI)["jobs"]["build"]
    order = steps(build)
    pdf_step, site_step = step_running(build, "make pdf"), step_running(build, "make site")
    assert order.index(pdf_step) < order.index(site_step)
    assert pdf_step["env"]["SITE_URL"] == site_step["env"]["SITE_URL"]
    assert installs_chromium(build)
    setup = next(i for i, s in enumerate(order) if s.get("uses") == "./.github/actions/setup")
    assert setup < order.index(pdf_step)
