"""How a page is cited (issue 33): the post and each notes page end with a collapsed "Cite
this page" block whose BibTeX parses (pybtex) and names the page's title, author, date and
address, with a text form; they carry the Highwire Press tags Google Scholar reads; the
other pages have neither. With the book (`make pdf`), the pages it prints cite it too and
the landing page gives its entry: checked on a tiny project with a stand-in PDF.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from pybtex.database import parse_string

import tiny
from browser.built import parsed, text_without
from conftest import SITE_URL

ROOT = Path(__file__).resolve().parents[1]
AUTHORS = yaml.safe_load((ROOT / "docs/blog/.authors.yml").read_text("utf-8"))["authors"]


def front_matter(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n", 2)[1]) if text.startswith("---\n") else {}


def citable_sources() -> dict[str, Path]:
    """The post and notes pages whose front matter names authors and a date, by URL path."""
    found = {}
    for path in sorted((ROOT / "docs/blog/posts").glob("*.md")):
        found[f"blog/{front_matter(path)['slug']}/"] = path
    for path in sorted((ROOT / "docs/notes").glob("*.md")):
        meta = front_matter(path)
        if meta.get("authors") and meta.get("date"):
            found[f"notes/{path.stem}/"] = path
    return found


CITABLE = citable_sources()


def doc(site_path: Path, page: str) -> BeautifulSoup:
    """The built page, parsed once per test process (shared: never change it)."""
    return parsed(site_path / page / "index.html")


def title_of(page: BeautifulSoup) -> str:
    return " ".join(text_without(page.find("h1"), ".headerlink").split())


def scholar(page: BeautifulSoup) -> list[tuple[str, str]]:
    return [
        (m["name"], m["content"])
        for m in page.find_all("meta")
        if m.get("name", "").startswith("citation_")
    ]


def blocks(page: BeautifulSoup):
    return page.select("article details.mlnotes-cite-this")


def codes(block) -> dict[str, list[str]]:
    """The block's code blocks by language, as their text (what the copy button copies)."""
    found: dict[str, list[str]] = {}
    for div in block.select("div.highlight"):
        language = next(c for c in div["class"] if c.startswith("language-"))[9:]
        found.setdefault(language, []).append(div.find("code").get_text())
    return found


def test_the_citable_pages_are_the_post_and_the_authors_notes():
    assert set(CITABLE) == {
        "blog/sinusoidal-embeddings/",
        "notes/probability/",
        "notes/linear-algebra/",
        "notes/cnn/",
    }
    # the companion page is the site's, not the author's: nothing to cite it by
    assert not front_matter(ROOT / "docs/notes/sinusoidal-embeddings-in-practice.md").get("authors")


@pytest.mark.parametrize("page", sorted(CITABLE))
def test_a_citable_page_ends_with_its_bibtex_and_text_citation(site, page):
    meta = front_matter(CITABLE[page])
    html = doc(site.path, page)
    (block,) = blocks(html)
    assert not block.has_attr("open"), "the block is collapsed"
    assert block.find("summary").get_text(strip=True) == "Cite this page"
    # at the end: nothing but whitespace after it in the article (References come before)
    article = block.find_parent("article")
    after = [
        el
        for el in block.find_all_next()
        if el.find_parent("article") is article and block not in el.parents
    ]
    assert not after, after[:3]
    assert block.find_previous("h2").get_text(strip=True).startswith("References")
    found = codes(block)
    from mlnotes_site.printer import CHAPTERS

    in_book = (site.path / "mlnotes.pdf").is_file() and page in CHAPTERS
    # the page's entry, then the book's where the site serves the book and prints the page
    assert len(found["bibtex"]) == (2 if in_book else 1)
    bibtex = found["bibtex"][0]
    if in_book:
        (book,) = parse_string(found["bibtex"][1], "bibtex").entries.values()
        assert (book.type, book.fields["url"]) == ("book", SITE_URL + "mlnotes.pdf")
    (text,) = found["text"]
    entries = parse_string(bibtex, "bibtex").entries
    assert len(entries) == 1
    (key,) = entries
    entry = entries[key]
    title = title_of(html)
    date = meta["date"].get("updated", meta["date"]["created"])
    url = SITE_URL + page
    assert entry.type == "online"
    assert entry.fields["title"].strip("{}") == title
    names = [AUTHORS[a]["name"] for a in meta["authors"]]
    assert [" ".join(p.first_names + p.last_names) for p in entry.persons["author"]] == names
    assert entry.fields["date"] == date.isoformat()
    assert entry.fields["url"] == url
    assert "urldate" not in entry.fields  # the reader's to add
    assert (site.path / page / "index.html").is_file()  # the address is a page of the site
    # the text form: the same work (pybtex's plain style)
    month = date.strftime("%B")
    assert text.strip() == f"{', '.join(names)}. {title}. mlnotes, {month} {date.year}. URL: {url}."
    # each in a code block, which Material gives its copy button
    assert len(block.select("pre > code")) == 2 + in_book


