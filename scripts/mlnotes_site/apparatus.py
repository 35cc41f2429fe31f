r"""The `mlnotes-apparatus` plugin (mkdocs.yml `plugins:`): the study apparatus. Citations and notebooks.

Equation <-> code links (docstrings' `Equation:` sections, equation ids and numbers, the
previews' attributes) are the `mlnotes-equations` plugin's: scripts/mlnotes_site/equations.py.

Citations (BibTeX, formatted by pybtex)
---------------------------------------
A page cites a work of `docs/references.bib` (the `bib_file` option) by key, in pandoc's syntax:

    [@vaswani2017]                  -> (Vaswani et al., 2017)
    [@vaswani2017, sec. 3.5]        -> (Vaswani et al., 2017, sec. 3.5)
    [@dumoulin2016; @goodfellow2016, ch. 9]
                                    -> (Dumoulin and Visin, 2016; Goodfellow et al., 2016, ch. 9)
    Vaswani et al. [-@vaswani2017]  -> Vaswani et al. (2017)

Each author-year text links to the work's entry in a "References" section at the end
of the page, generated from the bib file (pybtex's plain style); a page that already has
a `## References` heading gets the list under it. The link carries Material's
`footnote-ref` class, so `content.footnote.tooltips` shows the full entry on hover and
keyboard focus. A key that is not in the bib file is a warning, which fails
`mkdocs build --strict`. Code blocks and inline code are left alone.

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
          bib_file: references.bib       # relative to docs_dir
          notebook_cache: .cache/apparatus/notebooks   # relative to mkdocs.yml
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, get_plugin_logger

from mlnotes_site import project_path

log = get_plugin_logger("apparatus")

ROOT = Path(__file__).resolve().parents[2]
BIB_NAME = "references.bib"

# ---------------------------------------------------------------------------------------
# Citations
# ---------------------------------------------------------------------------------------

# A bracketed citation: one or more `@key` items separated by `;`, each with an optional
# prefix and locator. Not a link text (`[...](` / `[...][`), not a footnote (`[^`), not
# the label of a link reference definition: `[...]:` opening a line (the first
# alternative, left as it is). Elsewhere `[@key]:` is a citation followed by a colon.
CITE = re.compile(
    r"^[ \t]*\[[^\[\]\n]*\]:|(?<![\\!\]])\[(?!\^)([^\[\]\n]*?-?@[A-Za-z0-9_][^\[\]\n]*?)\](?![(\[])",
    re.M,
)
ITEM = re.compile(
    r"^\s*(?P<prefix>[^@]*?)\s*(?P<suppress>-?)@(?P<key>[A-Za-z0-9_][\w:.+/-]*?)\s*(?:,\s*(?P<locator>.+?))?\s*$"
)
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
REFERENCES_HEADING = re.compile(r"^##\s+References\s*(\{[^}]*\})?\s*$", re.M)


def _latex_to_text(value) -> str:
    from pybtex.richtext import Text

    return Text.from_latex(str(value)).render_as("text")


@dataclass
class Bibliography:
    """The entries of a BibTeX file, with author-year labels and formatted entries."""

    entries: dict

    @classmethod
    def load(cls, path: Path) -> "Bibliography":
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
        """Full entries as HTML (pybtex plain style), by key."""
        from pybtex.backends.html import Backend
        from pybtex.style.formatting.plain import Style

        entries = [self.entries[k] for k in keys]
        backend = Backend()
        return {
            e.key: e.text.render(backend).replace("\n", " ")
            for e in Style().format_entries(entries)
        }


def _mask_code(markdown: str) -> tuple[str, list[str]]:
    """Replace fenced blocks and inline code with placeholders (restored by `_unmask`)."""
    saved: list[str] = []

    def keep(text: str) -> str:
        saved.append(text)
        return f"\x00{len(saved) - 1}\x00"

    out, block, fence = [], [], None
    for line in markdown.splitlines(keepends=True):
        m = FENCE.match(line)
        if fence is None and m:
            fence, block = m.group(2), [line]
        elif fence is not None:
            block.append(line)
            if (
                line.strip().startswith(fence[0] * len(fence))
                and line.strip().strip(fence[0]) == ""
            ):
                out.append(keep("".join(block)))
                fence = None
        else:
            out.append(INLINE_CODE.sub(lambda mm: keep(mm.group(0)), line))
    if fence is not None:
        out.append(keep("".join(block)))
    return "".join(out), saved


def _unmask(text: str, saved: list[str]) -> str:
    return re.sub("\x00(\\d+)\x00", lambda m: saved[int(m.group(1))], text)


def cite(
    markdown: str, bib: Bibliography, where: str, bib_name: str = f"docs/{BIB_NAME}"
) -> tuple[str, list[str]]:
    """Replace pandoc citations by author-year links; return the markdown and keys cited."""
    masked, saved = _mask_code(markdown)
    cited: list[str] = []

    def replace(match: re.Match) -> str:
        if match.group(1) is None:
            return match.group(0)  # a link reference definition
        items = [ITEM.match(part) for part in match.group(1).split(";")]
        if not all(items):
            return match.group(0)  # not a citation, e.g. "[see the @ sign]"
        parts, suppressed = [], False
        for item in items:
            key = item.group("key")
            if key not in bib.entries:
                log.warning(f"{where}: citation key '{key}' is not in {bib_name}")
                return match.group(0)
            if key not in cited:
                cited.append(key)
            suppressed = suppressed or bool(item.group("suppress"))
            text = bib.year(key) if item.group("suppress") else bib.label(key)
            link = (
                f'<a class="footnote-ref mlnotes-cite" href="#ref-{key}" '
                f'aria-describedby="ref-{key}">{html.escape(text)}</a>'
            )
            prefix = html.escape(item.group("prefix") or "")
            locator = item.group("locator")
            parts.append(
                (f"{prefix} " if prefix else "")
                + link
                + (f", {html.escape(locator)}" if locator else "")
            )
        return f'<span class="mlnotes-citation">({"; ".join(parts)})</span>'

    return _unmask(CITE.sub(replace, masked), saved), cited


def references_html(bib: Bibliography, keys: list[str]) -> str:
    """The References list: one `<li id="ref-KEY"><p>entry</p></li>` per work, by author."""
    formatted = bib.formatted(keys)
    ordered = sorted(keys, key=lambda k: (bib.authors(k).lower(), bib.year(k)))
    items = "\n".join(f'<li id="ref-{k}"><p>{formatted[k]}</p></li>' for k in ordered)
    return f'<ul class="mlnotes-references">\n{items}\n</ul>'


def add_references(markdown: str, bib: Bibliography, keys: list[str]) -> str:
    block = "\n\n" + references_html(bib, keys) + "\n\n"
    heading = REFERENCES_HEADING.search(markdown)
    if heading:
        return markdown[: heading.end()] + block + markdown[heading.end() :]
    return markdown.rstrip() + "\n\n## References" + block


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
from mlnotes_site.keys import ImportRecorder as _MlnotesImports
_mlnotes_imports = _MlnotesImports("mlnotes").install()  # what the notebook imports, as it runs
from mlnotes.plotting import style as _mlnotes_style
_mlnotes_theme = _mlnotes_style({theme!r})  # kept: a collected context manager would restore rcParams
_mlnotes_theme.__enter__()
"""
# the last cell: the `mlnotes` files the notebook's cells (and the setup cell) imported
IMPORTS_CELL = "import json as _json; print(_json.dumps(_mlnotes_imports.files('__main__')))"
PLOT_ALT = "Plot drawn by the code cell above ({theme} theme)"
NOTEBOOK_FORMAT = 3  # the version of merge_themes' output, part of the notebooks' cache key


