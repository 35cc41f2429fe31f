"""Benchmarks: cached and deterministic builds, fast computations, the test run.

    python scripts/dev/bench.py [--quick] [--skip-build] [--skip-compute] [--skip-tests]
                            [--no-strict] [--page PATH] [--module PATH] [--threads N] [--keep]

`make bench` runs it with the project's venv. It prints one table, every measure next
to its target, all measured in this one run, and writes the same numbers to
`bench-results/bench.json`. These machines are noisy: read the ratios, not the seconds.

1. Build. `mkdocs build --strict` (what `make site` runs after its install check) in a
   scratch copy of the working tree (never in the tree itself: `.venv/` and
   `node_modules/` are symlinked, everything generated is left out), in four states:
   cold (no `.cache/`, no `docs/figures/`, no `site/`), warm (nothing changed), after
   editing one Markdown page, after editing one function of one `mlnotes` module. For
   each: the figures rebuilt (from `.cache/figures/last-run.json`) and the notebooks
   executed (mkdocs-jupyter's "Cache miss" lines). Single runs: builds are expensive.
2. Determinism. A second cold build, in a second scratch copy: the sha256 of every
   `docs/figures/*.svg` must match the first.
3. Computation, in subprocesses (torch allocates outside Python's heap, so tracemalloc
   does not see it; a peak is `ru_maxrss` after one call minus `ru_maxrss` before it,
   in a fresh process, the high-water mark reset just before the call): `pairwise_distances` against the post's Listing 4
   (`broadcast_distances`) and `torch.cdist` at n = d = 1000, for time (median of 5
   rounds that call each in turn in one process, so a change of load hits all three)
   and peak memory; the largest n each fits in 8 GiB at d = 1000, from peak / n² at
   the largest n run (n = 20,000 for `pairwise_distances`, under an 8 GiB
   address-space limit: the claim itself, checked); `sinusoidal_embeddings(10**5, 1024)`
   (median), beside the post's Listing 1.
4. Tests. pytest in the scratch copy, once (what `make test` runs after its install
   check; the figures are warm there).

--quick skips the determinism build, the n = 20,000 check and the tests, and measures
the computations with 3 rounds at n = 1000 only (the largest n is then rough).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
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
MEMORY_BUDGET = 8 * GIB
# left out of the scratch copy: the generated, the caches, the VCS; .venv and
# node_modules are symlinked instead
TOP_LEVEL_SKIP = {".venv", "node_modules", ".cache", "site", ".git", "bench-results",
                  ".pytest_cache", ".hypothesis"}
GENERATED = {"docs/figures", "docs/javascripts/mathjax"}
LINKED = (".venv", "node_modules")
PAGES = ("docs/notes/probability.md", "docs/notes/cnn.md", "docs/index.md")
MODULE = "mlnotes/cnn.py"


# --- scratch copies and builds ------------------------------------------------------


def scratch_copy(dest: Path) -> Path:
    """Copy the working tree to `dest` without anything generated; link .venv, node_modules."""

    def ignore(folder, names):
        rel = Path(folder).relative_to(ROOT)
        skipped = []
        for name in names:
            path = (rel / name).as_posix()
            if (rel == Path(".") and name in TOP_LEVEL_SKIP) or path in GENERATED:
                skipped.append(name)
            elif name == "__pycache__" or name.endswith(".egg-info"):
                skipped.append(name)
        return skipped

    shutil.copytree(ROOT, dest, ignore=ignore, symlinks=True)
    for name in LINKED:
        if (ROOT / name).exists():
            (dest / name).symlink_to(ROOT / name)
    return dest


def _env(tree: Path) -> dict[str, str]:
    # PYTHONPATH first: the scratch copy's mlnotes, not the editable install's
    # (notebook kernels inherit it too)
    return dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(tree), PYTHONHASHSEED="0")


def mkdocs_build(tree: Path, strict: bool = True) -> dict:
    """One `mkdocs build` in `tree`: seconds, return code, figures and notebooks redone."""
    report_file = tree / ".cache" / "figures" / "last-run.json"
    report_file.unlink(missing_ok=True)  # never read a previous run's report
    cmd = [sys.executable, "-m", "mkdocs", "build"] + (["--strict"] if strict else [])
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=tree, env=_env(tree), capture_output=True, text=True)
    seconds = time.perf_counter() - start
    log = proc.stdout + proc.stderr
    figures = json.loads(report_file.read_text()) if report_file.exists() else {}
    executed = re.findall(r"Cache miss, writing: (\S+)", log)
    cached = re.findall(r"Cache hit: (\S+)", log)
    return {
        "seconds": round(seconds, 2),
        "returncode": proc.returncode,
        "figures_built": sorted(figures.get("built", [])),
        "figures_fresh": len(figures.get("fresh", [])),
        "figures_failed": sorted(figures.get("failed", {})),
        "figure_seconds": figures.get("seconds"),
        "notebooks_executed": sorted(Path(p).stem for p in executed),
        "notebooks_cached": sorted(Path(p).stem for p in cached),
        "warnings": [line for line in log.splitlines() if line.startswith(("WARNING", "ERROR"))],
        "log_tail": log[-3000:] if proc.returncode else "",
    }


def figure_hashes(tree: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted((tree / "docs" / "figures").glob("*.svg"))
    }


def edit_page(tree: Path, page: str) -> str:
    path = tree / page
    path.write_text(path.read_text(encoding="utf-8") + "\n<!-- bench: an edit of this page -->\n",
                    encoding="utf-8")
    return page


def edit_function(tree: Path, module: str) -> str:
    """Add a harmless statement at the top of the first public function of `module`."""
    path = tree / module
    source = path.read_text(encoding="utf-8")
    tree_ = ast.parse(source)
    func = next(
        node for node in tree_.body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    )
    body = func.body
    has_doc = isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    lines = source.splitlines(keepends=True)
    if has_doc and len(body) == 1:  # only a docstring: add the statement after it
        at, indent = body[0].end_lineno, body[0].col_offset
    else:  # right before the first statement that is not the docstring
        first = body[1] if has_doc else body[0]
        at, indent = first.lineno - 1, first.col_offset
    lines.insert(at, " " * indent + "_bench_edit = None  # bench: a harmless edit\n")
    path.write_text("".join(lines), encoding="utf-8")
    return f"{module}:{func.name}"


def _load(tree: Path, relpath: str, name: str):
    spec = importlib.util.spec_from_file_location(name, tree / relpath)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def expected_after_edit(tree: Path, module: str) -> tuple[list[str], list[str] | None]:
    """Figures (and notebooks) whose cache keys cover `module`, by the tree's own rules."""
    builder = _load(tree, "scripts/site/build_figures.py", "_bench_build_figures")
    edited = (tree / module).resolve()
    figures = sorted(
        name for name, script in builder.discover().items()
        if edited in {p.resolve() for p in builder.dependencies(script)}
    )
    hooks_source = (tree / "scripts" / "site" / "hooks.py").read_text(encoding="utf-8")
    notebooks_dir = tree / "docs" / "notebooks"
    notebooks = sorted(notebooks_dir.glob("*.py")) if notebooks_dir.is_dir() else []
    if "notebook_dependencies" not in hooks_source:
        return figures, None  # the hook keys every notebook on all of mlnotes/
    notebooks_hit = []
    for nb in notebooks:
        try:
            deps = builder.dependencies(nb)
        except SyntaxError:
            deps = list(builder.PACKAGE.rglob("*.py"))
        if edited in {p.resolve() for p in deps}:
            notebooks_hit.append(nb.stem)
    return figures, notebooks_hit


