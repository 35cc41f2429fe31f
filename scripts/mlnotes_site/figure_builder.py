"""Build the site's figures: one script in scripts/figures/ per figure, light and dark SVG.

    python -m mlnotes_site.figure_builder [--force] [--jobs N] [--root DIR] [NAME ...]

`scripts/figures/<name>.py` defines `make_figure()`, which returns a matplotlib Figure;
it is drawn under `mlnotes.plotting.style("light")` and `style("dark")` into
`docs/figures/<name>.svg` and `<name>-dark.svg`. Those folders are the project's
(`FigureProject`: the current directory, or `--root`), whose `mlnotes` the figures import:
`python -m` puts the current directory first on `sys.path`. A figure is drawn again only
when its key changes (keys.py: its script, the code of the `mlnotes` modules it imported,
the styles, this builder's code and the libraries' versions), in parallel, one progress
line each. A script that raises fails the build naming itself, and its old output is
deleted; outputs of scripts that no longer exist are deleted too. A script with `EXPLORE`
(explore.py) is also drawn at every other point of its grid, each point keyed on its own,
into `docs/figures/<name>/`, with the manifest the figure block reads.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from mlnotes_site import explore, figure_worker, keys
from mlnotes_site.figure_worker import (  # what runs in the worker processes
    PACKAGE,
    THEMES,
    partial_path,
    render,
    start_worker,
    warm_worker,
)

# in every figure's key: mlnotes/__init__.py (run by any import of mlnotes) and the styles
ALWAYS = ("__init__.py", "plotting.py")
LIBRARIES = ("matplotlib", "numpy", "scipy", "torch")
# `--serve`: the line that ends the answer to a build (after its progress lines)
SERVE_DONE = "[figures-builder] done "


@dataclass(frozen=True)
class FigureProject:
    """The folders of the project the builder works on.

    `root`: the project's folder (mkdocs.yml's); `scripts`: its figure scripts; `package`:
    the `mlnotes` the figures import; `out`: where the SVGs go; `cache`: the keys, the
    recorded imports and the report of the last run (`last-run.json`).
    """

    root: Path
    scripts: Path
    package: Path
    out: Path
    cache: Path

    @classmethod
    def at(cls, root: Path | str) -> FigureProject:
        """The project in `root`, laid out as this one: `scripts/figures/`, `mlnotes/`,
        `docs/figures/` and `.cache/figures/` ($MLNOTES_FIGURE_CACHE, if set, instead)."""
        root = Path(root).resolve()
        cache = os.environ.get("MLNOTES_FIGURE_CACHE") or root / ".cache" / "figures"
        return cls(
            root,
            root / "scripts" / "figures",
            root / PACKAGE,
            root / "docs" / "figures",
            Path(cache),
        )

    def discover(self) -> dict[str, Path]:
        """Each figure's name and its script (private `_*.py` helpers excluded)."""
        return {p.stem: p for p in sorted(self.scripts.glob("*.py")) if not p.name.startswith("_")}

    def outputs(self, name: str) -> list[Path]:
        return [self.out / f"{name}{suffix}.svg" for suffix in THEMES.values()]

    def stamp(self, name: str) -> keys.Stamp:
        """The record of figure `name` (its key and recorded imports, beside its SVGs)."""
        return keys.Stamp(self.cache, name, tuple(self.outputs(name)))

    def point_stamp(self, name: str, grid: explore.Explore, point: dict) -> keys.Stamp:
        """The record of one point of explorable figure `name` other than its default (whose
        record is the figure's `stamp`): its frames, keyed by `point_key`."""
        files = tuple(self.out / f for f in grid.files(name, point))
        return keys.Stamp(self.cache / name, grid.point_id(point), files)

    def shown(self, path: Path) -> str:
        """`path` as a message names it: relative to the project when inside it."""
        path = Path(path)
        return (
            path.relative_to(self.root).as_posix() if path.is_relative_to(self.root) else str(path)
        )