def execute_notebook(path: Path, theme: str, timeout: int = 600):
    """The jupytext notebook at `path`, executed with every figure in `theme`'s style.

    The `mlnotes` files its cells imported as they ran (`keys.ImportRecorder` in the
    kernel, relative to `mlnotes/`) are in the result's `metadata["mlnotes_imports"]`;
    `build_notebook` removes them from what it writes.
    """
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
    nb.cells.append(nbformat.v4.new_code_cell(IMPORTS_CELL))
    # record_timing=False: no execution timestamps in the cells' metadata (same bytes every run)
    NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    nb.cells.pop(0)
    imports_cell = nb.cells.pop()
    nb.metadata["mlnotes_imports"] = json.loads(
        "".join(o.get("text", "") for o in imports_cell.outputs if o.get("name") == "stdout")
    )
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


def _notebook_key(path: Path, imports: list[str] | None = None) -> str:
    """The content key (scripts/mlnotes_site/keys.py) of a notebook's executed copies.

    `imports`: the `mlnotes` files (relative to `mlnotes/`) the notebook imported when it
    last ran (recorded in its kernel, `<cache>/<name>.imports`); without them, those its
    source names, followed through `mlnotes`' own imports (`build_figures.notebook_dependencies`).
    """
    import matplotlib

    from mlnotes_site import keys

    builder = _builder()
    key = keys.Key("notebook").add("notebook", path.read_bytes())
    # only the code of the mlnotes modules this notebook imports (transitively, as the
    # figure builder finds a figure script's): a change of behaviour in mlnotes/cnn.py
    # re-runs the cnn notebook only, and a docstring or comment edit re-runs none
    if imports is None:
        deps = builder.notebook_dependencies(path)
    else:
        deps = sorted({builder.PACKAGE / name for name in imports})
    for dep in deps:
        key.code(dep, builder.ROOT, missing_ok=True)  # a module gone since: it runs, and fails
    # what this module does to a notebook: bump NOTEBOOK_FORMAT when merge_themes changes
    key.add("format", f"{SETUP_CELL}{PLOT_ALT}{NOTEBOOK_FORMAT}")
    key.add("matplotlib", matplotlib.__version__)
    return key.hexdigest()


