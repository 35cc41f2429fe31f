"""The `mlnotes-figures` plugin (mkdocs.yml `plugins:`): the site's figures, drawn before each build.

- on_pre_build: run the figure builder (`figure_builder.py`, a no-op for figures that are
  up to date) on the project of the mkdocs.yml being built (its folder is the builder's
  `--root`: its own `scripts/figures/`, `mlnotes/`, `docs/figures/`, `.cache/figures/`);
  a failing figure script fails the build and names itself. `mkdocs serve`
  watches `mlnotes/`, `scripts/figures/` and `scripts/mlnotes_site/` (mkdocs.yml:
  `watch:`), so an edit there rebuilds.
- Under `mkdocs serve` the builder runs in this process, with a pool of worker processes
  that outlives a build (they have imported matplotlib, torch and mlnotes already): an
  edit of a figure script costs its drawing only. A figure that fails does not stop the
  server: each page that shows it says so (mlnotes-problems).

Options:

    plugins:
      - mlnotes-figures:
          jobs: 2        # worker processes that draw; default: one per core
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger

from mlnotes_site.plugins import figure_blocks

log = get_plugin_logger("figures")
ROOT = Path(__file__).resolve().parents[3]
BUILDER = Path(__file__).resolve().parent.parent / "figure_builder.py"


def _root(config) -> Path:
    """The project's folder: mkdocs.yml's (this repository's when there is no file)."""
    return Path(config.config_file_path).resolve().parent if config.config_file_path else ROOT


def _innermost(error: str, root: Path = ROOT) -> str:
    """A traceback's innermost `File "...", line N` and its message, on one line."""
    error = error.replace(f"{root}/", "")  # paths relative to the project
    lines = [line.strip() for line in error.strip().splitlines() if line.strip()]
    frames = [line for line in lines if line.startswith("File ")]
    return " | ".join(x for x in (frames[-1] if frames else "", lines[-1] if lines else "") if x)


class FiguresConfig(base.Config):
    jobs = c.Optional(c.Type(int))
    """Worker processes that draw the figures (default: one per core)."""


class FiguresPlugin(BasePlugin[FiguresConfig]):
    """Draws the figures whose inputs changed (figure_builder.py) before each build."""

    def __init__(self):
        # `mkdocs serve` keeps this object for the whole process: its figure workers stay warm
        self.command: str | None = None
        self.pool = None
        self.code: str | None = None

    def on_startup(self, *, command, dirty):
        self.command = command

    def on_config(self, config):
        self.blocks = figure_blocks.extension(config)  # `/// figure` and `[][fig-x]`

    def on_env(self, env, *, config, files):
        self.blocks.fill_references(files)  # before autorefs' (-50)

    def on_shutdown(self):
        self._stop_pool()

    def _stop_pool(self) -> None:
        pool, self.pool, self.code = self.pool, None, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _warm_builder(self, root: Path):
        """The figure builder, imported by name (its workers unpickle
        `mlnotes_site.figure_builder.render`), working on the project in `root`, with a
        process pool that outlives a build: re-created when the code a figure can import
        or the builder itself changes (`figure_builder.code_key`), never reused stale."""
        import importlib
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from mlnotes_site import figure_builder

        figure_builder.set_root(root)
        code = figure_builder.code_key()
        if code != self.code:
            self._stop_pool()
            figure_builder = importlib.reload(figure_builder)
            figure_builder.set_root(root)  # a reload resets it to this repository
            workers = self.config.jobs or os.cpu_count() or 1
            self.pool = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),  # never fork the server's threads
                initializer=figure_builder.warm_worker,
                initargs=figure_builder.folders(),  # the spawned workers draw for `root` too
            )
            # start every worker now, in the background: a process pool spawns its workers
            # on the first submits, so the first figure edit would otherwise wait for their
            # imports (about 4 s of torch and matplotlib on 2 cores)
            for _ in range(workers):
                self.pool.submit(os.getpid)
            self.code = figure_builder.code_key()
        return figure_builder, self.pool

    def on_pre_build(self, config):
        root = _root(config)
        if self.command == "serve":
            builder, pool = self._warm_builder(root)
            if builder.build(executor=pool):
                # the server goes on: each page that shows a failed figure says so
                # (mlnotes-problems); its old SVGs are deleted, never served stale
                for name, error in builder.last_run()["failed"].items():
                    log.error(
                        f"figure {name}: scripts/figures/{name}.py raised: "
                        f"{_innermost(error, root)}",
                        extra={"mlnotes_figure": name},
                    )
            return
        jobs = ["--jobs", str(self.config.jobs)] if self.config.jobs else []
        command = [sys.executable, str(BUILDER), "--root", str(root), *jobs]
        if subprocess.run(command, cwd=root).returncode:
            raise PluginError(f"figure build failed: {_failures(root)}")


def _failures(root: Path) -> str:
    """The failing scripts of the builder's last run in `root`, each with its innermost
    error (the full tracebacks are in the log above)."""
    from mlnotes_site import figure_builder

    cache = figure_builder.layout(root)[4]
    try:
        failed = json.loads((cache / "last-run.json").read_text(encoding="utf-8"))["failed"]
    except (OSError, ValueError, KeyError, TypeError):
        return "see the log above (the line '[figures] failing scripts: ...')"
    return (
        "; ".join(
            f"scripts/figures/{name}.py raised: {_innermost(error, root)}"
            for name, error in sorted(failed.items())
        )
        or "see the log above"
    )
