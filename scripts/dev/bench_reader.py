"""The reader table (issues 16, 31): Lighthouse on every page, served as a static host serves them.

    python scripts/dev/bench_reader.py [SITE_DIR] [--runs N] [--json PATH] [--pages P ...]
                                       [--desktop reading|all|none] [--inp-steps N]
                                       [--inp-only]

Serves a built site (SITE_DIR; without it, `mkdocs build --strict` into a temporary
folder) with Debian's nginx (/usr/sbin/nginx, package nginx-light), gzip on for HTML,
CSS, JavaScript, JSON, SVG and XML as a static host compresses them: nginx runs in the
foreground as one process of the user who starts it, on a free localhost port, with its
configuration, pid, log and temporary files in a temporary folder. Then runs Lighthouse
(npm `lighthouse`, package.json's version) with Debian's Chromium on every page of the
site (its sitemap.xml: the 404 page is not there): with its default mobile emulation (a
mid-range phone: 4x CPU slowdown, slow 4G, simulated) on each, and with
`--preset=desktop` on the reading pages only (the landing page, the posts, the notes,
the sources; `--desktop all` on every page), `--runs` times each (medians are shown). A run
whose page first painted 250 ms or more after it loaded is set aside and the page measured
again (`LATE_FIRST_PAINT_RETRIES`: GoogleChrome/lighthouse#17148).

Then slider steps' Interaction to Next Paint, on every explorable figure of the site
(`figure.mlnotes-explore` with a range input), each in a fresh tab, in Playwright with a
phone's emulation and Chrome's 4x CPU slowdown: a first touch of the figure's first
slider (which loads its frames), then `--inp-steps` arrow-key presses on its sliders in
turn; each step's duration is the longest of its interaction's Event Timing entries (a
PerformanceObserver on 'event' entries, durationThreshold 16 ms). No such figure: "not
measured", no number. `--inp-only`: no Lighthouse, the slider steps only.

Prints a table and the accessibility findings; `--json` also writes every run's numbers.
Measured, never asserted. These machines are noisy (2 shared cores): compare runs, not
single figures.
"""

from __future__ import annotations

import argparse
import functools
import html.parser
import json
import os
import statistics
import subprocess
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ET
from contextlib import contextmanager
from pathlib import Path

# scripts/dev is the script's folder (sys.path[0]): its helpers are shared, not copied
from bench_loop import free_port
from bench_pages import build
from mlnotes_site.chromium import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
NGINX = "/usr/sbin/nginx"
CHROME_FLAGS = "--headless=new --no-sandbox"

MODES = {"mobile": [], "desktop": ["--preset=desktop"]}
# the blog's listings: not posts
BLOG_LISTINGS = ("archive", "category", "page", "author", "tag")
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"

NGINX_CONF = """\
# written by scripts/dev/bench_reader.py: a static host, compressed
daemon off;
master_process off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 512; }}
http {{
    {mime}
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    gzip on;
    gzip_static on;
    gzip_vary on;
    gzip_comp_level 6;
    gzip_min_length 256;
    gzip_proxied any;
    gzip_types text/css text/plain text/xml application/xml application/javascript text/javascript
               application/json application/manifest+json image/svg+xml application/atom+xml
               application/rss+xml;
    server {{
        listen 127.0.0.1:{port};
        root {site};
        index index.html;
        error_page 404 /404.html;
    }}
}}
"""


