"""The unit tests against the mutants the doctests leave alive: `mutation.py`'s last pass.

pytest collects the unit tests (`UNIT_TESTS`) once, in the tool's own process, where
`mlnotes` is the mutated copy. A clean pass runs every test once, recording its time and,
with coverage.py, the lines it runs (one context per test). Then, per mutant, a forked
child runs the tests that run one of the mutant's lines with the mutant active, and stops
at the first that fails: that test kills it. It runs the fastest of those tests, at most
`budget` seconds of their clean time, in pytest's order; a test that failed in the clean
pass is never run. Tests run through pytest's public hooks (`pytest_runtest_protocol`), Hypothesis
derandomized and without its example database, so a run is repeatable.
"""

from __future__ import annotations

import signal
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

#: the unit tests the pass collects: each module's own (`{module}`: every module of the
#: package), the bad-input properties (every public function's errors) and the pages'
UNIT_TESTS = ("tests/test_{module}.py", "tests/test_bad_input.py", "tests/test_page_*.py")
#: tests never run (they build the site or drive a browser)
MARKERS = "not browser and not slow"


class UnitTestTimeout(BaseException):
    """Raised in a child by SIGALRM when a test runs past its time (pytest reports it)."""


@dataclass
class Collected:
    """The clean pass: each test's node id, time, failure and the contexts it ran."""

    ids: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)  # test index -> why
    errors: list[str] = field(default_factory=list)  # collection errors
    data: object = None  # coverage.py's data, context "t<index>" per test


def _detail(report) -> str:
    """The first error line of a failed report (pytest's `E` lines), shortened."""
    text = getattr(report, "longreprtext", "") or ""
    errors = [x[1:].strip() for x in text.splitlines() if x.startswith("E ")]
    lines = [x for x in errors if x] or [x.strip() for x in text.splitlines() if x.strip()][-1:]
    detail = " ".join(lines[0].split()) if lines else ""
    return detail if len(detail) <= 160 else detail[:157] + "..."


class _Plugin:
    """Takes over pytest's run loop: the clean pass, then `after(session, items)`."""

    def __init__(self, include: str, after: Callable[[object, list], None]) -> None:
        self.include, self.after = include, after
        self.collected = Collected()
        self.failures: list[tuple[str, str]] = []  # (when, detail) of the test being run

    def pytest_configure(self, config) -> None:
        from hypothesis import HealthCheck, Phase, settings

        settings.register_profile(
            "mutation",
            parent=settings.default,  # the project's profile (tests/conftest.py loads it)
            derandomize=True,
            database=None,
            deadline=None,
            phases=[Phase.explicit, Phase.generate, Phase.target],  # no shrinking
            print_blob=False,
            suppress_health_check=list(HealthCheck),
        )
        settings.load_profile("mutation")

    def pytest_collectreport(self, report) -> None:
        if report.failed:
            self.collected.errors.append(f"{report.nodeid}: {_detail(report)}")

    def pytest_runtest_logreport(self, report) -> None:
        if report.failed:
            self.failures.append((report.when, _detail(report)))

    def pytest_runtestloop(self, session):
        import coverage

        items = session.items
        cov = coverage.Coverage(data_file=None, config_file=False, include=[self.include])
        cov.start()
        for t, item in enumerate(items):
            cov.switch_context(f"t{t}")
            self.failures = []
            started = time.perf_counter()
            nextitem = items[t + 1] if t + 1 < len(items) else None
            item.ihook.pytest_runtest_protocol(item=item, nextitem=nextitem)
            self.collected.ids.append(item.nodeid)
            self.collected.seconds.append(time.perf_counter() - started)
            if self.failures:
                self.collected.failed[t] = "; ".join(f"{w}: {d}" for w, d in self.failures)
        cov.stop()
        self.collected.data = cov.get_data()
        self.after(session, items)
        return True


def run_tests(items: list, order: list[int], plugin: _Plugin, out, limits: list[float]) -> None:
    """In a child: run the tests `order` (indices into `items`) until one fails, one line
    per test started and one for the failure in `out`."""

    def alarm(signum, frame):
        raise UnitTestTimeout(f"past its {limits[t]:.0f} s")

    signal.signal(signal.SIGALRM, alarm)
    for n, t in enumerate(order):
        out.write(f"start {t}\n")
        plugin.failures = []
        nextitem = items[order[n + 1]] if n + 1 < len(order) else None
        signal.setitimer(signal.ITIMER_REAL, limits[t])
        items[t].ihook.pytest_runtest_protocol(item=items[t], nextitem=nextitem)
        signal.setitimer(signal.ITIMER_REAL, 0)
        if plugin.failures:
            when, detail = plugin.failures[0]
            kind = "timeout" if "UnitTestTimeout" in detail else "fail"
            out.write(f"{kind} {t} {when}: {detail}\n")
            break
    out.write("end\n")


