"""Write BENCHMARKS.md from the results `make bench` left in bench-results/.

    python scripts/dev/bench_report.py [--results bench-results] [--out BENCHMARKS.md]

`make bench` runs it last. It reads `bench.json` (bench.py: builds, determinism,
computations, the test suite), `pages.json` (bench_pages.py), `loop.json` (bench_loop.py)
and `reader.json` (bench_reader.py), and replaces BENCHMARKS.md whole: the current tables,
each with how it was measured, and no history (that is in git). A table whose results
file is missing, or has no such rows, says so instead of showing older numbers.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

# scripts/dev is the script's folder (sys.path[0]): its helpers are shared, not copied
from bench import tree_commit

ROOT = Path(__file__).resolve().parents[2]

HEADER = """\
# Benchmarks

Written by `make bench` (`scripts/dev/bench_report.py`, from the results in
`bench-results/`): every table below comes from one run, and the next run replaces the
file. Measured, never asserted: no test fails on a number here. The machines are shared
and noisy, so compare the ratios within a table, not seconds across runs; the history of
these numbers is in `git log -p BENCHMARKS.md`.
"""


def load(results: Path, name: str) -> dict | None:
    path = results / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def table(header: list[str], rows: list[list[str]], right: set[int] = frozenset()) -> str:
    """A Markdown table; the columns in `right` are right-aligned (numbers)."""
    align = ["---:" if i in right else "---" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def missing(what: str, file: str) -> str:
    return f"Not measured in this run: no {what} in `bench-results/{file}`.\n"


def names(values: list[str]) -> str:
    if not values:
        return "none"
    return ", ".join(values) if len(values) <= 4 else f"{len(values)}"


# --- the sections -------------------------------------------------------------------------


def machine(bench: dict | None, commit: str) -> str:
    """The tree measured (the commit bench.py recorded when it started; without one, `commit`,
    the checkout's when the report is written, said as such) and the machine."""
    tree = (bench or {}).get("tree") or {}
    if tree.get("commit"):
        dirty = " with changes not committed" if tree.get("dirty") else ""
        lines = [f"Tree: commit {tree['commit'][:12]}{dirty}, when bench.py started."]
    else:
        lines = [f"Tree: {commit} when this report was written (bench.py recorded none)."]
    m = (bench or {}).get("machine")
    if m:
        lines.append(
            f"Machine: {m.get('cpus')} cores, Python {m.get('python')}, torch {m.get('torch')} "
            f"({m.get('threads')} threads); load average {m.get('loadavg_start', 0):.1f} when "
            f"bench.py started, {m.get('loadavg_end', 0):.1f} when it ended."
        )
    return " ".join(lines) + "\n"


def builds(bench: dict | None) -> str:
    out = [
        "## Build\n",
        "`mkdocs build --strict` (what `make site` runs) in a scratch copy of the tree under",
        "`/tmp` (`.venv` and `node_modules` linked, nothing generated copied), one run each, in",
        "this order: cold (no `.cache/`, no figures), warm, after appending a comment to one page,",
        "after adding a statement to one function of one `mlnotes` module. Redone: the figures",
        "the builder drew and the notebooks the build executed.\n",
    ]
    b = (bench or {}).get("builds")
    if not b or "cold" not in b:
        return "\n".join(out) + "\n" + missing("builds", "bench.json")
    cold = b["cold"]["seconds"]
    labels = {
        "cold": "cold",
        "warm": "warm",
        "page": "one page edited",
        "module": "one `mlnotes` function edited",
    }
    rows = []
    for key, label in labels.items():
        if key not in b:
            continue
        r = b[key]
        failed = "" if r.get("returncode", 0) == 0 else f" (FAILED, exit {r['returncode']})"
        rows.append(
            [
                label + failed,
                f"{r['seconds']:.1f}",
                "1" if key == "cold" else f"{r['seconds'] / cold:.2f}",
                names(r.get("figures", [])),
                names(r.get("notebooks", [])),
            ]
        )
    out.append(
        table(
            ["build", "seconds", "× cold", "figures redone", "notebooks executed"],
            rows,
            right={1, 2},
        )
    )
    expected = [v for m, v in bench.get("rows", []) if m.strip() == "expected by the cache keys"]
    if expected:
        out.append(f"\nAfter the function edit, the cache keys name: {expected[0]}.")
    out.append(diff_reports(bench, b["warm"]["seconds"] if "warm" in b else None))
    return "\n".join(out) + "\n"


def diff_reports(bench: dict, warm: float | None) -> str:
    """`make diff` (scripts/dev/diff_report.py) in the same copy, after the warm build."""
    out = [
        "\n### The change report\n",
        "`make diff BASE=HEAD` in the same copy (made a git repository) after the warm build:",
        "on the clean tree (the base built from the warm caches, every page's doctests run",
        "once), then after a sentence added to the page (the base's record kept). Issue 34's",
        "target: at most 2 × the warm build for a one-page edit.\n",
    ]
    runs = (bench or {}).get("diff")
    if not runs or warm is None:
        return "\n".join(out) + "\n" + missing("change reports", "bench.json")
    rows = []
    for label, r in runs.items():
        failed = "" if r.get("returncode", 0) == 0 else f" (FAILED, exit {r['returncode']})"
        rows.append([label + failed, f"{r['seconds']:.1f}", f"{r['seconds'] / warm:.2f}"])
    out.append(table(["make diff", "seconds", "× warm build"], rows, right={1, 2}))
    return "\n".join(out)


def determinism(bench: dict | None) -> str:
    out = [
        "## Determinism\n",
        "A second cold build in a second scratch copy; every SVG under `docs/figures/` of the",
        "two builds (the explorable figures' frames, `<name>/<param>=<v>.svg`, included) and",
        "every `manifest.json` compared by SHA-256.\n",
    ]
    d = (bench or {}).get("determinism")
    hashes = (bench or {}).get("hashes") or {}
    if not d:
        return "\n".join(out) + "\n" + missing("determinism build", "bench.json")
    differing = d.get("differing", [])
    svgs = sum(name.endswith(".svg") for name in hashes)
    frames = sum(name.endswith(".svg") and "/" in name for name in hashes)
    manifests = len(hashes) - svgs
    verdict = "byte-identical" if hashes and not differing else "differ: " + ", ".join(differing)
    out.append(f"{svgs} SVGs ({frames} of them frames) and {manifests} manifests, {verdict}.")
    return "\n".join(out) + "\n"


COMPUTE_PREFIXES = ("distances", "largest n", "sinusoidal_embeddings")


def computation(bench: dict | None) -> str:
    out = [
        "## Computation\n",
        "Each in a fresh process: time is the median of interleaved rounds; peak memory is the",
        "growth of the process's high-water mark (`VmHWM`, reset first) over one call, since",
        "torch allocates outside Python's heap; the largest n in 8 GiB is extrapolated as",
        "peak / n² from the largest n run. Listings 1 and 4 are the post's own code.\n",
    ]
    rows = [[m, v] for m, v in (bench or {}).get("rows", []) if m.startswith(COMPUTE_PREFIXES)]
    if not rows:
        return "\n".join(out) + "\n" + missing("computations", "bench.json")
    out.append(table(["measure", "result"], rows))
    return "\n".join(out) + "\n"


def tests(bench: dict | None) -> str:
    out = [
        "## Test suite\n",
        "Wall time of one run of each, in the scratch copy after the builds: the whole suite as",
        "`make test` runs it (`pytest -n auto --dist loadgroup`), then the quick tier as `make check`",
        "runs it (`pytest -m",
        '"not browser and not slow" -n auto`; its ruff and actionlint are not timed here).\n',
    ]
    t = (bench or {}).get("tests")
    if not t:
        return "\n".join(out) + "\n" + missing("test runs", "bench.json")
    rows = []
    whole = t.get("all", {}).get("seconds")
    for key, label in (
        ("all", "`make test` (pytest -n auto --dist loadgroup)"),
        ("quick", "`make check`'s tests"),
    ):
        if key not in t:
            continue
        r = t[key]
        ratio = f"{r['seconds'] / whole:.2f}" if whole else ""
        failed = "" if r.get("returncode", 0) == 0 else f" (exit {r['returncode']})"
        rows.append([label, f"{r['seconds']:.0f}", ratio, (r.get("summary") or "") + failed])
    out.append(table(["run", "seconds", "× whole suite", "pytest's summary"], rows, right={1, 2}))
    return "\n".join(out) + "\n"


KINDS = ("html", "js", "css", "img", "font", "fetch", "other")


def pages(data: dict | None) -> str:
    out = [
        "## Pages\n",
        "`scripts/dev/bench_pages.py`: a strict build served uncompressed on localhost, each page",
        "loaded in headless Chromium at 1280 px with a cold cache; KiB transferred (bodies and",
        "headers) until its math is shown (its fonts ready), by kind. Then the heaviest page, in",
        "cold loads (median) and through Material's instant navigation from the home page.\n",
    ]
    weights = (data or {}).get("pages")
    if not weights:
        return "\n".join(out) + "\n" + missing("page loads", "pages.json")
    rows = []
    for path, w in sorted(weights.items(), key=lambda kv: -kv[1]["bytes"]):
        by = w.get("by_kind", {})
        rows.append(
            [
                "/" + path,
                f"{w['bytes'] / 1024:,.0f}",
                w.get("requests", ""),
                *(f"{by.get(k, 0) / 1024:,.0f}" for k in KINDS),
                w.get("math", ""),
            ]
        )
    out.append(
        table(
            ["page", "KiB", "requests", *KINDS, "formulas"],
            rows,
            right=set(range(1, 3 + len(KINDS))),
        )
    )
    heaviest = data.get("heaviest")
    timings = []
    for key, label in (
        ("dom_content_loaded_ms", "DOMContentLoaded"),
        ("load_ms", "load"),
        ("typeset_ms", "math shown"),
    ):
        values = data.get(key) or []
        if values:
            timings.append(f"{label} {statistics.median(values):,.0f} ms")
    if heaviest is not None and timings:
        runs = len(data.get("typeset_ms") or [])
        instant = data.get("instant_typeset_ms")
        nav = (
            f"; by instant navigation, click to math shown {instant:,.0f} ms"
            if instant is not None
            else ""
        )
        out.append(
            f"\nThe heaviest page, /{heaviest}, median of {runs} cold loads from navigation "
            f"start: {', '.join(timings)}{nav}."
        )
    return "\n".join(out) + "\n"


def loop(data: dict | None) -> str:
    out = [
        "## The edit loop (`make serve`)\n",
        "`scripts/dev/bench_loop.py`: `mkdocs serve --dirty` on a scratch copy; each edit (a",
        "page, `mlnotes/cnn.py`'s docstring, a figure script's title) timed from the file's",
        "write until the served HTML or SVG shows it (MkDocs' watcher included), median of",
        "the repeats, next to cold and warm `make site` builds of the same copy. Peak memory:",
        "the largest process of a build, workers included. `--scale N`: N times the notes",
        "pages and figure scripts.\n",
    ]
    scales = (data or {}).get("scales")
    if not scales:
        return "\n".join(out) + "\n" + missing("edit loop", "loop.json")
    rows = []
    for scale, row in sorted(scales.items(), key=lambda kv: int(kv[0])):
        cells = []
        for kind in ("page", "docstring", "figure"):
            seconds = row["loop"][kind]["median"]
            ratio = row.get(f"ratio_{kind}_to_warm")
            growth = row.get("growth", {}).get(kind)
            cell = (
                f"{seconds:.2f} s = {ratio:.2f} × warm" if ratio is not None else f"{seconds:.2f} s"
            )
            if growth is not None:
                cell += f" ({growth:.2f} × 1x)"
            cells.append(cell)
        peak = max(row.get("cold_peak_mib", 0), row.get("warm_peak_mib", 0))
        rows.append(
            [
                f"{scale}x",
                row.get("notes_pages", ""),
                row.get("figure_scripts", ""),
                f"{row['cold_build']:.1f} s",
                f"{row['warm_build']:.1f} s",
                f"{peak:,.0f}",
                *cells,
            ]
        )
    out.append(
        table(
            [
                "scale",
                "notes pages",
                "figures",
                "cold build",
                "warm build",
                "peak MiB",
                "page edit → served",
                "docstring edit → API page",
                "figure-script edit → SVG",
            ],
            rows,
            right={1, 2, 3, 4, 5},
        )
    )
    return "\n".join(out) + "\n"


# issue 31's budget for every page, on the phone (Lighthouse's mobile emulation)
BUDGET_PERFORMANCE, BUDGET_TBT_MS = 90, 200


def counted_runs(results: dict):
    """(page, mode, run) for every Lighthouse run the medians count (not those set aside)."""
    for name, r in results.items():
        for mode in ("mobile", "desktop"):
            for run in r.get(mode) or []:
                yield name, mode, run


def reader(data: dict | None) -> str:
    out = [
        "## The reader (Lighthouse)\n",
        "`scripts/dev/bench_reader.py`: a strict build served by Debian's nginx with gzip, as a",
        "static host serves it; Lighthouse (package.json's version) in Debian's Chromium on",
        "every page of the site's sitemap with its mobile emulation (4x CPU slowdown, slow 4G,",
        "simulated), and on the reading pages also with `--preset=desktop` (— where not run).",
        "TBT: total blocking time; LCP: largest contentful paint. Budget (issue 31): mobile",
        f"performance ≥ {BUDGET_PERFORMANCE} and mobile TBT ≤ {BUDGET_TBT_MS} ms, on every page.\n",
    ]
    results = (data or {}).get("pages")
    if not results:
        return "\n".join(out) + "\n" + missing("Lighthouse runs", "reader.json")
    runs = data.get("runs", 1)
    took = f" The run took {data['seconds'] / 60:.0f} min." if data.get("seconds") else ""
    out.append(
        f"Lighthouse {data.get('lighthouse', '?')}, "
        + (f"median of {runs} runs" if runs > 1 else "one run")
        + f" per page and mode.{took}\n"
    )

    def med(values: list[dict], key: str) -> float:
        return statistics.median(v[key] for v in values)

    rows, within = [], []
    for name, r in results.items():
        m, d = r.get("mobile") or [], r.get("desktop") or []
        if not m:
            continue
        ok = med(m, "performance") >= BUDGET_PERFORMANCE and med(m, "tbt_ms") <= BUDGET_TBT_MS
        within.append(ok)
        desktop = (
            [
                f"{med(d, 'performance'):.0f}",
                f"{med(d, 'tbt_ms'):,.0f}",
                f"{med(d, 'lcp_ms') / 1000:.1f}",
            ]
            if d
            else ["—"] * 3
        )
        rows.append(
            [
                name,
                f"{med(m, 'performance'):.0f}",
                f"{med(m, 'tbt_ms'):,.0f}",
                f"{med(m, 'lcp_ms') / 1000:.1f}",
                "yes" if ok else "**no**",
                *desktop,
                f"{med(m, 'bytes') / 1024:,.0f}",
            ]
        )
    out.append(
        table(
            [
                "page",
                "mobile perf",
                "mobile TBT ms",
                "mobile LCP s",
                "within budget",
                "desktop perf",
                "desktop TBT ms",
                "desktop LCP s",
                "KiB transferred",
            ],
            rows,
            right={1, 2, 3, 5, 6, 7, 8},
        )
    )
    out.append(f"\n{sum(within)} of {len(within)} pages within the budget.")

    def late(name: str, mode: str, run: dict) -> str:
        return (
            f"{name} ({mode}, performance {run['performance']}, LCP {run['lcp_ms'] / 1000:.1f} s; "
            f"loaded at {run.get('observed_load_ms') or 0:,.0f} ms, first painted at "
            f"{run.get('observed_fcp_ms') or 0:,.0f} ms)"
        )

    aside = [
        late(name, mode, run)
        for name, r in results.items()
        for mode, runs_aside in (r.get("set_aside") or {}).items()
        for run in runs_aside
    ]
    counted = [late(*each) for each in counted_runs(results) if each[2].get("late_first_paint")]
    out.append(
        "\nRuns set aside and measured again, the page having first painted well after its "
        "load (the signature of GoogleChrome/lighthouse#17148, or of a page busy until after "
        "its load; `LATE_FIRST_PAINT_MS` in bench_reader.py): "
        + ("none." if not aside else f"{len(aside)}: " + "; ".join(aside) + ".")
        + (
            ""
            if not counted
            else f" Counted all the same, late on every try ({len(counted)}): "
            + "; ".join(counted)
            + "."
        )
    )
    findings = sorted(
        {
            f"{name} ({mode}): {', '.join(run['accessibility_failed'])}"
            for name, mode, run in counted_runs(results)
            if run.get("accessibility_failed")
        }
    )
    out.append(
        "\nAccessibility audits that failed: "
        + ("none." if not findings else "; ".join(findings) + ".")
    )
    out.append("\n" + slider_step(data.get("inp")))
    return "\n".join(out) + "\n"


BUDGET_INP_MS = 200  # issue 31: a slider step shows its frame within 200 ms (INP)


def slider_step(inp: dict | None) -> str:
    """The slider steps' INP (bench_reader.figures_inp): one row per explorable figure, its
    worst and median step and every step; or why they were not measured."""
    head = f"Slider steps (Interaction to Next Paint, budget {BUDGET_INP_MS} ms on every step): "
    inp = inp or {}
    figures = inp.get("figures")
    if figures is None and inp.get("page") is not None:  # one figure, as bench_reader wrote once
        figures = [inp]
    if not figures:
        reason = inp.get("reason", "no result in `bench-results/reader.json`")
        return head + f"Not measured ({reason})."

    def ms(value: float | None) -> str:
        return "< 16" if value is None else f"{value:.0f}"

    rows, within = [], []
    for r in figures:
        steps = r.get("steps_ms") or []
        ok = bool(steps) and all(d is None or d <= BUDGET_INP_MS for d in steps)
        within.append(ok)
        middle = r.get("median_ms")
        if middle is None and steps:
            middle = statistics.median(d or 0 for d in steps)
        rows.append(
            [
                f"`{r.get('figure') or '?'}`",
                f"`/{r['page']}`",
                ms(r.get("inp_ms")),
                "< 16" if not middle else f"{middle:.0f}",
                "yes" if ok else "**no**",
                ", ".join(ms(d) for d in steps),
            ]
        )
    slowdown = figures[0].get("slowdown", 4)
    return "\n".join(
        [
            head + "every explorable figure, each in a fresh tab: a first touch of its first "
            "slider (which loads its frames), then arrow-key presses on its sliders in turn, "
            f"phone emulation at {slowdown:g}x CPU slowdown (Playwright; each step is its "
            "interaction's longest Event Timing entry, < 16: none reached 16 ms).\n",
            table(
                ["figure", "page", "worst ms", "median ms", "within budget", "steps, ms"],
                rows,
                right={2, 3},
            ),
            f"\n{sum(within)} of {len(within)} figures within the budget on every step.",
        ]
    )


def commit(root: Path) -> str:
    """The measured tree: its commit, and whether it had changes not committed (bench.py's
    `tree_commit`, now)."""
    tree = tree_commit(root)
    if not tree["commit"]:
        return "not a git checkout"
    return f"commit {tree['commit'][:12]}" + (
        " with changes not committed" if tree["dirty"] else ""
    )


def render(results: Path, tree: str) -> str:
    bench = load(results, "bench.json")
    sections = [
        HEADER,
        machine(bench, tree),
        builds(bench),
        determinism(bench),
        computation(bench),
        pages(load(results, "pages.json")),
        loop(load(results, "loop.json")),
        reader(load(results, "reader.json")),
        tests(bench),
    ]
    return "\n".join(sections)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=ROOT / "bench-results")
    parser.add_argument("--out", type=Path, default=ROOT / "BENCHMARKS.md")
    args = parser.parse_args(argv)
    text = render(args.results, commit(ROOT))
    args.out.write_text(text, encoding="utf-8")
    print(f"[bench_report] wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
