"""Check the links of a built site that leave it: `make linkcheck`.

    python scripts/dev/linkcheck.py [SITE_DIR] [--exceptions FILE] [--report FILE]

SITE_DIR (default `site/`, what `make site` built) is served on a free localhost port and
LinkChecker (PyPI `linkchecker`, pinned in pyproject.toml) crawls it from its landing page:
it follows the site's own pages and checks every link that leaves them, one request each
(`--check-extern`). It needs the network, so `make test` never runs it; CI does, weekly and
by hand (.github/workflows/linkcheck.yml).

Not checked: the site's own address (its pages' canonical links name the build's
`site_url`, where another copy may be deployed, or none yet), and the known-good links of
the exceptions file (default: linkcheck_exceptions.txt beside this script), which lists
one regular expression a line, each under a comment that says why the link is good though
a robot is refused. The report (default linkcheck-report.txt) lists each dead link, why,
and the pages that link to it. Exit status: 0 none dead, 1 some dead, 2 the check failed.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

from mlnotes_site.chromium import serve

HERE = Path(__file__).resolve().parent
EXCEPTIONS = HERE / "linkcheck_exceptions.txt"
CANONICAL = re.compile(r'<link rel="canonical" href="([^"]+)"')


def exceptions(path: Path) -> list[str]:
    """The regular expressions of an exceptions file (comments and blank lines skipped)."""
    found = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            try:
                re.compile(line)
            except re.error as err:
                raise SystemExit(f"{path}:{n}: not a regular expression: {err}") from None
            found.append(line)
    return found


def site_address(site: Path) -> str | None:
    """The build's site_url, from the landing page's canonical link."""
    match = CANONICAL.search((site / "index.html").read_text(encoding="utf-8"))
    return match.group(1) if match else None


def linkchecker() -> str:
    found = shutil.which("linkchecker", path=str(Path(sys.executable).parent)) or shutil.which(
        "linkchecker"
    )
    if not found:
        raise SystemExit("linkchecker is not installed: `make deps` installs it (pyproject.toml)")
    return found


def check(site: Path, ignore: list[str], timeout: int = 30) -> list[dict]:
    """LinkChecker's rows (CSV) for every link of `site` it checked."""
    with serve(site) as base:
        args = [
            linkchecker(),
            "--check-extern",
            "--no-status",
            "--no-warnings",
            "--verbose",  # every link checked, valid or not, in the CSV
            f"--timeout={timeout}",
            "--output=csv",
        ]
        for pattern in ignore:
            args.append(f"--ignore-url={pattern}")
        result = subprocess.run(args + [base], capture_output=True, text=True, timeout=3600)
    if result.returncode not in (0, 1):
        raise SystemExit(f"linkchecker failed ({result.returncode}):\n{result.stderr[-3000:]}")
    lines = [line for line in result.stdout.splitlines() if line and not line.startswith("#")]
    rows = list(csv.DictReader(io.StringIO("\n".join(lines)), delimiter=";"))
    if not rows:
        raise SystemExit(f"linkchecker checked nothing:\n{result.stderr[-3000:]}")
    return [{**row, "base_url": base} for row in rows]


def report(rows: list[dict]) -> tuple[str, int]:
    """The report's text and the number of dead links."""
    dead: dict[str, dict] = {}
    for row in rows:
        if row.get("valid", "").strip().lower() == "true":
            continue
        url = row.get("url") or row.get("urlname", "")
        entry = dead.setdefault(url, {"result": row.get("result", ""), "pages": set()})
        entry["pages"].add(row.get("parentname", "").replace(row["base_url"], "/"))
    checked = {row.get("url") or row.get("urlname", "") for row in rows}
    lines = [f"{len(checked)} links checked, {len(dead)} dead"]
    for url, entry in sorted(dead.items()):
        lines.append(f"\n{url}\n  {entry['result']}")
        lines += [f"  linked from {page}" for page in sorted(entry["pages"])]
    return "\n".join(lines) + "\n", len(dead)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, nargs="?", default=Path("site"))
    parser.add_argument("--exceptions", type=Path, default=EXCEPTIONS)
    parser.add_argument("--report", type=Path, default=Path("linkcheck-report.txt"))
    parser.add_argument("--timeout", type=int, default=30, help="seconds per connection")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"{args.site}/index.html not found: build the site first (make site)")
        return 2
    ignore = exceptions(args.exceptions)
    own = site_address(args.site)
    if own:
        ignore.append("^" + re.escape(own))
    text, dead = report(check(args.site, ignore, args.timeout))
    args.report.write_text(text, encoding="utf-8")
    print(text, end="")
    print(f"report: {args.report}")
    return 1 if dead else 0


if __name__ == "__main__":
    sys.exit(main())
