"""Issue 31's question, measured: frames drawn by matplotlib, or a charting runtime?

    python scripts/dev/bench_runtime.py [--figure NAME] [--runs N] [--inp-steps N]
                                        [--json PATH] [--keep DIR]

`make bench-runtime` runs it (not `make bench`, not `make test`). One explorable figure
(default probability_normal_quantiles) on two scratch pages in a temporary folder, never
in docs/: (a) "frames", today's way: the default drawing, a native range input, and
docs/javascripts/explore.js swapping the figure's matplotlib SVG frames (docs/figures/,
from a build: `make figures`); (b) "runtime": the same data, computed by `mlnotes` here
and written as JSON, drawn in the browser by Vega-Lite through vega-embed (the Annotated
Transformer's Altair stack; npm, the versions in RUNTIME, installed with npm into
.cache/bench-runtime/), its slider Vega's own range binding. Both are served by
bench_reader's nginx (gzip) and measured with its functions: Lighthouse's mobile
emulation (performance, total blocking time, bytes transferred on the first load),
`--runs` times (medians), and the INP of `--inp-steps` slider steps at 4x slowed CPU.
Measured, never asserted; a shared machine is noisy: compare the two rows of one run.
"""

from __future__ import annotations

import argparse
import html
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

# scripts/dev is the script's folder (sys.path[0]): bench_reader's functions, not copies
from bench_reader import figures_inp, lighthouse, lighthouse_command, nginx

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "docs" / "figures"
EXPLORE_JS = ROOT / "docs" / "javascripts" / "explore.js"
CACHE = ROOT / ".cache" / "bench-runtime"
# the charting runtime, pinned: package -> (version, its browser build)
RUNTIME = {
    "vega": ("6.4.0", "build/vega.min.js"),
    "vega-lite": ("6.5.0", "build/vega-lite.min.js"),
    "vega-embed": ("7.3.0", "build/vega-embed.min.js"),
}
FIGURE = "probability_normal_quantiles"
FIGURE_ID = "fig-bench"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>body {{ font-family: sans-serif; margin: 1rem; max-width: 46rem }}
figure {{ margin: 0 }} img {{ max-width: 100%; height: auto }}</style>
{head}</head><body>
<h1>{title}</h1>
<p>A scratch page of scripts/dev/bench_runtime.py: one explorable figure, {how}.</p>
{body}
</body></html>
"""


def normal_quantiles_data(grid: tuple[float, ...]) -> dict:
    """The figure's data, by `mlnotes`: the density on [-4, 4] and, for each α of the grid,
    the left boundary PPF(α/2) (the right one is its negative)."""
    import numpy as np

    from mlnotes.probability import normal_pdf, normal_ppf

    x = np.linspace(-4, 4, 801)
    return {
        "density": [{"x": round(float(a), 4), "p": float(b)} for a, b in zip(x, normal_pdf(x))],
        "alpha": [float(a) for a in grid],
        "low": [float(normal_ppf(a / 2)) for a in grid],
    }


def vega_lite_spec(data: dict, default: int) -> dict:
    """The figure in Vega-Lite: the density, its two tails (α/2 each) and the middle
    shaded, the boundaries as rules; α a range binding over the grid's indices."""
    edge = "-low[i]"  # PPF(1 - α/2), at the index i of the slider
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "width": "container",
        "height": 220,
        "params": [
            {
                "name": "i",
                "value": default,
                "bind": {
                    "input": "range",
                    "min": 0,
                    "max": len(data["alpha"]) - 1,
                    "step": 1,
                    "name": "α index (0.01 to 0.32) ",
                },
            },
            {"name": "low", "value": data["low"]},
        ],
        "data": {"url": "data.json", "format": {"type": "json", "property": "density"}},
        "layer": [
            {
                "transform": [
                    {"filter": f"abs(datum.x) >= {edge}"},
                    {"calculate": "datum.x < 0 ? 'left' : 'right'", "as": "tail"},
                ],
                "mark": {"type": "area", "opacity": 0.45},
                "encoding": {
                    "x": {"field": "x", "type": "quantitative", "title": "x"},
                    "y": {"field": "p", "type": "quantitative", "title": "p(x)", "stack": None},
                    "color": {
                        "field": "tail",
                        "scale": {"range": ["#d55e00", "#0072b2"]},
                        "legend": None,
                    },
                },
            },
            {
                "transform": [{"filter": f"abs(datum.x) < {edge}"}],
                "mark": {"type": "area", "opacity": 0.12, "color": "#009e73"},
                "encoding": {
                    "x": {"field": "x", "type": "quantitative"},
                    "y": {"field": "p", "type": "quantitative"},
                },
            },
            {
                "mark": {"type": "line", "color": "#1f2328"},
                "encoding": {
                    "x": {"field": "x", "type": "quantitative"},
                    "y": {"field": "p", "type": "quantitative"},
                },
            },
            {
                "data": {"values": [{"s": -1}, {"s": 1}]},
                "transform": [{"calculate": f"datum.s * {edge}", "as": "q"}],
                "mark": {"type": "rule", "strokeDash": [4, 3]},
                "encoding": {"x": {"field": "q", "type": "quantitative"}},
            },
        ],
    }