def dependencies(project: FigureProject, script: Path) -> list[Path]:
    """The `mlnotes` files the script imports, transitively, with `__init__.py` and
    `plotting.py` (the styles); every module if it does not parse (`keys.dependencies`)."""
    return keys.dependencies(script, project.package, always=[Path(a).stem for a in ALWAYS])


def _versions() -> str:
    versions = [f"python={platform.python_version()}"]
    for lib in LIBRARIES:
        try:
            versions.append(f"{lib}={metadata.version(lib)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{lib}=missing")
    return ";".join(versions)


def _producer(key: keys.Key) -> keys.Key:
    """The builder's version: its code, its workers' (which draw) and keys.py's (which
    records what a figure imported)."""
    this = sys.modules[__name__]
    return key.module(this).module(figure_worker).module(keys)


def cache_key(
    project: FigureProject,
    script: Path,
    versions: str | None = None,
    imports: list[str] | None = None,
) -> str:
    """The content key (`keys.Key`) of everything that can change the figure's bytes.

    `imports`: the `mlnotes` files (relative to `mlnotes/`) the script imported when it
    last ran (`recorded_imports`); without them, those its source names (`dependencies`).
    """
    key = _producer(keys.Key("figure")).add("versions", versions or _versions())
    key.file(script, project.root)  # the script itself by its bytes: any edit redraws it
    for path in dependencies(project, script) if imports is None else _files(project, imports):
        key.code(path, project.root, missing_ok=True)  # a module gone since: it runs, and fails
    return key.hexdigest()


def _files(project: FigureProject, imports: list[str]) -> list[Path]:
    return sorted({project.package / name for name in [*imports, *ALWAYS]})


def recorded_imports(project: FigureProject, name: str) -> list[str] | None:
    """The `mlnotes` files (relative to `mlnotes/`) the figure's script imported when it was
    last drawn, as its worker recorded them (`keys.ImportRecorder`); None if not recorded."""
    return project.stamp(name).imports()


def code_key(project: FigureProject) -> str:
    """One key of the code every figure may import (each `mlnotes` module's code) and of
    this builder's: a warm worker that imported an older version of either must not draw."""
    key = _producer(keys.Key("figure workers"))
    for path in sorted(project.package.rglob("*.py")):
        key.code(path, project.root)
    return key.hexdigest()


# ---------------------------------------------------------------------------------------
# A build
# ---------------------------------------------------------------------------------------


def _after_run(project, script, versions, key, used, imported) -> str:
    """The key to stamp a figure just drawn with. `key` was computed before the run, over
    the files `used` (recorded by the last run, or scanned); the next build keys the
    figure over the files this run `imported`. When those are among the `used` files and
    none of those changed during the run, the key over `imported` now is the key of what
    was drawn; otherwise `key` is kept, which the next build's key differs from (the
    figure is drawn again: never a stale figure, at worst one more drawing)."""
    before = set(_files(project, used) if used is not None else dependencies(project, script))
    if (
        set(_files(project, imported)) <= before
        and cache_key(project, script, versions, used) == key
    ):
        return cache_key(project, script, versions, imported)
    return key


def point_key(figure_key: str, point_id: str) -> str:
    """The key of one point of an explorable figure: its figure's key and the point."""
    return keys.Key("figure point").add("figure", figure_key).add("point", point_id).hexdigest()


@dataclass
class _Plan:
    """What one build does for one figure: its key, its grid (None: a static figure), the
    tasks to draw (`render`'s arguments after the script) and what they returned."""

    key: str
    grid: explore.Explore | None = None
    error: str | None = None
    tasks: list[tuple] | None = None
    done: dict = None  # point id (None: the default) -> (seconds, imports, caption)

    def others(self) -> list[dict]:
        """The points of its grid other than the default (none for a static figure)."""
        return [p for p in self.grid.points() if p != self.grid.default] if self.grid else []

    def frames(self, project: FigureProject, name: str) -> list[Path]:
        """The files of its points other than the default's, and its manifest."""
        if self.grid is None:
            return []
        files = [project.out / f for point in self.others() for f in self.grid.files(name, point)]
        return [*files, explore.manifest_path(project.out, name)]


