"""A tiny MkDocs project, written from a dict and built strictly: the plugin tests' project.

    tree = tiny.project(tmp_path, {"docs/index.md": "# Home\\n"}, plugins=["mlnotes-typeset"])
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr
    assert "Home" in built.text("index.html")

`project` writes each {relative path: text} under the folder, and an `mkdocs.yml` (unless
the dict has one): Material, the site's Markdown extensions that the plugins read
(arithmatex, footnotes, attr_list, md_in_html) and only the plugins the test names.
`build` runs `mkdocs build --strict` in a subprocess from that folder, with this tree's
`mlnotes` and build code (scripts/mlnotes_site) first on PYTHONPATH, so the entry points
of the project (pyproject.toml) load this copy of the plugins. `serve` runs `mkdocs serve
--dirty` on it instead (scripts/dev/bench_loop.Server), with its own copy of the build code.

What a tiny project needs from the repository: its npm packages. The plugins that run
Node or copy MathJax (mlnotes-typeset, mlnotes-assets) find `node_modules/` from the
project's folder, as Node does: `project(..., node_modules=True)` links this repository's
there. mlnotes-figures draws the project's own scripts/figures/ with the project's own
`mlnotes/` (which must define `mlnotes.plotting.style`) into its docs/figures/: the builder
runs in the folder of mkdocs.yml.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = Path(sys.executable).with_name("mkdocs")
# the sitemap carries the build date: a fixed one makes two builds comparable
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "1735689600"}
MARKDOWN_EXTENSIONS = [
    "attr_list",
    "footnotes",
    "md_in_html",
    {"pymdownx.arithmatex": {"generic": True}},
]


# a one-entry bibliography for the projects that cite (mlnotes-citations)
BIB = """\
@book{goodfellow2016,
  author    = {Goodfellow, Ian and Bengio, Yoshua and Courville, Aaron},
  title     = {Deep Learning},
  publisher = {MIT Press},
  year      = {2016},
}
"""


def pythonpath(tree: Path | None = None) -> str:
    """This tree's `mlnotes` and build code first (then `tree`'s own, if it has one), then
    the caller's PYTHONPATH."""
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    first = [str(tree)] if tree is not None else []
    return os.pathsep.join([*first, str(ROOT), str(ROOT / "scripts"), *inherited])


def config(plugins=(), **settings) -> str:
    """mkdocs.yml's text: Material, the extensions, `plugins` (names, or {name: options})."""
    data = {
        "site_name": "Tiny",
        "site_url": "http://127.0.0.1:8000/",
        "theme": {"name": "material"},
        "markdown_extensions": MARKDOWN_EXTENSIONS,
        "plugins": list(plugins),
        **settings,
    }
    return yaml.safe_dump(data, sort_keys=False)


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    """Each file of `files` under `root` (folders made as needed); returns `root`."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
    return root


def project(
    root: Path, files: dict[str, str | bytes], plugins=(), node_modules: bool = False, **settings
) -> Path:
    """A tiny project in `root`: `files`, and a mkdocs.yml from `config` unless they have one;
    with `node_modules`, this repository's npm packages linked as its own."""
    root.mkdir(parents=True, exist_ok=True)
    if "mkdocs.yml" not in files:
        files = {"mkdocs.yml": config(plugins, **settings), **files}
    if node_modules:
        (root / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    return write(root, files)


@dataclass
class Built:
    """A strict build's outcome: its return code, its log (stderr) and the built site."""

    root: Path
    returncode: int
    stderr: str
    site: Path

    @property
    def files(self) -> list[str]:
        """The built files, relative to the site folder, sorted."""
        if not self.site.is_dir():
            return []
        return sorted(
            p.relative_to(self.site).as_posix() for p in self.site.rglob("*") if p.is_file()
        )

    def text(self, rel: str) -> str:
        return (self.site / rel).read_text(encoding="utf-8")

    @property
    def warnings(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if "WARNING" in line]


def serve(root: Path, log: Path, monkeypatch, timeout: float = 120):
    """`mkdocs serve --dirty` (what `make serve` runs) on the project in `root`, as a
    scripts/dev/bench_loop.Server. The project gets its own copy of the build code in
    scripts/mlnotes_site/, where the site has it: the serve imports the plugins from that
    copy (bench_loop puts the project's scripts/ first on PYTHONPATH), so a test edits the
    copy, never this tree's; node_modules/ is linked next to it, and .venv/ too (bench_loop
    runs .venv/bin/mkdocs). `monkeypatch` (pytest's) sets PYTHONPATH for the server."""
    import bench_loop  # scripts/dev, on sys.path through pytest's `pythonpath`

    shutil.copytree(
        ROOT / "scripts/mlnotes_site",
        root / "scripts/mlnotes_site",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    if not (root / "node_modules").exists():
        (root / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    (root / ".venv").symlink_to(Path(sys.executable).parent.parent)
    monkeypatch.setenv("PYTHONPATH", pythonpath())
    return bench_loop.Server(root, log, timeout=timeout)


def build(root: Path, site: Path | None = None, timeout: float = 300) -> Built:
    """`mkdocs build --strict` of the project in `root`, run from `root`. No `-q`: under
    MkDocs 1.6 it raises the log level above WARNING, and `--strict` then sees none."""
    site = site or root / "site"
    result = subprocess.run(
        [str(MKDOCS), "build", "--strict", "-d", str(site)],
        cwd=root,
        env={**ENV, "PYTHONPATH": pythonpath()},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return Built(root, result.returncode, result.stderr, site)
