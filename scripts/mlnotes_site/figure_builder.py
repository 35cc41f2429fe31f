"""Build the site's figures: one script in scripts/figures/ per figure, light and dark SVG.

    python scripts/mlnotes_site/figure_builder.py [--force] [--jobs N] [--root DIR] [NAME ...]

Each script `scripts/figures/<name>.py` defines `make_figure()`, which returns a
matplotlib Figure. The builder calls it under `mlnotes.plotting.style("light")` and
`style("dark")` and writes `docs/figures/<name>.svg` and `docs/figures/<name>-dark.svg`.

A figure is rebuilt only when its cache key (scripts/mlnotes_site/keys.py) changes. The
key hashes the script, the code of the `mlnotes` modules it imports (their syntax trees
without docstrings and comments: `keys.Key.code`), `mlnotes/__init__.py` and
`mlnotes/plotting.py` (the styles), this builder and keys.py, and the versions of Python
and the libraries that draw. The modules it imports are those its worker recorded it
importing when it was last drawn (`keys.ImportRecorder`, `.cache/figures/<name>.imports`:
an `importlib.import_module` counts, and so does a module another figure loaded first in
the same warm worker); for a figure not drawn yet, those its source names, followed
through `mlnotes`' own imports (`keys.imports`). So editing a Markdown page or a docstring
rebuilds nothing, and changing the code of `mlnotes/linalg.py` rebuilds only the figures
that imported it.

Figures are built in parallel (one process per core), with one progress line each.
A script that raises fails the build with its name and traceback, and its old output
is deleted, never left in place; outputs of scripts that no longer exist are deleted
too. A JSON report of the last run is written to `.cache/figures/last-run.json`.

The paths above are those of the project the builder works on: this repository by default,
or the folder `--root DIR` names (mlnotes-figures passes its mkdocs.yml's folder), with its
own `scripts/figures/`, `mlnotes/` (put first on `sys.path`: the figures import it, and
`mlnotes.plotting.style` draws them), `docs/figures/` and `.cache/figures/`
($MLNOTES_FIGURE_CACHE, if set, replaces the last for any root). In a process that imports
this module, its ROOT, SCRIPTS, PACKAGE, OUT and CACHE are this repository's until
`set_root` is called.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.util
import json
import os
import platform
import sys
import threading
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from importlib import metadata
from pathlib import Path

if __package__:
    from . import keys
else:  # `python scripts/mlnotes_site/figure_builder.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from mlnotes_site import keys


def layout(root: Path) -> tuple[Path, Path, Path, Path, Path]:
    """The project's folders under `root`: (ROOT, SCRIPTS, PACKAGE, OUT, CACHE).

    CACHE is $MLNOTES_FIGURE_CACHE if set (whatever the root), else `root/.cache/figures`."""
    root = Path(root).resolve()
    cache = os.environ.get("MLNOTES_FIGURE_CACHE") or root / ".cache" / "figures"
    return (
        root,
        root / "scripts" / "figures",
        root / "mlnotes",
        root / "docs" / "figures",
        Path(cache),
    )


# The project the builder works on: by default this repository (the folder above scripts/);
# `--root DIR` (`set_root`) points it at another one, such as the folder of the mkdocs.yml
# that mlnotes-figures builds.
ROOT, SCRIPTS, PACKAGE, OUT, CACHE = layout(Path(__file__).resolve().parents[2])
THEMES = {"light": "", "dark": "-dark"}  # theme -> file-name suffix
# in every figure's key: mlnotes/__init__.py (run by any import of mlnotes) and the styles
ALWAYS = ("__init__.py", "plotting.py")
LIBRARIES = ("matplotlib", "numpy", "scipy", "torch")
# Bump when the way figures are written changes (file names, savefig options).
BUILDER_VERSION = "1"


def set_root(root: Path | str) -> None:
    """Work on the project in `root` from now on: its `scripts/figures/`, `mlnotes/`,
    `docs/figures/` and `.cache/figures/` (`layout`). The module's ROOT, SCRIPTS, PACKAGE,
    OUT and CACHE change for every user of this module in this process."""
    adopt(*layout(Path(root)))


def adopt(root, scripts, package, out, cache) -> None:
    """Set ROOT, SCRIPTS, PACKAGE, OUT and CACHE as given: the initializer of a worker,
    which draws into the folders of the process that started it whether it was forked
    (and has them already) or spawned (and imported this module afresh)."""
    global ROOT, SCRIPTS, PACKAGE, OUT, CACHE
    ROOT, SCRIPTS, PACKAGE, OUT, CACHE = (Path(p) for p in (root, scripts, package, out, cache))


def folders() -> tuple[Path, Path, Path, Path, Path]:
    """The folders this process works on now: (ROOT, SCRIPTS, PACKAGE, OUT, CACHE)."""
    return ROOT, SCRIPTS, PACKAGE, OUT, CACHE


def discover() -> dict[str, Path]:
    """Map each figure name to its script (private `_*.py` helpers excluded)."""
    return {p.stem: p for p in sorted(SCRIPTS.glob("*.py")) if not p.name.startswith("_")}


def outputs(name: str) -> list[Path]:
    return [OUT / f"{name}{suffix}.svg" for suffix in THEMES.values()]


def dependencies(script: Path) -> list[Path]:
    """The `mlnotes` source files a script depends on, transitively, sorted (`keys.imports`).

    `mlnotes/__init__.py` (imported with any submodule) and `mlnotes/plotting.py`
    (the styles every figure is drawn with) are always included. A script that does not
    parse depends on every module of `mlnotes/` (it fails when run).
    """
    try:
        return keys.imports(script, PACKAGE, always=[Path(a).stem for a in ALWAYS])
    except (SyntaxError, ValueError):
        return sorted(PACKAGE.glob("*.py"))


def notebook_dependencies(notebook: Path) -> list[Path]:
    """The `mlnotes` sources a jupytext notebook depends on: its imports, as `dependencies`.

    A notebook that does not parse as Python (an `.ipynb`, a syntax error) depends on all
    of `mlnotes/`.
    """
    try:
        return dependencies(Path(notebook))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return sorted(PACKAGE.rglob("*.py"))


def _versions() -> str:
    versions = [f"python={platform.python_version()}"]
    for lib in LIBRARIES:
        try:
            versions.append(f"{lib}={metadata.version(lib)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{lib}=missing")
    return ";".join(versions)


def _own_bytes() -> bytes:
    """This builder's source and keys.py's (which records what a figure imported)."""
    chunks = []
    for path in (Path(__file__), Path(keys.__file__)):
        stat = path.stat()
        chunks.append(_read_cached(path, stat.st_mtime_ns, stat.st_size))
    return b"\0".join(chunks)


@functools.lru_cache(maxsize=8)
def _read_cached(path: Path, mtime_ns: int, size: int) -> bytes:
    return path.read_bytes()


def cache_key(script: Path, versions: str | None = None, imports: list[str] | None = None) -> str:
    """The content key (`keys.Key`) of everything that can change the figure's bytes.

    `imports`: the `mlnotes` files (relative to `mlnotes/`) the script imported when it
    last ran (`recorded_imports`); without them, those its source names (`dependencies`).
    """
    key = keys.Key("figure")
    key.add("builder", f"{BUILDER_VERSION}\n{versions or _versions()}").add("code", _own_bytes())
    key.file(script, ROOT)  # the script itself by its bytes: any edit redraws it
    for path in dependencies(script) if imports is None else _import_files(imports):
        key.code(path, ROOT, missing_ok=True)  # a module gone since: the figure runs, and fails
    return key.hexdigest()


def _import_files(imports: list[str]) -> list[Path]:
    return sorted({PACKAGE / name for name in [*imports, *ALWAYS]})


def _imports_stamp(name: str) -> Path:
    return CACHE / f"{name}.imports"


def recorded_imports(name: str) -> list[str] | None:
    """The `mlnotes` files (relative to `mlnotes/`) the figure's script imported when it was
    last drawn, as its worker recorded them (`keys.ImportRecorder`); None if not recorded."""
    return keys.read_imports(_imports_stamp(name))


def _stamp(name: str) -> Path:
    return CACHE / f"{name}.key"


def is_fresh(name: str, key: str) -> bool:
    stamp = _stamp(name)
    return (
        stamp.exists()
        and stamp.read_text(encoding="utf-8") == key
        and all(p.exists() for p in outputs(name))
    )


def _remove_outputs(name: str) -> None:
    for path in [*outputs(name), _stamp(name), _imports_stamp(name)]:
        path.unlink(missing_ok=True)


_RECORDER: keys.ImportRecorder | None = None


def _recorder() -> keys.ImportRecorder:
    """This worker's record of what each module imports (installed once, before mlnotes loads)."""
    global _RECORDER
    if _RECORDER is None:
        _RECORDER = keys.ImportRecorder("mlnotes").install()
    return _RECORDER