def explore_figure(name: str, figures: Path) -> tuple[dict, dict]:
    """The figure's manifest and its EXPLORE entry's grid (one parameter), from a build."""
    manifest = figures / name / "manifest.json"
    if not manifest.is_file():
        raise SystemExit(f"{manifest} not found: build the figures first (make figures)")
    data = json.loads(manifest.read_text(encoding="utf-8"))
    if len(data["parameters"]) != 1:
        raise SystemExit(f"{name}: one parameter needed, it has {data['parameters']}")
    return data, data["points"]


def build_pages(
    out: Path, runtime: Path | None, name: str = FIGURE, figures: Path = FIGURES
) -> dict[str, Path]:
    """Write the two scratch pages into `out`: frames/index.html (with the figure's SVGs
    and explore.js) and runtime/index.html (with data.json and, from the npm folder
    `runtime`, the charting runtime's scripts; None: their names only, not the files).
    Returns {"frames": page, "runtime": page}."""
    manifest, points = explore_figure(name, figures)
    (parameter,) = manifest["parameters"]
    grid = [p["params"][parameter] for p in points.values()]
    default = next(i for i, p in enumerate(points.values()) if "/" not in p["files"][0])

    frames = out / "frames"
    (frames / "figures").mkdir(parents=True, exist_ok=True)
    for point in points.values():
        for file in point["files"][:1]:  # the light palette's: the scratch page's only one
            target = frames / "figures" / file
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(figures / file, target)
    shutil.copyfile(EXPLORE_JS, frames / "explore.js")
    values = [str(v) for v in grid]
    explore = {
        "frames": [[p["files"][0]] * 2 for p in points.values()],  # light, as dark too
        "captions": [p["caption"] for p in points.values()],
    }
    body = (
        f'<figure class="mlnotes-explore" id="{FIGURE_ID}" data-explore="'
        f'{html.escape(json.dumps(explore, ensure_ascii=False))}">\n'
        f'<p><img alt="{html.escape(points_default_alt(points, default))}" '
        f'src="figures/{points_list(points)[default]["files"][0]}"></p>\n'
        '<div class="mlnotes-explore-controls" hidden><div class="mlnotes-explore-control">'
        f'<label for="{FIGURE_ID}-{parameter}">{parameter}</label>'
        f'<input id="{FIGURE_ID}-{parameter}" type="range" min="0" max="{len(grid) - 1}" '
        f'step="1" value="{default}" aria-valuetext="{values[default]}" '
        f"data-values='{html.escape(json.dumps(values))}'>"
        f'<output for="{FIGURE_ID}-{parameter}">{values[default]}</output></div></div>\n'
        f'<figcaption><p class="mlnotes-explore-values" aria-live="polite" hidden>'
        f"{html.escape(points_list(points)[default]['caption'])}</p></figcaption></figure>\n"
        # explore.js also initialises on Material's document$, which this page has not
        "<script>window.document$ = { subscribe() {} };</script>\n"
        '<script src="explore.js"></script>'
    )
    (frames / "index.html").write_text(
        PAGE.format(
            title=f"{name}: matplotlib frames",
            head="",
            how="matplotlib SVG frames swapped by explore.js",
            body=body,
        ),
        encoding="utf-8",
    )

    page = out / "runtime"
    page.mkdir(parents=True, exist_ok=True)
    data = normal_quantiles_data(tuple(grid))
    (page / "data.json").write_text(json.dumps(data), encoding="utf-8")
    scripts = []
    for package, (_, build) in RUNTIME.items():
        file = f"{package}.min.js"
        if runtime is not None:
            shutil.copyfile(runtime / package / build, page / file)
        scripts.append(f'<script src="{file}"></script>')
    spec = vega_lite_spec(data, default)
    body = (
        f'<figure class="mlnotes-explore" id="{FIGURE_ID}"><div id="chart" style="width: 100%">'
        "</div></figure>\n" + "\n".join(scripts) + "\n<script>\n"
        f"vegaEmbed('#chart', {json.dumps(spec)}, {{actions: false}});\n</script>"
    )
    (page / "index.html").write_text(
        PAGE.format(
            title=f"{name}: Vega-Lite",
            head="",
            how="its data computed by mlnotes and drawn by Vega-Lite (vega-embed)",
            body=body,
        ),
        encoding="utf-8",
    )
    (out / "index.html").write_text(
        PAGE.format(
            title=f"{name}: frames or a runtime",
            head="",
            how='on two pages: <a href="frames/">frames</a>, <a href="runtime/">Vega-Lite</a>',
            body="",
        ),
        encoding="utf-8",
    )
    return {"frames": frames / "index.html", "runtime": page / "index.html"}


