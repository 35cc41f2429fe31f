r"""The Markdown side: display equations labelled, numbered and linked in the Markdown tree.

pymdownx.arithmatex (`generic: true`) makes each display block a `div.arithmatex` holding
its TeX, and each inline expression a `span.arithmatex`. Two tree processors of the
extension `EquationsMarkdown` run after it:

- before the inline patterns (priority 21): after a block whose `\label`s are computed by
  functions (a docstring's `Equation:` section names the label), a paragraph
  `p.mlnotes-computed-by`, "Computed by [`f`][mlnotes.x.f]", whose references
  mkdocs-autorefs links to the API reference (and fails the strict build if the function
  is not documented);
- after Python-Markdown's prettifier (priority 9): every display block gets
  `data-eqn-start` (how many numbered equations precede it on the page, as MathJax's
  `tags: "ams"` numbers them); a labelled one is wrapped with its "Computed by" paragraph
  in `div.mlnotes-equation` whose id is its first label (its other labels get empty
  anchors), so that a link or a preview finds it before MathJax runs; and math with
  `\eqref{label}`s gets `data-eqrefs="label=N;..."` (their numbers on the page, for
  previews on other pages, javascripts/apparatus.js).

One page can be several conversions: mkdocstrings converts each docstring while the page's
Markdown is parsed (before the page's own tree processors run). The numbering runs on
across them, docstrings first; so that no number differs from MathJax's, a page that
numbers equations both in its docstrings and in its own text is a warning.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass, field

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from mlnotes_site.plugins.equations.docstrings import LABEL

NUMBERED_ENV = re.compile(
    r"\\begin\{(equation|align|gather|multline|alignat|flalign|eqnarray)(\*?)\}(.*?)\\end\{\1\2\}",
    re.S,
)
INNER_ENV = re.compile(r"\\begin\{([A-Za-z]+\*?)\}((?:(?!\\begin\{).)*?)\\end\{\1\}", re.S)
NO_NUMBER = re.compile(r"\\(?:notag|nonumber|tag)(?![A-Za-z])")
EQREF = re.compile(r"\\eqref\{([^}]*)\}")


def numbered_rows(tex: str) -> list[list[str]]:
    r"""The rows that MathJax (`tags: "ams"`) numbers in a display block, with their labels.

    `equation`/`multline` give one row, each row of `align`-like environments one;
    starred environments and rows with `\notag`, `\nonumber` or `\tag` none.

    >>> numbered_rows(r"\begin{equation} x \label{eq:a} \end{equation}")
    [['eq:a']]
    >>> numbered_rows(r"\begin{align} a &= b \\ c &= \begin{cases} 1 \\ 2 \end{cases} \notag \\ e \label{eq:e} \end{align}")
    [[], ['eq:e']]
    >>> numbered_rows(r"x^2 + \begin{pmatrix} 1 \\ 2 \end{pmatrix}")
    []
    """
    found = []
    for m in NUMBERED_ENV.finditer(tex):
        if m.group(2):
            continue
        body = m.group(3)
        while True:
            stripped = INNER_ENV.sub(" ", body)
            if stripped == body:
                break
            body = stripped
        rows = [body] if m.group(1) in ("equation", "multline") else re.split(r"\\\\", body)
        if len(rows) > 1 and not rows[-1].strip():
            rows = rows[:-1]  # a trailing \\ opens no numbered row
        found += [LABEL.findall(row) for row in rows if not NO_NUMBER.search(row)]
    return found


@dataclass
class PageEquations:
    """One page's equations, over all its conversions: `numbers` ({label: N}), every
    `labels` in order, how many rows were numbered, in docstrings (`inner`) and not."""

    numbers: dict[str, int] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)
    count: int = 0
    inner: int = 0
    outer: int = 0
    depth: int = 0  # conversions under way: 1 the page's, 2 a docstring's inside it


def _tex(el: etree.Element) -> str:
    return html.unescape(el.text or "")


def _is_math(el: etree.Element, tag: str) -> bool:
    return el.tag == tag and el.get("class") == "arithmatex"


def _display_blocks(root: etree.Element) -> list[tuple[etree.Element, etree.Element]]:
    """`(parent, block)` for each display block (`div.arithmatex`), in document order."""
    parents = {child: parent for parent in root.iter() for child in parent}
    return [(parents[el], el) for el in root.iter() if _is_math(el, "div") and el in parents]


class EquationsMarkdown(Extension):
    """The Markdown extension; `computed_by` is {label: [function, ...]} of the page being
    converted, which the plugin sets (with `start_page`) before each page renders."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.page = PageEquations()
        self.computed_by: dict[str, list[str]] = {}

    def start_page(self, computed_by: dict[str, list[str]]) -> None:
        self.page, self.computed_by = PageEquations(), computed_by

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        md.registerExtension(self)
        after = _ComputedBy(md, self)
        md.preprocessors.register(_Start(md, self), "mlnotes_equations_start", 1000)
        md.treeprocessors.register(after, "mlnotes_equations_computed_by", 21)
        md.treeprocessors.register(_Number(md, self, after), "mlnotes_equations_number", 9)


