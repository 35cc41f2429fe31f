r"""The `mlnotes-equations` plugin (mkdocs.yml `plugins:`): equation <-> code links.

A docstring names the equation(s) it computes in a Google-style section::

    Equation:
        notes/cnn.md#eq:cnn-output-size

one `page#label` a line: the page's path under `docs/` and the `\label{...}` of a display
equation on it (one such section a docstring; `Equations:` is the same section).

Three parts
-----------
- A Griffe extension, `EquationsExtension`, parses the section into data on the
  documented object: `obj.extra["mlnotes"]["equations"]`, a list of
  `{"page": ..., "label": ...}`; a malformed section leaves instead
  `obj.extra["mlnotes"]["equation_error"]`, a message naming the object, its file and line.
  mkdocs.yml loads it in mkdocstrings' python handler (`extensions:`), and the plugin
  loads the package with it (`griffe.load`) to collect the references.
- A mkdocstrings-python template,
  `scripts/mlnotes_site/templates/python/material/docstring/admonition.html.jinja`
  (mkdocstrings' `custom_templates: scripts/mlnotes_site/templates`), renders the section from that data: one link
  a reference. The link's number and target page title are not known when the template
  runs: an equation is numbered when its page renders, which may come after the API page
  (and the template does not know the API page's URL, which the link is relative to). So
  the template writes a placeholder,
  `<a class="mlnotes-equation-link" data-preview data-mlnotes-equation="page.md#label">`,
  and the plugin fills it on every page once all pages have rendered (`on_post_page`):
  its `href` relative to the page, and its text "equation (N) of <page title>". The plugin
  finds the placeholder by its data attribute; it reads no prose. Without the plugin the
  placeholder stays a link without a target that shows `page.md#label`.
- The plugin (`EquationsPlugin`):
  (a) checks that each named page exists and has that label (a warning, so the strict
  build fails naming the function, page and label; a malformed section is a warning too);
  (b) puts under the equation on its page a line "Computed by <function>" that links to
  the function in the API reference (through mkdocs-autorefs, which fails the strict
  build if the function is not documented); (c) wraps the equation's display block in an
  element with the HTML id of its label (`id="eq:cnn-output-size"`), so links and previews
  find it before MathJax runs; (d) fills the API reference's placeholders.

Previews
--------
Material's instant previews (`material.extensions.preview` in mkdocs.yml, and the
`data-preview` the template puts on the API reference's equation links) show the target of
a link in a tooltip. The plugin prepares the pages for them: every display block carries
`data-eqn-start` (how many numbered equations precede it, so that a preview numbers it
as its page does), math with `\eqref`s carries `data-eqrefs` (their numbers on the page),
and an empty anchor before a correction box moves onto a wrapper of the box.
javascripts/apparatus.js typesets the tooltips.

Options
-------
    plugins:
      - mlnotes-equations:
          package: mlnotes               # the package whose docstrings name equations

    plugins:
      - mkdocstrings:
          custom_templates: scripts/mlnotes_site/templates
          handlers:
            python:
              options:
                extensions:
                  - mlnotes_site.plugins.equations:EquationsExtension
"""

from __future__ import annotations

import ast
import html
import re
from dataclasses import dataclass
from pathlib import Path

import griffe
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.utils import get_relative_url

from mlnotes_site import project_path

log = get_plugin_logger("equations")

PACKAGE = "mlnotes"
LABEL = re.compile(r"\\label\{([^}]*)\}")
EQ_REF = re.compile(r"^\s*(?P<page>[\w./-]+\.md)#(?P<label>[^\s#]+)\s*$")
# the admonition kinds Griffe's Google parser gives the section "Equation:" / "Equations:"
KINDS = ("equation", "equations")


@dataclass(frozen=True)
class EquationRef:
    """A function (by its dotted path) that computes the equation `label` on `page`."""

    identifier: str
    page: str
    label: str
    source: str  # file:line of the docstring, for messages


# ---------------------------------------------------------------------------------------
# The Griffe extension
# ---------------------------------------------------------------------------------------