def points_list(points: dict) -> list[dict]:
    return list(points.values())


def points_default_alt(points: dict, default: int) -> str:
    return points_list(points)[default]["caption"]


def install_runtime(cache: Path = CACHE) -> Path:
    """RUNTIME's packages, installed with npm into `cache` (once); their node_modules."""
    modules = cache / "node_modules"
    wanted = {p: v for p, (v, _) in RUNTIME.items()}
    have = {
        p: json.loads((modules / p / "package.json").read_text())["version"]
        for p in wanted
        if (modules / p / "package.json").is_file()
    }
    if have != wanted:
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(cache)]
            + [f"{p}@{v}" for p, v in wanted.items()],
            check=True,
        )
    return modules


def measure(base: str, runs: int, steps: int) -> dict:
    """Lighthouse (mobile) `runs` times and the slider's INP, on both pages."""
    command = lighthouse_command()
    results = {}
    with tempfile.TemporaryDirectory(prefix="mlnotes-bench-runtime-lh-") as scratch:
        for kind in ("frames", "runtime"):
            runs_ = [
                lighthouse(command, f"{base}{kind}/", [], Path(scratch) / f"{kind}-{run}.json")
                for run in range(runs)
            ]
            inp = figures_inp(base, [(f"{kind}/", FIGURE_ID)], steps=steps)[0]
            results[kind] = {"lighthouse": runs_, "inp": inp}
            print(
                f"  {kind}: performance {[r['performance'] for r in runs_]}, TBT "
                f"{[round(r['tbt_ms']) for r in runs_]} ms, steps {inp['steps_ms']} ms",
                flush=True,
            )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--figure", default=FIGURE, help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page (median)")
    parser.add_argument("--inp-steps", type=int, default=5, help="slider steps measured")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    parser.add_argument("--keep", type=Path, help="write the pages here and keep them")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    modules = install_runtime()
    with tempfile.TemporaryDirectory(prefix="mlnotes-bench-runtime-") as scratch:
        out = args.keep or Path(scratch)
        build_pages(out, modules, args.figure)
        with nginx(out) as base:
            results = measure(base, max(args.runs, 1), args.inp_steps)
    rows = []
    for kind, r in results.items():
        lh, inp = r["lighthouse"], r["inp"]

        def med(key: str, lh: list = lh) -> float:
            return statistics.median(x[key] for x in lh)

        rows.append(
            f"| {kind} | {med('bytes') / 1024:,.1f} | {med('performance'):.0f} | "
            f"{med('tbt_ms'):,.0f} | {inp['median_ms']:.0f} | "
            f"{'< 16' if inp['inp_ms'] is None else round(inp['inp_ms'])} |"
        )
    print(
        f"\n{args.figure}, Lighthouse mobile (median of {max(args.runs, 1)}), "
        f"{args.inp_steps} slider steps at 4x; {(time.perf_counter() - began) / 60:.1f} min\n"
        "| page | first load KiB (gzip) | mobile perf | TBT ms | step median ms | step worst ms |\n"
        "|---|---:|---:|---:|---:|---:|\n" + "\n".join(rows)
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps({"figure": args.figure, "runtime": RUNTIME, "results": results}, indent=1),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