def bench_builds(args, workdir: Path, results: dict) -> Path | None:
    tree = scratch_copy(workdir / "a")
    print(f"[bench] scratch copy: {tree}", flush=True)
    builds = results["builds"] = {}
    page = args.page or next((p for p in PAGES if (tree / p).exists()), None)
    module = args.module
    originals = {rel: (tree / rel).read_text(encoding="utf-8") for rel in filter(None, [page, module])}

    def run(state: str) -> dict:
        print(f"[bench] build: {state} ...", flush=True)
        b = builds[state] = mkdocs_build(tree, strict=not args.no_strict)
        print(
            f"[bench] build: {state}: {b['seconds']:.1f} s, rc={b['returncode']}, "
            f"{len(b['figures_built'])} figures built, "
            f"{len(b['notebooks_executed'])} notebooks executed",
            flush=True,
        )
        for line in b["warnings"]:
            print(f"[bench]   {line}", flush=True)
        return b

    run("cold")
    results["hashes_a"] = figure_hashes(tree)
    run("warm")
    if page:
        results["page_edited"] = edit_page(tree, page)
        run("page")
    results["module_edited"] = edit_function(tree, module)
    figs, nbs = expected_after_edit(tree, module)
    results["module_expected_figures"] = figs
    results["module_expected_notebooks"] = nbs
    run("module")
    for rel, text in originals.items():  # the tests run on the tree as it was
        (tree / rel).write_text(text, encoding="utf-8")
    return tree


