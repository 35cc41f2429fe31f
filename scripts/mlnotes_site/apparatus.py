r"""The `mlnotes-apparatus` plugin (mkdocs.yml `plugins:`): the study apparatus. Equation <-> code.

(Citations are the `mlnotes-citations` plugin's: scripts/mlnotes_site/citations.py.)

Equation <-> code
-----------------
A docstring names the equation(s) it computes in a Google-style section::

    Equation:
        notes/cnn.md#eq:cnn-output-size

one `page#label` a line: the page's path under `docs/` and the `\label{...}` of a display
equation on it. The plugin (a) checks that the page exists and has that label (a warning,
so the strict build fails naming the function, page and label), (b) renders the section
in the API reference as a link to the equation, with Material's instant preview, and
(c) puts under the equation on its page a line "Computed by <function>" that links to
the function in the API reference (through mkdocs-autorefs, which fails the strict
build if the function is not documented). The equation's display block is wrapped in
an element with the HTML id of its label (`id="eq:cnn-output-size"`), so links and
previews find it before MathJax runs.

Previews
--------
Material's instant previews (`material.extensions.preview` in mkdocs.yml, and the
`data-preview` this plugin puts on the API reference's equation links) show the target of
a link in a tooltip. The plugin prepares the pages for them: every display block carries
`data-eqn-start` (how many numbered equations precede it, so that a preview numbers it
as its page does), math with `\eqref`s carries `data-eqrefs` (their numbers on the page),
and an empty anchor before a correction box moves onto a wrapper of the box.
javascripts/apparatus.js typesets the tooltips.

Notebooks that follow the theme
-------------------------------
With mkdocs-jupyter's `execute: false`, the plugin executes each `docs/notebooks/*.py`
itself, twice (nbclient), under `mlnotes.plotting.style("light")` and `style("dark")`,
caches the result in `.cache/apparatus/notebooks/` (the `notebook_cache` option; keyed on
the notebook, the `mlnotes` sources and the plugin's notebook format), and hands mkdocs-jupyter a notebook whose plot
outputs hold both images (`#only-light` / `#only-dark`, switched with the palette as
the site's figures are). The download `notebooks/<name>.ipynb` is the executed
notebook with its (light) outputs.

Options
-------
    plugins:
      - mlnotes-apparatus:
          package: mlnotes               # the package whose docstrings name equations
          notebook_cache: .cache/apparatus/notebooks   # relative to mkdocs.yml
"""

from __future__ import annotations

import ast
import html
import re
from dataclasses import dataclass
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.utils import get_relative_url

from mlnotes_site import project_path

log = get_plugin_logger("apparatus")

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "mlnotes"

# ---------------------------------------------------------------------------------------
# Equation <-> code
# ---------------------------------------------------------------------------------------

LABEL = re.compile(r"\\label\{([^}]*)\}")
SECTION = re.compile(
    r"^(?P<indent>[ \t]*)Equations?:[ \t]*\n(?P<body>(?:(?P=indent)[ \t]+\S.*\n?)+)",
    re.M,
)
EQ_REF = re.compile(r"^\s*(?P<page>[\w./-]+\.md)#(?P<label>[^\s#]+)\s*$")


@dataclass(frozen=True)
class EquationRef:
    """A function (by its dotted path) that computes the equation `label` on `page`."""

    identifier: str
    page: str
    label: str
    source: str  # file:line of the docstring, for messages


def docstring_equations(doc: str) -> list[tuple[str, str]]:
    """`(page, label)` pairs named in a docstring's `Equation:` section.

    >>> docstring_equations("Summary.\\n\\nEquation:\\n    notes/cnn.md#eq:cnn-output-size\\n")
    [('notes/cnn.md', 'eq:cnn-output-size')]
    """
    found = []
    for section in SECTION.finditer(doc or ""):
        for line in section.group("body").splitlines():
            m = EQ_REF.match(line)
            if not m:
                raise ValueError(
                    f"an Equation: line must read 'page.md#label', got {line.strip()!r}"
                )
            found.append((m.group("page"), m.group("label")))
    return found