def render(name: str, script: str) -> tuple[str, float, str | None, list[str] | None]:
    """Worker: draw one figure in both themes. Returns (name, seconds, error or None, the
    `mlnotes` files the script imported, relative to `mlnotes/`, or None if it failed).

    For a worker process only: it installs an import recorder, which reloads `mlnotes`."""
    start = time.perf_counter()
    try:
        recorder = _recorder()
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from mlnotes.plotting import style

        module_name = f"_figure_{name}"
        recorder.forget(module_name)  # what an earlier version of the script imported
        spec = importlib.util.spec_from_file_location(module_name, script)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        make_figure = getattr(module, "make_figure", None)
        if not callable(make_figure):
            raise TypeError(f"{script} defines no make_figure() function")
        for theme, suffix in THEMES.items():
            with style(theme):
                fig = make_figure()
                target = OUT / f"{name}{suffix}.svg"
                tmp = target.with_suffix(".svg.tmp")
                fig.savefig(tmp, format="svg", metadata={"Date": None})
                plt.close(fig)
            os.replace(tmp, target)
        return name, time.perf_counter() - start, None, recorder.files(module_name)
    except Exception:
        return name, time.perf_counter() - start, traceback.format_exc(), None


def warm_worker(*project: Path | str) -> None:
    """Initializer of a long-lived worker (`make serve`): import what every figure draws with
    once, so an edit of a figure script costs its drawing, not Python's imports.
    `project`: the folders to work on (`folders()` of the server; default: this repository's).

    It also exits when the server that started it is gone: a process pool's worker holds
    both ends of its task queue, so it never sees end-of-file when the server is killed
    (`kill`, a test's `terminate()`) and would otherwise live on, idle, holding its memory."""
    server = os.getppid()

    def exit_with_the_server() -> None:
        while os.getppid() == server:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=exit_with_the_server, name="exit-with-the-server", daemon=True).start()
    if project:
        adopt(*project)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # this tree's mlnotes, as `python figure_builder.py` runs
    _recorder()  # before mlnotes loads: every module's imports are recorded
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401
    import torch  # noqa: F401

    try:
        import mlnotes.plotting  # noqa: F401
    except Exception:  # a mistake in mlnotes: each figure that imports it fails, named
        pass


