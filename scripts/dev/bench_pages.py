"""Page budgets (issue 5, point 9): page weight, and time until the page's math is shown.

    python scripts/dev/bench_pages.py [SITE_DIR] [--runs N] [--json PATH]

Serves a built site (SITE_DIR; without it, `mkdocs build` into a temporary folder) on
localhost and opens it in headless Chromium (Debian's /usr/bin/chromium), always with a
cold cache (a new browser context per load):

1. Page weight, for every page: the bytes the browser transferred (response bodies
   plus headers, from Playwright's request sizes) until the page's math is shown, in
   total and by kind (HTML, scripts, styles, images, fonts, fetches such as the search
   index), and the number of requests.
2. For the heaviest page: the time from navigation start until its math is shown,
   median and spread of `--runs` cold loads, next to DOMContentLoaded and load; and the
   same time when the page is reached by Material's instant navigation (a click on its
   sidebar link from the home page).

"Math shown": a reading page's math is typeset when the site is built (mlnotes-typeset),
so it is shown once the page has loaded and its fonts (MathJax's woff2 files) are ready;
a notebook page still typesets in the browser, and its math is shown when the site's
MathJax configuration bumps `window.mlnotesTypeset` (in `pageReady`).

Prints a table; `--json` also writes the numbers. Measured, never asserted: the tests
do not fail on a budget. These machines are noisy: compare runs, not seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from mlnotes_site.chromium import CHROMIUM, CHROMIUM_ARGS, serve

ROOT = Path(__file__).resolve().parents[2]

KINDS = {
    "document": "html",
    "script": "js",
    "stylesheet": "css",
    "image": "img",
    "font": "font",
    "fetch": "fetch",
    "xhr": "fetch",
}

# Record when the MathJax configuration first bumps window.mlnotesTypeset.
TYPESET_CLOCK = """
(() => {
    let value;
    Object.defineProperty(window, 'mlnotesTypeset', {
        configurable: true,
        get() { return value; },
        set(v) {
            value = v;
            (window.__typesetTimes = window.__typesetTimes || []).push(performance.now());
        },
    });
})();
"""

TIMINGS = """() => {
    const nav = performance.getEntriesByType('navigation')[0];
    return {
        typeset: (window.__typesetTimes || [])[0],
        domContentLoaded: nav.domContentLoadedEventEnd,
        load: nav.loadEventEnd,
        math: document.querySelectorAll('mjx-container').length,
    };
}"""


def site_pages(site: Path) -> list[str]:
    pages = []
    for html in sorted(site.rglob("index.html")):
        rel = html.parent.relative_to(site).as_posix()
        if rel.startswith(("javascripts", "assets", "search")):
            continue
        pages.append("" if rel == "." else rel + "/")
    return pages


def build(target: Path) -> None:
    """`mkdocs build --strict` of this tree into `target` (also scripts/dev/bench_reader.py's).
    No `--quiet`: under MkDocs 1.6.1 it hides the warnings `--strict` fails on."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONWARNINGS="ignore")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(target)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode:
        raise SystemExit(f"mkdocs build --strict failed:\n{result.stderr[-4000:]}")


CLIENT_MATHJAX = "() => !!document.querySelector('script[src*=\"mathjax/tex-\"]')"


def wait_for_typeset(page, minimum: int = 1, timeout: float = 60000) -> float:
    """Wait until the page's math is shown; the time of that, ms from navigation start."""
    if page.evaluate(CLIENT_MATHJAX):
        page.wait_for_function(f"() => window.mlnotesTypeset >= {minimum}", timeout=timeout)
        return page.evaluate("window.__typesetTimes[window.__typesetTimes.length - 1]")
    return page.evaluate("document.fonts.ready.then(() => performance.now())")


def load(browser, url: str) -> dict:
    """Open `url` in a fresh context (cold cache); weight and timings until typeset."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(TYPESET_CLOCK)
    page = context.new_page()
    requests = []
    page.on("requestfinished", lambda request: requests.append(request))
    page.goto(url, wait_until="load")
    shown = wait_for_typeset(page)
    page.wait_for_load_state("networkidle")
    timings = {**page.evaluate(TIMINGS), "typeset": shown}
    weight: dict[str, int] = {}
    total = 0
    for request in requests:
        sizes = request.sizes()
        size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
        kind = KINDS.get(request.resource_type, "other")
        weight[kind] = weight.get(kind, 0) + size
        total += size
    context.close()
    return {"bytes": total, "requests": len(requests), "by_kind": weight, **timings}


def instant_typeset(browser, base: str, path: str) -> float | None:
    """Milliseconds from a click on `path`'s sidebar link (from the home page) until
    its math is shown, with Material's instant navigation."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(TYPESET_CLOCK)
    page = context.new_page()
    page.goto(base, wait_until="load")
    wait_for_typeset(page)
    found = page.evaluate(
        """(path) => {
            const a = [...document.querySelectorAll('.md-sidebar--primary a.md-nav__link[href]')]
                .find(a => new URL(a.href).pathname === '/' + path && a.getClientRects().length);
            if (a) a.setAttribute('data-bench-target', '1');
            return !!a;
        }""",
        path,
    )
    if not found:
        context.close()
        return None
    count = page.evaluate("window.mlnotesTypeset || 0")
    page.evaluate("document.querySelector('article').dataset.benchOld = '1'")
    start = page.evaluate("performance.now()")
    page.click("[data-bench-target]")
    # the new page's article swapped in (Material replaces it), then its math shown
    page.wait_for_function(
        "() => { const a = document.querySelector('article'); return a && !a.dataset.benchOld; }"
    )
    end = wait_for_typeset(page, count + 1)
    reloaded = page.evaluate("performance.getEntriesByType('navigation')[0].name") != base
    context.close()
    return None if reloaded else end - start


def kib(n: float) -> str:
    return f"{n / 1024:,.0f}"


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", type=Path, help="a built site (default: build one)")
    parser.add_argument(
        "--runs", type=int, default=5, help="cold loads of the heaviest page (default 5)"
    )
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="mlnotes-bench-pages-") as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "site"
            print(f"building the site into {site} ...", flush=True)
            build(site)
        pages = site_pages(site)
        with serve(site) as base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            weights = {path: load(browser, base + path) for path in pages}

            kinds = ["html", "js", "css", "img", "font", "fetch", "other"]
            print("\nPage weight, cold cache (KiB transferred until the page's math is shown)")
            header = (
                f"{'page':<36} {'total':>7} {'reqs':>5} "
                + " ".join(f"{k:>6}" for k in kinds)
                + f" {'math':>5}"
            )
            print(header)
            print("-" * len(header))
            for path, w in sorted(weights.items(), key=lambda kv: -kv[1]["bytes"]):
                cells = " ".join(f"{kib(w['by_kind'].get(k, 0)):>6}" for k in kinds)
                print(
                    f"{'/' + path:<36} {kib(w['bytes']):>7} {w['requests']:>5} {cells} {w['math']:>5}"
                )

            heaviest = max(weights, key=lambda p: weights[p]["bytes"])
            runs = [load(browser, base + heaviest) for _ in range(max(args.runs, 1))]
            typeset = [r["typeset"] for r in runs]
            dcl = [r["domContentLoaded"] for r in runs]
            loaded = [r["load"] for r in runs]
            instant = instant_typeset(browser, base, heaviest)
            browser.close()

    print(
        f"\nHeaviest page: /{heaviest} ({kib(weights[heaviest]['bytes'])} KiB, "
        f"{weights[heaviest]['math']} formulas), {len(runs)} cold loads, ms from navigation start:"
    )
    for name, values in (("DOMContentLoaded", dcl), ("load", loaded), ("math shown", typeset)):
        print(
            f"  {name:<18} median {statistics.median(values):8.0f}   min {min(values):8.0f}   max {max(values):8.0f}"
        )
    if instant is None:
        print(
            "  instant navigation: no sidebar link to the page, or Material fell back to a full load"
        )
    else:
        print(
            f"  instant navigation to it from the home page, click to math shown: {instant:.0f} ms"
        )

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "pages": weights,
                    "heaviest": heaviest,
                    "typeset_ms": typeset,
                    "dom_content_loaded_ms": dcl,
                    "load_ms": loaded,
                    "instant_typeset_ms": instant,
                },
                indent=2,
            )
        )
        print(f"\nwritten: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
