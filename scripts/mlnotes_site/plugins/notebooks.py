r"""The `mlnotes-notebooks` plugin (mkdocs.yml `plugins:`): notebooks executed in both figure styles.

With mkdocs-jupyter's `execute: false`, the plugin executes each `docs/notebooks/*.py`
itself, twice (nbclient), under `mlnotes.plotting.style("light")` and `style("dark")`,
keeps the result in the `notebook_cache` folder (keyed on the notebook, the code of the
`mlnotes` modules it imported when it last ran, and this plugin's code: keys.py), and hands
mkdocs-jupyter a notebook whose plot outputs show both images (classes `mlnotes-only-light`
/ `mlnotes-only-dark`, switched with the palette as the site's figures are), as PNG files
of the site (`notebooks/<name>/plot-<n>-<theme>.png`, lazily loaded: the hidden palette's
never is), not inline. The download `notebooks/<name>.ipynb` is the executed notebook
with its (light) outputs. On each notebook page, mkdocs-jupyter's inlined JupyterLab
stylesheet (575 KB) keeps only the rules that can match the page (`prune_css`).

    plugins:
      - mlnotes-notebooks:
          notebook_cache: .cache/notebooks   # relative to mkdocs.yml
"""

from __future__ import annotations

import functools
import json
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger

from mlnotes_site import keys, project_root

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

log = get_plugin_logger("notebooks")


# ---------------------------------------------------------------------------------------
# Notebooks that follow the theme
# ---------------------------------------------------------------------------------------

