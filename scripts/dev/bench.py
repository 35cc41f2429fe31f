"""Benchmarks: cached and deterministic builds, the computations of the post, the test run.

    python scripts/dev/bench.py [--quick] [--skip-build] [--skip-compute] [--skip-tests]
                                [--page PATH] [--module PATH] [--keep]

`make bench` runs it. It prints one table (measure | value) and writes the same rows, and
the raw numbers, to `bench-results/bench.json`, with the commit it started at. Measured, never asserted; these machines
are shared and noisy: compare ratios within one run, not seconds across runs.

1. Build: `mkdocs build --strict` in a scratch copy of the working tree (`.venv/` and
   `node_modules/` linked, everything generated left out), cold, warm, after editing one
   Markdown page and after editing one function of one `mlnotes` module; for each, the
   figures rebuilt and the notebooks executed, and after the module edit those the cache
   keys should redo (the builder's own dependency rules). Single runs. Then `make diff`
   (scripts/dev/diff_report.py) in the copy, made a git repository: against its own
   commit once (the base built, from the warm caches), then after a sentence added to
   the page, with the base's record kept: its time beside the warm build's.
2. Determinism: a second cold build in a second copy; the sha256 of every SVG under
   docs/figures/ (the explorable figures' frames included) and of every manifest.json
   are compared.
3. Computation, each in a fresh process: `pairwise_distances`, the post's Listing 4
   (`broadcast_distances`) and `torch.cdist` at n = d = 1000, time (median of interleaved
   rounds) and peak memory (`VmHWM` growth over one call, the high-water mark reset
   first: torch allocates outside Python's heap); the largest n in 8 GiB from peak / n²
   at the largest n run (`pairwise_distances` runs at n = 20,000 under an 8 GiB
   address-space limit); `sinusoidal_embeddings(10**5, 1024)` beside Listing 1.
4. Tests: the whole suite once in the scratch copy, as `make test` runs it (`pytest -n auto
   --dist loadgroup`), then the quick tier as `make check` runs it (`-m "not browser and not slow" -n auto`).

--quick: no determinism build, no larger n, no tests, 3 rounds.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench-results" / "bench.json"
LISTINGS = ROOT / "docs" / "blog" / "posts" / "sinusoidal-embeddings"
GIB = 2**30
BUDGET = 8 * GIB
TOP_LEVEL_SKIP = {
    ".venv",
    "node_modules",
    ".cache",
    "site",
    "offline",
    "mlnotes-offline.zip",
    ".git",
    "bench-results",
    ".pytest_cache",
    ".hypothesis",
}
GENERATED = {"docs/figures", "docs/javascripts/mathjax"}
LINKED = (".venv", "node_modules")


class Report:
    """The table's rows, printed as they are measured, and the raw numbers."""

    def __init__(self):
        self.rows: list[tuple[str, str]] = []
        self.data: dict = {}

    def add(self, measure: str, value: str) -> None:
        self.rows.append((measure, value))
        print(f"[bench] {measure}: {value}", flush=True)

    def table(self) -> str:
        width = max(len(m) for m, _ in self.rows)
        return "\n".join(f"{m.ljust(width)} | {v}" for m, v in self.rows)


# --- builds ---------------------------------------------------------------------------


def scratch_copy(dest: Path) -> Path:
    """The working tree without anything generated; .venv and node_modules linked."""

    def ignore(folder, names):
        rel = Path(folder).relative_to(ROOT)
        return [
            n
            for n in names
            if (rel == Path(".") and n in TOP_LEVEL_SKIP)
            or n == "__pycache__"
            or n.endswith(".egg-info")
            or (rel / n).as_posix() in GENERATED
        ]

    shutil.copytree(ROOT, dest, ignore=ignore, symlinks=True)
    for name in LINKED:
        (dest / name).symlink_to(ROOT / name)
    return dest


def _env(tree: Path) -> dict[str, str]:
    # the copy's mlnotes and mlnotes_site first, not the editable install's (notebook kernels
    # inherit it); then the caller's (an uninstalled worktree's entry points)
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    path = os.pathsep.join([str(tree), str(tree / "scripts"), *inherited])
    return dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=path, PYTHONHASHSEED="0")


