"""The site's build: MkDocs plugins (plugins/), and the engines they run.

The plugins, one module each with its Config (registered in pyproject.toml under
`[project.entry-points."mkdocs.plugins"]`, configured under `plugins:` in mkdocs.yml):
figures, assets, notebooks, citations, equations (with the mkdocstrings template in
templates/), incremental, typeset, problems.

The engines: keys.py (every content key), figure_builder.py (`make figures`:
`python -m mlnotes_site.figure_builder`), typesetter.py with typeset.mjs (MathJax in
Node), printer.py with printer.css (`make pdf`: `python -m mlnotes_site.printer`) and
chromium.py (a localhost server and headless Chromium, for the printer and the tests).
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