def collect_equation_refs(package_dir: Path, package: str = PACKAGE) -> list[EquationRef]:
    """Every `Equation:` reference in the docstrings of a package's modules, functions, classes."""
    refs = []
    for path in sorted(package_dir.glob("*.py")):
        module = package if path.stem == "__init__" else f"{package}.{path.stem}"
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except SyntaxError as err:  # its API page says so (problems.py); a strict build fails
            log.warning(
                f"{path.relative_to(package_dir.parent)}:{err.lineno}: SyntaxError: {err.msg}"
            )
            continue

        def visit(node, prefix, path=path):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    ident = f"{prefix}.{child.name}"
                    try:
                        pairs = docstring_equations(ast.get_docstring(child) or "")
                    except ValueError as err:
                        log.warning(
                            f"{path.relative_to(package_dir.parent)}:{child.lineno}: {ident}: {err}"
                        )
                        pairs = []
                    for page, label in pairs:
                        refs.append(EquationRef(ident, page, label, f"{path.name}:{child.lineno}"))
                    if isinstance(child, ast.ClassDef):
                        visit(child, ident)

        visit(tree, module)
    return refs


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


# mkdocstrings-python renders an unknown Google section ("Equation:") as an admonition
# whose content is the section's text: a paragraph per `page#label` line.
EQUATION_ADMONITION = re.compile(
    r'(<details class="equations?"[^>]*>|<div class="admonition equations?"[^>]*>)(.*?)(</details>|</div>)',
    re.S,
)
EQUATION_TEXT = re.compile(r"([\w./-]+\.md)#([^\s<#]+)")


def link_docstring_equations(
    content: str,
    page_url: str,
    files,
    titles: dict[str, str],
    numbers: dict[str, dict[str, int]],
) -> str:
    """In the API reference, turn each `page.md#label` of an Equation section into a link."""

    def link(m: re.Match) -> str:
        target = files.get_file_from_path(m.group(1))
        if target is None:
            return m.group(0)
        href = get_relative_url(target.url, page_url) + "#" + m.group(2)
        title = titles.get(m.group(1), m.group(1))
        number = numbers.get(m.group(1), {}).get(m.group(2))
        text = f"equation ({number})" if number else html.escape(m.group(2))
        return (
            f'<a class="mlnotes-equation-link" data-preview href="{html.escape(href)}">'
            f"{text} of {html.escape(title)}</a>"
        )

    return EQUATION_ADMONITION.sub(
        lambda m: m.group(1) + EQUATION_TEXT.sub(link, m.group(2)) + m.group(3), content
    )


# ---------------------------------------------------------------------------------------
# Notebooks that follow the theme
# ---------------------------------------------------------------------------------------

NOTEBOOKS = "notebooks/"
NOTEBOOK_CACHE = ROOT / ".cache" / "apparatus" / "notebooks"
# Run before the notebook's first cell, then removed: the figures are drawn under the
# site's figure style (mlnotes.plotting), once per theme.
SETUP_CELL = """\
%matplotlib inline
%config InlineBackend.figure_formats = ["png"]
from mlnotes.plotting import style as _mlnotes_style
_mlnotes_theme = _mlnotes_style({theme!r})  # kept: a collected context manager would restore rcParams
_mlnotes_theme.__enter__()
"""
PLOT_ALT = "Plot drawn by the code cell above ({theme} theme)"
NOTEBOOK_FORMAT = 2  # the version of merge_themes' output, part of the notebooks' cache key


def execute_notebook(path: Path, theme: str, timeout: int = 600):
    """The jupytext notebook at `path`, executed with every figure in `theme`'s style."""
    import jupytext
    import nbformat
    from nbclient import NotebookClient

    nb = jupytext.read(path)
    # nbformat gives each cell a random id: number them, so the page and the download are
    # the same bytes for the same notebook (a clean build equals a served one)
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"
    nb.metadata.pop("jupytext", None)
    nb.metadata.setdefault(
        "kernelspec",
        {"name": "python3", "display_name": "Python 3", "language": "python"},
    )
    nb.cells.insert(0, nbformat.v4.new_code_cell(SETUP_CELL.format(theme=theme)))
    # record_timing=False: no execution timestamps in the cells' metadata (same bytes every run)
    NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    nb.cells.pop(0)
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.get("execution_count"):
            cell.execution_count -= 1
            for out in cell.outputs:
                if out.get("execution_count"):
                    out.execution_count -= 1
    return nb