def build(tree: Path) -> dict:
    """One `mkdocs build --strict` in `tree`: seconds, figures and notebooks redone."""
    last_run = tree / ".cache" / "figures" / "last-run.json"
    last_run.unlink(missing_ok=True)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=tree,
        env=_env(tree),
        capture_output=True,
        text=True,
    )
    log = proc.stdout + proc.stderr
    figures = json.loads(last_run.read_text()) if last_run.exists() else {}
    return {
        "seconds": round(time.perf_counter() - start, 2),
        "returncode": proc.returncode,
        "figures": sorted(figures.get("built", [])),
        # executed by the build (scripts/mlnotes_site/plugins/notebooks.py's log line); mkdocs-jupyter's own
        # "Cache miss" says only that the executed notebook's bytes changed
        "notebooks": sorted(set(re.findall(r"notebook ([\w.-]+)\.py: executed", log))),
        "log_tail": log[-3000:] if proc.returncode else "",
    }


def _build_row(report: Report, label: str, b: dict, cold: dict | None) -> None:
    ratio = f" ({b['seconds'] / cold['seconds']:.2f} x cold)" if cold else ""
    failed = "" if b["returncode"] == 0 else f"; FAILED rc={b['returncode']}"
    report.add(
        f"build, {label}",
        f"{b['seconds']:.1f} s{ratio}; figures redone: {_names(b['figures'])}; "
        f"notebooks executed: {_names(b['notebooks'])}{failed}",
    )


def _names(names: list[str]) -> str:
    return ", ".join(names) if 0 < len(names) <= 4 else str(len(names)) if names else "none"


def append_line(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + line, encoding="utf-8")


def edit_function(path: Path) -> str:
    """A harmless statement as the first line of the first public function's body."""
    import ast

    source = path.read_text(encoding="utf-8")
    func = next(
        n
        for n in ast.parse(source).body
        if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")
    )
    last = func.body[0]  # the docstring
    lines = source.splitlines(keepends=True)
    lines.insert(last.end_lineno, " " * last.col_offset + "_bench_edit = None\n")
    path.write_text("".join(lines), encoding="utf-8")
    return func.name


def expected_after_edit(tree: Path, module: str) -> tuple[list[str], list[str]]:
    """The figures and notebooks whose cache keys cover `module`, by the builder's rules
    (the source scan of keys.py, as for a figure or notebook not drawn yet)."""
    from mlnotes_site import figure_builder
    from mlnotes_site.figure_builder import FigureProject

    project = FigureProject.at(tree)
    edited = (tree / module).resolve()

    def hit(path: Path) -> bool:
        return edited in {p.resolve() for p in figure_builder.dependencies(project, path)}

    figures = sorted(name for name, script in project.discover().items() if hit(script))
    notebooks = sorted(nb.stem for nb in (tree / "docs" / "notebooks").glob("*.py") if hit(nb))
    return figures, notebooks


def bench_builds(args, workdir: Path, report: Report) -> Path:
    tree = scratch_copy(workdir / "a")
    builds = report.data["builds"] = {}
    cold = builds["cold"] = build(tree)
    _build_row(report, "cold", cold, None)
    hashes = report.data["hashes"] = figure_hashes(tree)
    builds["warm"] = build(tree)
    _build_row(report, "warm", builds["warm"], cold)
    bench_diff(tree, args.page, builds["warm"], report)
    originals = {rel: (tree / rel).read_text(encoding="utf-8") for rel in (args.page, args.module)}
    append_line(tree / args.page, "\n<!-- bench: an edit of this page -->\n")
    builds["page"] = build(tree)
    _build_row(report, f"{args.page} edited", builds["page"], cold)
    function = edit_function(tree / args.module)
    figures, notebooks = expected_after_edit(tree, args.module)
    b = builds["module"] = build(tree)
    _build_row(report, f"{args.module}:{function} edited", b, cold)
    report.add(
        "  expected by the cache keys",
        f"figures: {', '.join(figures) or 'none'}; notebooks: {', '.join(notebooks) or 'none'}"
        f" ({'as redone' if (figures, notebooks) == (b['figures'], b['notebooks']) else 'NOT as redone'})",
    )
    for rel, text in originals.items():  # the tests run on the tree as it was
        (tree / rel).write_text(text, encoding="utf-8")
    if not args.quick:
        again = build(scratch_copy(workdir / "b"))
        differing, verdict = compare_figures(hashes, figure_hashes(workdir / "b"))
        report.data["determinism"] = {"seconds": again["seconds"], "differing": differing}
        report.add("determinism: a second cold build", verdict)
    return tree


