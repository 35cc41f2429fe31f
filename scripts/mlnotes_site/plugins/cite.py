"""The `mlnotes-cite` plugin (mkdocs.yml `plugins:`): how to cite a page, and the book.

A page can be cited when its front matter names its `authors` (keys of the blog's authors
file, docs/blog/.authors.yml, as a post's do) and its `date` (`created`, and `updated`
for a revised version): the post and the author's notes pages. (The companion page,
notes/sinusoidal-embeddings-in-practice.md, is the site's, not the author's: it has
neither, and the printed book leaves it out too.) From that front matter, the page's
title and the site's address (`site_url`, from SITE_URL), never typed by hand, it gets:

- a "Cite this page" block at its end, collapsed: its BibTeX entry (`@online`, with its URL
  and `date`, the date of the version shown; `urldate`, the day it was read, is left to
  the reader) and the same entry as text, in pybtex's plain style as the References lists
  (citations.py); each in a code block, with Material's copy button. A page the book
  prints also gets the book's entry (`@book`, with the PDF's URL);
- the Highwire Press tags that Google Scholar reads, for overrides/main.html (`cite_tags`
  in its context): `citation_title`, `citation_author`, `citation_publication_date` (the
  first version's date), `citation_online_date` (the version shown, where it differs) and,
  on a page the book prints, `citation_pdf_url` (the book);
- the author and dates of its social card (Material's social plugin: the page's
  `social.cards_layout_options`, which the site's card layout reads: plugins/cards.py).

The landing page gets the book's entry too, when the build has the book (`make pdf`, then
mlnotes-assets serves and links `mlnotes.pdf`). The book's date is the latest of its
chapters' (printer.py's CHAPTERS).

A page is cited at its address on the deployed site, with directory URLs (`notes/cnn/`),
also in the offline copy (`make offline`), whose files are `notes/cnn.html`. An offline
copy built without a deployed address (SITE_URL unset: `site_url` is the local address of
`make serve`) has no blocks and no tags: they would name a page on the reader's machine.

    plugins:
      - mlnotes-cite:
          authors_file: blog/.authors.yml   # relative to docs_dir; default: the blog's
"""

from __future__ import annotations

import datetime as dt
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.utils import meta as front_matter
from mkdocs.utils.yaml import yaml_load

from mlnotes_site.plugins.assets import page_path

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page

MONTHS = (
    "January February March April May June July August September October November December"
).split()
BLOCK_CLASS = "mlnotes-cite-this"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def long_date(day: dt.date) -> str:
    """`2024-12-30` -> `December 30, 2024` (as the blog writes its dates)."""
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


@dataclass(frozen=True)
class Work:
    """What a citation names: a page of the site, or the printed book."""

    kind: str  # BibTeX entry type: "online" (a page) or "book"
    key: str
    title: str
    authors: tuple[str, ...]  # full names, as the authors file writes them
    created: dt.date
    updated: dt.date | None
    url: str  # absolute
    site: str  # the site's name

    @property
    def revised(self) -> dt.date:
        """The date of the version cited."""
        return self.updated or self.created

    def _entry(self, text: bool = False):
        from pybtex.database import Entry, Person

        # the title in braces: BibTeX styles keep its capitals (pybtex's writer escapes & % # _)
        fields = {"title": "{" + self.title + "}"}
        fields["publisher" if self.kind == "book" else "organization"] = self.site
        fields["date"] = self.revised.isoformat()
        fields["url"] = self.url
        if text:  # what pybtex's plain style reads (it knows no `date`, nor an @online's site)
            fields["year"] = str(self.revised.year)
            fields["month"] = MONTHS[self.revised.month - 1]
            if self.kind != "book":
                fields["howpublished"] = self.site
        persons = {"author": [Person(name) for name in self.authors]}
        return Entry(self.kind, fields=fields, persons=persons)

    def bibtex(self, text: bool = False) -> str:
        """The BibTeX entry (pybtex writes it, escaping what LaTeX reads as markup)."""
        from pybtex.database import BibliographyData

        return BibliographyData({self.key: self._entry(text)}).to_string("bibtex").strip()

    def text(self) -> str:
        """The entry as text: pybtex's plain style, as the pages' References lists, of the
        entry as written (so a `%` in a title is text, not a LaTeX comment)."""
        from pybtex.backends.plaintext import Backend
        from pybtex.database import parse_string
        from pybtex.style.formatting.plain import Style

        entry = parse_string(self.bibtex(text=True), "bibtex").entries[self.key]
        return Style().format_entry(self.key, entry).text.render(Backend())

    def scholar_tags(self, pdf_url: str | None = None) -> list[tuple[str, str]]:
        """Highwire Press tags, as Google Scholar's inclusion guidelines list them."""
        tags = [("citation_title", self.title)]
        tags += [("citation_author", _last_first(name)) for name in self.authors]
        tags.append(("citation_publication_date", self.created.strftime("%Y/%m/%d")))
        if self.updated and self.updated != self.created:
            tags.append(("citation_online_date", self.updated.strftime("%Y/%m/%d")))
        if pdf_url:
            tags.append(("citation_pdf_url", pdf_url))
        return tags