def section_equations(sections) -> list[tuple[str, str]]:
    """`(page, label)` pairs of the `Equation:` section among parsed docstring sections.

    Raises ValueError for a line that is not `page.md#label`, or for a second section.
    """
    found: list[tuple[str, str]] = []
    equation_sections = [
        s for s in sections if s.kind.value == "admonition" and s.value.kind in KINDS
    ]
    if len(equation_sections) > 1:
        raise ValueError(f"{len(equation_sections)} Equation: sections; list every equation in one")
    for section in equation_sections:
        for line in section.value.contents.splitlines():
            if not line.strip():
                continue
            m = EQ_REF.match(line)
            if not m:
                raise ValueError(
                    f"an Equation: line must read 'page.md#label', got {line.strip()!r}"
                )
            found.append((m.group("page"), m.group("label")))
    return found


def docstring_equations(doc: str) -> list[tuple[str, str]]:
    """`(page, label)` pairs named in a docstring's `Equation:` section (Griffe's Google parser).

    >>> docstring_equations("Summary.\\n\\nEquation:\\n    notes/cnn.md#eq:cnn-output-size\\n")
    [('notes/cnn.md', 'eq:cnn-output-size')]
    """
    return section_equations(griffe.parse_google(griffe.Docstring(doc or "")))


# An `Equation:` section as mkdocstrings-python renders it (an admonition, in the
# `<details>` or the `<div>` form); with the extension and the template, it holds links
UNLINKED_SECTION = re.compile(
    r'<details class="equations?"[^>]*>.*?</details>|<div class="admonition equations?"[^>]*>.*?</div>',
    re.S,
)


def _where(obj) -> str:
    """`path/to/module.py:LINE` of an object, relative to its package's parent."""
    try:
        path = obj.relative_package_filepath.as_posix()
    except (ValueError, AttributeError):
        path = str(obj.filepath)
    return f"{path}:{obj.lineno}"


class EquationsExtension(griffe.Extension):
    """Griffe: the `Equation:` section of each docstring, as `obj.extra["mlnotes"]`.

    `obj.extra["mlnotes"]["equations"]`: `[{"page": "notes/cnn.md", "label": "eq:..."}]`;
    a malformed section gives no equations and `obj.extra["mlnotes"]["equation_error"]`,
    a message naming the object (`mlnotes.cnn.f (mlnotes/cnn.py:12): ...`). The extension
    logs nothing: mlnotes-equations reports the error (a warning: the strict build fails).
    """

    def on_object(self, *, obj, loader, **kwargs) -> None:
        if obj.is_alias or obj.docstring is None or "quation" not in obj.docstring.value:
            return
        try:
            pairs = section_equations(obj.docstring.parsed)
        except ValueError as err:
            obj.extra["mlnotes"]["equation_error"] = f"{obj.path} ({_where(obj)}): {err}"
            obj.extra["mlnotes"]["equations"] = []
            return
        if pairs:
            obj.extra["mlnotes"]["equations"] = [{"page": p, "label": lab} for p, lab in pairs]


def load_package(package_dir: Path, package: str = PACKAGE):
    """The package as Griffe loads it (statically) with `EquationsExtension`."""
    return griffe.load(
        package,
        search_paths=[str(package_dir.parent)],
        docstring_parser="google",
        extensions=griffe.load_extensions(EquationsExtension),
        allow_inspection=False,
        resolve_aliases=False,
    )


def _objects(obj):
    """`obj` and its members, recursively, without aliases (an import is not a definition)."""
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


def collect_equation_refs(package_dir: Path, package: str = PACKAGE) -> list[EquationRef]:
    """Every `Equation:` reference in the docstrings of a package (loaded by Griffe).

    In source order: by file, then by line. A malformed section is a warning.
    """
    refs, errors = [], []
    # Griffe skips a module that does not parse, saying nothing at the default log level:
    # say it here (its API page says so too, problems.py; a strict build fails)
    for path in sorted(package_dir.rglob("*.py")):
        try:
            ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except SyntaxError as err:
            where = path.relative_to(package_dir.parent).as_posix()
            log.warning(f"{where}:{err.lineno}: SyntaxError: {err.msg}")
    root = load_package(package_dir, package)
    for obj in _objects(root):
        data = obj.extra.get("mlnotes", {})
        if "equation_error" in data:
            errors.append((str(obj.filepath), obj.lineno or 0, data["equation_error"]))
        for eq in data.get("equations", []):
            source = _where(obj)
            refs.append(
                (
                    str(obj.filepath),
                    obj.lineno or 0,
                    EquationRef(obj.path, eq["page"], eq["label"], source),
                )
            )
    for *_, message in sorted(errors):
        log.warning(message)
    return [ref for *_, ref in sorted(refs, key=lambda r: r[:2])]