def bench_determinism(args, workdir: Path, results: dict) -> Path:
    tree = scratch_copy(workdir / "b")
    print("[bench] determinism: a second cold build ...", flush=True)
    b = results["builds"]["cold_again"] = mkdocs_build(tree, strict=not args.no_strict)
    print(f"[bench] determinism: {b['seconds']:.1f} s, rc={b['returncode']}", flush=True)
    first, second = results["hashes_a"], figure_hashes(tree)
    results["determinism"] = {
        "files": len(first),
        "identical": bool(first) and first == second,
        "differing": sorted(n for n in set(first) | set(second) if first.get(n) != second.get(n)),
    }
    return tree


# --- computations: subprocesses ------------------------------------------------------


def _function(kind: str, d: int):
    """(callable, its argument builder, where it comes from) for one kind of measurement."""
    import torch

    from mlnotes.embeddings import pairwise_distances, sinusoidal_embeddings

    def table(n):
        return sinusoidal_embeddings(n, d)

    if kind == "pairwise":
        return pairwise_distances, table, "mlnotes.embeddings.pairwise_distances"
    if kind == "cdist":
        return (lambda x: torch.cdist(x, x)), table, "torch.cdist(x, x)"
    if kind == "broadcast":
        sys.path.insert(0, str(LISTINGS))
        from listing_4 import broadcast_distances

        return broadcast_distances, table, "docs/blog/posts/sinusoidal-embeddings/listing_4.py"
    if kind == "embeddings":
        return (lambda n: sinusoidal_embeddings(n, d)), int, "mlnotes.embeddings.sinusoidal_embeddings"
    if kind == "listing_1":
        sys.path.insert(0, str(LISTINGS))
        from listing_1 import SinusoidalEmbeddings

        return ((lambda n: SinusoidalEmbeddings(n, d).embeddings), int,
                "docs/blog/posts/sinusoidal-embeddings/listing_1.py")
    raise ValueError(f"unknown kind {kind!r}")