NOTEBOOKS = "notebooks/"
PACKAGE = "mlnotes"  # the package the notebooks import (ImportRecorder in SETUP_CELL)
# in every notebook's key besides what it imports: the styles (SETUP_CELL imports them)
ALWAYS = ("plotting",)
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


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height of a PNG image, in pixels (its IHDR chunk).

    Raises:
        ValueError: `data` is not a PNG image.
    """
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("data: not a PNG image")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def merge_themes(light, dark, where: str, name: str):
    """A copy of `light` whose image outputs show the light or the dark image, as the
    palette says, and the images: {file name: PNG bytes}.

    Each PNG output gets a `text/html` rendering (which nbconvert prefers) with both
    images, of classes `mlnotes-only-light` and `mlnotes-only-dark`, shown by palette as
    the site's figures are (docs/stylesheets/extra.css): files `plot-<n>-<theme>.png`,
    linked as `<name>/plot-<n>-<theme>.png` (relative to the notebooks' folder; the page
    makes it relative to itself: `plot_links`), with their size (no layout shift) and
    `loading="lazy"` (the image of the palette not shown is not fetched). The `image/png`
    data stays for other front ends.
    """
    import base64
    import copy

    merged = copy.deepcopy(light)
    plots: dict[str, bytes] = {}
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
            n = len(plots) // 2 + 1
            pair = []
            for o, t in ((out, "light"), (dout, "dark")):
                data = base64.b64decode(o.data["image/png"])
                width, height = png_size(data)
                plots[f"plot-{n}-{t}.png"] = data
                pair.append(
                    f'<img class="mlnotes-only-{t}" src="{name}/plot-{n}-{t}.png" width="{width}" '
                    f'height="{height}" loading="lazy" decoding="async" alt="{PLOT_ALT.format(theme=t)}">'
                )
            out.data["text/html"] = f'<div class="mlnotes-themed-plot">{"".join(pair)}</div>'
    merged.metadata["mlnotes_plots"] = sorted(plots)
    return merged, plots


def plot_names(page_notebook: Path) -> list[str] | None:
    """The plot files (`merge_themes`) of an executed page notebook, or None if it cannot be read."""
    try:
        return json.loads(page_notebook.read_text(encoding="utf-8"))["metadata"]["mlnotes_plots"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def plot_links(html: str, name: str, urls: dict[str, str]) -> str:
    """`html` with each plot link of notebook `name` (`merge_themes`) replaced by its URL
    relative to the page, from `urls` ({file name: relative URL})."""
    for file, url in urls.items():
        html = html.replace(f'src="{name}/{file}"', f'src="{url}"')
    return html


def notebook_key(path: Path, root: Path, imports: list[str] | None = None) -> str:
    """The content key (keys.py) of a notebook's executed copies, in the project at `root`.

    `imports`: the `mlnotes` files (relative to `mlnotes/`) the notebook imported when it
    last ran (recorded in its kernel, `<cache>/<name>.imports`); without them, those its
    source names, followed through `mlnotes`' own imports (`keys.dependencies`). Only their
    code counts: a change of behaviour in mlnotes/cnn.py re-runs the notebooks that import
    it, a docstring or comment edit none. The producer's version is this module's code.
    """
    import matplotlib

    package = root / PACKAGE
    key = keys.Key("notebook").module(sys.modules[__name__]).module(keys)
    key.add("matplotlib", matplotlib.__version__)
    key.add("notebook", path.read_bytes())
    if imports is None:
        deps = keys.dependencies(path, package, always=ALWAYS)
    else:
        deps = sorted({package / name for name in [*imports, *(f"{a}.py" for a in ALWAYS)]})
    for dep in deps:
        key.code(dep, root, missing_ok=True)  # a module gone since: it runs, and fails
    return key.hexdigest()


def build_notebook(path: Path, root: Path, cache: Path) -> tuple[Path, Path]:
    """Execute a notebook of the project at `root` in both themes (unless it is in `cache`);
    return the page's and the download's .ipynb.

    The page's notebook (`<cache>/<name>.ipynb`, with both renderings of each plot) is
    what mkdocs-jupyter renders, its plots' images in `<cache>/<name>.plots/`; the download
    (`<cache>/<name>.light.ipynb`) is the executed notebook with its (light) outputs.
    """
    import nbformat

    page, download = (cache / f"{path.stem}{s}" for s in (".ipynb", ".light.ipynb"))
    plots_dir = cache / f"{path.stem}.plots"
    stamp = keys.Stamp(cache, path.stem, (page, download))
    names = plot_names(page)
    if (
        names is not None
        and all((plots_dir / n).is_file() for n in names)
        and stamp.fresh(notebook_key(path, root, stamp.imports()))
    ):
        return page, download
    started = time.perf_counter()
    from concurrent.futures import ThreadPoolExecutor

    cache.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(2) as pool:  # two kernels: the cells mostly wait on torch and numpy
        light, dark = pool.map(lambda theme: execute_notebook(path, theme), ("light", "dark"))
    # the files both runs imported (the same cells: the same files, unless a cell branches on the theme)
    imports = sorted(
        {*light.metadata.pop("mlnotes_imports", []), *dark.metadata.pop("mlnotes_imports", [])}
    )
    merged, plots = merge_themes(light, dark, path.name, path.stem)
    if plots_dir.exists():
        for old in plots_dir.iterdir():
            old.unlink()
    plots_dir.mkdir(exist_ok=True)
    for file, data in plots.items():
        (plots_dir / file).write_bytes(data)
    nbformat.write(merged, page)
    nbformat.write(light, download)
    stamp.write(notebook_key(path, root, imports), imports)
    log.info(
        f"notebook {path.name}: executed in the light and dark styles in "
        f"{time.perf_counter() - started:.1f} s"
    )
    return page, download


def _notebook_error(source: Path, root: Path, err: Exception) -> str:
    """Where a notebook failed: `docs/notebooks/x.py:LINE: Name: message` for a cell that
    raised (nbclient's CellExecutionError), the error itself otherwise."""
    ename, evalue = getattr(err, "ename", None), getattr(err, "evalue", None)
    if ename is None:
        return f"{err.__class__.__name__}: {err}"
    where = source.relative_to(root).as_posix() if source.is_relative_to(root) else source.name
    # the failing cell's source, as nbclient quotes it, found in the jupytext file
    quoted = re.search(r"-{10,}\n(.*?)\n-{10,}", str(err), re.S)
    if quoted:
        first = next((line for line in quoted.group(1).splitlines() if line.strip()), "")
        text = source.read_text(encoding="utf-8").splitlines()
        line = next((i for i, t in enumerate(text, 1) if first and t == first), None)
        if line is not None:
            where = f"{where}:{line}"
    return f"{where}: {ename}: {evalue}"


def themed_notebooks(
    files: Files, config: MkDocsConfig, cache: Path, serve: bool = False
) -> dict[str, tuple[str, list]]:
    """Point each notebook page at its executed two-theme copy (kept in `cache`), its
    download at the executed one, and add its plots' images to the site; return, for each
    page's `src_uri`, the notebook's name and its plots' `File`s."""
    from mkdocs.exceptions import PluginError
    from mkdocs.structure.files import File

    root = project_root(config)
    pages: dict[str, tuple[str, list]] = {}
    for f in list(files.documentation_pages()):
        if not (f.src_uri.startswith(NOTEBOOKS) and f.src_uri.endswith(".py")):
            continue
        source = Path(f.abs_src_path)
        try:
            page_nb, download_nb = build_notebook(source, root, cache)
        except Exception as err:  # a failing cell, a kernel that died
            where = _notebook_error(source, root, err)
            message = f"notebook {f.src_uri} failed to execute: {where}"
            if not serve:
                raise PluginError(message) from err
            # `make serve` goes on: the page shows the notebook's source, unexecuted, with
            # the error at its top (scripts/mlnotes_site/plugins/problems.py) and no download
            log.error(message, extra={"mlnotes_page": f.src_uri})
            continue
        f.abs_src_path = str(page_nb)
        dest = f.src_uri[:-3] + ".ipynb"
        old = files.get_file_from_path(dest)
        if old is not None:
            files.remove(old)
        files.append(File.generated(config, dest, abs_src_path=str(download_nb)))
        folder = f.src_uri[:-3]  # notebooks/<name>: beside the page and its download
        plots = [
            File.generated(
                config, f"{folder}/{n}", abs_src_path=str(cache / f"{source.stem}.plots" / n)
            )
            for n in plot_names(page_nb) or []
        ]
        for plot in plots:
            files.append(plot)
        pages[f.src_uri] = (source.stem, plots)
    return pages


# mkdocs-jupyter's inlined JupyterLab stylesheet (its templates' assets/index.css)
JUPYTER_CSS = re.compile(
    r'(<style type="text/css">\s*)(@charset "UTF-8";\.jupyter-wrapper\{.*?)(</style>)', re.S
)
# functional pseudo-classes: a selector matches without the classes in their arguments
_FUNCTIONAL = re.compile(r":(?:not|is|where|has|matches|-webkit-any|-moz-any)\(")
# `.jupyter-wrapper :root`, `.jupyter-wrapper body`: the root or the body inside an element
_NEVER = re.compile(r"\S\s*[\s>+~]\s*(?::root|html|body)(?![\w-])")
_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")


def _classes_required(selector: str) -> set[str]:
    """The classes an element must have somewhere in the page for `selector` to match it
    (those inside `:not(...)`, `:is(...)` and the like left out)."""
    out, i = [], 0
    while (m := _FUNCTIONAL.search(selector, i)) is not None:
        out.append(selector[i : m.start()])
        depth, i = 1, m.end()
        while i < len(selector) and depth:
            depth += {"(": 1, ")": -1}.get(selector[i], 0)
            i += 1
    out.append(selector[i:])
    return set(_CLASS.findall("".join(out)))


def _selectors(prelude) -> list[str]:
    """A rule's selector list, split at its top-level commas (not those inside `:is(...)`,
    which tinycss2 parses as a function block)."""
    import tinycss2

    parts: list[list] = [[]]
    for token in prelude:
        if token.type == "literal" and token.value == ",":
            parts.append([])
        else:
            parts[-1].append(token)
    return [tinycss2.serialize(part) for part in parts]


def _prune_rules(rules, classes: set[str]) -> list[str]:
    import tinycss2

    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = _selectors(rule.prelude)
            if any(_classes_required(s) <= classes and not _NEVER.search(s) for s in selectors):
                kept.append(rule.serialize())
        elif rule.type == "at-rule":
            if rule.content is not None and rule.lower_at_keyword in (
                "media",
                "supports",
                "container",
                "layer",
            ):
                inner = tinycss2.parse_blocks_contents(
                    rule.content, skip_comments=True, skip_whitespace=True
                )
                body = _prune_rules(inner, classes)
                if body:
                    kept.append(
                        f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}{{{''.join(body)}}}"
                    )
            else:  # @charset, @font-face, @keyframes, @import: kept
                kept.append(rule.serialize())
    return kept


