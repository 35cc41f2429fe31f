"""MkDocs hooks (mkdocs.yml: `hooks:`): figures, self-hosted MathJax, notebook downloads.

- on_config: key mkdocs-jupyter's execution cache on the `mlnotes` sources each notebook
  imports too (its own key covers only the notebook file and the plugin options), so
  editing `mlnotes/cnn.py` re-executes only the notebooks that import `mlnotes.cnn`.
  The imports are found as the figure builder finds a figure script's
  (`build_figures.dependencies`: transitive, plus `__init__.py` and `plotting.py`).
- on_pre_build: run `scripts/build_figures.py` (a no-op for figures that are up to
  date); a failing figure script fails the build and names itself. `mkdocs serve`
  watches `mlnotes/` and `scripts/` (mkdocs.yml: `watch:`), so an edit there rebuilds.
- on_files: serve MathJax 4 and its font from `node_modules/` as `javascripts/mathjax/` (no CDN),
  and add `notebooks/<name>.ipynb`, converted from each jupytext notebook, for download.
- on_page_markdown: boost the post and the notes in search above their notebooks.
- on_page_content: drop nbconvert's MathJax 2 configuration from notebook pages.
- on_post_page: a download button on each notebook page.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel

ROOT = Path(__file__).resolve().parent.parent
BUILDER = ROOT / "scripts" / "build_figures.py"
MATHJAX = ROOT / "node_modules" / "mathjax"
# MathJax 4: tex-chtml.js plus what its loader fetches on demand, under the same root
# (`[mathjax]`): TeX extensions (autoload, \require), the menu's and the accessibility
# extensions' components, and the speech rule engine's worker and locale maps.
MATHJAX_PARTS = ("tex-chtml.js", "input", "output", "ui", "a11y", "sre")
# The font is a package of its own (@mathjax/mathjax-newcm-font, MathJax 4's default): its
# CHTML woff2 files and the glyph data MathJax loads per character range ("dynamic").
# Served as `[mathjax]/fonts/mathjax-newcm-font/chtml/`: mathjax-config.js points the
# loader's `fonts` path there (its default is the jsDelivr CDN).
MATHJAX_FONT = ROOT / "node_modules" / "@mathjax" / "mathjax-newcm-font"
MATHJAX_FONT_PARTS = ("chtml",)
NOTEBOOKS = "notebooks/"

DOWNLOAD_ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true">'
    '<path d="M5 20h14v-2H5v2zm7-18-1.4 1.4L15.2 8H13v8h-2V8H8.8l4.6-4.6L12 2zm-1 0h2v12l4-4 '
    '1.4 1.4L12 17.8 5.6 11.4 7 10l4 4V2z"/></svg>'
)


def _builder():
    """scripts/build_figures.py, loaded from this tree (its `dependencies` finds imports)."""
    spec = importlib.util.spec_from_file_location("_mlnotes_build_figures", BUILDER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def notebook_dependencies(nb_path: Path, builder=None) -> list[Path]:
    """The `mlnotes` source files a notebook depends on, transitively, sorted.

    Notebooks are jupytext `.py` files, parsed like figure scripts. A notebook that
    does not parse as Python (an `.ipynb`, a syntax error) depends on all of `mlnotes/`.
    """
    builder = builder or _builder()
    try:
        return builder.dependencies(Path(nb_path))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return sorted(builder.PACKAGE.rglob("*.py"))


def _dependency_aware_key(original, builder):
    def compute_cache_key(nb_path, config, exec_nb):
        h = hashlib.sha256(original(nb_path, config, exec_nb).encode())
        for path in notebook_dependencies(Path(nb_path), builder):
            h.update(f"\n--- {path.relative_to(builder.ROOT).as_posix()}\n".encode())
            h.update(path.read_bytes())
        return h.hexdigest()

    compute_cache_key.__wrapped__ = original
    return compute_cache_key


def install_notebook_cache_key(builder=None):
    """Make mkdocs-jupyter's cache key cover the `mlnotes` files each notebook imports.

    Idempotent (`mkdocs serve` reloads the hooks on every rebuild): the plugin's own
    key function is wrapped once, and a reload re-wraps the original.
    """
    from mkdocs_jupyter import plugin

    original = getattr(plugin._compute_cache_key, "__wrapped__", plugin._compute_cache_key)
    plugin._compute_cache_key = _dependency_aware_key(original, builder or _builder())
    return plugin._compute_cache_key


def on_config(config, **kwargs):
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None and jupyter.config.get("cache"):
        base = Path(jupyter.config["cache_dir"])
        if not base.is_absolute():
            jupyter.config["cache_dir"] = str(ROOT / base)
        install_notebook_cache_key()
    return config


def on_pre_build(config, **kwargs):
    result = subprocess.run([sys.executable, str(BUILDER)], cwd=ROOT)
    if result.returncode:
        raise PluginError(
            "figure build failed: see the traceback above "
            "(the failing script is named on the line '[figures] failing scripts: ...')"
        )


def _mathjax_files(config) -> list[File]:
    if not (MATHJAX / "tex-chtml.js").exists():
        raise PluginError(
            f"MathJax is not installed ({MATHJAX.relative_to(ROOT)}/tex-chtml.js is missing): "
            "run `npm ci` (or any make target, which runs it)"
        )
    if not (MATHJAX_FONT / "chtml").is_dir():
        raise PluginError(
            f"MathJax's font is not installed ({MATHJAX_FONT.relative_to(ROOT)}/chtml is missing): "
            "run `npm ci` (or any make target, which runs it)"
        )
    files = []
    for root, parts, dest in (
        (MATHJAX, MATHJAX_PARTS, "javascripts/mathjax"),
        (MATHJAX_FONT, MATHJAX_FONT_PARTS, "javascripts/mathjax/fonts/mathjax-newcm-font"),
    ):
        for part in parts:
            src = root / part
            paths = [src] if src.is_file() else sorted(p for p in src.rglob("*") if p.is_file())
            for path in paths:
                rel = path.relative_to(root).as_posix()
                files.append(
                    File.generated(
                        config,
                        f"{dest}/{rel}",
                        abs_src_path=str(path),
                        inclusion=InclusionLevel.NOT_IN_NAV,
                    )
                )
    return files


def _notebook_downloads(files: Files, config) -> list[File]:
    import jupytext
    import nbformat

    downloads = []
    for f in files.documentation_pages():
        if f.src_uri.startswith(NOTEBOOKS) and f.src_uri.endswith(".py"):
            notebook = jupytext.read(f.abs_src_path)
            notebook.metadata.pop("jupytext", None)
            notebook.metadata.setdefault(
                "kernelspec", {"name": "python3", "display_name": "Python 3", "language": "python"}
            )
            content = nbformat.writes(notebook, version=4)
            downloads.append(File.generated(config, f.src_uri[:-3] + ".ipynb", content=content))
    return downloads


def on_files(files: Files, config, **kwargs):
    for f in _mathjax_files(config) + _notebook_downloads(files, config):
        files.append(f)
    return files


def on_post_page(output: str, page, config, **kwargs):
    uri = page.file.src_uri
    if not (uri.startswith(NOTEBOOKS) and uri.endswith(".py")):
        return output
    name = uri[len(NOTEBOOKS) : -3]
    button = (
        f'<a href="../{name}.ipynb" download title="Download the notebook (.ipynb)" '
        f'class="md-content__button md-icon mlnotes-download">{DOWNLOAD_ICON}</a>'
    )
    marker = '<article class="md-content__inner md-typeset">'
    if marker not in output:
        raise PluginError(f"{uri}: no '{marker}' to put the notebook download button in")
    return output.replace(marker, marker + button, 1)


# Search: the post and the notes are what a reader searches for. Their companion notebooks
# and the API reference repeat their words, and a notebook's shorter title outranked its
# page ("sinusoidal", "Gram-Schmidt"). Boost the reading pages, unless a page sets its
# own `search: boost:` in its front matter (read by Material's search plugin).
READING = ("blog/posts/", "notes/")
READING_BOOST = 4.0


def on_page_markdown(markdown: str, page, config, **kwargs):
    if page.file.src_uri.startswith(READING):
        search = page.meta.setdefault("search", {})
        if isinstance(search, dict):
            search.setdefault("boost", READING_BOOST)
    return markdown


# Notebook pages: nbconvert's template adds a MathJax 2 configuration block
# (<script type="text/x-mathjax-config">, calling MathJax.Hub.Config) after the
# custom_mathjax_url script. It is inert on a full page load, but Material's instant
# navigation re-runs the scripts of the page it swaps in without their `type`, so it ran
# as JavaScript and threw (MathJax 3 and 4 have no MathJax.Hub). The site's MathJax configuration
# (javascripts/mathjax-config.js) does its job: drop the block.
MATHJAX2_CONFIG = re.compile(r'<script type="text/x-mathjax-config">.*?</script>', re.S)


def on_page_content(html: str, page, config, **kwargs):
    if page.file.src_uri.startswith(NOTEBOOKS):
        return MATHJAX2_CONFIG.sub("", html)
    return html
