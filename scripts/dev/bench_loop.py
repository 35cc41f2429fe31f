"""Benchmark the author's loop: an edit under `make serve` until the served site shows it.

    python scripts/dev/bench_loop.py [--scale N [N ...]] [--repeat 3] [--json bench-results/loop.json]

On a scratch copy of the project under /tmp (sources only: `.venv` and `node_modules`
are linked, nothing generated is copied), measures

- a cold `mkdocs build --strict` (figures, notebooks, every page) and a warm one (the
  figure cache is full), as `make site` runs it;
- under `mkdocs serve --dirty` (what `make serve` runs), for a page edit
  (`docs/notes/cnn.md`), a docstring edit (`mlnotes/cnn.py`'s module docstring) and a
  figure-script edit (`scripts/figures/cnn_output_size.py`'s title): the time from the
  file's write to the served HTML (or SVG) showing the change, polled over HTTP, median
  of `--repeat` edits. MkDocs' own watcher and debounce are part of that time.

With `--scale N` (N > 1; several, e.g. `--scale 10 100`) it does the same on another copy
per N with a synthetic corpus: N times the notes pages (copies of the notes, with their
math, doctests and figures) and N times the figure scripts, and reports both sizes, each
build's largest process's peak memory, and each edit's time against its time at 1x. Compare ratios within one run:
absolute times depend on the machine's load. Never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Never copied into a scratch tree: VCS data, installs (linked instead) and generated files.
IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "node_modules",
    ".cache",
    "bench-results",
    "__pycache__",
    "*.egg-info",
    ".pytest_cache",
    ".hypothesis",
    ".ipynb_checkpoints",
    ".skeleton-ready",
)
GENERATED = ("site", "build", "docs/figures", "docs/javascripts/mathjax")
# SOURCE_DATE_EPOCH: one build date (the sitemap's, the feeds'), so that two builds of the
# same sources are the same bytes (tests/test_serve.py compares them)
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "1735689600"}
PAGE, PAGE_URL = "docs/notes/cnn.md", "notes/cnn/"
MODULE, MODULE_URL = "mlnotes/cnn.py", "reference/cnn/"
FIGURE, FIGURE_URL = "scripts/figures/cnn_output_size.py", "figures/cnn_output_size.svg"


def scratch_copy(
    dest: Path, source: Path = ROOT, seed_figures: bool = False, node_modules: Path | None = None
) -> Path:
    """Copy the project's sources to `dest`, linking `.venv` and `node_modules`.

    Generated files are left out; `seed_figures` copies the figure cache and figures and
    the executed notebooks (their keys are content hashes, so a stale one is redone).
    """
    if dest.exists():
        shutil.rmtree(dest)

    def ignore(directory, names):
        rel = Path(directory).resolve().relative_to(source.resolve())
        generated = {n for n in names if (rel / n).as_posix() in GENERATED}
        return set(IGNORE(directory, names)) | generated

    shutil.copytree(source, dest, ignore=ignore, symlinks=True)
    (dest / ".venv").symlink_to((source / ".venv").resolve())
    (dest / "node_modules").symlink_to((node_modules or source / "node_modules").resolve())
    if seed_figures:
        for sub in (".cache/figures", "docs/figures", ".cache/notebooks"):
            if (source / sub).is_dir():
                shutil.copytree(source / sub, dest / sub)
    return dest


def synthesize(tree: Path, scale: int) -> dict:
    """Grow `tree` to `scale` times the notes pages and `scale` times the figure scripts."""
    figures = tree / "scripts" / "figures"
    originals = sorted(p for p in figures.glob("*.py") if not p.name.startswith("_"))
    names = [p.stem for p in originals]
    notes = sorted((tree / "docs" / "notes").glob("*.md"))
    mkdocs_yml = tree / "mkdocs.yml"
    config = mkdocs_yml.read_text(encoding="utf-8")
    nav_lines = []
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    for k in range(2, scale + 1):
        for script in originals:
            (figures / f"syn{k}_{script.name}").write_text(
                script.read_text(encoding="utf-8"), encoding="utf-8"
            )
        for note in notes:
            text = pattern.sub(
                lambda m, k=k: f"syn{k}_{m.group(1)}", note.read_text(encoding="utf-8")
            )
            text = re.sub(r"^# (.+)$", rf"# \1 (copy {k})", text, count=1, flags=re.M)
            name = f"{note.stem}-copy-{k}.md"
            (note.parent / name).write_text(text, encoding="utf-8")
            nav_lines.append(f"      - notes/{name}\n")
    last = "      - notes/" + notes[-1].name + "\n"
    if last not in config:
        raise SystemExit(f"bench_loop: cannot find the nav entry {last.strip()!r} in mkdocs.yml")
    mkdocs_yml.write_text(config.replace(last, last + "".join(nav_lines), 1), encoding="utf-8")
    return {
        "notes_pages": len(list((tree / "docs" / "notes").glob("*.md"))),
        "figure_scripts": len(list(figures.glob("*.py"))),
    }


# Runs a command and reports the largest resident set of it and its descendants (the
# figure and notebook workers included: RUSAGE_CHILDREN covers every process waited for).
_PEAK = (
    "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
    "print(f'PEAK_RSS_KIB {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}', file=sys.stderr); "
    "sys.exit(r.returncode)"
)
PEAKS: list[float] = []  # MiB of each build() call, in order


def build(tree: Path, dest: Path) -> float:
    """`make site`'s command (strict build) on `tree`; returns seconds, and appends the largest
    process's peak memory (MiB) to PEAKS. No `-q`: under MkDocs 1.6.1 `-q` raises the log level
    above WARNING, so `--strict` never sees a warning and exits 0."""
    start = time.perf_counter()
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            _PEAK,
            str(tree / ".venv" / "bin" / "mkdocs"),
            "build",
            "--strict",
            "-d",
            str(dest),
        ],
        cwd=tree,
        env={**ENV, "PYTHONPATH": tree_pythonpath(tree)},
        capture_output=True,
        text=True,
    )
    if result.returncode:
        raise SystemExit(f"bench_loop: mkdocs build failed in {tree}:\n{result.stderr[-4000:]}")
    peak = re.search(r"PEAK_RSS_KIB (\d+)", result.stderr)
    PEAKS.append(int(peak.group(1)) / 1024 if peak else float("nan"))
    return time.perf_counter() - start


def tree_pythonpath(tree: Path) -> str:
    """PYTHONPATH for a build of `tree`: its `mlnotes` and its build (scripts/mlnotes_site,
    whose plugins the installed entry points name by module), ahead of the installed copies;
    then the caller's PYTHONPATH (where the entry points are found in an uninstalled worktree)."""
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return os.pathsep.join([str(tree), str(tree / "scripts"), *inherited])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`mkdocs serve --dirty` (what `make serve` runs) on a scratch tree."""

    def __init__(self, tree: Path, log: Path, timeout: float = 1800):
        self.tree, self.port = tree, free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = open(log, "w")
        # MkDocs serves from a temporary folder (mkdtemp): a private TMPDIR finds it
        self.tmp = Path(log).parent / "serve-tmp"
        self.tmp.mkdir(exist_ok=True)
        self.proc = subprocess.Popen(
            [
                str(tree / ".venv" / "bin" / "mkdocs"),
                "serve",
                "--dirty",
                "--dev-addr",
                f"127.0.0.1:{self.port}",
            ],
            cwd=tree,
            env={**ENV, "PYTHONPATH": tree_pythonpath(tree), "TMPDIR": str(self.tmp)},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while self.get("") is None:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mkdocs serve exited; see {log}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"mkdocs serve did not come up; see {log}")
            time.sleep(0.5)

    def site_dir(self) -> Path:
        """The folder the server builds the site into."""
        [site] = [p for p in self.tmp.glob("mkdocs_*") if (p / "index.html").is_file()]
        return site

    def get(self, path: str) -> bytes | None:
        """The served file (None if not served). Blocks while a rebuild runs, like a browser."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=600) as response:
                return response.read()
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return None

    def wait_for(self, path: str, ready, timeout: float = 900, interval: float = 0.02) -> float:
        """Poll `path` until `ready(body)`; returns the time it took."""
        start = time.perf_counter()
        while True:
            body = self.get(path)
            if body is not None and ready(body):
                return time.perf_counter() - start
            if time.perf_counter() - start > timeout:
                raise TimeoutError(f"{path} did not change within {timeout} s")
            if self.proc.poll() is not None:
                raise RuntimeError("mkdocs serve exited")
            time.sleep(interval)

    def settle(self, quiet: float = 1.5, timeout: float = 900) -> None:
        """Wait until the server's log has been quiet for `quiet` seconds (rebuilds done)."""
        path, start = Path(self.log.name), time.monotonic()
        size = -1
        while time.monotonic() - start < timeout:
            self.get("")  # blocks while a rebuild runs
            new = path.stat().st_size
            if new == size:
                return
            size = new
            time.sleep(quiet)

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