def _worker(spec: dict) -> dict:
    """Runs in a fresh process.

    mode "memory": the peak of one call of one kind (ru_maxrss after minus before, the
    high-water mark reset first; torch allocates outside Python's heap, so tracemalloc
    would not see it), optionally under an address-space limit. mode "time": `repeats` rounds, each calling every kind once
    in turn, so a change of the machine's load hits all of them alike.
    """
    import gc
    import resource

    if spec.get("limit"):
        resource.setrlimit(resource.RLIMIT_AS, (spec["limit"], spec["limit"]))
    sys.path.insert(0, str(ROOT))
    import torch

    if spec.get("threads"):
        torch.set_num_threads(spec["threads"])

    def maxrss() -> int:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux

    n, d = spec["n"], spec["d"]
    kinds = spec["kinds"]
    fns = {k: _function(k, d) for k in kinds}
    args = {k: make(n) for k, (_, make, _) in fns.items()}
    for fn, make, _ in fns.values():  # lazy set-up (kernels, thread pools) is not charged
        fn(make(8))
    gc.collect()
    out = {"ok": True, "threads": torch.get_num_threads(),
           "source": {k: src for k, (_, _, src) in fns.items()}}
    try:
        if spec["mode"] == "memory":
            (kind,) = kinds
            # reset the high-water mark to the current RSS (Linux >= 4.0), so the peak is
            # the call's, not that of the set-up's temporaries (the input's float64 table)
            try:
                Path("/proc/self/clear_refs").write_text("5")
                out["peak_reset"] = True
            except OSError:
                out["peak_reset"] = False
            base = maxrss()
            start = time.perf_counter()
            result = fns[kind][0](args[kind])
            out["seconds"] = time.perf_counter() - start
            out["peak_bytes"] = maxrss() - base
            out["shape"] = list(result.shape)
        else:
            times = {k: [] for k in kinds}
            for _ in range(spec["repeats"]):
                for k in kinds:
                    start = time.perf_counter()
                    result = fns[k][0](args[k])
                    times[k].append(time.perf_counter() - start)
                    del result
            out["times_s"] = {k: [round(t, 4) for t in v] for k, v in times.items()}
            out["median_s"] = {k: statistics.median(v) for k, v in times.items()}
    except (RuntimeError, MemoryError) as exc:
        out = {"ok": False, "error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"}
    out["maxrss"] = maxrss()
    return out


THREADS: int | None = None  # --threads: torch threads in the computation workers


def _run_worker(spec: dict) -> dict:
    spec = {**spec, "threads": THREADS}
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(spec)],
        capture_output=True, text=True, cwd=ROOT,
    )
    try:
        result = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        result = {"ok": False, "error": f"worker exited {proc.returncode}: {proc.stderr.strip()[-300:]}"}
    return {**spec, **result}


def memory(kind: str, n: int, d: int, limit: int | None = None) -> dict:
    """Peak memory of one call, in a fresh process."""
    r = _run_worker({"mode": "memory", "kinds": [kind], "n": n, "d": d, "limit": limit})
    r["kind"] = kind
    shown = (f"peak +{r['peak_bytes'] / 2**20:,.0f} MiB ({r['seconds']:.2f} s)" if r["ok"] else r["error"])
    limited = f", RLIMIT_AS {limit / GIB:.0f} GiB" if limit else ""
    print(f"[bench] memory {kind:10s} n={n:>6,} d={d}{limited}: {shown}", flush=True)
    return r


def timing(kinds: list[str], n: int, d: int, repeats: int) -> dict:
    """Median times of `repeats` interleaved rounds, in one fresh process."""
    r = _run_worker({"mode": "time", "kinds": kinds, "n": n, "d": d, "repeats": repeats})
    shown = (", ".join(f"{k} {r['median_s'][k] * 1e3:,.1f} ms" for k in kinds) if r["ok"] else r["error"])
    print(f"[bench] time (median of {repeats} rounds) n={n:,} d={d}: {shown}", flush=True)
    return r


def fit_max_n(points: list[tuple[int, int]], budget: int) -> tuple[int, str]:
    """Largest n whose peak fits in `budget`, from measured (n, peak bytes) points.

    peak ≈ a·n², a = peak / n² at the largest n measured. Conservative: the n·d terms
    (copies of the input, blocks of rows) are charged as if they grew as n² too.
    """
    n, p = max(points)
    a = p / n**2
    return int((budget / a) ** 0.5), f"{a:,.1f} bytes x n^2 (from n = {n:,})"