def merge_themes(light, dark, where: str):
    """A copy of `light` whose image outputs show the light or the dark image, as the palette says.

    Each PNG output gets a `text/html` rendering (which nbconvert prefers) with both
    images, `#only-light` and `#only-dark`, which Material shows by palette as it does
    the site's figures; the `image/png` data stays for other front ends.
    """
    import copy

    merged = copy.deepcopy(light)
    code = [c for c in merged.cells if c.cell_type == "code"]
    dark_code = [c for c in dark.cells if c.cell_type == "code"]
    for cell, dcell in zip(code, dark_code, strict=True):
        images = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        dimages = [o for o in dcell.outputs if "image/png" in o.get("data", {})]
        if len(images) != len(dimages):
            raise ValueError(
                f"{where}: the light and dark runs drew {len(images)} and {len(dimages)} plots in one cell"
            )
        for out, dout in zip(images, dimages):
            pair = "".join(
                f'<img src="data:image/png;base64,{o.data["image/png"].strip()}#only-{t}" alt="{PLOT_ALT.format(theme=t)}">'
                for o, t in ((out, "light"), (dout, "dark"))
            )
            out.data["text/html"] = f'<div class="mlnotes-themed-plot">{pair}</div>'
    return merged


def _builder():
    """The figure builder (build_figures.py), whose `notebook_dependencies` key notebooks too."""
    from mlnotes_site import build_figures

    return build_figures


def _notebook_dependencies(path: Path) -> list[Path]:
    """The `mlnotes` sources a jupytext notebook imports, transitively (scripts/mlnotes_site/build_figures.py)."""
    return _builder().notebook_dependencies(path)


def _notebook_key(path: Path) -> str:
    """The content key (scripts/mlnotes_site/keys.py) of a notebook's executed copies."""
    import matplotlib

    from mlnotes_site import keys

    builder = _builder()
    key = keys.Key("notebook").add("notebook", path.read_bytes())
    # only the code of the mlnotes modules this notebook imports (transitively, as the
    # figure builder finds a figure script's): a change of behaviour in mlnotes/cnn.py
    # re-runs the cnn notebook only, and a docstring or comment edit re-runs none
    for dep in builder.notebook_dependencies(path):
        key.code(dep, builder.ROOT)
    # what this module does to a notebook: bump NOTEBOOK_FORMAT when merge_themes changes
    key.add("format", f"{SETUP_CELL}{PLOT_ALT}{NOTEBOOK_FORMAT}")
    key.add("matplotlib", matplotlib.__version__)
    return key.hexdigest()


def build_notebook(path: Path, cache: Path = NOTEBOOK_CACHE) -> tuple[Path, Path]:
    """Execute a notebook in both themes (unless cached); return the page's and the download's .ipynb.

    The page's notebook (`<cache>/<name>.ipynb`, with both renderings of each plot) is
    what mkdocs-jupyter renders; the download (`<cache>/<name>.light.ipynb`) is the
    executed notebook with its (light) outputs.
    """
    import nbformat

    cache.mkdir(parents=True, exist_ok=True)
    page, download, stamp = (cache / f"{path.stem}{s}" for s in (".ipynb", ".light.ipynb", ".key"))
    key = _notebook_key(path)
    if stamp.is_file() and stamp.read_text() == key and page.is_file() and download.is_file():
        return page, download
    started = __import__("time").perf_counter()
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:  # two kernels: the cells mostly wait on torch and numpy
        light, dark = pool.map(lambda theme: execute_notebook(path, theme), ("light", "dark"))
    nbformat.write(merge_themes(light, dark, path.name), page)
    nbformat.write(light, download)
    stamp.write_text(key)
    log.info(
        f"notebook {path.name}: executed in the light and dark styles in {__import__('time').perf_counter() - started:.1f} s"
    )
    return page, download


