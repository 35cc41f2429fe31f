r"""The `mlnotes-notebooks` plugin (mkdocs.yml `plugins:`): notebooks executed in both figure styles.

With mkdocs-jupyter's `execute: false`, the plugin executes each `docs/notebooks/*.py`
itself, twice (nbclient), under `mlnotes.plotting.style("light")` and `style("dark")`,
keeps the result in the `notebook_cache` folder (keyed on the notebook, the code of the
`mlnotes` modules it imported when it last ran, and this plugin's code: keys.py), and hands
mkdocs-jupyter a notebook whose plot outputs hold both images (classes `mlnotes-only-light`
/ `mlnotes-only-dark`, switched with the palette as the site's figures are). The download
`notebooks/<name>.ipynb` is the executed notebook with its (light) outputs.

    plugins:
      - mlnotes-notebooks:
          notebook_cache: .cache/notebooks   # relative to mkdocs.yml
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, get_plugin_logger

from mlnotes_site import keys, project_root

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files

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


def merge_themes(light, dark, where: str):
    """A copy of `light` whose image outputs show the light or the dark image, as the palette says.

    Each PNG output gets a `text/html` rendering (which nbconvert prefers) with both
    images, of classes `mlnotes-only-light` and `mlnotes-only-dark`, shown by palette as
    the site's figures are (docs/stylesheets/extra.css). Not Material's `#only-light`
    fragment, as the site's figure files have: a `data:` URI takes no fragment (RFC 2397;
    the W3C checker rejects it). The `image/png` data stays for other front ends.
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
                f'<img class="mlnotes-only-{t}" src="data:image/png;base64,{o.data["image/png"].strip()}" alt="{PLOT_ALT.format(theme=t)}">'
                for o, t in ((out, "light"), (dout, "dark"))
            )
            out.data["text/html"] = f'<div class="mlnotes-themed-plot">{pair}</div>'
    return merged


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
    what mkdocs-jupyter renders; the download (`<cache>/<name>.light.ipynb`) is the
    executed notebook with its (light) outputs.
    """
    import nbformat

    page, download = (cache / f"{path.stem}{s}" for s in (".ipynb", ".light.ipynb"))
    stamp = keys.Stamp(cache, path.stem, (page, download))
    if stamp.fresh(notebook_key(path, root, stamp.imports())):
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
    nbformat.write(merge_themes(light, dark, path.name), page)
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


def themed_notebooks(files: Files, config: MkDocsConfig, cache: Path, serve: bool = False) -> None:
    """Point each notebook page at its executed two-theme copy (kept in `cache`), and its
    download at the executed one."""
    from mkdocs.exceptions import PluginError
    from mkdocs.structure.files import File

    root = project_root(config)
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

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self.serve = command == "serve"

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        if not self.config.enabled:
            return files
        jupyter = config.plugins.get("mkdocs-jupyter")
        if jupyter is not None and not jupyter.config.get("execute"):
            themed_notebooks(files, config, Path(self.config.notebook_cache), serve=self.serve)
        return files