def page_labels(markdown: str) -> set[str]:
    return set(LABEL.findall(markdown))


def validate_equation_refs(refs: list[EquationRef], docs_dir: Path) -> list[str]:
    """Messages for every reference whose page or label does not exist (empty: all good)."""
    problems = []
    labels: dict[str, set[str]] = {}
    for ref in refs:
        src = docs_dir / ref.page
        if ref.page not in labels:
            labels[ref.page] = (
                page_labels(src.read_text(encoding="utf-8")) if src.is_file() else None
            )
        if labels[ref.page] is None:
            problems.append(
                f"{ref.identifier} ({ref.source}): Equation: page '{ref.page}' does not exist in docs/"
            )
        elif ref.label not in labels[ref.page]:
            problems.append(
                f"{ref.identifier} ({ref.source}): Equation: no \\label{{{ref.label}}} on '{ref.page}'"
            )
    return problems


def add_computed_by(markdown: str, by_label: dict[str, list[str]]) -> str:
    r"""After each `$$ ... $$` block whose `\label`s are computed by functions, a line that links them.

    The links are mkdocs-autorefs cross-references (`[name][dotted.path]`).
    """
    lines = markdown.splitlines()
    out, inside, labels = [], False, []
    for line in lines:
        out.append(line)
        stripped = line.strip()
        if stripped == "$$":
            if inside:
                funcs = [f for label in labels for f in by_label.get(label, [])]
                if funcs:
                    indent = line[: len(line) - len(line.lstrip())]
                    names = ", ".join(
                        f"[`{f.rsplit('.', 1)[-1]}`][{f}]" for f in dict.fromkeys(funcs)
                    )
                    # a Markdown paragraph with attr_list's class, not raw HTML: raw HTML inside
                    # an admonition (indented) came out as <p><p ...></p></p>
                    out += [
                        "",
                        f"{indent}Computed by {names}",
                        f"{indent}{{: .mlnotes-computed-by }}",
                        "",
                    ]
                labels = []
            inside = not inside
        elif inside:
            labels += LABEL.findall(line)
    return "\n".join(out) + ("\n" if markdown.endswith("\n") else "")


ARITHMATEX_BLOCK = re.compile(
    r'<div class="arithmatex">(?P<tex>.*?)</div>(?P<after>\s*<p class="mlnotes-computed-by">.*?</p>)?',
    re.S,
)
NUMBERED_ENV = re.compile(
    r"\\begin\{(equation|align|gather|multline|alignat|flalign|eqnarray)(\*?)\}(.*?)\\end\{\1\2\}",
    re.S,
)
INNER_ENV = re.compile(r"\\begin\{([A-Za-z]+\*?)\}((?:(?!\\begin\{).)*?)\\end\{\1\}", re.S)
NO_NUMBER = re.compile(r"\\(?:notag|nonumber|tag)(?![A-Za-z])")


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


def add_equation_ids(content: str, numbers: dict[str, int] | None = None) -> str:
    r"""Wrap each labelled display block in `<div class="mlnotes-equation" id=LABEL>`.

    The wrapper holds the block and its "Computed by" line, so a link or an instant
    preview finds the equation before MathJax runs; further labels of the block get
    empty anchors. Every display block gets `data-eqn-start`: how many numbered
    equations precede it on the page, so that a preview numbers it as its page does.
    """
    seen = 0

    def replace(m: re.Match) -> str:
        nonlocal seen
        tex = html.unescape(m.group("tex"))
        rows = numbered_rows(tex)
        for i, row in enumerate(rows, start=seen + 1):
            for label in row:
                numbers[label] = i
        start, seen = seen, seen + len(rows)
        block = f'<div class="arithmatex" data-eqn-start="{start}">{m.group("tex")}</div>{m.group("after") or ""}'
        labels = LABEL.findall(tex)
        if not labels:
            return block
        extra = "".join(f'<span id="{html.escape(l)}"></span>' for l in labels[1:])
        return f'<div class="mlnotes-equation" id="{html.escape(labels[0])}">{extra}{block}</div>'

    return ARITHMATEX_BLOCK.sub(replace, content)