def prune_css(css: str, classes: set[str]) -> str:
    """The rules of `css` that can match an element of a page whose elements have only
    `classes`: a rule is kept when one of its selectors needs no other class (outside
    `:not(...)` and the like), and is not the root or the body inside an element.
    Conservative: ids, tags and attributes are not looked at; `@media` and the like are
    pruned inside, other at-rules kept whole. Parsed with tinycss2."""
    return "".join(_prune_rules(_parse_css(css), classes))


@functools.lru_cache(maxsize=2)
def _parse_css(css: str) -> tuple:
    """The rules of `css`, parsed once per build for all the notebook pages (the same
    stylesheet; about 2 s for its 575 KB)."""
    import tinycss2

    return tuple(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))


def prune_jupyter_css(html: str, cache: Path) -> str:
    """`html` (a notebook page) with mkdocs-jupyter's inlined JupyterLab stylesheet pruned
    to the page's classes (`prune_css`); the result is kept in `cache`, keyed on the
    stylesheet, the classes and this module's code."""
    m = JUPYTER_CSS.search(html)
    if m is None:
        return html
    classes = {c for value in re.findall(r'class="([^"]*)"', html) for c in value.split()}
    key = keys.Key("notebook-css").module(sys.modules[__name__])
    key.add("css", m.group(2)).add("classes", " ".join(sorted(classes)))
    cached = Path(cache) / f"css-{key.hexdigest()[:20]}.css"
    try:
        css = cached.read_text(encoding="utf-8")
    except OSError:
        css = prune_css(m.group(2), classes)
        Path(cache).mkdir(parents=True, exist_ok=True)
        cached.write_text(css, encoding="utf-8")
    return html[: m.start(2)] + css + html[m.end(2) :]