def _plan(project: FigureProject, name: str, script: Path, key: str, force: bool) -> _Plan:
    """The tasks that bring figure `name` up to date: its default (today's figure) unless
    its stamp is fresh, and each other point unless its `point_stamp` is fresh (a point
    whose caption the manifest lacks is drawn again); a bad `EXPLORE` is the figure's
    error. The manifest is written before the stamps (`build`): a fresh stamp's caption is
    the manifest's."""
    plan = _Plan(key, tasks=[], done={})
    try:
        plan.grid = explore.read(script, project.shown(script))
    except explore.ExploreError as error:
        plan.error = str(error)
        return plan
    grid = plan.grid
    old = (explore.read_manifest(project.out, name) or {}).get("points", {}) if grid else {}

    def captioned(point: dict) -> bool:
        entry = old.get(grid.point_id(point))
        return isinstance(entry, dict) and "caption" in entry

    def fresh(point: dict) -> bool:
        pid = grid.point_id(point)
        return captioned(point) and project.point_stamp(name, grid, point).fresh(
            point_key(key, pid)
        )

    default_fresh = project.stamp(name).fresh(key) and (grid is None or captioned(grid.default))
    if force or not default_fresh:
        plan.tasks.append((None, None, grid.default if grid else None))
    elif grid is not None:
        plan.done[None] = (0.0, None, old[grid.point_id(grid.default)]["caption"])
    for point in plan.others():
        pid = grid.point_id(point)
        if force or not fresh(point):
            plan.tasks.append((grid.files(name, point), point, point))
        else:
            plan.done[pid] = (0.0, None, old[pid]["caption"])
    return plan