EQREF = re.compile(r"\\eqref\{([^}]*)\}")
ARITHMATEX_ANY = re.compile(r'<(span|div) class="arithmatex"([^>]*)>(.*?)</\1>', re.S)


def annotate_eqrefs(content: str, numbers: dict[str, int]) -> str:
    r"""Give each math element that has `\eqref{label}`s `data-eqrefs="label=N;..."`.

    On its page MathJax resolves an `\eqref`; in an instant preview on another page the
    label is unknown ("(???)"). javascripts/apparatus.js replaces it there with `(N)`.
    """

    def replace(m: re.Match) -> str:
        refs = [label for label in EQREF.findall(m.group(3)) if label in numbers]
        if not refs or "data-eqrefs" in m.group(2):
            return m.group(0)
        value = ";".join(f"{html.escape(label)}={numbers[label]}" for label in dict.fromkeys(refs))
        return f'<{m.group(1)} class="arithmatex"{m.group(2)} data-eqrefs="{value}">{m.group(3)}</{m.group(1)}>'

    return ARITHMATEX_ANY.sub(replace, content)


EMPTY_ANCHOR = re.compile(
    r'<p><a id="(?P<id>[^"]+)"></a></p>\s*<(?P<tag>div|details)(?P<attrs>(?![^>]*\bid=)[^>]*)>\s*<(?P<first>[a-z]+)'
)


def anchor_next_block(content: str) -> str:
    """Move an empty anchor (`<a id="x"></a>` alone in a paragraph) onto the box after it.

    The pages mark a correction box with an empty anchor before it. Material's instant
    preview shows the anchored element and its following siblings: for an empty
    anchor alone in its paragraph that is nothing, an empty tooltip. With the id on
    the box, the preview shows the box; Material copies only its content, so its first
    child records the box's tag and class (`data-box`, `data-box-class`) for
    javascripts/apparatus.js to rebuild it.
    """

    def replace(m: re.Match) -> str:
        cls = re.search(r'class="([^"]*)"', m.group("attrs"))
        box_class = html.escape(cls.group(1)) if cls else ""
        return (
            f'<{m.group("tag")} id="{m.group("id")}"{m.group("attrs")}>'
            f'<{m.group("first")} data-box="{m.group("tag")}" data-box-class="{box_class}"'
        )

    return EMPTY_ANCHOR.sub(replace, content)


# The API reference's placeholders, as the template writes them (see the module docstring).
PLACEHOLDER = re.compile(
    r'<a class="mlnotes-equation-link" data-preview data-mlnotes-equation="(?P<page>[^"#]+)#(?P<label>[^"]+)">.*?</a>',
    re.S,
)


def link_docstring_equations(
    content: str,
    page_url: str,
    files,
    titles: dict[str, str],
    numbers: dict[str, dict[str, int]],
) -> str:
    """In the API reference, fill each equation link the template left: its target, its number.

    The link's text is "equation (N) of <page title>" (the label, when the equation has
    no number).
    """

    def link(m: re.Match) -> str:
        page, label = html.unescape(m.group("page")), html.unescape(m.group("label"))
        target = files.get_file_from_path(page)
        if target is None:  # validate_equation_refs warned
            return m.group(0)
        href = get_relative_url(target.url, page_url) + "#" + label
        title = titles.get(page, page)
        number = numbers.get(page, {}).get(label)
        text = f"equation ({number})" if number else html.escape(label)
        return (
            f'<a class="mlnotes-equation-link" data-preview href="{html.escape(href)}">'
            f"{text} of {html.escape(title)}</a>"
        )

    return PLACEHOLDER.sub(link, content)


# ---------------------------------------------------------------------------------------
# The plugin
# ---------------------------------------------------------------------------------------


class EquationsConfig(base.Config):
    package = c.Type(str, default=PACKAGE)
    """The package (a folder next to mkdocs.yml) whose docstrings' `Equation:` sections link."""