def read_result(path: Path, status: int) -> dict:
    """What a child saw: the tests it started, and the one that killed the mutant."""
    import os

    try:
        lines = path.read_text().splitlines()
        path.unlink()
    except FileNotFoundError:
        lines = []
    started, kill, finished = [], None, False
    for line in lines:
        word, _, rest = line.partition(" ")
        if word == "start":
            started.append(int(rest))
        elif word in ("fail", "timeout"):
            t, _, detail = rest.partition(" ")
            kill = {"test": int(t), "kind": word, "detail": detail}
        elif word == "end":
            finished = True
    if not finished and kill is None and started:
        killed_at_deadline = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        kill = {
            "test": started[-1],
            "kind": "timeout" if killed_at_deadline else "crash",
            "detail": "killed at the child's deadline"
            if killed_at_deadline
            else f"child exited with status {status}",
        }
    return {"ran": len(started), "kill": kill}


def test_files(root: Path, package: str, patterns: tuple[str, ...] = UNIT_TESTS) -> list[str]:
    """The unit test files of `UNIT_TESTS` that exist, project-relative."""
    modules = [p.stem for p in sorted((root / package).glob("*.py"))]
    globs = {p.format(module=name) for p in patterns for name in modules}
    return sorted({str(p.relative_to(root)) for pat in globs for p in root.glob(pat)})


def run(
    root: Path,
    files: list[str],
    mutants: list,
    reach_of: Callable[[object, dict[tuple[str, int], set[str]]], set[str]],
    lines_run: Callable[[object], dict[tuple[str, int], set[str]]],
    include: str,
    jobs: int,
    children_class,
    budget: float,
    factor: float,
    minimum: float,
    deadline: float | None = None,
) -> dict:
    """Run the unit tests against `mutants` (the adapter's, alive after the doctests).

    `lines_run(coverage data)` maps (source file, line) to the contexts that ran it;
    `reach_of(mutant, that map)` gives the contexts that run one of the mutant's lines.
    Returns the tests (node ids, clean seconds, clean failures), and per mutant the tests
    it was run against and the one that killed it, if any. After `deadline`
    (`time.monotonic()`), no child is started: the mutants left, in `mutants`' order, are
    recorded with `"not_started": True`.
    """
    import os

    import pytest
    from mutmut_adapter import activate

    result: dict = {"files": files, "tests": [], "seconds": [], "clean_failures": {},
                    "collection_errors": [], "mutants": {}, "not_started": 0}  # fmt: skip

    def after(session, items):
        c = plugin.collected
        result.update(
            tests=c.ids,
            seconds=[round(s, 4) for s in c.seconds],
            clean_failures={str(t): why for t, why in c.failed.items()},
            collection_errors=c.errors,
        )
        by_line = lines_run(c.data)
        limits = [max(minimum, factor * s) for s in c.seconds]
        plans = {}
        for m in mutants:
            covering = sorted(
                (int(ctx[1:]) for ctx in reach_of(m, by_line) if ctx.startswith("t")),
                key=lambda t: (c.seconds[t], t),
            )
            covering = [t for t in covering if t not in c.failed]
            order, spent = [], 0.0
            for t in covering:
                if order and spent + c.seconds[t] > budget:
                    break
                order.append(t)
                spent += c.seconds[t]
            plans[m.key] = (sorted(order), len(covering))  # chosen fastest first, run in order

        def done(key, path, status):
            seen = read_result(path, status)
            order, covering = plans[key]
            kill = seen["kill"]
            result["mutants"][key] = {
                "covering": covering,
                "planned": len(order),
                "ran": seen["ran"],
                "killed_by": None if kill is None else {**kill, "test": c.ids[kill["test"]]},
            }

        def body(key, order):
            def child(path):
                activate(key)
                with open(path, "w", buffering=1) as out:
                    run_tests(items, order, plugin, out, limits)

            return child

        with tempfile.TemporaryDirectory(prefix="mutation-tests-") as tmp:
            children = children_class(jobs, Path(tmp), done)
            for m in mutants:
                order, covering = plans[m.key]
                if order and deadline is not None and time.monotonic() > deadline:
                    result["mutants"][m.key] = {
                        "covering": covering, "planned": len(order), "ran": 0,
                        "killed_by": None, "not_started": True,
                    }  # fmt: skip
                    result["not_started"] += 1
                    continue
                if not order:
                    result["mutants"][m.key] = {
                        "covering": covering, "planned": 0, "ran": 0, "killed_by": None
                    }  # fmt: skip
                    continue
                seconds = sum(limits[t] for t in order) + 30
                children.fork(m.key, body(m.key, order), seconds)
            children.wait(0)
            result["children"] = children.count

    plugin = _Plugin(include, after)
    old = Path.cwd()
    os.chdir(root)
    try:
        args = [*files, "-o", "addopts=", "-p", "no:cacheprovider", "-p", "no:randomly",
                "-m", MARKERS, "-p", "no:terminal", "--rootdir", str(root)]  # fmt: skip
        activate("")
        code = pytest.main(args, plugins=[plugin])
    finally:
        os.chdir(old)
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED) or not result["tests"]:
        raise RuntimeError(f"the unit test pass did not run: pytest exited with {code!r}")
    return result
