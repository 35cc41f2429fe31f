"""The figure builder's worker processes: each draws one figure, or one point of an
explorable one, in both themes, under an import recorder (figure_builder.py plans the
builds and starts these)."""

from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mlnotes_site import explore, keys

if TYPE_CHECKING:
    from mlnotes_site.figure_builder import FigureProject

THEMES = {"light": "", "dark": "-dark"}  # theme -> file-name suffix
PACKAGE = "mlnotes"  # the package the figures import and are keyed on


@dataclass
class _Worker:
    project: FigureProject
    recorder: keys.ImportRecorder | None = None


_WORKER: _Worker | None = None  # set in a worker process by its initializer


def start_worker(project: FigureProject) -> None:
    """Initializer of a worker process: it draws for `project` (forked or spawned alike)."""
    global _WORKER
    _WORKER = _Worker(project)


def warm_worker(project: FigureProject) -> None:
    """Initializer of a long-lived worker (`--serve`): import what every figure draws with
    once, so an edit of a figure script costs its drawing, not Python's imports.

    It also exits when the process that started it is gone: a process pool's worker holds
    both ends of its task queue, so it never sees end-of-file when its parent is killed
    and would otherwise live on, idle, holding its memory."""
    parent = os.getppid()

    def exit_with_the_parent() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=exit_with_the_parent, name="exit-with-the-parent", daemon=True).start()
    start_worker(project)
    _recorder()  # before mlnotes loads: every module's imports are recorded
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401
    import torch  # noqa: F401

    try:
        import mlnotes.plotting  # noqa: F401
    except Exception:  # a mistake in mlnotes: each figure that imports it fails, named
        pass


def _recorder() -> keys.ImportRecorder:
    """This worker's record of what each module imports (installed once, before mlnotes loads)."""
    if _WORKER is None:
        raise RuntimeError("not a figure worker: start it with start_worker(project)")
    if _WORKER.recorder is None:
        _WORKER.recorder = keys.ImportRecorder(PACKAGE).install()
    return _WORKER.recorder


def _check_package(project: FigureProject) -> None:
    """The `mlnotes` the figures import must be the project's, the one they are keyed on."""
    imported = Path(sys.modules[PACKAGE].__file__).resolve().parent
    if imported != project.package.resolve():
        raise ImportError(
            f"the figures import {PACKAGE} from {imported}, not the project's {project.package}: "
            "run the builder from the project's folder (`python -m` puts it first on sys.path)"
        )


def partial_path(target: Path) -> Path:
    """Where a figure is written before it is renamed to `target`: a dotfile, which MkDocs
    never collects, so a build reading docs/ meanwhile (another process's) neither copies
    it nor fails when it is renamed away."""
    return target.with_name(f".{target.name}.{os.getpid()}.tmp")


def render(
    name: str,
    script: str,
    files: tuple[str, str] | None = None,
    point: dict | None = None,
    values: dict | None = None,
) -> tuple[str, str | None, float, str | None, list[str] | None, str | None]:
    """Worker: draw one figure, or one point of an explorable one, in both themes.

    `files`: the light and dark files, relative to the figures' folder (default
    `<name>.svg`, `<name>-dark.svg`); `point`: make_figure's keyword arguments (None: its
    defaults, today's figure; a point's SVG describes the call); `values`: the point whose
    `caption_values` to return (None: not explorable). Returns (name, the point's id or
    None, seconds, error or None, the `mlnotes` files the script imported, relative to
    `mlnotes/`, or None if it failed, the caption's values or None).

    For a worker process only (`start_worker`): it installs an import recorder, which
    reloads `mlnotes`."""
    start = time.perf_counter()
    point_id = explore.point_id(point) if point else None
    try:
        recorder = _recorder()
        project = _WORKER.project
        import importlib.util

        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from mlnotes.plotting import style

        _check_package(project)
        module_name = f"_figure_{name}"
        recorder.forget(module_name)  # what an earlier version of the script imported
        spec = importlib.util.spec_from_file_location(module_name, script)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        make_figure = getattr(module, "make_figure", None)
        if not callable(make_figure):
            raise TypeError(f"{project.shown(Path(script))} defines no make_figure() function")
        metadata = {"Date": None}
        if point:  # what the frame was drawn with, in the file itself
            metadata["Description"] = explore.call(point)
        caption = None
        if values is not None:
            caption = module.caption_values(**values)
            if not isinstance(caption, str) or not caption.strip():
                raise TypeError(
                    f"{project.shown(Path(script))}: {explore.call(values, 'caption_values')} "
                    f"returned {caption!r}, not a sentence"
                )
        for theme, file in zip(THEMES, files or [f"{name}{s}.svg" for s in THEMES.values()]):
            with style(theme):
                fig = make_figure(**(point or {}))
                target = project.out / file
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = partial_path(target)
                fig.savefig(tmp, format="svg", metadata=metadata)
                plt.close(fig)
            os.replace(tmp, target)
        imported = recorder.files(module_name)
        return name, point_id, time.perf_counter() - start, None, imported, caption
    except Exception as exc:
        error = keys.ImportRecorder.format_exception(exc)
        return name, point_id, time.perf_counter() - start, error, None, None
