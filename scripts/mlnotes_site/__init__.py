"""The site's build: MkDocs plugins (plugins/), and the engines they run.

The plugins, one module each with its Config (registered in pyproject.toml under
`[project.entry-points."mkdocs.plugins"]`, configured under `plugins:` in mkdocs.yml):
figures, assets, notebooks, citations, equations (with the mkdocstrings template in
templates/), incremental, typeset, problems, cite, cards (with the social cards' layout in
cards/). upstream/ adapts what other packages do not offer as public API.

The engines: keys.py (every content key), figure_builder.py (`make figures`:
`python -m mlnotes_site.figure_builder`), typesetter.py with typeset.mjs (MathJax in
Node) and mathtext.py (TeX as text), printer.py with printer.css (`make pdf`:
`python -m mlnotes_site.printer`) and chromium.py (a localhost server and headless
Chromium, for the printer and the tests). Every path they use comes from the project
(mkdocs.yml's folder, a plugin option, the current directory), never from where this
package is installed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path


def project_path(config, value: str) -> Path:
    """`value` (an option of a plugin) as a path: relative ones against mkdocs.yml's folder."""
    path = Path(value)
    if path.is_absolute():
        return path
    return project_root(config) / path


def project_root(config) -> Path:
    """The project's folder: the built mkdocs.yml's (the current directory without one)."""
    return Path(config.config_file_path or "mkdocs.yml").resolve().parent


def node_modules(project: Path) -> Path:
    """The `node_modules` folder Node finds from the folder `project`: the first one in it or
    in a folder above it (`project/node_modules` if there is none: whoever needs a package
    from it says it is missing)."""
    project = Path(project).resolve()
    for folder in (project, *project.parents):
        if (folder / "node_modules").is_dir():
            return folder / "node_modules"
    return project / "node_modules"


def stop_process(process: subprocess.Popen | None) -> None:
    """End a process that reads requests on stdin (typeset.mjs, `figure_builder --serve`):
    close its input, so it finishes and exits; kill it if it has not within 10 s."""
    if process is not None:
        try:
            process.stdin.close()
            process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