# ---------------------------------------------------------------------------------------
# The plugin
# ---------------------------------------------------------------------------------------


class NotebooksConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Execute the notebooks in both figure styles (false: mkdocs-jupyter alone renders them)."""
    notebook_cache = c.Dir(default=".cache/notebooks")
    """Where the executed notebooks are kept, relative to mkdocs.yml."""


class NotebooksPlugin(BasePlugin[NotebooksConfig]):
    """Notebooks in both figure styles."""

    def __init__(self):
        self.serve = False
        self.pages: dict[str, tuple[str, list]] = {}

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self.serve = command == "serve"

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        if not self.config.enabled:
            return files
        jupyter = config.plugins.get("mkdocs-jupyter")
        if jupyter is not None and not jupyter.config.get("execute"):
            self.pages = themed_notebooks(
                files, config, Path(self.config.notebook_cache), serve=self.serve
            )
        return files

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """A notebook page's plots linked relative to the page (`notebooks/x/` or, in
        `make offline`, `notebooks/x.html`)."""
        if page.file.src_uri not in self.pages:
            return html
        name, plots = self.pages[page.file.src_uri]
        return plot_links(
            html, name, {p.src_uri.rsplit("/", 1)[1]: p.url_relative_to(page.file) for p in plots}
        )

    @event_priority(-50)  # after mlnotes-typeset: the page's final classes
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """A notebook page's JupyterLab stylesheet, pruned to its classes."""
        if not self.config.enabled or not page.file.src_uri.startswith(NOTEBOOKS):
            return output
        return prune_jupyter_css(output, Path(self.config.notebook_cache))