def bench_compute(args, results: dict) -> None:
    repeats = 3 if args.quick else 5
    c = results["compute"] = {}
    d = 1000
    distances = ["pairwise", "broadcast", "cdist"]
    c["time"] = timing(distances, 1000, d, repeats)
    c["memory"] = {k: memory(k, 1000, d) for k in distances}
    # larger sizes, where the n² terms dominate, for the largest n in 8 GiB (--quick:
    # n = 1000 only); pairwise at n = 20,000 runs under an 8 GiB address-space limit:
    # the claim itself, checked
    sizes = {"pairwise": [20000], "cdist": [8000], "broadcast": []}
    if args.quick:
        sizes = {k: [] for k in sizes}
    c["max_n"], c["fit"], c["larger"] = {}, {}, {}
    for kind, extra in sizes.items():
        runs = [c["memory"][kind]] + [
            memory(kind, n, d, limit=MEMORY_BUDGET if n == 20000 else None) for n in extra
        ]
        c["larger"][kind] = runs[1:]
        points = [(r["n"], r["peak_bytes"]) for r in runs if r["ok"]]
        c["max_n"][kind], c["fit"][kind] = fit_max_n(points, MEMORY_BUDGET) if points else (None, "")
    c["check_20000"] = next((r for r in c["larger"]["pairwise"] if r["n"] == 20000), None)
    c["embeddings"] = timing(["embeddings", "listing_1"], 10**5, 1024, repeats)


def bench_tests(tree: Path, results: dict) -> None:
    print(f"[bench] tests: pytest in {tree} ...", flush=True)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfE"], cwd=tree,
                          env=_env(tree), capture_output=True, text=True)
    log = RESULTS.parent / "pytest.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(proc.stdout + proc.stderr, encoding="utf-8")
    seconds = time.perf_counter() - start
    summary = next((line for line in reversed(proc.stdout.splitlines()) if " in " in line and
                    ("passed" in line or "failed" in line or "error" in line)), "")
    failed = [line.split(" - ")[0] for line in proc.stdout.splitlines()
              if line.startswith(("FAILED ", "ERROR "))]
    results["tests"] = {"seconds": round(seconds, 1), "returncode": proc.returncode,
                        "summary": summary.strip("= "), "failed": failed}
    print(f"[bench] tests: {seconds:.0f} s, rc={proc.returncode}: {summary.strip('= ')} "
          f"(output: {log.relative_to(ROOT)})", flush=True)
    for line in failed:
        print(f"[bench]   {line}", flush=True)


# --- the table ------------------------------------------------------------------------


def _yes(ok: bool | None) -> str:
    return "n/a" if ok is None else ("yes" if ok else "NO")


