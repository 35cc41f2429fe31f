"""The site's build: MkDocs plugins, the figure builder and the PDF printer.

The plugins (registered in pyproject.toml under `[project.entry-points."mkdocs.plugins"]`,
configured under `plugins:` in mkdocs.yml; README: Layout lists their options):

- `mlnotes-figures` (figures.py): the figures, drawn by build_figures.py before each build;
- `mlnotes-assets` (assets.py): self-hosted MathJax, the offline copy's search shim, the
  offline zip and the PDF, the feed's image, notebook pages' links;
- `mlnotes-notebooks` (notebooks.py): notebooks executed in both figure styles;
- `mlnotes-citations` (citations.py): `[@key]` citations and References lists, from the
  bib file (pybtex), as a Markdown extension;
- `mlnotes-equations` (equations.py, templates/): equation <-> code links (a Griffe
  extension and a mkdocstrings template for docstrings' `Equation:` sections), previews;
- `mlnotes-incremental` (incremental.py): `make serve`'s incremental rebuilds;
- `mlnotes-typeset` (typeset_plugin.py, typeset.py): the math typeset at build time, a TeX
  error a warning naming the page and the expression;
- `mlnotes-problems` (problems.py): `make serve` shows a mistake on the pages it touches.

The content keys of the figures, notebooks and the serve: keys.py (the
typeset math's cache is keyed in typeset.py).

The command-line tools: `build_figures.py` (`make figures`) and `pdf.py` (`make pdf`).
"""

from __future__ import annotations

import subprocess
from pathlib import Path


def project_path(config, value: str) -> Path:
    """`value` (an option of a plugin) as a path: relative ones against mkdocs.yml's folder."""
    path = Path(value)
    if path.is_absolute():
        return path
    base = Path(config.config_file_path).resolve().parent if config.config_file_path else Path()
    return base / path


def stop_process(process: subprocess.Popen | None) -> None:
    """End a Node process that reads JSON lines on stdin (typeset.mjs):
    close its input, so it finishes and exits; kill it if it has not within 10 s."""
    if process is not None:
        try:
            process.stdin.close()
            process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