class EquationsPlugin(BasePlugin[EquationsConfig]):
    """Equation <-> code links: "Computed by" lines, equation ids and numbers, API links.

    It owns the equation numbers: the other plugins read them through its methods
    (`page_numbers`, `computed_by`, `citing_renumbered`), never its attributes. Under
    `mkdocs serve` the plugin object lives as long as the server (it has an `on_startup`
    event), and a page's numbers are those of the build that last rendered it, so a
    `--dirty` build knows the numbers of the pages it does not render.
    """

    def __init__(self):
        self.refs: list[EquationRef] = []
        self.by_page: dict[str, dict[str, list[str]]] = {}
        self.files = None
        # {src_uri: {label: N}}, from each page's last render
        self._numbers: dict[str, dict[str, int]] = {}
        # the pages this build rendered with numbers other than their last render's
        self._renumbered: set[str] = set()
        # {page: the pages whose equations it links to}, from its last render
        self._citing: dict[str, set[str]] = {}

    # --- what the other plugins read ---------------------------------------------------

    def page_numbers(self) -> dict[str, dict[str, int]]:
        """Each page's equation numbers, `{src_uri: {label: N}}` (a copy): every page's
        once the build has rendered them all (at `on_env`, and after)."""
        return {uri: dict(numbers) for uri, numbers in self._numbers.items()}

    def computed_by(self, src_uri: str) -> list[tuple[str, str]]:
        """`(label, function)` for each equation of the page a docstring names, sorted: what
        the page's "Computed by" lines say."""
        return sorted(
            (label, identifier)
            for label, identifiers in self.by_page.get(src_uri, {}).items()
            for identifier in identifiers
        )

    def citing_renumbered(self) -> set[str]:
        """The pages that link to an equation of a page this build rendered with new numbers
        (as those pages linked when they last rendered): the pages whose links must be
        rendered again, where a `--dirty` build did not render them."""
        return {page for page, targets in self._citing.items() if targets & self._renumbered}

    # --- events ------------------------------------------------------------------------

    def on_startup(self, *, command, dirty):
        """(Its presence keeps this plugin object, and so its numbers, for the whole
        `mkdocs serve`: MkDocs' rule for plugins with an on_startup event.)"""

    def on_config(self, config):
        docs = Path(config.docs_dir)
        package_dir = project_path(config, self.config.package)
        self.refs = (
            collect_equation_refs(package_dir, self.config.package) if package_dir.is_dir() else []
        )
        for problem in validate_equation_refs(self.refs, docs):
            log.warning(problem)
        by_page: dict[str, dict[str, list[str]]] = {}
        for ref in self.refs:
            by_page.setdefault(ref.page, {}).setdefault(ref.label, []).append(ref.identifier)
        self.by_page = by_page
        self._renumbered = set()
        return config

    def on_files(self, files, config):
        self.files = files
        pages = {f.src_uri for f in files.documentation_pages()}
        for kept in (self._numbers, self._citing):
            for uri in set(kept) - pages:
                del kept[uri]
        return files

    def on_page_markdown(self, markdown: str, page, config, files):
        labels = self.by_page.get(page.file.src_uri)
        return add_computed_by(markdown, labels) if labels else markdown

    def on_page_content(self, html: str, page, config, files):
        uri = page.file.src_uri
        numbers: dict[str, int] = {}
        html = add_equation_ids(html, numbers)
        if uri in self._numbers and self._numbers[uri] != numbers:
            self._renumbered.add(uri)
        self._numbers[uri] = numbers
        return anchor_next_block(annotate_eqrefs(html, numbers))

    def on_post_page(self, output: str, page, config):
        for section in UNLINKED_SECTION.finditer(output):
            if "mlnotes-equation-link" not in section.group(0):
                log.warning(
                    f"{page.file.src_uri}: an Equation: section is not rendered as links: the "
                    "mkdocstrings python handler needs `extensions: "
                    "[mlnotes_site.plugins.equations:EquationsExtension]` in its options, and "
                    "mkdocstrings `custom_templates: scripts/mlnotes_site/templates` "
                    "(README: Layout)"
                )
                break
        self._citing[page.file.src_uri] = {
            html.unescape(m.group("page")) for m in PLACEHOLDER.finditer(output)
        }
        if not self._citing[page.file.src_uri]:
            return output
        files = self.files
        titles = {
            f.src_uri: f.page.title for f in files.documentation_pages() if f.page and f.page.title
        }
        return link_docstring_equations(output, page.url, files, titles, self._numbers)