def code_key() -> str:
    """One key of the code every figure may import (`keys.code_digest` of each `mlnotes`
    module) and of this builder: a long-lived worker that imported an older version of
    either must not draw."""
    key = keys.Key("figure workers").add("code", _own_bytes())
    for path in sorted(PACKAGE.rglob("*.py")):
        key.code(path, ROOT)
    return key.hexdigest()


def _after_run(script: Path, versions: str, key: str, used: list[str] | None, imported) -> str:
    """The key to stamp a figure just drawn with. `key` was computed before the run, over
    the files `used` (recorded by the last run, or scanned); the next build keys the
    figure over the files this run `imported`. When those are among the `used` files and
    none of those changed during the run, the key over `imported` now is the key of what
    was drawn; otherwise `key` is kept, which the next build's key differs from (the
    figure is drawn again: never a stale figure, at worst one more drawing)."""
    before = set(_import_files(used)) if used is not None else set(dependencies(script))
    if set(_import_files(imported)) <= before and cache_key(script, versions, used) == key:
        return cache_key(script, versions, imported)
    return key


def build(
    names: list[str] | None = None,
    force: bool = False,
    jobs: int | None = None,
    executor=None,
) -> int:
    """Build the figures; print one line per figure. Returns the number of failures.

    `executor`: a `concurrent.futures` executor to draw in (kept warm by `make serve`'s
    hook, built with `warm_worker`); by default a process pool for this call only.
    The failures' tracebacks are in `.cache/figures/last-run.json` (`last_run()`).
    """
    scripts = discover()
    unknown = sorted(set(names or []) - set(scripts))
    if unknown:
        raise SystemExit(
            f"figure_builder: no figure script named {', '.join(unknown)} in "
            f"{SCRIPTS} (known: {', '.join(scripts) or 'none'})"
        )
    OUT.mkdir(parents=True, exist_ok=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    # never leave a figure whose script is gone
    expected = {p.name for name in scripts for p in outputs(name)}
    for stale in OUT.glob("*.svg"):
        if stale.name not in expected:
            stale.unlink()
            print(f"[figures] {stale.stem}: removed (no script)", flush=True)

    t0 = time.perf_counter()
    versions = _versions()
    selected = names or list(scripts)
    used = {name: recorded_imports(name) for name in selected}
    stamps = {name: cache_key(scripts[name], versions, used[name]) for name in selected}
    todo = [n for n in selected if force or not is_fresh(n, stamps[n])]
    fresh = [name for name in selected if name not in todo]
    if len(fresh) <= 20:  # a line each; a large corpus (bench_loop --scale) gets one line
        for name in fresh:
            print(f"[figures] {name}: up to date", flush=True)
    else:
        print(f"[figures] {len(fresh)} figures up to date", flush=True)

    report = {"built": [], "fresh": [n for n in selected if n not in todo], "failed": {}}
    workers = max(1, min(jobs or os.cpu_count() or 1, len(todo)))
    if todo:
        runner = (
            contextlib.nullcontext(executor)
            if executor
            # the workers draw into this process's folders, forked or spawned (`adopt`)
            else ProcessPoolExecutor(workers, initializer=adopt, initargs=folders())
        )
        with runner as pool:
            futures = [pool.submit(render, n, str(scripts[n])) for n in todo]
            for future in as_completed(futures):
                name, seconds, error, imported = future.result()
                if error is None:
                    stamp = _after_run(scripts[name], versions, stamps[name], used[name], imported)
                    _stamp(name).write_text(stamp, encoding="utf-8")
                    _imports_stamp(name).write_text(json.dumps(imported), encoding="utf-8")
                    report["built"].append(name)
                    print(f"[figures] {name}: built in {seconds:.2f} s", flush=True)
                else:
                    _remove_outputs(name)
                    report["failed"][name] = error
                    print(
                        f"[figures] {name}: FAILED after {seconds:.2f} s "
                        f"(scripts/figures/{name}.py)\n{error}",
                        file=sys.stderr,
                        flush=True,
                    )
    elapsed = time.perf_counter() - t0
    report["seconds"] = round(elapsed, 3)
    (CACHE / "last-run.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(
        f"[figures] {len(report['built'])} built, {len(report['fresh'])} up to date, "
        f"{len(report['failed'])} failed, {elapsed:.2f} s",
        flush=True,
    )
    if report["failed"]:
        print(
            "[figures] failing scripts: "
            + ", ".join(f"scripts/figures/{n}.py" for n in sorted(report["failed"])),
            file=sys.stderr,
            flush=True,
        )
    return len(report["failed"])


def last_run() -> dict:
    """The report of the last build: {"built": [...], "fresh": [...], "failed": {name: traceback}}."""
    return json.loads((CACHE / "last-run.json").read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="figure names (script stems); default: all")
    parser.add_argument("--force", action="store_true", help="rebuild even if up to date")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: cores)")
    parser.add_argument(
        "--root",
        type=Path,
        default=None,
        help="the project's folder (its scripts/figures/, mlnotes/, docs/figures/, "
        ".cache/figures/); default: this repository",
    )
    args = parser.parse_args(argv)
    if args.root is not None:
        if not args.root.is_dir():  # a project without scripts/figures/ has no figure: fine
            parser.error(f"--root {args.root}: no such folder (the project's folder?)")
        set_root(args.root)
        sys.path.insert(0, str(ROOT))  # the project's own mlnotes, for the workers (forked)
    return 1 if build(args.names or None, force=args.force, jobs=args.jobs) else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