@contextmanager
def nginx(site: Path):
    """Serve `site` with nginx on a free localhost port, compressed; yield the base URL."""
    if not Path(NGINX).exists():
        raise SystemExit(
            f"{NGINX} not found: apt-get install -y nginx-light (`make bench` does it)"
        )
    with tempfile.TemporaryDirectory(prefix="mlnotes-nginx-") as tmp:
        port = free_port()
        mime = (
            "include /etc/nginx/mime.types;"
            if Path("/etc/nginx/mime.types").exists()
            else (
                "types { text/html html; text/css css; application/javascript js; application/json json;"
                " image/svg+xml svg; image/png png; font/woff2 woff2; application/xml xml; }"
            )
        )
        conf = Path(tmp) / "nginx.conf"
        conf.write_text(NGINX_CONF.format(tmp=tmp, mime=mime, port=port, site=site.resolve()))
        proc = subprocess.Popen(
            [NGINX, "-p", tmp, "-c", str(conf), "-e", f"{tmp}/error.log"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        base = f"http://127.0.0.1:{port}/"
        try:
            for _ in range(100):
                if proc.poll() is not None:
                    raise SystemExit(
                        f"nginx exited: {proc.stderr.read().decode()}{(Path(tmp) / 'error.log').read_text()}"
                    )
                try:
                    urllib.request.urlopen(base, timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            check_compressed(base)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def check_compressed(base: str) -> None:
    request = urllib.request.Request(base, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=5) as response:
        if response.headers.get("Content-Encoding") != "gzip":
            raise SystemExit(f"nginx at {base} does not compress HTML: {dict(response.headers)}")


def site_pages(site: Path) -> list[str]:
    """Every page of a built site, as paths below its root (`""`: the landing page), in the
    order of its sitemap.xml, whose addresses all start with the landing page's (the
    shortest)."""
    try:
        tree = ET.parse(site / "sitemap.xml")
    except (OSError, ET.ParseError) as err:
        raise SystemExit(f"no readable sitemap.xml in {site}: {err}") from err
    locs = [(e.text or "").strip() for e in tree.getroot().iter(f"{SITEMAP_NS}loc")]
    if not locs:
        raise SystemExit(f"{site}/sitemap.xml lists no page")
    home = min(locs, key=len)
    if not all(loc.startswith(home) for loc in locs):
        raise SystemExit(f"{site}/sitemap.xml: not every address starts with {home}")
    return list(dict.fromkeys(loc[len(home) :] for loc in locs))


def is_reading(path: str) -> bool:
    """A reading page: the landing page, a blog post, a note, the sources."""
    parts = path.strip("/").split("/")
    post = parts[0] == "blog" and len(parts) > 1 and parts[1] not in BLOG_LISTINGS
    return path in ("", "sources/") or path.startswith("notes/") or post


def page_name(path: str) -> str:
    return path.strip("/") or "landing page"


class _Explorable(html.parser.HTMLParser):
    """Finds the explorable figures of a page (`figure.mlnotes-explore` with an id and a
    range input), in the page's order."""

    def __init__(self):
        super().__init__()
        self.depth = 0  # figures open since an explorable one (0: outside one)
        self.current: str | None = None  # the id of the explorable figure we are in
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure":
            if self.depth:
                self.depth += 1
            elif "mlnotes-explore" in (a.get("class") or "").split():
                self.depth, self.current = 1, a.get("id") or ""
        elif tag == "input" and self.depth and (a.get("type") or "").lower() == "range":
            if self.current is not None and self.current not in self.found:
                self.found.append(self.current)

    def handle_endtag(self, tag):
        if tag == "figure" and self.depth:
            self.depth -= 1
            if not self.depth:
                self.current = None


def explorable_figures(site: Path, pages: list[str]) -> list[tuple[str, str]]:
    """Every explorable figure of `pages` (paths in the built `site`) that has a range
    input: (page, the figure's id; "" when it has none), in the pages' order."""
    found = []
    for path in pages:
        index = site / path / "index.html"
        if not index.is_file():
            continue
        finder = _Explorable()
        finder.feed(index.read_text(encoding="utf-8"))
        found += [(path, figure) for figure in finder.found]
    return found


def explorable_page(site: Path, pages: list[str]) -> str | None:
    """The first of `pages` (paths in the built `site`) with a range input in an
    explorable figure, or None."""
    return next((path for path, _ in explorable_figures(site, pages)), None)


# Every Event Timing entry of 16 ms or more, from the page's start (buffered)
EVENT_OBSERVER = """
window.__mlnotesEvents = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries())
    window.__mlnotesEvents.push({name: e.name, id: e.interactionId, duration: e.duration});
}).observe({type: "event", durationThreshold: 16, buffered: true});
"""
EXPLORABLE = "figure.mlnotes-explore"


def slider_inp(
    base: str, path: str, steps: int = 3, slowdown: float = 4, figure: str | None = None
) -> dict:
    """A slider step's interaction to next paint on the page `base + path`, in ms.

    A phone's emulation (Playwright's "Pixel 5"), the CPU slowed `slowdown` times (Chrome's
    `Emulation.setCPUThrottlingRate`): the first slider of the explorable figure whose id
    is `figure` (None: the page's first explorable figure) is touched once (it loads the
    frames; the network is then awaited), then `steps` times an arrow key is pressed, on
    the figure's sliders in turn: ArrowRight, ArrowLeft at the end of its range. Each
    step's duration is the longest Event Timing entry of its interaction; None when none
    reached 16 ms (the observer's threshold). Returns {"page", "figure", "steps_ms",
    "inp_ms" (the longest step, or None), "median_ms" (of the steps, those under 16 ms
    counted as 0), "slowdown"}.
    """
    return figures_inp(base, [(path, figure)], steps, slowdown)[0]


def figures_inp(
    base: str, figures: list[tuple[str, str | None]], steps: int = 5, slowdown: float = 4
) -> list[dict]:
    """`slider_inp` on each (page, figure id) of `figures`, each in a fresh browser context
    of one Chromium."""
    # In a thread of its own, as diff_report.py draws: Playwright's sync API refuses to
    # start in a thread whose asyncio loop runs (a caller's Playwright, as in the tests).
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_figures_inp, base, figures, steps, slowdown).result()


def _figures_inp(base: str, figures, steps: int, slowdown: float) -> list[dict]:
    from playwright.sync_api import sync_playwright

    results = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for path, figure in figures:
                context = browser.new_context(**pw.devices["Pixel 5"])
                try:
                    durations = _steps(context, base + path, figure, steps, slowdown)
                finally:
                    context.close()
                measured = [d for d in durations if d is not None]
                results.append(
                    {
                        "page": path,
                        "figure": figure,
                        "steps_ms": durations,
                        "inp_ms": max(measured) if measured else None,
                        "median_ms": statistics.median(d or 0 for d in durations)
                        if durations
                        else None,
                        "slowdown": slowdown,
                    }
                )
        finally:
            browser.close()
    return results


def _steps(context, url: str, figure: str | None, steps: int, slowdown: float) -> list:
    page = context.new_page()
    page.add_init_script(EVENT_OBSERVER)
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    page.goto(url, wait_until="load")
    scope = f"{EXPLORABLE}#{figure}" if figure else EXPLORABLE
    sliders = page.locator(f"{scope} input[type=range]")
    first = sliders.first
    first.scroll_into_view_if_needed()
    first.wait_for(state="visible", timeout=30000)
    first.tap()  # the first touch: the frames load
    settle(page)
    count = sliders.count() if figure else 1  # the page's first slider only, without an id
    durations: list[float | None] = []
    for step in range(steps):
        slider = sliders.nth(step % count)
        at_end = slider.evaluate("s => Number(s.value) >= Number(s.max || 100)")
        before = page.evaluate("window.__mlnotesEvents.length")
        slider.press("ArrowLeft" if at_end else "ArrowRight")
        page.wait_for_timeout(1500)  # the entries come after the next paint
        entries = page.evaluate("window.__mlnotesEvents")[before:]
        ids = [e for e in entries if e["id"]]
        durations.append(max((e["duration"] for e in ids), default=None))
    return durations


def step_list(durations: list[float | None]) -> str:
    """'120, < 16, 88': the steps' durations, in ms."""
    return ", ".join("< 16" if d is None else f"{d:.0f}" for d in durations)


def args_slowdown(inp: dict) -> float:
    return inp["figures"][0]["slowdown"]


def settle(page, quiet_ms: int = 1000, timeout_ms: int = 30000) -> None:
    """Wait until the page has started no request for `quiet_ms` (at most `timeout_ms`)."""
    count = "performance.getEntriesByType('resource').length"
    waited, last, still = 0, page.evaluate(count), 0
    while still < quiet_ms and waited < timeout_ms:
        page.wait_for_timeout(250)
        waited += 250
        now = page.evaluate(count)
        still = still + 250 if now == last else 0
        last = now


def lighthouse_command() -> list[str]:
    """node_modules' lighthouse (after `npm ci`), or npx with the version package.json pins."""
    local = ROOT / "node_modules" / ".bin" / "lighthouse"
    if local.exists():
        return [str(local)]
    version = json.loads((ROOT / "package.json").read_text())["devDependencies"]["lighthouse"]
    return ["npx", "--yes", f"lighthouse@{version}"]


def lighthouse(command: list[str], url: str, extra: list[str], out: Path) -> dict:
    env = dict(os.environ, CHROME_PATH=CHROMIUM)
    result = subprocess.run(
        [
            *command,
            url,
            *extra,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            f"--chrome-flags={CHROME_FLAGS}",
            "--only-categories=performance,accessibility",
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode or not out.exists():
        raise SystemExit(
            f"lighthouse failed on {url} ({' '.join(extra) or 'mobile'}):\n{result.stderr[-3000:]}"
        )
    report = json.loads(out.read_text())
    if report.get("runtimeError"):
        raise SystemExit(f"lighthouse on {url}: {report['runtimeError']}")
    audits = report["audits"]
    # failed accessibility audits; "(unscored)": weight 0 in Lighthouse's score
    failed = sorted(
        ref["id"] + ("" if ref["weight"] else " (unscored)")
        for ref in report["categories"]["accessibility"]["auditRefs"]
        if audits[ref["id"]]["scoreDisplayMode"] in ("binary", "numeric")
        and audits[ref["id"]]["score"] is not None
        and audits[ref["id"]]["score"] < 1
    )
    dom = audits.get("dom-size-insight") or audits.get("dom-size") or {}  # 13.x: the insight
    return {
        "lighthouse": report["lighthouseVersion"],
        "performance": round(report["categories"]["performance"]["score"] * 100),
        "accessibility": round(report["categories"]["accessibility"]["score"] * 100),
        "accessibility_failed": failed,
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "lcp_ms": audits["largest-contentful-paint"]["numericValue"],
        "fcp_ms": audits["first-contentful-paint"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "speed_index_ms": audits["speed-index"]["numericValue"],
        "bytes": audits["total-byte-weight"]["numericValue"],
        "dom_elements": dom.get("numericValue"),
        "main_thread_ms": audits.get("mainthread-work-breakdown", {}).get("numericValue"),
        "bootup_ms": audits.get("bootup-time", {}).get("numericValue"),
        **late_first_paint(audits),
    }


def late_first_paint(audits: dict) -> dict:
    """From a report's audits, the load Lighthouse saw (unthrottled): when the page first
    painted and when it loaded (ms; None if it did not), and whether it first painted
    LATE_FIRST_PAINT_MS or more after its load, the signature of GoogleChrome/lighthouse#17148
    (LATE_FIRST_PAINT_RETRIES)."""
    observed = audits["metrics"]["details"]["items"][0]
    fcp, load = observed.get("observedFirstContentfulPaint"), observed.get("observedLoad")
    return {
        "observed_fcp_ms": fcp,
        "observed_load_ms": load,
        "late_first_paint": fcp is not None
        and load is not None
        and fcp - load >= LATE_FIRST_PAINT_MS,
    }


# A run whose page first painted well after it had loaded (Lighthouse's observed, unthrottled
# load: its first contentful paint LATE_FIRST_PAINT_MS or more after its load event) bears
# the signature of GoogleChrome/lighthouse#17148 (open): in headless Chromium, viz stops
# sending the page BeginFrames for up to a second or two (ThrottleUnresponsiveClient), and
# Lighthouse's simulation carries the late paint into FCP and LCP. A page busy until well
# after its load would bear it too, on every run. Our pages painted before they loaded in
# 12 of 14 runs of the post and sources on 2026-11-28 (observed first paint 0.1 to 0.3 s,
# load 0.3 to 0.7 s); in the other two, both of the post, it painted at 1.25 and 1.28 s,
# 0.71 to 0.73 s after its load, and scored 80 to 81 with LCP 4.3 s, against 94 to 97 and
# 2.3 to 2.5 s. A small page may load just before it paints (blog/category/transformers,
# 23 ms, scoring 96 in that day's `make bench`): hence the margin. Such a run is set aside
# (kept in the JSON, listed in BENCHMARKS.md with its times) and the page measured again,
# up to LATE_FIRST_PAINT_RETRIES times; a run late every time counts as it is, marked.
LATE_FIRST_PAINT_MS = 250
LATE_FIRST_PAINT_RETRIES = 2


def told_lighthouse(
    command: list[str], url: str, extra: list[str], stem: Path, label: str, attempt: int
) -> dict:
    """`lighthouse` once (its report in `stem`-`attempt`.json), its numbers printed."""
    started = time.perf_counter()
    numbers = lighthouse(command, url, extra, stem.with_name(f"{stem.name}-{attempt}.json"))
    print(
        f"  {label}: performance {numbers['performance']}, TBT {numbers['tbt_ms']:.0f} ms, "
        f"LCP {numbers['lcp_ms'] / 1000:.1f} s ({time.perf_counter() - started:.0f} s)"
        + (
            f"; loaded at {numbers['observed_load_ms']:.0f} ms, first painted at "
            f"{numbers['observed_fcp_ms']:.0f} ms (GoogleChrome/lighthouse#17148)"
            if numbers["late_first_paint"]
            else ""
        ),
        flush=True,
    )
    return numbers


def measure_run(run_once, retries: int = LATE_FIRST_PAINT_RETRIES) -> tuple[dict, list[dict]]:
    """One run of a page: `run_once(attempt)` gives a run's numbers (`lighthouse`); a run
    whose page loaded before it first painted is set aside and the page run again, up to
    `retries` times. Returns the run that counts (the last one, if every one was late) and
    the runs set aside."""
    aside = []
    for attempt in range(retries + 1):
        numbers = run_once(attempt)
        if not numbers["late_first_paint"] or attempt == retries:
            return numbers, aside
        aside.append(numbers)
    raise ValueError(f"retries must be 0 or more, not {retries}")


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def modes_for(path: str, desktop: str) -> list[str]:
    """The Lighthouse modes a page is measured in: mobile always, desktop as `desktop` says."""
    if desktop == "all" or (desktop == "reading" and is_reading(path)):
        return ["mobile", "desktop"]
    return ["mobile"]


def print_table(results: dict, version: str, runs: int, seconds: float) -> None:
    """The reader table and the accessibility findings, on stdout."""
    print(
        f"\nReader table: Lighthouse {version}, {'median of ' + str(runs) + ' runs' if runs > 1 else 'one run'} "
        f"per page and mode, site served gzip-compressed by nginx; {seconds / 60:.1f} min in all"
    )
    header = (
        "| page | mobile perf | mobile TBT ms | mobile LCP s | desktop perf | desktop TBT ms "
        "| desktop LCP s | KiB transferred |"
    )
    print(header)
    print("|---|" + "---:|" * (header.count("|") - 2))
    for name, r in results.items():
        m, d = r["mobile"], r["desktop"]
        desk = (
            f"{median(d, 'performance'):.0f} | {median(d, 'tbt_ms'):,.0f} | {median(d, 'lcp_ms') / 1000:.1f}"
            if d
            else "— | — | —"
        )
        print(
            f"| {name} | {median(m, 'performance'):.0f} | {median(m, 'tbt_ms'):,.0f} | {median(m, 'lcp_ms') / 1000:.1f} "
            f"| {desk} | {median(m, 'bytes') / 1024:,.0f} |"
        )
    findings = sorted(
        {
            f"{name} ({mode}): {', '.join(n['accessibility_failed'])}"
            for name, r in results.items()
            for mode in MODES
            for n in r[mode]
            if n["accessibility_failed"]
        }
    )
    print(
        "\nLighthouse accessibility: "
        + ("no failed audit on any page" if not findings else "\n  " + "\n  ".join(findings))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", type=Path, help="a built site (default: build one)")
    parser.add_argument(
        "--runs",
        type=int,
        default=1,
        help="Lighthouse runs per page and mode (default 1; medians shown)",
    )
    parser.add_argument("--json", type=Path, help="also write every run's numbers here")
    parser.add_argument(
        "--pages",
        nargs="*",
        help="only these pages: names as printed, or paths (/: the landing page)",
    )
    parser.add_argument(
        "--desktop",
        choices=("reading", "all", "none"),
        default="reading",
        help="the pages also measured with --preset=desktop (default: the reading pages)",
    )
    parser.add_argument(
        "--inp-steps",
        type=int,
        default=5,
        help="slider steps measured on each explorable figure (0: no INP measurement)",
    )
    parser.add_argument(
        "--inp-only", action="store_true", help="no Lighthouse: the slider steps only"
    )
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} not found: apt-get install -y chromium")
    command = lighthouse_command()
    began = time.perf_counter()

    with tempfile.TemporaryDirectory(prefix="mlnotes-bench-reader-") as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "site"
            print(f"building the site into {site} ...", flush=True)
            build(site)
        every = site_pages(site)
        pages = {page_name(path): path for path in every}
        if args.pages:
            wanted = {p.strip("/") for p in args.pages}
            pages = {n: p for n, p in pages.items() if n in args.pages or p.strip("/") in wanted}
        results: dict = {}
        with nginx(site) as base:
            print(f"serving {site} with nginx (gzip) at {base}; {' '.join(command)}", flush=True)
            for name, path in pages.items() if not args.inp_only else ():
                entry = results.setdefault(name, {"path": path, "mobile": [], "desktop": []})
                for mode in modes_for(path, args.desktop):
                    for run in range(max(args.runs, 1)):
                        numbers, aside = measure_run(
                            functools.partial(
                                told_lighthouse,
                                command,
                                base + path,
                                MODES[mode],
                                Path(scratch) / f"lh-{len(results)}-{mode}-{run}",
                                f"/{path} {mode} run {run + 1}",
                            )
                        )
                        entry[mode].append(numbers)
                        if aside:
                            entry.setdefault("set_aside", {}).setdefault(mode, []).extend(aside)
            figures = explorable_figures(site, every) if args.inp_steps > 0 else []
            if figures:
                print(f"slider steps on {len(figures)} explorable figures ...", flush=True)
                inp = {"figures": figures_inp(base, figures, steps=args.inp_steps)}
            else:
                inp = {"reason": "no explorable figure" if args.inp_steps > 0 else "not asked"}
    seconds = time.perf_counter() - began

    version = next(iter(results.values()))["mobile"][0]["lighthouse"] if results else None
    runs = max(args.runs, 1)
    if results:
        print_table(results, version, runs, seconds)
    if not inp.get("figures"):
        print(f"\nSlider step INP: not measured ({inp['reason']})")
    else:
        print(f"\nSlider step INP at {args_slowdown(inp):g}x slowdown (ms, each step):")
        for r in inp["figures"]:
            print(f"  /{r['page']}#{r['figure']}: {step_list(r['steps_ms'])}")

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "lighthouse": version,
                    "runs": runs,
                    "desktop": args.desktop,
                    "seconds": round(seconds),
                    "pages": results,
                    "inp": inp,
                },
                indent=2,
            )
        )
        print(f"\nwritten: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
