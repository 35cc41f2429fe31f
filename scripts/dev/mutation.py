"""Mutation testing of the pages' evidence: which Check block kills which mutant.

    make mutation        # python scripts/dev/mutation.py [--jobs N] [--only TEXT,...] [--out DIR]

mutmut (`mutmut_adapter.py`) writes each mutant (a small change) of each `mlnotes` function
into `mutants/`. Per mutant, forked children rerun the page and docstring doctests that run
its line (coverage of a clean pass); those left meet the unit tests that run it
(`mutation_unittests.py`; public functions first, none after `--time-limit`). A Check kills
a mutant when one of its examples fails; one that kills none does not test the code it
names: compare it with an independent reference, or retitle it "Worked out" or "In code".
The report (`mutation-report/index.md`, git-ignored) lists kills per page, block and
docstring. A surviving mutant is a change no example and no test notices: a gap in the evidence.
Kill it with a test, or add it to `mutation-survivors.toml` (a test elsewhere that kills it,
or why no input can: an equivalent mutant).
"""

from __future__ import annotations

import argparse
import doctest
import importlib
import json
import os
import platform
import resource
import signal
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import coverage

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "mlnotes"
#: per example, a child gets this many times its clean time, and at least MIN_TIMEOUT s
TIMEOUT_FACTOR, MIN_TIMEOUT = 20.0, 5.0
#: address space a child may add to the parent's (a mutant that allocates n + 1 values
#: for a huge n fails with MemoryError instead of taking the machine's memory)
CHILD_EXTRA_MEMORY = 3 * 2**30
#: per mutant, the unit tests that run its lines, fastest first, up to this clean time (s)
UNIT_BUDGET = 5.0
#: the unit test pass starts no child after the run has taken this long (minutes)
TIME_LIMIT = 28.0


class ExampleTimeout(BaseException):
    """Raised in a child by SIGALRM when one example runs past its time."""


@dataclass
class Run:
    """What one child saw: the examples of one unit, from `start` on, under one mutant."""

    unit: int
    mutant: str  # MUTANT_UNDER_TEST, "" for the control run without a mutant
    start: int
    failures: dict[int, tuple[str, str]] = field(default_factory=dict)  # example -> (kind, detail)
    finished: bool = False


class _Runner(doctest.DocTestRunner):
    """A doctest runner that runs one example at a time and remembers how it failed."""

    def __init__(self, optionflags: int) -> None:
        super().__init__(verbose=False, optionflags=optionflags)
        self.failure: tuple[str, str] | None = None

    def report_start(self, out, test, example):
        pass

    def report_success(self, out, test, example, got):
        pass

    def report_failure(self, out, test, example, got):
        self.failure = ("fail", f"expected {_short(example.want)}, got {_short(got)}")

    def report_unexpected_exception(self, out, test, example, exc_info):
        kind = "timeout" if exc_info[0] is ExampleTimeout else "error"
        self.failure = (kind, f"{exc_info[0].__name__}: {_short(str(exc_info[1]))}")

    def example(self, test: doctest.DocTest, i: int) -> tuple[str, str] | None:
        """Run example `i` of `test` in `test.globs`; None if it passed."""
        self.failure = None
        one = doctest.DocTest([test.examples[i]], {}, test.name, test.filename, 0, None)
        one.globs = test.globs  # DocTest copies the namespace it is given: share it instead
        self.run(one, out=lambda _: None, clear_globs=False)
        return self.failure


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def optionflags() -> int:
    """The doctest option flags pytest uses here (pyproject.toml's doctest_optionflags)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    names = config["tool"]["pytest"]["ini_options"].get("doctest_optionflags", [])
    flags = 0
    for name in names:
        flags |= doctest.OPTIONFLAGS_BY_NAME[name]
    return flags


def limit_memory() -> None:
    """Let this process's address space grow by at most CHILD_EXTRA_MEMORY."""
    vm = int(next(x for x in open("/proc/self/status") if x.startswith("VmSize")).split()[1])
    resource.setrlimit(resource.RLIMIT_AS, (vm * 1024 + CHILD_EXTRA_MEMORY, -1))