class _Start(Preprocessor):
    """Counts the conversions under way (a docstring's runs inside its page's)."""

    def __init__(self, md: Markdown, ext: EquationsMarkdown) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, lines: list[str]) -> list[str]:
        self.ext.page.depth += 1
        return lines


class _ComputedBy(Treeprocessor):
    """After each display block whose labels functions compute: "Computed by ..."."""

    def __init__(self, md: Markdown, ext: EquationsMarkdown) -> None:
        super().__init__(md)
        self.ext = ext
        self.inserted: set[int] = set()  # the paragraphs it made (their id())

    def run(self, root: etree.Element) -> None:
        self.inserted = set()
        if not self.ext.computed_by:
            return
        for parent, block in _display_blocks(root):
            functions = [
                f
                for label in LABEL.findall(_tex(block))
                for f in self.ext.computed_by.get(label, [])
            ]
            if not functions:
                continue
            # Markdown, for the inline patterns: the code spans, autorefs' references
            names = ", ".join(f"[`{f.rsplit('.', 1)[-1]}`][{f}]" for f in dict.fromkeys(functions))
            paragraph = etree.Element("p", {"class": "mlnotes-computed-by"})
            paragraph.text = f"Computed by {names}"
            paragraph.tail = block.tail
            block.tail = None
            parent.insert(list(parent).index(block) + 1, paragraph)
            self.inserted.add(id(paragraph))


class _Number(Treeprocessor):
    """Numbers, ids and `data-eqrefs` (after the prettifier: the whitespace is final)."""

    def __init__(self, md: Markdown, ext: EquationsMarkdown, computed_by: _ComputedBy) -> None:
        super().__init__(md)
        self.ext = ext
        self.computed_by = computed_by

    def run(self, root: etree.Element) -> None:
        page = self.ext.page
        rows_before = page.count
        for parent, block in _display_blocks(root):
            self._number(parent, list(parent).index(block))
        numbered = page.count - rows_before
        if page.depth > 1:
            page.inner += numbered
        else:
            page.outer += numbered
        for el in root.iter():
            if el.get("class") == "arithmatex" and el.tag in ("span", "div"):
                refs = [label for label in EQREF.findall(_tex(el)) if label in page.numbers]
                if refs and "data-eqrefs" not in el.attrib:
                    value = ";".join(
                        f"{label}={page.numbers[label]}" for label in dict.fromkeys(refs)
                    )
                    el.set("data-eqrefs", value)
        page.depth = max(page.depth - 1, 0)

    def _number(self, parent: etree.Element, index: int) -> None:
        """Number the display block `parent[index]`, and wrap it if labelled."""
        page, block = self.ext.page, parent[index]
        tex = _tex(block)
        rows = numbered_rows(tex)
        for number, row in enumerate(rows, start=page.count + 1):
            for label in row:
                page.numbers[label] = number
        block.set("data-eqn-start", str(page.count))
        page.count += len(rows)
        labels = LABEL.findall(tex)
        page.labels += labels
        if not labels:
            return
        group = [block]
        after = parent[index + 1] if index + 1 < len(parent) else None
        if after is not None and id(after) in self.computed_by.inserted:
            group.append(after)
        wrapper = etree.Element("div", {"class": "mlnotes-equation", "id": labels[0]})
        for label in labels[1:]:
            etree.SubElement(wrapper, "span", {"id": label})
        wrapper.tail, group[-1].tail = group[-1].tail, None
        for el in group:
            parent.remove(el)
            wrapper.append(el)
        parent.insert(index, wrapper)