def test_pages_that_cannot_be_cited_have_no_block_and_no_scholar_tags(site):
    others = [p for p in site.pages() if p not in CITABLE]
    assert "notes/sinusoidal-embeddings-in-practice/" in others and len(others) >= 15
    book = (site.path / "mlnotes.pdf").is_file()
    for page in others:
        html = doc(site.path, page)
        # the landing page cites the book, where the site serves it
        expected = ["Cite the printed book"] if page == "" and book else []
        assert [b.find("summary").get_text(strip=True) for b in blocks(html)] == expected, page
        assert not scholar(html), page


@pytest.mark.parametrize("page", sorted(CITABLE))
def test_a_citable_page_has_the_highwire_press_tags(site, page):
    meta = front_matter(CITABLE[page])
    html = doc(site.path, page)
    tags = scholar(html)
    created = meta["date"]["created"]
    updated = meta["date"].get("updated")
    expected = [("citation_title", title_of(html))]
    for a in meta["authors"]:
        first, last = AUTHORS[a]["name"].rsplit(" ", 1)
        expected.append(("citation_author", f"{last}, {first}"))
    expected.append(("citation_publication_date", created.strftime("%Y/%m/%d")))
    if updated and updated != created:
        expected.append(("citation_online_date", updated.strftime("%Y/%m/%d")))
    book = site.path / "mlnotes.pdf"
    from mlnotes_site.printer import CHAPTERS

    if book.is_file() and page in CHAPTERS:  # a build with `make pdf`'s book
        expected.append(("citation_pdf_url", SITE_URL + "mlnotes.pdf"))
    assert tags == expected


def test_the_landing_page_cites_the_book_when_the_site_serves_it(site):
    landing = blocks(doc(site.path, ""))
    assert len(landing) == (1 if (site.path / "mlnotes.pdf").exists() else 0)


# ---------------------------------------------------------------------------------------
# The plugin's parts (no build)
# ---------------------------------------------------------------------------------------


def test_an_entry_escapes_what_bibtex_reads_as_markup():
    from mlnotes_site.plugins.cite import Work

    work = Work(
        kind="online",
        key="doe2025r-and-d",
        title="R&D at 50% of #1: a_b",
        authors=("Jane Doe", "John Q. Public"),
        created=dt.date(2025, 1, 2),
        updated=None,
        url="https://example.org/x/",
        site="site_name",
    )
    entry = parse_string(work.bibtex(), "bibtex").entries["doe2025r-and-d"]
    assert entry.fields["title"] == r"{R\&D at 50\% of \#1: a\_b}"
    assert entry.fields["organization"] == r"site\_name"
    assert [str(p) for p in entry.persons["author"]] == ["Doe, Jane", "Public, John Q."]
    assert work.text().startswith("Jane Doe and John Q. Public. R&D at 50% of #1: a_b. site_name,")
    assert work.scholar_tags() == [
        ("citation_title", "R&D at 50% of #1: a_b"),
        ("citation_author", "Doe, Jane"),
        ("citation_author", "Public, John Q."),
        ("citation_publication_date", "2025/01/02"),
    ]


