r"""The `mlnotes-citations` plugin (mkdocs.yml `plugins:`): citations from a BibTeX file.

A page cites a work of `docs/references.bib` (the `bib_file` option) by key, in pandoc's syntax:

    [@vaswani2017]                  -> (Vaswani et al., 2017)
    [@vaswani2017, sec. 3.5]        -> (Vaswani et al., 2017, sec. 3.5)
    [@dumoulin2016; @goodfellow2016, ch. 9]
                                    -> (Dumoulin and Visin, 2016; Goodfellow et al., 2016, ch. 9)
    Vaswani et al. [-@vaswani2017]  -> Vaswani et al. (2017)

Each author-year text links to the work's entry in a "References" section at the end
of the page, generated from the bib file (parsed and formatted by pybtex, its plain
style); a page that already has a `## References` heading gets the list under it. The
link carries Material's `footnote-ref` class, so `content.footnote.tooltips` shows the
full entry on hover and keyboard focus. A key that is not in the bib file is a warning
naming the page and the key, which fails `mkdocs build --strict`.

How: a Python-Markdown extension (`CitationsExtension`), which the plugin adds to
`markdown_extensions` in on_config. The citation is an inline pattern, so the parser
itself leaves code spans, fenced code and raw HTML blocks alone; a bracketed text
that is a link (`[...](`, `[...][`), a footnote (`[^`) or a link reference definition
(`[...]:` opening a line, which the block parser removes first) is not a citation, nor
is a citation inside a link's or an image's text (`[see [@key]](url)` stays a link with
that text: no link in a link). As in pandoc, the `@` opens an item or follows
whitespace (`[mail me@example.org]` is text). A prefix or a locator is Markdown: its
code, math and escapes come out as they would elsewhere in the text. The
References list is added by a tree processor after the page's inline Markdown is
parsed (and before the table of contents is made, so it lists the heading).

Markdown converted inside a page's conversion (mkdocstrings renders each docstring
with its own converter, which has this extension too) may cite: the works go into the
page's References list. The blog's excerpts convert a post again; a warning is
given once per page and key.

Options
-------
    plugins:
      - mlnotes-citations:
          bib_file: references.bib       # relative to docs_dir
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from markdown import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, get_plugin_logger

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

log = get_plugin_logger("citations")

BIB_NAME = "references.bib"

# A bracketed citation: one or more `@key` items separated by `;`, each with an optional
# prefix and locator. Not a link text (`[...](` / `[...][`), not the second half of a
# reference link (`][`), not an image (`![`), not a footnote (`[^`). `[@key]:` mid-text
# is a citation followed by a colon (a definition opening a line never reaches here).
CITE = r"(?<![\\!\]])\[(?!\^)([^\[\]\n]*?-?@[A-Za-z0-9_][^\[\]\n]*?)\](?![(\[])"
# An item: as in pandoc, the `@` (or `-@`) opens the item or follows whitespace, so the
# address in "[mail me@example.org]" is no citation.
ITEM = (
    r"^\s*(?:(?P<prefix>[^@]*?\S)\s+)?(?P<suppress>-?)@(?P<key>[A-Za-z0-9_][\w:.+/-]*?)"
    r"\s*(?:,\s*(?P<locator>.+?))?\s*$"
)
# after the code spans (190) and escapes (180), before footnotes (175) and links (170, 160)
INLINE_PRIORITY = 176
# after attr_list (8: a heading's `{#id}` is gone from its text), before toc (5)
REFERENCES_PRIORITY = 7


def _latex_to_text(value) -> str:
    from pybtex.richtext import Text

    return Text.from_latex(str(value)).render_as("text")


@dataclass
class Bibliography:
    """The entries of a BibTeX file (pybtex), with author-year labels and formatted entries."""

    entries: dict = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> Bibliography:
        from pybtex.database import parse_file

        return cls(dict(parse_file(str(path)).entries))

    def authors(self, key: str) -> str:
        entry = self.entries[key]
        persons = entry.persons.get("author") or entry.persons.get("editor") or []
        names = [_latex_to_text(" ".join(p.prelast_names + p.last_names)) for p in persons]
        if not names:
            return _latex_to_text(entry.fields.get("organization", key))
        if len(names) == 1:
            return names[0]
        if len(names) == 2:
            return f"{names[0]} and {names[1]}"
        return f"{names[0]} et al."

    def year(self, key: str) -> str:
        return self.entries[key].fields.get("year", "n.d.")

    def label(self, key: str) -> str:
        return f"{self.authors(key)}, {self.year(key)}"

    def formatted(self, keys) -> dict[str, str]:
        """Full entries as HTML (pybtex's plain style and HTML backend), by key."""
        from pybtex.backends.html import Backend
        from pybtex.style.formatting.plain import Style

        entries = [self.entries[k] for k in keys]
        backend = Backend()
        return {
            e.key: e.text.render(backend).replace("\n", " ")
            for e in Style().format_entries(entries)
        }

    def references_html(self, keys: list[str]) -> str:
        """The References list: one `<li id="ref-KEY"><p>entry</p></li>` per work, by author."""
        formatted = self.formatted(keys)
        ordered = sorted(keys, key=lambda k: (self.authors(k).lower(), self.year(k)))
        items = "\n".join(f'<li id="ref-{k}"><p>{formatted[k]}</p></li>' for k in ordered)
        return f'<ul class="mlnotes-references">\n{items}\n</ul>'


# ---------------------------------------------------------------------------------------
# The Markdown extension
# ---------------------------------------------------------------------------------------


class CitationsExtension(Extension):
    """Pandoc citations -> author-year links, and the page's References list.

    >>> import markdown
    >>> from pybtex.database import parse_string
    >>> bib = Bibliography(dict(parse_string(
    ...     "@book{strang2016, author = {Strang, Gilbert}, title = {Linear Algebra},"
    ...     " publisher = {WCP}, year = {2016}}", "bibtex").entries))
    >>> html = markdown.markdown("As `[@x]` and [@strang2016, sec. 4.4] show.",
    ...                          extensions=[CitationsExtension(bib)])
    >>> print(html.split("\\n")[0])  # doctest: +NORMALIZE_WHITESPACE
    <p>As <code>[@x]</code> and <span class="mlnotes-citation">(<a class="footnote-ref
    mlnotes-cite" href="#ref-strang2016" aria-describedby="ref-strang2016">Strang,
    2016</a>, sec. 4.4)</span> show.</p>
    """

    def __init__(self, bib: Bibliography, bib_name: str = f"docs/{BIB_NAME}", **kwargs):
        super().__init__(**kwargs)
        self.bib = bib
        self.bib_name = bib_name
        self.page = "?"  # the page being rendered (the plugin's on_pre_page), for messages
        self.cited: list[str] = []  # the keys the page being converted cites, in order
        self.depth = 0  # conversions under way: 1 a page's, 2 a docstring's inside it
        self.warned: set[tuple[str, str]] = set()

    def reset_page(self, page: str) -> None:
        self.page, self.cited, self.depth = page, [], 0

    def extendMarkdown(self, md):
        md.registerExtension(self)
        md.preprocessors.register(_Start(md, self), "mlnotes_citations_start", 1000)
        md.inlinePatterns.register(_Citation(md, self), "mlnotes_citation", INLINE_PRIORITY)
        md.treeprocessors.register(_References(md, self), "mlnotes_references", REFERENCES_PRIORITY)

    def warn(self, md, key: str) -> None:
        # the file being converted: MkDocs' link processor knows it (also in the blog's
        # excerpts and mkdocstrings' docstrings); else the page the plugin was told of
        relpath = md.treeprocessors["relpath"] if "relpath" in md.treeprocessors else None
        file = getattr(relpath, "file", None)
        where = file.src_uri if file is not None else self.page
        if (where, key) not in self.warned:
            self.warned.add((where, key))
            log.warning(
                f"{where}: citation key '{key}' is not in {self.bib_name}",
                extra={"mlnotes_page": where},
            )


class _Start(Preprocessor):
    """Counts the conversions under way: the outermost one starts a page's keys."""

    def __init__(self, md, ext: CitationsExtension):
        super().__init__(md)
        self.ext = ext

    def run(self, lines):
        if self.ext.depth == 0:
            self.ext.cited = []
        self.ext.depth += 1
        return lines


class _Citation(InlineProcessor):
    """`[prefix @key, locator; ...]` -> `<span class="mlnotes-citation">(... <a>Author, Year</a>, locator)</span>`."""

    def __init__(self, md, ext: CitationsExtension):
        super().__init__(CITE, md)
        self.ext = ext
        self.item = re.compile(ITEM)

    def handleMatch(self, m, data):
        items = [self.item.match(part) for part in m.group(1).split(";")]
        if not all(items):
            return None, None, None  # not a citation, e.g. "[see the @ sign]"
        if _in_link_text(data, m.start(0), m.end(0)):
            return None, None, None  # "[see [@key]](url)": a link's text, no link in a link
        bib = self.ext.bib
        unknown = [item.group("key") for item in items if item.group("key") not in bib.entries]
        if unknown:  # the brackets stay as written, and cite none of their keys
            for key in unknown:
                self.ext.warn(self.md, key)
            return None, None, None
        parts = []
        for item in items:
            key, prefix, locator = item.group("key", "prefix", "locator")
            if key not in self.ext.cited:
                self.ext.cited.append(key)
            text = bib.year(key) if item.group("suppress") else bib.label(key)
            # raw HTML (the stash): the later tree processors (Material's instant previews,
            # MkDocs' link checks) leave the links to the References list as they are
            link = self.md.htmlStash.store(
                f'<a class="footnote-ref mlnotes-cite" href="#ref-{key}" '
                f'aria-describedby="ref-{key}">{html.escape(text)}</a>'
            )
            parts.append(
                (f"{prefix} " if prefix else "") + link + (f", {locator}" if locator else "")
            )
        # the span an element, the prefixes and locators its text: the inline tree
        # processor restores what the higher-priority patterns stashed in them (code
        # spans, math, backslash escapes), and parses their Markdown as pandoc does
        span = etree.Element("span", {"class": "mlnotes-citation"})
        span.text = f"({'; '.join(parts)})"
        return span, m.start(0), m.end(0)


def _in_link_text(data: str, start: int, end: int) -> bool:
    """Whether `data[start:end]` is inside brackets that a `(` or `[` follows: the text
    of a link or an image (or of a reference link, defined or not)."""
    depth = 0  # an opening bracket before it that no `]` closes
    for ch in reversed(data[:start]):
        if ch == "]":
            depth += 1
        elif ch == "[":
            if not depth:
                break
            depth -= 1
    else:
        return False
    for i in range(end, len(data)):
        if data[i] == "[":
            depth += 1
        elif data[i] == "]":
            if depth:
                depth -= 1
            elif data[i + 1 : i + 2] in ("(", "["):
                return True
    return False


class _References(Treeprocessor):
    """Puts the References list under the page's `## References` heading, or at its end
    under a new one (before the footnotes, if any)."""

    def __init__(self, md, ext: CitationsExtension):
        super().__init__(md)
        self.ext = ext

    def run(self, root):
        ext = self.ext
        ext.depth = max(ext.depth - 1, 0)
        if ext.depth or not ext.cited:
            return
        # the list as raw HTML: the stash's placeholder in a paragraph of its own is
        # replaced by the block (markdown's raw HTML postprocessor)
        block = etree.Element("p")
        block.text = self.md.htmlStash.store(ext.bib.references_html(ext.cited))
        block.tail = "\n"
        children = list(root)
        heading = next(
            (
                i
                for i, el in enumerate(children)
                if el.tag == "h2" and "".join(el.itertext()).strip() == "References"
            ),
            None,
        )
        if heading is None:
            at = len(children)
            if (
                children
                and children[-1].tag == "div"
                and "footnote" in children[-1].get("class", "").split()
            ):
                at -= 1
            h2 = etree.Element("h2")
            h2.text, h2.tail = "References", "\n"
            root.insert(at, h2)
            root.insert(at + 1, block)
        else:
            root.insert(heading + 1, block)


# ---------------------------------------------------------------------------------------
# The plugin
# ---------------------------------------------------------------------------------------


class CitationsConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Format the citations (false: `[@key]` stays as written, and no References list)."""
    # relative to docs_dir, as Material's blog_dir: the bib file is part of the docs
    bib_file = c.Type(str, default=BIB_NAME)
    """The BibTeX file the pages cite, relative to docs_dir."""


class CitationsPlugin(BasePlugin[CitationsConfig]):
    """Adds the citations extension to the site's Markdown, with the bib file's entries."""

    def __init__(self):
        self.extension: CitationsExtension | None = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        if not self.config.enabled:
            return config
        docs = Path(config.docs_dir)
        bib_path = docs / self.config.bib_file
        bib = Bibliography.load(bib_path) if bib_path.is_file() else Bibliography()
        self.extension = CitationsExtension(bib, f"{docs.name}/{self.config.bib_file}")
        # one instance: a config reused by `mkdocs serve` must not get a second
        config.markdown_extensions[:] = [
            e for e in config.markdown_extensions if not isinstance(e, CitationsExtension)
        ]
        config.markdown_extensions.append(self.extension)
        return config

    def on_pre_page(self, page: Page, *, config: MkDocsConfig, files: Files) -> Page:
        if self.extension is not None:
            self.extension.reset_page(page.file.src_uri)
        return page