class Children:
    """At most `jobs` forked children at a time, each with a deadline; results via files."""

    def __init__(self, jobs: int, tmp: Path, on_done: Callable[[object, Path, int], None]):
        self.jobs, self.tmp, self.on_done = jobs, tmp, on_done
        self.running: dict[int, tuple[object, Path, float]] = {}
        self.count = 0

    def fork(self, job: object, body: Callable[[Path], None], seconds: float) -> None:
        self.wait(self.jobs - 1)
        self.count += 1
        path = self.tmp / f"{self.count}.txt"
        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 0
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.dup2(devnull, 2)
                limit_memory()
                body(path)
            except BaseException:
                code = 70
            finally:
                os._exit(code)
        self.running[pid] = (job, path, time.monotonic() + seconds)

    def wait(self, most: int = 0) -> None:
        """Reap children until at most `most` are running."""
        while len(self.running) > most:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                now = time.monotonic()
                for other, (_, _, deadline) in self.running.items():
                    if now > deadline:
                        os.kill(other, signal.SIGKILL)
                time.sleep(0.002)
                continue
            if pid in self.running:
                job, path, _ = self.running.pop(pid)
                self.on_done(job, path, status)


def child_body(runner: _Runner, plan: list[tuple[Run, doctest.DocTest, dict | None, list]]):
    """What a child does: for each run of `plan`, in order, run its doctest's examples from
    `run.start` on (in a fresh copy of the namespace given, or in the one it has), its
    mutant active, writing one line per example to the result file."""

    def body(path: Path) -> None:
        from mutmut_adapter import activate

        def alarm(signum, frame):
            raise ExampleTimeout()

        signal.signal(signal.SIGALRM, alarm)
        with open(path, "w", buffering=1) as out:
            for run, test, globs, limits in plan:
                activate(run.mutant)
                if globs is not None:
                    test.globs = dict(globs)
                for i in range(run.start, len(test.examples)):
                    out.write(f"{run.unit} {i} start\n")
                    signal.setitimer(signal.ITIMER_REAL, limits[i])
                    failure = runner.example(test, i)
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    if failure:
                        out.write(f"{run.unit} {i} {failure[0]} {failure[1]}\n")
                out.write(f"{run.unit} end\n")

    return body


def read_child(runs: list[Run], path: Path, status: int) -> None:
    """Fill `runs` from the child's lines; a child that died is blamed on its last example."""
    by_unit = {r.unit: r for r in runs}
    started = None
    try:
        lines = path.read_text().splitlines()
        path.unlink()
    except FileNotFoundError:
        lines = []
    for line in lines:
        u, i, *rest = line.split(" ", 3)
        run = by_unit[int(u)]
        if i == "end":
            run.finished = True
        elif rest[0] == "start":
            started = (run, int(i))
        else:
            run.failures[int(i)] = (rest[0], rest[1] if rest[1:] else "")
    if started and not started[0].finished and started[1] not in started[0].failures:
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
            started[0].failures[started[1]] = ("timeout", "killed at the child's deadline")
        else:
            started[0].failures[started[1]] = ("crash", f"child exited with status {status}")


def import_mutated(mutants_dir: Path) -> list:
    """Import every module of the mutated copy (first on sys.path) and check it is that copy."""
    sys.path.insert(0, str(mutants_dir))
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    modules = []
    for path in sorted((mutants_dir / PACKAGE).glob("*.py")):
        name = PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"
        module = importlib.import_module(name)
        if not Path(module.__file__).resolve().is_relative_to(mutants_dir.resolve()):
            raise RuntimeError(f"{name} was imported from {module.__file__}, not {mutants_dir}")
        modules.append(module)
    return modules


def collect_units(root: Path, modules: list, pages: list[Path]):
    """The docstring doctests of `mlnotes`, then the page doctests (pytest's order)."""
    from mutation_evidence import docstring_units, page_unit

    units = []
    for module in modules:
        rel = Path(module.__name__.replace(".", "/") + ".py")
        if rel.name == f"{PACKAGE}.py":
            rel = Path(PACKAGE) / "__init__.py"
        found = docstring_units(root, root / rel, module.__name__, module.__dict__)
        units += sorted(found, key=lambda u: u.name)
    for page in pages:
        unit = page_unit(root, page)
        if unit.test.examples or unit.blocks:
            units.append(unit)
    return units