def bench_diff(tree: Path, page: str, warm: dict, report: Report) -> None:
    """`make diff` in the copy: against its own commit, then after a one-page edit."""
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.org"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "bench"]):
        subprocess.run([*git, *command], cwd=tree, check=True, capture_output=True)
    diff = [sys.executable, str(Path(__file__).with_name("diff_report.py")), "--base", "HEAD"]
    runs = report.data["diff"] = {}
    original = (tree / page).read_text(encoding="utf-8")
    for label in ("clean tree, base built", "one-page edit, base recorded"):
        if label.startswith("one-page"):
            append_line(tree / page, "\nA sentence the benchmark adds to this page.\n")
        start = time.perf_counter()
        proc = subprocess.run(diff, cwd=tree, env=_env(tree), capture_output=True, text=True)
        seconds = round(time.perf_counter() - start, 2)
        summary = tree / "diff-report" / "summary.md"
        pages = summary.read_text(encoding="utf-8").count("\n- ") if summary.is_file() else None
        runs[label] = {"seconds": seconds, "returncode": proc.returncode, "pages": pages}
        failed = "" if proc.returncode == 0 else f"; FAILED rc={proc.returncode}"
        report.add(
            f"make diff, {label}",
            f"{seconds:.1f} s ({seconds / warm['seconds']:.2f} x the warm build); "
            f"items listed: {pages}{failed}",
        )
    (tree / page).write_text(original, encoding="utf-8")


def figure_hashes(tree: Path) -> dict[str, str]:
    """The SHA-256 of every SVG under the tree's docs/figures/ (the static figures and the
    explorable figures' frames, `<name>/<param>=<v>.svg`) and of every manifest.json, by
    path relative to docs/figures/."""
    root = tree / "docs" / "figures"
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and (p.suffix == ".svg" or p.name == "manifest.json")
    }


def compare_figures(first: dict[str, str], second: dict[str, str]) -> tuple[list[str], str]:
    """The files of two `figure_hashes` that differ (or are in one only), and the verdict:
    "N SVGs and M manifests, byte-identical" or "DIFFER: a.svg, b/manifest.json"."""
    differing = sorted(n for n in set(first) | set(second) if first.get(n) != second.get(n))
    if differing:
        return differing, "DIFFER: " + ", ".join(differing)
    if not first:
        return differing, "no figures to compare"
    svgs = sum(n.endswith(".svg") for n in first)
    return differing, f"{svgs} SVGs and {len(first) - svgs} manifests, byte-identical"