def _recorded_imports(stamp: Path) -> list[str] | None:
    """The `mlnotes` files a notebook imported when it last ran; None if not recorded."""
    try:
        imports = json.loads(stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return imports if isinstance(imports, list) else None


def build_notebook(path: Path, cache: Path = NOTEBOOK_CACHE) -> tuple[Path, Path]:
    """Execute a notebook in both themes (unless cached); return the page's and the download's .ipynb.

    The page's notebook (`<cache>/<name>.ipynb`, with both renderings of each plot) is
    what mkdocs-jupyter renders; the download (`<cache>/<name>.light.ipynb`) is the
    executed notebook with its (light) outputs.
    """
    import nbformat

    cache.mkdir(parents=True, exist_ok=True)
    page, download, stamp, imports_stamp = (
        cache / f"{path.stem}{s}" for s in (".ipynb", ".light.ipynb", ".key", ".imports")
    )
    key = _notebook_key(path, _recorded_imports(imports_stamp))
    if stamp.is_file() and stamp.read_text() == key and page.is_file() and download.is_file():
        return page, download
    started = __import__("time").perf_counter()
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:  # two kernels: the cells mostly wait on torch and numpy
        light, dark = pool.map(lambda theme: execute_notebook(path, theme), ("light", "dark"))
    # the files both runs imported (the same cells: the same files, unless a cell branches on the theme)
    imports = sorted(
        {*light.metadata.pop("mlnotes_imports", []), *dark.metadata.pop("mlnotes_imports", [])}
    )
    nbformat.write(merge_themes(light, dark, path.name), page)
    nbformat.write(light, download)
    imports_stamp.write_text(json.dumps(imports))
    stamp.write_text(_notebook_key(path, imports))
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
    bib_file = c.Type(str, default=BIB_NAME)
    """The BibTeX file the pages cite, relative to docs_dir."""
    notebook_cache = c.Type(str, default=".cache/apparatus/notebooks")
    """Where the executed notebooks are kept, relative to mkdocs.yml."""


class ApparatusPlugin(BasePlugin[ApparatusConfig]):
    """Citations, notebooks in both figure styles."""

    def __init__(self):
        self.serve = False
        self.bib = Bibliography({})

    def on_startup(self, *, command, dirty):
        self.serve = command == "serve"

    def on_config(self, config):
        docs = Path(config.docs_dir)
        bib_path = docs / self.config.bib_file
        self.bib = Bibliography.load(bib_path) if bib_path.is_file() else Bibliography({})
        return config

    def on_files(self, files, config):
        jupyter = config.plugins.get("mkdocs-jupyter")
        if jupyter is not None and not jupyter.config.get("execute"):
            cache = project_path(config, self.config.notebook_cache)
            themed_notebooks(files, config, serve=self.serve, cache=cache)
        return files

    def on_page_markdown(self, markdown: str, page, config, files):
        uri = page.file.src_uri
        bib_name = f"{Path(config.docs_dir).name}/{self.config.bib_file}"
        markdown, keys = cite(markdown, self.bib, uri, bib_name)
        if keys:
            markdown = add_references(markdown, self.bib, keys)
        return markdown