def test_front_matter_dates_are_checked():
    from mkdocs.exceptions import PluginError

    from mlnotes_site.plugins.cite import dates

    assert dates({}, "x.md") is None
    assert dates({"date": dt.date(2025, 1, 2)}, "x.md") == (dt.date(2025, 1, 2), None)
    both = {"created": dt.date(2024, 12, 24), "updated": dt.date(2024, 12, 30)}
    assert dates({"date": both}, "x.md") == (both["created"], both["updated"])
    with pytest.raises(PluginError, match="before"):
        dates({"date": {"created": both["updated"], "updated": both["created"]}}, "x.md")
    with pytest.raises(PluginError, match="x.md"):
        dates({"date": "soon"}, "x.md")


# ---------------------------------------------------------------------------------------
# The book: a tiny project with a stand-in mlnotes.pdf
# ---------------------------------------------------------------------------------------

NOTES = """\
---
authors: [ana]
date:
  created: 2025-07-15
  updated: 2025-11-23
---

# Probability: Univariate Models

Text.
"""


@pytest.mark.slow
def test_with_the_book_its_pages_and_the_landing_page_cite_it(tmp_path):
    tree = tiny.project(
        tmp_path,
        {
            "docs/index.md": "---\ntitle: Tiny\n---\n\n# Tiny\n\nThe notes.\n",
            "docs/notes/probability.md": NOTES,
            "docs/notes/other.md": "# Other\n\nNot in the book.\n",
            "docs/.authors.yml": "authors:\n  ana:\n    name: Ana Lima\n",
            "mlnotes.pdf": b"%PDF-1.4\n% a stand-in\n",
        },
        plugins=["mlnotes-assets", {"mlnotes-cite": {"authors_file": ".authors.yml"}}],
        node_modules=True,
        site_url="https://example.org/tiny/",
        theme={"name": "material", "custom_dir": str(ROOT / "overrides")},
        markdown_extensions=[
            *tiny.MARKDOWN_EXTENSIONS,
            "admonition",
            "pymdownx.details",
            "pymdownx.superfences",
            {"pymdownx.highlight": {"pygments_lang_class": True}},
        ],
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr
    notes = doc(built.site, "notes/probability/")
    (block,) = blocks(notes)
    bibtex = codes(block)["bibtex"]
    assert len(bibtex) == 2  # the page's entry, then the book's
    book = parse_string(bibtex[1], "bibtex").entries
    ((key, entry),) = book.items()
    from mlnotes_site.printer import BOOK_TITLE

    assert entry.type == "book"
    assert entry.fields["title"].strip("{}") == BOOK_TITLE
    assert entry.fields["url"] == "https://example.org/tiny/mlnotes.pdf"
    assert entry.fields["date"] == "2025-11-23"
    assert str(entry.persons["author"][0]) == "Lima, Ana"
    assert "chapter 2" in block.get_text()  # notes/probability/ is printer.CHAPTERS[1]
    assert ("citation_pdf_url", "https://example.org/tiny/mlnotes.pdf") in scholar(notes)
    # a page the book does not print: no citation at all (no authors), no pdf tag
    other = doc(built.site, "notes/other/")
    assert not blocks(other) and not scholar(other)
    # the landing page: the book's entry, under its link
    (landing,) = blocks(doc(built.site, ""))
    assert landing.find("summary").get_text(strip=True) == "Cite the printed book"
    (entry_text,) = codes(landing)["bibtex"]
    assert parse_string(entry_text, "bibtex").entries[key].fields["url"].endswith("/mlnotes.pdf")
    assert re.search(r'href="mlnotes\.pdf"', str(landing))


def test_the_offline_copy_cites_only_a_deployed_address(offline_site):
    """Offline pages are notes/cnn.html; a citation names the deployed page (notes/cnn/),
    and a copy built without a deployed address (SITE_URL unset) cites nothing."""
    page = offline_site.path / "notes" / "cnn.html"
    html = BeautifulSoup(page.read_text("utf-8"), "html.parser")
    canonical = html.find("link", rel="canonical")["href"]
    deployed = canonical.removesuffix("notes/cnn.html")
    if re.match(r"https?://(127\.0\.0\.1|localhost)[:/]", canonical):
        assert not blocks(html) and not scholar(html)
    else:
        (block,) = blocks(html)
        (bibtex,) = codes(block)["bibtex"]
        (entry,) = parse_string(bibtex, "bibtex").entries.values()
        assert entry.fields["url"] == deployed + "notes/cnn/"