def _last_first(name: str) -> str:
    from pybtex.database import Person

    person = Person(name)
    last = " ".join(person.prelast_names + person.last_names)
    first = " ".join(person.first_names + person.middle_names)
    return f"{last}, {first}" if first else last


def dates(meta: dict, where: str) -> tuple[dt.date, dt.date | None] | None:
    """A page's `date` front matter: (created, updated or None); None without one."""
    value = meta.get("date")
    if value is None:
        return None
    if isinstance(value, dt.date):
        created, updated = value, None
    elif isinstance(value, dict) and isinstance(value.get("created"), dt.date):
        created, updated = value["created"], value.get("updated")
    else:
        raise PluginError(f"{where}: `date` is neither a date nor {{created: date, ...}}")
    if isinstance(created, dt.datetime):
        created = created.date()
    if isinstance(updated, dt.datetime):
        updated = updated.date()
    if updated is not None and not isinstance(updated, dt.date):
        raise PluginError(f"{where}: `date.updated` is not a date")
    if updated is not None and updated < created:
        raise PluginError(f"{where}: `date.updated` ({updated}) is before `created` ({created})")
    return created, updated


def directory_url(site_url: str, dest_uri: str) -> str:
    """The page's address on the deployed site (directory URLs, as `make site` builds it),
    also in the offline copy, whose pages are `notes/cnn.html`."""
    return site_url.rstrip("/") + "/" + page_path(dest_uri)


def _block(title: str, parts: list[tuple[str, str, str]]) -> str:
    """A collapsed block of (lead-in, language, code) parts, as Markdown."""
    lines = ["", f'??? quote {BLOCK_CLASS} "{title}"', ""]
    for lead, language, code in parts:
        lines += [f"    {lead}", "", f"    ```{language}"]
        lines += [f"    {line}" if line else "" for line in code.splitlines()]
        lines += ["    ```", ""]
    return "\n".join(lines)


class CiteConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Cite blocks, scholar tags and card authors (false: none)."""
    authors_file = c.Optional(c.Type(str))
    """The authors file, relative to docs_dir (default: the blog plugin's `authors_file`)."""


class CitePlugin(BasePlugin[CiteConfig]):
    """The "Cite this page" blocks, the scholar tags and the cards' authors, from front matter."""

    def __init__(self):
        self.active = False  # enabled, and not an offline copy without a deployed address
        self.authors: dict[str, str] = {}  # key in the authors file -> name
        self.works: dict[str, Work] = {}  # src_uri -> the page's Work (this build)
        self._book: Work | None = None
        self._book_known = False

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.authors = {}
        offline = config.plugins.get("material/offline")
        self.active = self.config.enabled and not (
            offline is not None
            and offline.config.enabled
            and urlsplit(config.site_url or "").hostname in LOOPBACK
        )
        if not self.active:
            return config
        name = self.config.authors_file
        blog = config.plugins.get("material/blog")
        if name is None and blog is not None:
            name = blog.config.authors_file.format(blog=blog.config.blog_dir)
        path = Path(config.docs_dir) / name if name else None
        if path is not None and path.is_file():
            with open(path, encoding="utf-8") as f:
                data = yaml_load(f) or {}
            self.authors = {k: v["name"] for k, v in (data.get("authors") or {}).items()}
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        self.works, self._book, self._book_known = {}, None, False
        return files

    # ---------------------------------------------------------------------------------
    def work(self, page: Page, config: MkDocsConfig) -> Work | None:
        """The page as a work to cite, or None (no `authors` or no `date` in its front matter)."""
        return self._work(page.meta, page.file.src_uri, page.file.dest_uri, page.title, config)

    def _work(self, meta, src_uri, dest_uri, title, config) -> Work | None:
        keys_ = meta.get("authors")
        when = dates(meta, src_uri)
        if not keys_ or when is None:
            return None
        unknown = [k for k in keys_ if k not in self.authors]
        if unknown:
            raise PluginError(f"{src_uri}: authors {unknown} are not in the blog's authors file")
        names = tuple(self.authors[k] for k in keys_)
        created, updated = when
        from pybtex.database import Person

        family = "".join(Person(names[0]).last_names).lower()
        slug = page_path(dest_uri).rstrip("/").rsplit("/", 1)[-1]
        year = (updated or created).year
        return Work(
            kind="online",
            key=re.sub(r"[^a-z0-9-]", "", f"{family}{year}{slug}"),
            title=title,
            authors=names,
            created=created,
            updated=updated,
            url=directory_url(config.site_url, dest_uri),
            site=config.site_name,
        )

    def book(self, files: Files, config: MkDocsConfig) -> Work | None:
        """The printed book as a work to cite, when the build serves it (else None): its
        chapters' authors, and the latest of their dates."""
        if self._book_known:
            return self._book
        self._book_known = True
        book = config.extra.get("book_pdf")
        if not book:
            return None
        from mlnotes_site.printer import BOOK_TITLE

        chapters = []
        for f in files.documentation_pages():
            if page_path(f.dest_uri) in book["chapters"]:
                _, meta = front_matter.get_data(f.content_string)
                work = self._work(meta, f.src_uri, f.dest_uri, f.src_uri, config)
                if work is not None:
                    chapters.append(work)
        if not chapters:
            return None
        authors = tuple(dict.fromkeys(a for w in chapters for a in w.authors))
        from pybtex.database import Person

        first = min(w.created for w in chapters)
        last = max(w.revised for w in chapters)
        self._book = Work(
            kind="book",
            key=re.sub(
                r"[^a-z0-9-]",
                "",
                f"{''.join(Person(authors[0]).last_names).lower()}{last.year}{config.site_name}",
            ),
            title=BOOK_TITLE,
            authors=authors,
            created=first,
            updated=last if last != first else None,
            url=config.site_url.rstrip("/") + "/" + book["url"],
            site=config.site_name,
        )
        return self._book

    # ---------------------------------------------------------------------------------
    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        if not self.active:
            return markdown
        work = self.work(page, config)
        book = self.book(files, config)
        here = posixpath.dirname(page.file.src_uri)
        pdf_link = posixpath.relpath(config.extra["book_pdf"]["url"], here or ".") if book else ""
        if work is None:
            if page.is_homepage and book is not None:
                return markdown + _block(
                    "Cite the printed book",
                    [
                        (
                            f"The post and the notes as one PDF ([{config.extra['book_pdf']['url']}]"
                            f"({pdf_link})), as BibTeX; add `urldate` with the day you read it:",
                            "bibtex",
                            book.bibtex(),
                        ),
                        ("As text:", "text", book.text()),
                    ],
                )
            return markdown
        self.works[page.file.src_uri] = work
        # the card: its author line and an article's dates (plugins/cards.py's layout)
        social = page.meta.setdefault("social", {})
        options = social.setdefault("cards_layout_options", {})
        options.setdefault("author", ", ".join(work.authors))
        options.setdefault("published", work.created.isoformat())
        if work.updated:
            options.setdefault("modified", work.updated.isoformat())
        version = f"the version of {long_date(work.revised)}" + (
            f" (first version: {long_date(work.created)})" if work.updated else ""
        )
        parts = [
            (
                f"BibTeX, for {version}; add `urldate` with the day you read it:",
                "bibtex",
                work.bibtex(),
            ),
            ("As text:", "text", work.text()),
        ]
        if (
            book is not None
            and page_path(page.file.dest_uri) in config.extra["book_pdf"]["chapters"]
        ):
            n = list(config.extra["book_pdf"]["chapters"]).index(page_path(page.file.dest_uri)) + 1
            parts.append(
                (
                    f"The printed book, of which this page is chapter {n} ([the post and the "
                    f"notes as one PDF]({pdf_link})):",
                    "bibtex",
                    book.bibtex(),
                )
            )
        return markdown + _block("Cite this page", parts)

    def on_page_context(
        self, context: dict[str, Any], *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> dict[str, Any]:
        """`cite_tags`: the page's Highwire Press tags (overrides/main.html writes them)."""
        work = self.works.get(page.file.src_uri) if self.active else None
        if work is None:
            context["cite_tags"] = []
            return context
        pdf = None
        book = config.extra.get("book_pdf")
        if book and page_path(page.file.dest_uri) in book["chapters"]:
            pdf = config.site_url.rstrip("/") + "/" + book["url"]
        context["cite_tags"] = work.scholar_tags(pdf)
        return context