def table(results: dict) -> list[tuple[str, str, str, str]]:
    """(measure, value, target, ratio or verdict) rows."""
    rows = []
    builds = results.get("builds", {})
    cold = builds.get("cold")

    def build_row(state: str, label: str, target: str, verdict: str) -> None:
        b = builds.get(state)
        if not b:
            return
        failed = "" if b["returncode"] == 0 else f" (rc={b['returncode']}: build FAILED)"
        value = (f"{b['seconds']:.1f} s; {len(b['figures_built'])} fig, "
                 f"{len(b['notebooks_executed'])} nb redone{failed}")
        rows.append((label, value, target, verdict))

    if cold:
        n_figs = len(cold["figures_built"]) + cold["figures_fresh"]
        n_nbs = len(cold["notebooks_executed"]) + len(cold["notebooks_cached"])
        build_row("cold", "build, cold (1 run)", f"({n_figs} figures, {n_nbs} notebooks)", "1.00 x cold")
        warm = builds.get("warm")
        if warm:
            ratio = warm["seconds"] / cold["seconds"]
            build_row("warm", "build, warm (1 run)", "<= 0.35 x cold; 0 fig, 0 nb",
                      f"{ratio:.2f} x cold: {_yes(ratio <= 0.35 and not warm['figures_built'] and not warm['notebooks_executed'])}")
        page = builds.get("page")
        if page:
            ratio = page["seconds"] / cold["seconds"]
            build_row("page", f"build, page edited (1 run)", "0 figures rebuilt",
                      f"{ratio:.2f} x cold: {_yes(not page['figures_built'])}")
        mod = builds.get("module")
        if mod:
            ratio = mod["seconds"] / cold["seconds"]
            expected = results["module_expected_figures"]
            build_row("module", "build, mlnotes edited (1 run)", "only dependent figures",
                      f"{ratio:.2f} x cold: {_yes(mod['figures_built'] == expected)}")
            rows.append(("  edited", results["module_edited"], "", ""))
            rows.append(("  figures expected", ", ".join(expected) or "none", "", ""))
            rows.append(("  figures rebuilt", ", ".join(mod["figures_built"]) or "none", "", ""))
            nbs = results["module_expected_notebooks"]
            rows.append(("  notebooks expected",
                         "all (hook keys on all of mlnotes/)" if nbs is None else ", ".join(nbs) or "none",
                         "", ""))
            ok = None if nbs is None else mod["notebooks_executed"] == nbs
            rows.append(("  notebooks executed", ", ".join(mod["notebooks_executed"]) or "none", "",
                         "" if ok is None else _yes(ok)))
    det = results.get("determinism")
    if det:
        again = builds.get("cold_again", {})
        rows.append(("determinism: 2 cold builds", f"{det['files']} SVGs; 2nd cold {again.get('seconds', 0):.1f} s",
                     "byte-identical", _yes(det["identical"])))
        if det["differing"]:
            rows.append(("  differing", ", ".join(det["differing"]), "", ""))

    c = results.get("compute")
    if c:
        t, m = c["time"], c["memory"]
        repeats = t["repeats"]

        def ms(kind):
            return f"{t['median_s'][kind] * 1e3:,.0f} ms" if t["ok"] else "failed"

        def mib(kind):
            return f"{m[kind]['peak_bytes'] / 2**20:,.0f} MiB" if m[kind]["ok"] else "failed"

        if t["ok"]:
            rows.append(("  the listing: broadcast_distances from", t["source"]["broadcast"], "", ""))
            speed = t["median_s"]["broadcast"] / t["median_s"]["pairwise"]
            rows.append((f"pairwise_distances n=d=1000, time (median of {repeats} interleaved)",
                         f"{ms('pairwise')} vs listing {ms('broadcast')}", ">= 100x faster",
                         f"{speed:.0f}x: {_yes(speed >= 100)}"))
        if m["pairwise"]["ok"] and m["broadcast"]["ok"]:
            mem = m["broadcast"]["peak_bytes"] / max(m["pairwise"]["peak_bytes"], 1)
            rows.append(("pairwise_distances n=d=1000, peak memory (1 call)",
                         f"{mib('pairwise')} vs listing {mib('broadcast')}", ">= 50x less",
                         f"{mem:.0f}x: {_yes(mem >= 50)}"))
        if t["ok"] and m["cdist"]["ok"] and m["broadcast"]["ok"]:
            rows.append(("  reference: torch.cdist", f"{ms('cdist')}, {mib('cdist')}", "",
                         f"{t['median_s']['broadcast'] / t['median_s']['cdist']:.0f}x faster, "
                         f"{m['broadcast']['peak_bytes'] / max(m['cdist']['peak_bytes'], 1):.0f}x less"))
        mx = {k: "failed" if v is None else f"{v:,}" for k, v in c["max_n"].items()}
        rough = "" if c["larger"]["pairwise"] else " (1 size: rough)"
        rows.append(("largest n in 8 GiB, d=1000 (peak / n^2 at the largest n run)",
                     f"pairwise {mx['pairwise']}; listing {mx['broadcast']}; cdist {mx['cdist']}",
                     ">= 20,000 (listing ~1,400)", _yes((c["max_n"]["pairwise"] or 0) >= 20000) + rough))
        for kind, label in (("pairwise", "pairwise"), ("broadcast", "listing"), ("cdist", "cdist")):
            rows.append((f"  peak model, {label}", c["fit"][kind], "", ""))
        v = c.get("check_20000")
        if v:
            value = (f"ran in {v['seconds']:.1f} s, peak +{v['peak_bytes'] / GIB:.2f} GiB"
                     if v["ok"] else v["error"])
            rows.append(("  check: pairwise n=20,000 under RLIMIT_AS=8 GiB", value, "runs", _yes(v["ok"])))
        e = c["embeddings"]
        if e["ok"]:
            se, l1 = e["median_s"]["embeddings"], e["median_s"]["listing_1"]
            rows.append((f"sinusoidal_embeddings(10**5, 1024) (median of {e['repeats']} interleaved)",
                         f"{se * 1e3:,.0f} ms (Listing 1, float32 throughout: {l1 * 1e3:,.0f} ms)",
                         "(reported)", f"{se / l1:.2f}x Listing 1's time"))
    t = results.get("tests")
    if t:
        rows.append(("tests: pytest, what `make test` runs (1 run)", f"{t['seconds']:.0f} s",
                     "(reported)", t["summary"].split(" in ")[0] or f"rc={t['returncode']}"))
        for line in t.get("failed", []):
            rows.append(("  " + line, "", "", ""))
    return rows


