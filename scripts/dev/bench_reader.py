"""The reader table (issue 16): Lighthouse on the reading pages, served as a static host serves them.

    python scripts/dev/bench_reader.py [SITE_DIR] [--runs N] [--json PATH]

Serves a built site (SITE_DIR; without it, `mkdocs build --strict` into a temporary
folder) with Debian's nginx (/usr/sbin/nginx, package nginx-light), gzip on for HTML,
CSS, JavaScript, JSON, SVG and XML as a static host compresses them: nginx runs in the
foreground as one process of the user who starts it (no master, so no workers that
switch user), on a free localhost port, with its configuration, pid, log and temporary
files in a temporary folder. Then runs Lighthouse (npm `lighthouse`, the version pinned in
package.json's devDependencies; from node_modules after `npm ci`, else through npx) with
Debian's Chromium (/usr/bin/chromium) on each reading page: once with its default mobile
emulation (a mid-range phone: 4x CPU slowdown, slow 4G, simulated) and once with
`--preset=desktop`, `--runs` times each (medians are shown).

Prints a table (performance score, total blocking time, largest contentful paint, bytes
transferred) and the accessibility findings; `--json` also writes every run's numbers.
Measured, never asserted. These machines are noisy (2 shared cores): compare runs, not
single figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

# scripts/dev is the script's folder (sys.path[0]): its helpers are shared, not copied
from bench_loop import free_port
from bench_pages import build
from mlnotes_site.chromium import CHROMIUM

ROOT = Path(__file__).resolve().parents[2]
NGINX = "/usr/sbin/nginx"
CHROME_FLAGS = "--headless=new --no-sandbox"

# The reading pages; the post's address is found in the built site (`post` below).
PAGES = {
    "landing page": "",
    "post": None,
    "notes/probability": "notes/probability/",
    "notes/linear-algebra": "notes/linear-algebra/",
    "notes/cnn": "notes/cnn/",
    "reference/embeddings": "reference/embeddings/",
    "sources": "sources/",
}
MODES = {"mobile": [], "desktop": ["--preset=desktop"]}

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


def post(site: Path) -> str:
    """The blog post's address: the page under blog/ that is neither an index nor an archive."""
    found = []
    for html in sorted((site / "blog").rglob("index.html")):
        rel = html.parent.relative_to(site).as_posix()
        parts = rel.split("/")[1:]
        if not parts or parts[0] in ("archive", "category", "page", "author", "tag"):
            continue
        found.append(rel + "/")
    if len(found) != 1:
        raise SystemExit(f"expected one post under {site}/blog, found {found}")
    return found[0]


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
    }


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


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
        help="only these of the table's pages: names as printed, or paths (/: the landing page)",
    )
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} not found: apt-get install -y chromium")
    command = lighthouse_command()

    with tempfile.TemporaryDirectory(prefix="mlnotes-bench-reader-") as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "site"
            print(f"building the site into {site} ...", flush=True)
            build(site)
        pages = {name: (path if path is not None else post(site)) for name, path in PAGES.items()}
        if args.pages:
            wanted = {p.strip("/") for p in args.pages}
            pages = {n: p for n, p in pages.items() if n in args.pages or p.strip("/") in wanted}
        results: dict = {}
        with nginx(site) as base:
            print(f"serving {site} with nginx (gzip) at {base}; {' '.join(command)}", flush=True)
            for name, path in pages.items():
                for mode, extra in MODES.items():
                    for run in range(max(args.runs, 1)):
                        out = Path(scratch) / f"lh-{len(results)}-{mode}-{run}.json"
                        started = time.perf_counter()
                        numbers = lighthouse(command, base + path, extra, out)
                        results.setdefault(name, {"path": path, "mobile": [], "desktop": []})[
                            mode
                        ].append(numbers)
                        print(
                            f"  /{path} {mode} run {run + 1}: performance {numbers['performance']}, "
                            f"TBT {numbers['tbt_ms']:.0f} ms, LCP {numbers['lcp_ms'] / 1000:.1f} s "
                            f"({time.perf_counter() - started:.0f} s)",
                            flush=True,
                        )

    version = next(iter(results.values()))["mobile"][0]["lighthouse"]
    runs = max(args.runs, 1)
    print(
        f"\nReader table: Lighthouse {version}, {'median of ' + str(runs) + ' runs' if runs > 1 else 'one run'} "
        "per page and mode, site served gzip-compressed by nginx"
    )
    header = (
        "| page | mobile perf | mobile TBT ms | mobile LCP s | desktop perf | desktop TBT ms "
        "| desktop LCP s | KiB transferred |"
    )
    print(header)
    print("|---|" + "---:|" * (header.count("|") - 2))
    for name, r in results.items():
        m, d = r["mobile"], r["desktop"]
        print(
            f"| {name} | {median(m, 'performance'):.0f} | {median(m, 'tbt_ms'):,.0f} | {median(m, 'lcp_ms') / 1000:.1f} "
            f"| {median(d, 'performance'):.0f} | {median(d, 'tbt_ms'):,.0f} | {median(d, 'lcp_ms') / 1000:.1f} "
            f"| {median(m, 'bytes') / 1024:,.0f} |"
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

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps({"lighthouse": version, "runs": runs, "pages": results}, indent=2)
        )
        print(f"\nwritten: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