def _notebook_error(source: Path, err: Exception) -> str:
    """Where a notebook failed: `docs/notebooks/x.py:LINE: Name: message` for a cell that
    raised (nbclient's CellExecutionError), the error itself otherwise."""
    ename, evalue = getattr(err, "ename", None), getattr(err, "evalue", None)
    if ename is None:
        return f"{err.__class__.__name__}: {err}"
    where = source.relative_to(ROOT).as_posix() if source.is_relative_to(ROOT) else source.name
    # the failing cell's source, as nbclient quotes it, found in the jupytext file
    quoted = re.search(r"-{10,}\n(.*?)\n-{10,}", str(err), re.S)
    if quoted:
        first = next((line for line in quoted.group(1).splitlines() if line.strip()), "")
        text = source.read_text(encoding="utf-8").splitlines()
        line = next((i for i, t in enumerate(text, 1) if first and t == first), None)
        if line is not None:
            where = f"{where}:{line}"
    return f"{where}: {ename}: {evalue}"


def themed_notebooks(files, config, serve: bool = False, cache: Path = NOTEBOOK_CACHE) -> None:
    """Point each notebook page at its executed two-theme copy, and its download at the executed one."""
    from mkdocs.exceptions import PluginError
    from mkdocs.structure.files import File

    for f in list(files.documentation_pages()):
        if not (f.src_uri.startswith(NOTEBOOKS) and f.src_uri.endswith(".py")):
            continue
        source = Path(f.abs_src_path)
        try:
            page_nb, download_nb = build_notebook(source, cache)
        except Exception as err:  # a failing cell, a kernel that died
            message = f"notebook {f.src_uri} failed to execute: {_notebook_error(source, err)}"
            if not serve:
                raise PluginError(message) from err
            # `make serve` goes on: the page shows the notebook's source, unexecuted, with
            # the error at its top (scripts/mlnotes_site/problems.py) and no download
            log.error(message, extra={"mlnotes_page": f.src_uri})
            continue
        f.abs_src_path = str(page_nb)
        dest = f.src_uri[:-3] + ".ipynb"
        old = files.get_file_from_path(dest)
        if old is not None:
            files.remove(old)
        files.append(File.generated(config, dest, abs_src_path=str(download_nb)))


# ---------------------------------------------------------------------------------------
# The plugin
# ---------------------------------------------------------------------------------------


class ApparatusConfig(base.Config):
    package = c.Type(str, default=PACKAGE)
    """The package (a folder next to mkdocs.yml) whose docstrings' `Equation:` sections link."""
    notebook_cache = c.Type(str, default=".cache/apparatus/notebooks")
    """Where the executed notebooks are kept, relative to mkdocs.yml."""


class ApparatusPlugin(BasePlugin[ApparatusConfig]):
    """Equation <-> code links, previews, notebooks in both figure styles."""

    def __init__(self):
        self.serve = False
        self.refs: list[EquationRef] = []  # read by mlnotes-incremental
        self.by_page: dict[str, dict[str, list[str]]] = {}
        # {src_uri: {label: N}}, filled as pages render; mlnotes-incremental writes the
        # numbers of the pages a `make serve` build does not re-render into it
        self.numbers: dict[str, dict[str, int]] = {}
        self.files = None

    def on_startup(self, *, command, dirty):
        self.serve = command == "serve"

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
        return config

    def on_files(self, files, config):
        self.files = files
        jupyter = config.plugins.get("mkdocs-jupyter")
        if jupyter is not None and not jupyter.config.get("execute"):
            cache = project_path(config, self.config.notebook_cache)
            themed_notebooks(files, config, serve=self.serve, cache=cache)
        return files

    def on_page_markdown(self, markdown: str, page, config, files):
        uri = page.file.src_uri
        labels = self.by_page.get(uri)
        if labels:
            markdown = add_computed_by(markdown, labels)
        return markdown

    def on_page_content(self, html: str, page, config, files):
        numbers = self.numbers[page.file.src_uri] = {}
        html = add_equation_ids(html, numbers)
        return anchor_next_block(annotate_eqrefs(html, numbers))

    def on_post_page(self, output: str, page, config):
        if "equation" not in output:
            return output
        files = self.files
        titles = {
            f.src_uri: f.page.title for f in files.documentation_pages() if f.page and f.page.title
        }
        return link_docstring_equations(output, page.url, files, titles, self.numbers)