def tree_commit(root: Path) -> dict:
    """The commit checked out at `root` (`git rev-parse HEAD`) and whether its tracked files
    had changes not committed; {"commit": None} outside a git checkout."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        head, status = "", ""
    return {"commit": head or None, "dirty": bool(head and status)}


# --- computations, each in a fresh process ---------------------------------------------


def clustered_rows(n: int, d: int, seed: int = 0):
    """n float32 rows within about 1e-3 of one point of norm about 100·sqrt(d), one pair 1e-4 apart."""
    import torch

    g = torch.Generator().manual_seed(seed)
    x = 100.0 + 1e-3 * torch.randn(n, d, generator=g)
    if n > 1:
        x[1] = x[0] + 1e-4
    return x


def _callable(kind: str, d: int):
    """(the function, how to make its argument of size n) for one kind."""
    import torch

    from mlnotes.embeddings import pairwise_distances, sinusoidal_embeddings

    table = lambda n: sinusoidal_embeddings(n, d)  # noqa: E731
    if kind.endswith("_clustered"):
        return {
            "pairwise_clustered": pairwise_distances,
            "cdist_clustered": lambda x: torch.cdist(x, x),
        }[kind], (lambda n: clustered_rows(n, d))
    if kind in ("broadcast", "listing_1"):
        sys.path.insert(0, str(LISTINGS))
    if kind == "pairwise":
        return pairwise_distances, table
    if kind == "cdist":
        return (lambda x: torch.cdist(x, x)), table
    if kind == "broadcast":
        from listing_4 import broadcast_distances

        return broadcast_distances, table
    if kind == "embeddings":
        return (lambda n: sinusoidal_embeddings(n, d)), int
    if kind == "listing_1":
        from listing_1 import SinusoidalEmbeddings

        return (lambda n: SinusoidalEmbeddings(n, d).embeddings), int
    raise ValueError(f"unknown kind {kind!r}")


def _worker(spec: dict) -> dict:
    """mode "memory": the peak of one call; mode "time": interleaved rounds of every kind."""
    import resource

    if spec.get("limit"):
        resource.setrlimit(resource.RLIMIT_AS, (spec["limit"], spec["limit"]))
    sys.path.insert(0, str(ROOT))

    def maxrss() -> int:
        # this process's own high-water mark (VmHWM, which clear_refs resets); ru_maxrss
        # would also count the memory of the process it was forked from, before its exec
        status = Path("/proc/self/status")
        if status.exists():
            hwm = re.search(r"^VmHWM:\s+(\d+) kB", status.read_text(), re.M)
            if hwm:
                return int(hwm.group(1)) * 1024
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux

    fns = {k: _callable(k, spec["d"]) for k in spec["kinds"]}
    args = {k: make(spec["n"]) for k, (_, make) in fns.items()}
    for fn, make in fns.values():  # lazy set-up (kernels, thread pools) is not charged
        fn(make(8))
    try:
        if spec["mode"] == "memory":
            (kind,) = spec["kinds"]
            with contextlib.suppress(OSError):  # reset the high-water mark (Linux >= 4.0)
                Path("/proc/self/clear_refs").write_text("5")
            base, start = maxrss(), time.perf_counter()
            fns[kind][0](args[kind])
            return {"ok": True, "seconds": time.perf_counter() - start, "peak": maxrss() - base}
        times = {k: [] for k in fns}
        for _ in range(spec["repeats"]):
            for k, (fn, _) in fns.items():
                start = time.perf_counter()
                fn(args[k])
                times[k].append(time.perf_counter() - start)
        return {"ok": True, "median": {k: statistics.median(v) for k, v in times.items()}}
    except (RuntimeError, MemoryError) as exc:
        return {"ok": False, "error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"}


def run_worker(**spec) -> dict:
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(spec)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    try:
        return {**spec, **json.loads(proc.stdout.strip().splitlines()[-1])}
    except (IndexError, json.JSONDecodeError):
        return {
            **spec,
            "ok": False,
            "error": f"worker exited {proc.returncode}: {proc.stderr.strip()[-300:]}",
        }


def bench_compute(args, report: Report) -> None:
    repeats = 3 if args.quick else 5
    c = report.data["compute"] = {}
    kinds = {"pairwise": "pairwise_distances", "broadcast": "Listing 4", "cdist": "torch.cdist"}
    t = c["time"] = run_worker(mode="time", kinds=list(kinds), n=1000, d=1000, repeats=repeats)
    m = c["memory"] = {k: run_worker(mode="memory", kinds=[k], n=1000, d=1000) for k in kinds}
    if t["ok"]:
        report.add(
            f"distances n=d=1000, time (median of {repeats})",
            "; ".join(f"{name} {t['median'][k] * 1e3:,.1f} ms" for k, name in kinds.items()),
        )
    report.add(
        "distances n=d=1000, peak memory",
        "; ".join(
            f"{name} {m[k]['peak'] / 2**20:,.0f} MiB" if m[k]["ok"] else f"{name} {m[k]['error']}"
            for k, name in kinds.items()
        ),
    )
    # the largest n in 8 GiB: peak = a n² fitted at the largest n that ran
    larger = {} if args.quick else {"pairwise": 20000, "cdist": 8000}
    fits = []
    for k, name in kinds.items():
        run = (
            run_worker(
                mode="memory",
                kinds=[k],
                n=larger[k],
                d=1000,
                limit=BUDGET if k == "pairwise" else None,
            )
            if k in larger
            else m[k]
        )
        c.setdefault("larger", {})[k] = run
        fits.append(
            f"{name} {int((BUDGET / (run['peak'] / run['n'] ** 2)) ** 0.5):,} (from n = {run['n']:,})"
            if run["ok"]
            else f"{name} n = {run['n']:,}: {run['error']}"
        )
    report.add("largest n in 8 GiB, d=1000 (peak / n^2)", "; ".join(fits))
    # clustered rows (issue 10): every pair is nearly equal relative to the rows' norm
    k = c["clustered"] = run_worker(
        mode="time", kinds=["pairwise_clustered", "cdist_clustered"], n=1000, d=64, repeats=repeats
    )
    if k["ok"]:
        import torch

        from mlnotes.embeddings import pairwise_distances

        x = clustered_rows(1000, 64)
        # the reference from the differences in float64 (float64 cdist's product formula
        # is itself off by about 6e-6 relative on these rows)
        xd = x.double()
        exact = torch.cat(
            [
                torch.linalg.vector_norm(xd[i : i + 100, None] - xd[None], dim=2)
                for i in range(0, len(xd), 100)
            ]
        )
        off = ~torch.eye(1000, dtype=torch.bool)
        err = {
            name: ((got.double() - exact).abs()[off] / exact[off]).max().item()
            for name, got in (
                ("pairwise_distances", pairwise_distances(x)),
                ("torch.cdist", torch.cdist(x, x)),
            )
        }
        k["max_rel_error"] = err
        ours, theirs = k["median"]["pairwise_clustered"], k["median"]["cdist_clustered"]
        report.add(
            f"distances, clustered rows n=1000 d=64 float32 (median of {repeats})",
            f"pairwise_distances {ours * 1e3:,.1f} ms, {ours / theirs:.2f}x torch.cdist ({theirs * 1e3:,.1f} ms); "
            f"max relative error {err['pairwise_distances']:.1e} (torch.cdist {err['torch.cdist']:.1e})",
        )
    e = c["embeddings"] = run_worker(
        mode="time", kinds=["embeddings", "listing_1"], n=10**5, d=1024, repeats=repeats
    )
    if e["ok"]:
        report.add(
            f"sinusoidal_embeddings(10**5, 1024) (median of {repeats})",
            f"{e['median']['embeddings'] * 1e3:,.0f} ms; Listing 1 {e['median']['listing_1'] * 1e3:,.0f} ms",
        )


# the options the Makefile gives pytest: FULL for `make test`, QUICK for `make check`
FULL = ["-n", "auto", "--dist", "loadgroup"]
QUICK = ["-m", "not browser and not slow", "-n", "auto"]


def bench_tests(tree: Path, report: Report) -> None:
    """The whole suite once (`make test`'s pytest), then the quick tier a developer runs
    before committing (`make check`'s), in the same tree after it: their ratio."""
    runs = {}
    for name, extra in (("all", FULL), ("quick", QUICK)):
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-rfE", *extra],
            cwd=tree,
            env=_env(tree),
            capture_output=True,
            text=True,
        )
        log = RESULTS.parent / ("pytest.log" if name == "all" else f"pytest-{name}.log")
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(proc.stdout + proc.stderr, encoding="utf-8")
        summary = next(
            (
                ln
                for ln in reversed(proc.stdout.splitlines())
                if re.search(r"\d+ (passed|failed)", ln)
            ),
            "",
        )
        runs[name] = {
            "seconds": round(time.perf_counter() - start, 1),
            "returncode": proc.returncode,
            "summary": summary.strip("= "),
            "log": str(log.relative_to(ROOT)),
        }
    report.data["tests"] = runs
    report.add(
        "tests: make test's pytest (-n auto --dist loadgroup; 1 run)",
        f"{runs['all']['seconds']:.0f} s, {runs['all']['summary']} (output: {runs['all']['log']})",
    )
    report.add(
        'tests: make check\'s pytest (-m "not browser and not slow" -n auto; 1 run, after)',
        f"{runs['quick']['seconds']:.0f} s = {runs['quick']['seconds'] / runs['all']['seconds']:.2f}x the whole suite, "
        f"{runs['quick']['summary']}",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="no determinism build, no larger n, no tests; 3 rounds"
    )
    parser.add_argument("--skip-build", action="store_true", help="no builds")
    parser.add_argument("--skip-compute", action="store_true", help="no computations")
    parser.add_argument("--skip-tests", action="store_true", help="no test run")
    parser.add_argument(
        "--page", default="docs/notes/probability.md", help="the Markdown page to edit"
    )
    parser.add_argument("--module", default="mlnotes/cnn.py", help="the mlnotes module to edit")
    parser.add_argument("--keep", action="store_true", help="keep the scratch copies")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(json.loads(args.worker))))
        return 0

    import torch

    report = Report()
    # the tree measured: the commit bench.py started at (the report is written later)
    report.data["tree"] = tree_commit(ROOT)
    report.data["machine"] = {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "loadavg_start": os.getloadavg()[0],
    }
    workdir = Path(tempfile.mkdtemp(prefix="mlnotes-bench-"))
    try:
        tree = None if args.skip_build else bench_builds(args, workdir, report)
        if not args.skip_compute:
            bench_compute(args, report)
        if not (args.skip_tests or args.quick):
            bench_tests(tree or scratch_copy(workdir / "t"), report)
    finally:
        if args.keep:
            print(f"[bench] scratch copies kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    m = report.data["machine"]
    m["loadavg_end"] = os.getloadavg()[0]
    print(
        f"\n{m['cpus']} cores, torch {m['torch']} ({m['threads']} threads), "
        f"load average {m['loadavg_start']:.1f} -> {m['loadavg_end']:.1f}\n\n{report.table()}"
    )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps({"rows": report.rows, **report.data}, indent=1, default=str), encoding="utf-8"
    )
    print(f"\n[bench] {RESULTS.relative_to(ROOT)}: the same rows and the raw numbers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
