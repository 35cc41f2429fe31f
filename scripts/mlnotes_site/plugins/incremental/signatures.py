"""Page signatures and the dirty decision: which pages a `--dirty` build must render.

A page's signature is the content key (keys.py) of its source and of what its HTML
depends on besides: the files it includes with pymdownx.snippets, the `mlnotes` modules
its `:::` blocks document, the functions that compute its equations (their "Computed by"
lines, mlnotes-equations) and which of its figures failed to draw (its banner,
mlnotes-problems). A notebook page is the executed copy mlnotes-notebooks hands
mkdocs-jupyter, so its bytes are its signature. Every page is rendered when what every
page reads changes (the global key), when a page is added or removed, or when a page's
front matter or title changes (every page's navigation shows them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File
from mkdocs.utils import get_markdown_title
from mkdocs.utils.meta import get_data

import mlnotes_site
from mlnotes_site import markup
from mlnotes_site import explore
from mlnotes_site.figure_builder import FigureProject
from mlnotes_site.keys import Key
from mlnotes_site.plugins.incremental.state import PageRecord, PageScan


def derived_inputs(root: Path, config: MkDocsConfig) -> list[str]:
    """What every page reads, as the configuration says: the theme's custom_dir, the build
    code (this package) and mlnotes-citations' bib file; paths relative to `root`, those
    inside it."""
    found = []
    custom_dir = config.theme.custom_dir if config.theme else None
    candidates = [Path(custom_dir)] if custom_dir else []
    candidates.append(Path(mlnotes_site.__file__).resolve().parent)
    citations = config.plugins.get("mlnotes-citations")
    if citations is not None:
        candidates.append(Path(config.docs_dir) / citations.config.bib_file)
    for path in candidates:
        path = path if path.is_absolute() else root / path
        if path.resolve().is_relative_to(root.resolve()):
            found.append(path.resolve().relative_to(root.resolve()).as_posix())
    return found


def global_key(root: Path, config: MkDocsConfig, inputs: Iterable[str] = ()) -> str:
    """The content key of what every page reads: mkdocs.yml, the `inputs` (files or folders
    relative to `root`) and the dotfiles under docs/ (not pages, but pages show them: the
    blog's `.authors.yml`, Material's `.meta.yml` defaults of a folder)."""
    key = Key("site inputs")
    if config.config_file_path:
        key.file(Path(config.config_file_path), root, missing_ok=True)
    for name in inputs:
        base = root / name
        for path in sorted(base.rglob("*")) if base.is_dir() else [base]:
            if path.is_file() and "__pycache__" not in path.parts:
                key.file(path, root, missing_ok=True)
    docs = Path(config.docs_dir)
    for path in sorted(docs.rglob(".*")):
        if path.is_file():
            key.file(path, docs, missing_ok=True)
    return key.hexdigest()


def _add_file(key: Key, path: Path, root: Path) -> None:
    """A file the page depends on, by its path in the project (from `/` if outside it: a
    serve's keys live in memory only), missing or not."""
    inside = Path(path).resolve().is_relative_to(root.resolve())
    key.file(Path(path).resolve(), root.resolve() if inside else Path("/"), missing_ok=True)


def notebook_heading(text: str) -> str | None:
    """The first `# ` line of a notebook's Markdown cells (its title), from its JSON."""
    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):
        return None
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            source = "".join(source) if isinstance(source, list) else source
            heading = re.search(r"^#\s.*$", source, re.M)
            if heading:
                return heading.group(0)
    return None


def scan_page(
    root: Path,
    file: File,
    computed_by: Iterable[tuple[str, str]] = (),
    failed: Mapping[str, list[str]] | None = None,
    *,
    snippet_bases: Iterable[Path] | None = None,
    module_paths: Iterable[Path] | None = None,
) -> PageScan:
    """The page's signature and navigation key. `computed_by`: `(label, function)` of its
    equations (mlnotes-equations); `failed`: the figures that failed to draw, and why
    (mlnotes-problems); `snippet_bases`, `module_paths`: where pymdownx.snippets and
    mkdocstrings find files (markup.snippet_bases, markup.module_paths; `root` if None)."""
    try:
        raw = file.content_bytes
    except (OSError, TypeError, ValueError):
        return PageScan(None, None)
    text = raw.decode("utf-8", errors="replace")
    bases = list(snippet_bases or [root])
    key = Key("page").add("source", raw).add("computed by", repr(list(computed_by)))
    for snippet in markup.snippets(text):
        found = markup.snippet_file(snippet.path, bases)
        for path in [found] if found else [base / snippet.path for base in bases]:
            _add_file(key, path, root)
    for block in markup.autodoc_blocks(text):
        for path in markup.module_files(block.identifier, module_paths or [root]):
            _add_file(key, path, root)
    failed = failed or {}
    project = FigureProject.at(root)
    for name in markup.figure_names(text):
        _add_file(key, project.scripts / f"{name}.py", root)  # a figure block lists its script
        # an explorable figure's block writes its frames and caption values (explore.py)
        _add_file(key, explore.manifest_path(project.out, name), root)
        if name in failed:
            key.add(f"figure {name} failed", str(failed[name]))
    if file.src_uri.endswith(".md"):
        body, meta = get_data(text)
        navkey = (json.dumps(meta, sort_keys=True, default=str), get_markdown_title(body))
    else:  # a notebook: the executed .ipynb (mlnotes-notebooks), or the jupytext source
        navkey = ("", notebook_heading(text) if text.lstrip().startswith("{") else None)
    return PageScan(key.hexdigest(), navkey)


def decide(
    previous: Mapping[str, PageRecord],
    previous_key: str | None,
    scans: Mapping[str, PageScan],
    key: str,
    blog_dir: str | None,
) -> tuple[str | None, set[str]]:
    """Why every page must be rendered (None: they need not), and the pages to render: those
    whose signature changed, or every page of the blog if one of its pages is among them
    (its index, category and archive views list the posts)."""
    reason = None
    if not previous:
        reason = "first build"
    elif key != previous_key:
        reason = "configuration, theme overrides or build code changed"
    elif set(scans) != set(previous):
        added, gone = sorted(set(scans) - set(previous)), sorted(set(previous) - set(scans))
        reason = f"pages added {added} or removed {gone}"
    else:
        changed = [u for u, s in scans.items() if s.navkey != previous[u].scan.navkey]
        if changed:
            reason = f"front matter or title of {changed} changed"
    forced = {
        uri
        for uri, scan in scans.items()
        if reason or scan.signature is None or scan.signature != previous[uri].scan.signature
    }
    if blog_dir and any(uri.startswith(blog_dir) for uri in forced):
        forced |= {uri for uri in scans if uri.startswith(blog_dir)}
    return reason, forced