def print_table(rows) -> str:
    head = ("measure", "value", "target", "ratio / met")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(4)]
    lines = [" | ".join(h.ljust(w) for h, w in zip(head, widths)),
             "-+-".join("-" * w for w in widths)]
    lines += [" | ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    text = "\n".join(lines)
    print(text, flush=True)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="no determinism build, no n = 20,000 check, no tests; 3 repeats")
    parser.add_argument("--skip-build", action="store_true", help="no builds (nor determinism)")
    parser.add_argument("--skip-compute", action="store_true", help="no computation benchmarks")
    parser.add_argument("--skip-tests", action="store_true", help="do not run the test suite")
    parser.add_argument("--no-strict", action="store_true", help="mkdocs build without --strict")
    parser.add_argument("--page", help=f"Markdown page to edit (default: first of {', '.join(PAGES)})")
    parser.add_argument("--module", default=MODULE, help=f"mlnotes module to edit (default: {MODULE})")
    parser.add_argument("--threads", type=int, help="torch threads for the computations (default: torch's)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch copies")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(json.loads(args.worker))))
        return 0

    import torch

    global THREADS
    THREADS = args.threads
    if THREADS:
        torch.set_num_threads(THREADS)
    results: dict = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "torch": torch.__version__, "torch_threads": torch.get_num_threads(),
                    "loadavg_start": [round(x, 2) for x in os.getloadavg()]},
        "args": {k: v for k, v in vars(args).items() if k != "worker"},
    }
    workdir = Path(tempfile.mkdtemp(prefix="mlnotes-bench-"))
    try:
        test_tree = None
        if not args.skip_build:
            test_tree = bench_builds(args, workdir, results)
            if not args.quick:
                test_tree = bench_determinism(args, workdir, results)
        if not args.skip_compute:
            bench_compute(args, results)
        if not (args.skip_tests or args.quick):
            bench_tests(test_tree or scratch_copy(workdir / "t"), results)
    finally:
        if args.keep:
            print(f"[bench] scratch copies kept in {workdir}", flush=True)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    results["machine"]["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    m = results["machine"]
    print(f"\n{m['cpus']} cores, torch {m['torch']} ({m['torch_threads']} threads); load average "
          f"{m['loadavg_start'][0]:.1f} at the start, {m['loadavg_end'][0]:.1f} at the end\n")
    results["table"] = print_table(table(results))
    results["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(f"\n[bench] {RESULTS.relative_to(ROOT)}: the same numbers as JSON. Single runs for "
          "builds, medians for computations; the machine is shared, so read the ratios.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