def run_named_tests(root: Path, survivors: Path, selected: list, jobs: int) -> dict:
    """Run each unit test the kept file names as killing a mutant, with that mutant active.

    Returns mutant key -> {"test": node id, "exit": pytest's exit code (1: it failed)}.
    """
    import pytest
    from mutation_report import load_survivors

    _, named, _ = load_survivors(survivors)
    by_fingerprint = {m.fingerprint: m for m in selected}
    todo = [(by_fingerprint[fp], e["test"]) for fp, e in named.items() if fp in by_fingerprint]
    codes: dict[str, int | None] = {}

    def done(key: str, path: Path, status: int) -> None:
        text = path.read_text().strip() if path.exists() else ""
        codes[key] = int(text) if text else None

    def body(key: str, test: str) -> Callable[[Path], None]:
        def child(path: Path) -> None:
            from mutmut_adapter import activate

            os.chdir(root)
            activate(key)
            code = pytest.main([test, "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"])
            path.write_text(str(int(code)))

        return child

    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        children = Children(jobs, Path(tmp), done)
        for m, test in todo:
            children.fork(m.key, body(m.key, test), 600)
        children.wait(0)
    return {m.key: {"test": test, "exit": codes.get(m.key)} for m, test in todo}


def lines_run(data, line_maps: dict, mutants_dir: Path) -> dict[tuple[str, int], set[str]]:
    """(source file, line) -> the coverage contexts that ran it.

    `data` is coverage.py's data of a clean pass, measured in the mutated copy;
    `line_maps` takes its lines back to the source's (the unmutated copy of each function
    is what a clean pass runs).
    """
    ran: dict[tuple[str, int], set[str]] = {}
    for measured in data.measured_files():
        path = str(Path(measured).resolve())
        rel = str(Path(path).relative_to(mutants_dir))
        spans = line_maps.get(path, [])
        for line, contexts in data.contexts_by_lineno(measured).items():
            shift = next((d for a, b, d in spans if a <= line <= b), None)
            if shift is not None:
                ran.setdefault((rel, line + shift), set()).update(c for c in contexts if c)
    return ran


def contexts_reaching(m, ran: dict[tuple[str, int], set[str]]) -> set[str]:
    """The contexts that run one of the lines of mutant `m`'s `reach`."""
    found: set[str] = set()
    for line in range(m.reach[0], m.reach[1] + 1):
        found |= ran.get((m.path, line), set())
    return found


def where_mutants_run(data, line_maps: dict, mutants: list, mutants_dir: Path) -> dict:
    """mutant key -> {unit: first example that runs one of the mutant's `reach` lines}.

    The clean pass of the doctests has one context "unit example" per example.
    """
    ran = lines_run(data, line_maps, mutants_dir)
    result = {}
    for m in mutants:
        first: dict[int, int] = {}
        for context in contexts_reaching(m, ran):
            u, i = map(int, context.split())
            first[u] = min(first.get(u, i), i)
        result[m.key] = first
    return result


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="children at once")
    parser.add_argument(
        "--only",
        default="",
        help="run only the mutants of functions whose dotted name contains one of these "
        "comma-separated texts (mlnotes.cnn,mlnotes.linalg.project)",
    )
    parser.add_argument("--pages", default="docs/**/*.md", help="glob of the pages to run")
    parser.add_argument("--out", type=Path, default=ROOT / "mutation-report")
    parser.add_argument("--mutants", type=Path, default=ROOT / "mutants")
    parser.add_argument(
        "--survivors", type=Path, default=ROOT / "scripts/dev/mutation-survivors.toml"
    )
    parser.add_argument("--root", type=Path, default=ROOT, help="the project (for tests)")
    parser.add_argument(
        "--no-unit-tests",
        dest="unit_tests",
        action="store_false",
        help="skip the last pass (the unit tests against the mutants the doctests leave alive)",
    )
    parser.add_argument(
        "--unit-budget",
        type=float,
        default=UNIT_BUDGET,
        help="per mutant, at most this many seconds (clean time) of the unit tests covering it",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=TIME_LIMIT,
        help="minutes: the unit test pass starts no mutant after the run has taken this long "
        "(public functions' mutants go first; the doctest passes always finish)",
    )
    args = parser.parse_args(argv)
    return run(args)