def _write_manifest(project: FigureProject, name: str, plan: _Plan) -> None:
    """The manifest of an explorable figure: each point's parameters, files and caption
    values, in the grid's order (explore.read_manifest)."""
    grid = plan.grid
    points = {}
    for point in grid.points():
        pid = grid.point_id(point)
        done = plan.done[None if point == grid.default else pid]
        points[pid] = {
            "params": point,
            "files": list(grid.files(name, point)),
            "caption": done[2],
        }
    manifest = {"parameters": [p.name for p in grid.parameters], "points": points}
    path = explore.manifest_path(project.out, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = partial_path(path)
    tmp.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _prune(folder: Path, keep: set[Path]) -> int:
    """Delete the files of `folder` not in `keep` (dotfiles aside: a drawing being written),
    then the folder if that emptied it. Returns how many files were deleted."""
    removed = 0
    for path in folder.iterdir():
        if path.is_file() and path not in keep and not path.name.startswith("."):
            path.unlink()
            removed += 1
    with contextlib.suppress(OSError):
        folder.rmdir()  # when empty
    return removed


def _remove_stale(project: FigureProject, scripts: dict[str, Path], plans: dict) -> None:
    """Delete every drawing no script makes: a script gone, a point no longer on its grid,
    a figure no longer explorable (the figures of scripts not built now are kept); and
    likewise the points' stamps (`point_stamp`)."""
    expected = {p.name for name in scripts for p in project.outputs(name)}
    for stale in project.out.glob("*.svg"):
        if stale.name not in expected:
            stale.unlink()
            print(f"[figures] {stale.stem}: removed (no script)", flush=True)
    for folder in project.out.iterdir():
        if not folder.is_dir() or (folder.name in scripts and folder.name not in plans):
            continue
        plan = plans.get(folder.name)
        keep = set(plan.frames(project, folder.name)) if plan and not plan.error else set()
        removed = _prune(folder, keep)
        if removed:
            why = "no script" if folder.name not in scripts else "not on its grid"
            print(f"[figures] {folder.name}/: {removed} files removed ({why})", flush=True)
    for records in project.cache.iterdir():
        if not records.is_dir() or (records.name in scripts and records.name not in plans):
            continue
        plan = plans.get(records.name)
        points = plan.others() if plan and not plan.error else []
        stamps = [project.point_stamp(records.name, plan.grid, p) for p in points]
        _prune(records, {f for stamp in stamps for f in (stamp.key_file, stamp.imports_file)})


def build(
    project: FigureProject,
    names: list[str] | None = None,
    force: bool = False,
    jobs: int | None = None,
    executor=None,
) -> int:
    """Build the project's figures; print one line per figure. Returns the number of failures.

    An explorable figure (explore.py) is drawn at every point of its grid, one task per
    point, each point cached by its own key (`point_key`), and its manifest written.
    `executor`: a `concurrent.futures` executor to draw in, whose workers were started
    with `start_worker(project)` or `warm_worker(project)`; by default a process pool for
    this call only. The failures' tracebacks are in the report (`last_run`).
    """
    scripts = project.discover()
    unknown = sorted(set(names or []) - set(scripts))
    if unknown:
        raise SystemExit(
            f"figure_builder: no figure script named {', '.join(unknown)} in "
            f"{project.scripts} (known: {', '.join(scripts) or 'none'})"
        )
    project.out.mkdir(parents=True, exist_ok=True)
    project.cache.mkdir(parents=True, exist_ok=True)

    t0 = time.perf_counter()
    versions = _versions()
    selected = names or list(scripts)
    used = {name: recorded_imports(project, name) for name in selected}
    plans = {
        name: _plan(
            project,
            name,
            scripts[name],
            cache_key(project, scripts[name], versions, used[name]),
            force,
        )
        for name in selected
    }
    _remove_stale(project, scripts, plans)  # never leave a drawing whose script is gone
    todo = [n for n in selected if plans[n].tasks or plans[n].error]
    fresh = [name for name in selected if name not in todo]
    if len(fresh) <= 20:  # a line each; a large corpus (bench_loop --scale) gets one line
        for name in fresh:
            print(f"[figures] {name}: up to date", flush=True)
    else:
        print(f"[figures] {len(fresh)} figures up to date", flush=True)

    report = {"built": [], "fresh": fresh, "failed": {}}

    def fail(name: str, error: str, seconds: float) -> None:
        project.stamp(name).remove()
        plan = plans[name]
        for point in plan.others():
            project.point_stamp(name, plan.grid, point).remove()
        for path in plan.frames(project, name):
            path.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            (project.out / name).rmdir()  # when empty
        report["failed"][name] = error
        print(
            f"[figures] {name}: FAILED after {seconds:.2f} s ({project.shown(scripts[name])})\n"
            f"{error}",
            file=sys.stderr,
            flush=True,
        )

    for name in todo:
        if plans[name].error:
            fail(name, plans[name].error, 0.0)
    tasks = [(n, task) for n in todo if not plans[n].error for task in plans[n].tasks]
    workers = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    if tasks:
        runner = (
            contextlib.nullcontext(executor)
            if executor
            else ProcessPoolExecutor(workers, initializer=start_worker, initargs=(project,))
        )
        left = {n: len(plans[n].tasks) for n in todo}
        errors: dict[str, str] = {}
        with runner as pool:
            futures = [pool.submit(render, n, str(scripts[n]), *task) for n, task in tasks]
            for future in as_completed(futures):
                name, point, seconds, error, imported, caption = future.result()
                plan = plans[name]
                if error is not None:
                    errors.setdefault(name, error if point is None else f"at {point}: {error}")
                plan.done[point] = (seconds, imported, caption)
                left[name] -= 1
                if left[name]:
                    continue
                drawn = sum(seconds for seconds, _, _ in plan.done.values())
                if name in errors:
                    fail(name, errors[name], drawn)
                    continue
                key = plan.key
                if any(point is None for _, point, _ in plan.tasks):  # the default was drawn
                    imported = plan.done[None][1]
                    key = _after_run(project, scripts[name], versions, key, used[name], imported)
                    project.stamp(name).write(key, imported)
                if plan.grid is not None:  # the manifest, then the points' stamps
                    _write_manifest(project, name, plan)
                    for _, point, _ in plan.tasks:
                        if point is not None and point != plan.grid.default:
                            pid = plan.grid.point_id(point)
                            stamp = project.point_stamp(name, plan.grid, point)
                            stamp.write(point_key(key, pid), plan.done[pid][1])
                report["built"].append(name)
                points = f" ({len(plan.tasks)} points)" if plan.grid is not None else ""
                print(f"[figures] {name}: built in {drawn:.2f} s{points}", flush=True)
    elapsed = time.perf_counter() - t0
    report["seconds"] = round(elapsed, 3)
    (project.cache / "last-run.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(
        f"[figures] {len(report['built'])} built, {len(report['fresh'])} up to date, "
        f"{len(report['failed'])} failed, {elapsed:.2f} s",
        flush=True,
    )
    if report["failed"]:
        print(
            "[figures] failing scripts: "
            + ", ".join(project.shown(scripts[n]) for n in sorted(report["failed"])),
            file=sys.stderr,
            flush=True,
        )
    return len(report["failed"])


def last_run(project: FigureProject) -> dict:
    """The report of the last build: {"built": [...], "fresh": [...], "failed": {name: traceback}}."""
    return json.loads((project.cache / "last-run.json").read_text(encoding="utf-8"))


def serve(project: FigureProject, jobs: int | None = None, requests=None) -> int:
    """Build on request, with warm workers: `mlnotes-figures` under `mkdocs serve`.

    Reads one line per build from `requests` (stdin), builds, and answers after the
    build's progress lines with one line, `SERVE_DONE` and the report as JSON. Ends at the
    end of its input (the server closed it, or is gone), its workers with it. The server
    starts a new one when this builder's code, keys.py's or `mlnotes`' changes (`code_key`).
    """
    workers = jobs or os.cpu_count() or 1
    spawn = multiprocessing.get_context("spawn")  # the pool's threads are never forked
    with ProcessPoolExecutor(
        workers, mp_context=spawn, initializer=warm_worker, initargs=(project,)
    ) as pool:
        # start every worker now: a pool spawns its workers on the first submits, so the
        # first figure edit would otherwise wait for their imports (torch, matplotlib)
        for _ in range(workers):
            pool.submit(os.getpid)
        for _ in requests if requests is not None else sys.stdin:
            build(project, executor=pool)
            print(SERVE_DONE + json.dumps(last_run(project)), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="figure names (script stems); default: all")
    parser.add_argument("--force", action="store_true", help="rebuild even if up to date")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: cores)")
    parser.add_argument(
        "--root",
        type=Path,
        default=Path.cwd(),
        help="the project's folder (its scripts/figures/, mlnotes/, docs/figures/, "
        ".cache/figures/); default: the current directory",
    )
    parser.add_argument(
        "--serve",
        action="store_true",
        help="build on each line read on stdin, with warm workers (mlnotes-figures under "
        "`mkdocs serve`)",
    )
    args = parser.parse_args(argv)
    if not args.root.is_dir():  # a project without scripts/figures/ has no figure: fine
        parser.error(f"--root {args.root}: no such folder (the project's folder?)")
    project = FigureProject.at(args.root)
    if args.serve:
        return serve(project, args.jobs)
    return 1 if build(project, args.names or None, force=args.force, jobs=args.jobs) else 0


if __name__ == "__main__":
    # through the module's own name, so that the workers find `render` where they import it
    from mlnotes_site.figure_builder import main as _main

    raise SystemExit(_main())