# The three edits: each writes a new marker the served file must show.
def edit_page(tree: Path, n: int) -> tuple[str, object]:
    marker = f"Loop marker {n} on the page."
    with open(tree / PAGE, "a", encoding="utf-8") as f:
        f.write(f"\n{marker}\n")
    return PAGE_URL, lambda body: marker.encode() in body


def edit_docstring(tree: Path, n: int) -> tuple[str, object]:
    marker = f"Loop marker {n} in the docstring."
    path = tree / MODULE
    text = path.read_text(encoding="utf-8")
    new = re.sub(
        r'^(r?""")(.*)$', lambda m: f"{m.group(1)}{m.group(2)} {marker}", text, count=1, flags=re.M
    )
    if new == text:
        raise SystemExit(f"bench_loop: no module docstring to edit in {MODULE}")
    path.write_text(new, encoding="utf-8")
    return MODULE_URL, lambda body: marker.encode() in body


def edit_figure(tree: Path, n: int, server: Server) -> tuple[str, object]:
    before = server.get(FIGURE_URL)
    path = tree / FIGURE
    text = path.read_text(encoding="utf-8")
    new = re.sub(r'title=f?"', lambda m: f"{m.group(0)}[edit {n}] ", text, count=1)
    if new == text:
        raise SystemExit(f"bench_loop: no title= to edit in {FIGURE}")
    path.write_text(new, encoding="utf-8")
    return FIGURE_URL, lambda body: body != before