def run(args) -> int:
    # one thread per process: the children share two cores, and forking is safe
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    sys.path.insert(0, str(Path(__file__).parent))
    import mutmut_adapter as adapter
    from mutation_report import doctest_kills, public_functions, selects, write_report

    started, load_start = time.monotonic(), load_average()
    root = args.root.resolve()
    print(f"generating mutants of {PACKAGE} with mutmut {adapter.MUTMUT_VERSION}", flush=True)
    mutants, line_maps = adapter.generate(root, PACKAGE, args.mutants.resolve(), args.jobs)
    generated = time.monotonic() - started
    print(f"  {len(mutants)} mutants in {generated:.0f} s", flush=True)
    selected = [m for m in mutants if selects(args.only, m.function)]
    modules = import_mutated(args.mutants.resolve())
    pages = sorted(root.glob(args.pages))
    units = collect_units(root, modules, pages)
    flags = optionflags()
    runner = _Runner(flags)

    # pass 1: which examples call which mutated function (mutmut's stats) and run which of
    # its lines (coverage.py, one context per example), and how long each takes clean
    adapter.activate("stats")
    adapter.take_hits()
    hits: list[list[set[str]]] = []
    secs: list[list[float]] = []
    clean_fail: list[dict[int, tuple[str, str]]] = []
    base_globs = [dict(u.test.globs) for u in units]
    cov = coverage.Coverage(
        data_file=None, config_file=False, include=[str(args.mutants.resolve() / PACKAGE / "*")]
    )
    cov.start()
    for u, unit in enumerate(units):
        unit.test.globs = dict(base_globs[u])
        hits.append([])
        secs.append([])
        clean_fail.append({})
        for i in range(len(unit.test.examples)):
            cov.switch_context(f"{u} {i}")
            t0 = time.perf_counter()
            failure = runner.example(unit.test, i)
            secs[u].append(time.perf_counter() - t0)
            hits[u].append(adapter.take_hits())
            if failure:
                clean_fail[u][i] = failure
    cov.stop()
    adapter.activate("")
    runs_at = where_mutants_run(cov.get_data(), line_maps, selected, args.mutants.resolve())
    clean = time.monotonic() - started - generated
    print(f"  clean pass over {len(units)} doctests in {clean:.0f} s", flush=True)
    for u, fails in enumerate(clean_fail):
        for i, (_, detail) in fails.items():
            print(f"  clean failure {units[u].path}:{units[u].lines[i]}: {detail}", flush=True)

    # pass 2, docstrings: one child per mutant runs every docstring that runs its mutated
    # line, each in a fresh namespace as doctest gives it (and one control child)
    runs: list[Run] = []
    limits = [[max(MIN_TIMEOUT, TIMEOUT_FACTOR * t) for t in secs[u]] for u in range(len(units))]
    docstrings = [u for u, unit in enumerate(units) if unit.kind == "docstring"]
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        children = Children(args.jobs, Path(tmp), read_child)
        for key in [""] + [m.key for m in selected]:
            covering = docstrings if not key else sorted(set(docstrings) & set(runs_at[key]))
            if not covering:
                continue
            plan = [(Run(u, key, 0), units[u].test, base_globs[u], limits[u]) for u in covering]
            runs += [r for r, *_ in plan]
            seconds = sum(sum(limits[u]) for u in covering) + 30
            children.fork([r for r, *_ in plan], child_body(runner, plan), seconds)
        children.wait(0)
        print(f"  docstrings ({time.monotonic() - started:.0f} s)", flush=True)

        # pass 2, pages: walk each page again, clean, forking one child per mutant at the
        # first example that runs its mutated line (and one control child at the start)
        for u, unit in enumerate(units):
            n = len(unit.test.examples)
            if unit.kind != "page" or not n:
                continue
            starts: dict[int, list] = {}
            for m in selected:
                if u in runs_at[m.key]:
                    starts.setdefault(runs_at[m.key][u], []).append(m)
            unit.test.globs = dict(base_globs[u])
            for i in range(n):
                keys = ([""] if i == 0 else []) + [m.key for m in starts.get(i, [])]
                for key in keys:
                    run = Run(u, key, i)
                    runs.append(run)
                    body = child_body(runner, [(run, unit.test, None, limits[u])])
                    children.fork([run], body, sum(limits[u][i:]) + 30)
                children.wait(args.jobs - 1)
                runner.example(unit.test, i)
            print(
                f"  {unit.name}: {sum(len(v) for v in starts.values())} mutants "
                f"({time.monotonic() - started:.0f} s)",
                flush=True,
            )
        children.wait(0)

    doctest_children = children.count
    units_data = [
        {
            "name": unit.name,
            "path": unit.path,
            "kind": unit.kind,
            "public": unit.public,
            "lines": unit.lines,
            "hits": [sorted(h) for h in hits[u]],
            "seconds": [round(s, 4) for s in secs[u]],
            "clean_failures": {str(i): f for i, f in clean_fail[u].items()},
            "blocks": [asdict(b) for b in unit.blocks],
            "block_of": unit.block_of,
        }
        for u, unit in enumerate(units)
    ]
    runs_data = [
        {
            "unit": r.unit,
            "mutant": r.mutant,
            "start": r.start,
            "finished": r.finished,
            "failures": {str(i): f for i, f in r.failures.items()},
        }
        for r in runs
    ]

    # pass 3: the unit tests against the mutants no doctest kills (coverage-selected)
    unit_kills, _ = doctest_kills(units_data, runs_data)
    killed = {k for kills in unit_kills for k in kills}
    public = public_functions(root)
    alive = sorted(
        (m for m in selected if m.key not in killed), key=lambda m: m.function not in public
    )
    unit_pass: dict = {}
    tests_started = time.monotonic()
    if args.unit_tests and alive:
        import mutation_unittests

        files = mutation_unittests.test_files(root, PACKAGE)
        print(f"  unit tests against {len(alive)} mutants: {' '.join(files)}", flush=True)
        unit_pass = mutation_unittests.run(
            root,
            files,
            alive,
            contexts_reaching,
            lambda data: lines_run(data, line_maps, args.mutants.resolve()),
            str(args.mutants.resolve() / PACKAGE / "*"),
            args.jobs,
            Children,
            budget=args.unit_budget,
            factor=TIMEOUT_FACTOR,
            minimum=MIN_TIMEOUT,
            deadline=started + 60 * args.time_limit,
        )
        for error in unit_pass.get("collection_errors", []):
            print(f"  collection error {error}", flush=True)
        for t, why in unit_pass.get("clean_failures", {}).items():
            print(f"  clean failure {unit_pass['tests'][int(t)]}: {why}", flush=True)
        by_tests = sum(1 for r in unit_pass["mutants"].values() if r["killed_by"])
        if unit_pass.get("not_started"):
            print(
                f"  time limit ({args.time_limit:g} min): {unit_pass['not_started']} mutants "
                "not run against the unit tests",
                flush=True,
            )
        print(
            f"  unit tests: {len(unit_pass['tests'])} tests, {by_tests} of {len(alive)} mutants "
            f"killed ({time.monotonic() - started:.0f} s)",
            flush=True,
        )
    unit_seconds = time.monotonic() - tests_started
    still = [m for m in alive if not unit_pass.get("mutants", {}).get(m.key, {}).get("killed_by")]
    unit_tests = run_named_tests(root, args.survivors, still, args.jobs)

    wall = time.monotonic() - started
    meta = {
        "wall_seconds": round(wall, 1),
        "generate_seconds": round(generated, 1),
        "clean_seconds": round(clean, 1),
        "unit_test_seconds": round(unit_seconds, 1),
        "unit_budget": args.unit_budget,
        "time_limit_minutes": args.time_limit,
        "jobs": args.jobs,
        "cpus": os.cpu_count(),
        "load_average_start": load_start,
        "load_average_end": load_average(),
        "mutmut": adapter.MUTMUT_VERSION,
        "python": platform.python_version(),
        "only": args.only,
        "pages": args.pages,
        "children": doctest_children + unit_pass.get("children", 0),
    }
    data = {
        "meta": meta,
        "mutants": [asdict(m) for m in mutants],
        "selected": [m.key for m in selected],
        "units": units_data,
        "unit_pass": unit_pass,
        "unit_tests": unit_tests,
        "runs": runs_data,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(data, indent=1, ensure_ascii=False))
    summary = write_report(data, args.out, args.survivors, root)
    print(summary, flush=True)
    print(f"wall time {wall:.0f} s; report in {args.out}/index.md and index.html", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
