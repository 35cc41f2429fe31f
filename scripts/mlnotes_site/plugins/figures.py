"""The `mlnotes-figures` plugin (mkdocs.yml `plugins:`): the site's figures, drawn before each build.

on_pre_build runs the figure builder (`python -m mlnotes_site.figure_builder`, a no-op
for figures that are up to date) in the folder of the mkdocs.yml being built, on that
project's `scripts/figures/`, `mlnotes/`, `docs/figures/` and `.cache/figures/`; a failing
script fails the build and names itself. Under `mkdocs serve` the builder is one process
that lives from build to build (`--serve`), with workers that have imported matplotlib,
torch and `mlnotes` already, so an edit of a figure script costs its drawing only; a new
one replaces it when its code, keys.py's or `mlnotes`' changes, and a figure that fails
does not stop the server (each page that shows it says so: mlnotes-problems).

    plugins:
      - mlnotes-figures:
          jobs: 2        # worker processes that draw; default: one per core
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger

from mlnotes_site import figure_builder, project_root, stop_process
from mlnotes_site.figure_builder import FigureProject
from mlnotes_site.plugins import figure_blocks

if TYPE_CHECKING:
    from jinja2 import Environment
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files

log = get_plugin_logger("figures")
BUILDER = [sys.executable, "-m", "mlnotes_site.figure_builder"]


def _innermost(error: str, root: Path) -> str:
    """A traceback's innermost `File "...", line N` and its message, on one line."""
    error = error.replace(f"{root}/", "")  # paths relative to the project
    lines = [line.strip() for line in error.strip().splitlines() if line.strip()]
    frames = [line for line in lines if line.startswith("File ")]
    return " | ".join(x for x in (frames[-1] if frames else "", lines[-1] if lines else "") if x)


class FiguresConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Draw the figures before each build (false: the figures in docs/figures/ are used as they are)."""
    jobs = c.Optional(c.Type(int))
    """Worker processes that draw the figures (default: one per core)."""


class _Builder:
    """The figure builder in a process of its own that builds on request (`--serve`)."""

    def __init__(self, root: Path, jobs: list[str]):
        self.root = root
        self.process = subprocess.Popen(
            [*BUILDER, "--serve", *jobs],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def build(self) -> dict | None:
        """Build; echo the progress lines; the report (`figure_builder.last_run`), or None
        if the builder stopped (its error is on stderr)."""
        try:
            self.process.stdin.write("build\n")
            self.process.stdin.flush()
        except OSError:
            return None
        for line in self.process.stdout:
            if line.startswith(figure_builder.SERVE_DONE):
                return json.loads(line[len(figure_builder.SERVE_DONE) :])
            sys.stdout.write(line)
            sys.stdout.flush()
        return None

    def close(self) -> None:
        stop_process(self.process)


class FiguresPlugin(BasePlugin[FiguresConfig]):
    """Draws the figures whose inputs changed (figure_builder.py) before each build."""

    def __init__(self):
        # `mkdocs serve` keeps this object for the whole process: its builder stays warm
        self.command: str | None = None
        self.builder: _Builder | None = None
        self.code: str | None = None

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self.command = command

    def on_config(self, config: MkDocsConfig) -> None:
        self.blocks = figure_blocks.extension(config)  # `/// figure` and `[][fig-x]`

    def on_env(self, env: Environment, *, config: MkDocsConfig, files: Files) -> None:
        self.blocks.fill_references(files)  # before autorefs' (-50)

    def on_shutdown(self) -> None:
        self._stop()

    def _stop(self) -> None:
        builder, self.builder, self.code = self.builder, None, None
        if builder is not None:
            builder.close()

    def _jobs(self) -> list[str]:
        return ["--jobs", str(self.config.jobs)] if self.config.jobs else []

    def _warm_builder(self, root: Path) -> _Builder:
        """The serve's builder process for the project in `root`: a new one when the code a
        figure can import, the builder's own or keys.py's changed (`code_key`), so that no
        worker draws with code older than what is on disk."""
        code = figure_builder.code_key(FigureProject.at(root))
        if self.builder is None or self.builder.root != root or code != self.code:
            if self.builder is not None:
                log.info("figures: the code changed, a new builder process")
            self._stop()
            self.builder, self.code = _Builder(root, self._jobs()), code
        return self.builder

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        if not self.config.enabled:
            return
        root = project_root(config)
        if self.command == "serve":
            report = self._warm_builder(root).build()
            if report is None:  # the builder failed to start or died: said on stderr
                self._stop()
                log.error("figures: the figure builder stopped (its error is above)")
                return
            # the server goes on: each page that shows a failed figure says so
            # (mlnotes-problems); its old SVGs are deleted, never served stale
            project = FigureProject.at(root)
            for name, error in report["failed"].items():
                script = project.shown(project.scripts / f"{name}.py")
                log.error(
                    f"figure {name}: {script} raised: {_innermost(error, root)}",
                    extra={"mlnotes_figure": name},
                )
            return
        if subprocess.run([*BUILDER, *self._jobs()], cwd=root).returncode:
            raise PluginError(f"figure build failed: {_failures(FigureProject.at(root))}")


def _failures(project: FigureProject) -> str:
    """The failing scripts of the builder's last run, each with its innermost error (the
    full tracebacks are in the log above)."""
    try:
        failed = figure_builder.last_run(project)["failed"]
    except (OSError, ValueError, KeyError, TypeError):
        return "see the log above (the line '[figures] failing scripts: ...')"
    return (
        "; ".join(
            f"{project.shown(project.scripts / f'{name}.py')} raised: "
            f"{_innermost(error, project.root)}"
            for name, error in sorted(failed.items())
        )
        or "see the log above"
    )