def loop(tree: Path, log: Path, repeat: int) -> dict:
    """Median seconds from write to served change, per kind of edit."""
    server = Server(tree, log)
    results: dict[str, list[float]] = {"page": [], "docstring": [], "figure": []}
    try:
        server.settle()
        for n in range(1, repeat + 1):
            for kind in results:
                start = time.perf_counter()
                if kind == "page":
                    path, ready = edit_page(tree, n)
                elif kind == "docstring":
                    path, ready = edit_docstring(tree, n)
                else:
                    path, ready = edit_figure(tree, n, server)
                server.wait_for(path, ready)
                results[kind].append(time.perf_counter() - start)
                server.settle()
    finally:
        server.close()
    return {kind: {"median": statistics.median(t), "runs": t} for kind, t in results.items()}


def measure(tree: Path, work: Path, repeat: int) -> dict:
    row = {"cold_build": build(tree, work / "site-cold")}
    row["cold_peak_mib"] = PEAKS[-1]
    warm = [build(tree, work / "site-warm")]
    row["loop"] = loop(tree, work / "serve.log", repeat)
    warm.append(build(tree, work / "site-warm"))
    row["warm_peak_mib"] = max(PEAKS[-2:])
    row["warm_build"] = statistics.median(warm)
    row["warm_builds"] = warm
    for kind in ("page", "docstring", "figure"):
        row[f"ratio_{kind}_to_warm"] = row["loop"][kind]["median"] / row["warm_build"]
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--scale",
        type=int,
        nargs="+",
        default=[1],
        help="also measure N times the pages and figures (several: --scale 10 100)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="edits of each kind (median)")
    parser.add_argument("--json", type=Path, default=ROOT / "bench-results" / "loop.json")
    parser.add_argument("--keep", action="store_true", help="keep the scratch copies")
    parser.add_argument(
        "--node-modules",
        type=Path,
        default=None,
        help="link this node_modules instead of the project's",
    )
    args = parser.parse_args(argv)
    if min(args.scale) < 1:
        parser.error(f"--scale must be >= 1, got {min(args.scale)}")

    base = Path(tempfile.mkdtemp(prefix="mlnotes-bench-loop-"))
    results: dict = {"scales": {}}
    try:
        for scale in sorted({1, *args.scale}):
            work = base / f"x{scale}"
            tree = scratch_copy(work / "tree", node_modules=args.node_modules)
            corpus = synthesize(tree, scale) if scale > 1 else {}
            print(f"[bench_loop] {scale}x: {work}", flush=True)
            row = measure(tree, work, args.repeat)
            row.update(corpus)
            results["scales"][str(scale)] = row
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")  # so far
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)

    rows = results["scales"]
    for scale, row in rows.items():  # each edit loop at N x against its time at 1x
        if scale != "1" and "1" in rows:
            row["growth"] = {
                kind: row["loop"][kind]["median"] / rows["1"]["loop"][kind]["median"]
                for kind in ("page", "docstring", "figure")
            }
    header = (
        f"{'scale':>5} {'pages':>6} {'figures':>8} {'cold build':>11} {'warm build':>11} {'peak MiB':>9} "
        f"{'page edit':>16} {'docstring':>16} {'figure':>16}"
    )
    print(header)
    for scale, row in rows.items():
        loop_ = row["loop"]
        cells = [
            f"{loop_[k]['median']:>6.2f}s {row[f'ratio_{k}_to_warm']:.2f}x"
            + (f" g{row['growth'][k]:.2f}" if "growth" in row else "")
            for k in ("page", "docstring", "figure")
        ]
        print(
            f"{scale + 'x':>5} {row.get('notes_pages', ''):>6} {row.get('figure_scripts', ''):>8} "
            f"{row['cold_build']:>10.2f}s {row['warm_build']:>10.2f}s "
            f"{max(row['cold_peak_mib'], row['warm_peak_mib']):>9.0f} "
            + " ".join(f"{c:>16}" for c in cells)
        )
    print(
        "(each edit: median seconds, x warm build of the same tree, g = its time / its time at 1x)"
    )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(f"[bench_loop] wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
