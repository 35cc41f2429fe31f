"""Shared fixtures: the strict site build, a localhost server for it, and Chromium.

The site is built once per test session (`mkdocs build --strict` into a temporary
folder), as deployed at SITE_URL (https://example.org/mlnotes/: canonical links, the
sitemap and the feed name it), and served on a free localhost port: so every browser
test also checks that the site works wherever it is served. The offline copy
(`make offline`) is built on demand by the `offline_site` fixture. Browser tests drive
Debian's Chromium (`/usr/bin/chromium`) through Playwright (tests/browser/); if it is
missing they fail (CI installs it in `.ci/run`), they are never skipped.

Hypothesis runs without its per-example deadline: a timed assertion fails on a loaded
machine, not on a wrong result (speed is measured in scripts/dev/bench.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import xdist_units
from hypothesis import settings

# the mlnotes_site package is installed with the project (pyproject.toml)
from mlnotes_site.chromium import serve

# The browser layer's fixtures (the guarded `browser`, `reader`, the `desktop` and `phone`
# snapshots), for every test file: tests/browser/fixtures.py.
from browser.fixtures import (  # noqa: F401
    _nothing_leaves_localhost,
    browser,
    desktop,
    guard,
    phone,
    reader,
)

ROOT = Path(__file__).resolve().parent.parent
# Where the test build says it is deployed: not where the tests serve it.
SITE_URL = "https://example.org/mlnotes/"

settings.register_profile("mlnotes", deadline=None)
settings.load_profile("mlnotes")

# The fixtures that build the whole site (7 s with warm caches, 37 s cold, in the last
# `make bench`; the offline copy is a second build): a test that uses one, directly or
# through another fixture, is `slow` by the marker's own definition (pyproject.toml),
# marked or not, so `pytest -m "not browser and not slow"` never waits for a site build.
WHOLE_SITE_FIXTURES = {"built_site", "site", "base_url", "offline_site"}


# `make test` runs on every core (pytest-xdist, `--dist loadgroup`: the Makefile's FULL).
# The slow tests go in units that one worker runs each (xdist_units.py): the browser tests
# in two (one Chromium each), the other slow tests one unit per file; the quick tier
# spreads over the workers. The whole site is built once per run, by the first worker that
# needs it (`_build_once`); every build of the project in its folder holds `build_lock`.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    units, needs_site = {}, set()
    for item in items:
        whole_site = bool(WHOLE_SITE_FIXTURES & set(getattr(item, "fixturenames", ())))
        if whole_site:
            item.add_marker(pytest.mark.slow)
        unit = xdist_units.unit_of(item)
        if unit:
            units[item.nodeid] = unit
            if whole_site:
                needs_site.add(unit)
    table = getattr(config, "workerinput", {}).get(UNITS)
    if table:
        xdist_units.record(table, units, set(units.values()) - needs_site)


UNITS = "mlnotes_units"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """(xdist's controller) where each worker writes its table of units."""
    node.workerinput[UNITS] = str(_units_table(node.config))


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadgroup":
        return xdist_units.UnitScheduling(config, log, str(_units_table(config)))
    return None


_TABLE = pytest.StashKey[Path]()


def _units_table(config) -> Path:
    if _TABLE not in config.stash:
        fd, name = tempfile.mkstemp(prefix="mlnotes-xdist-units-", suffix=".json")
        os.close(fd)
        config.stash[_TABLE] = Path(name)
    return config.stash[_TABLE]


def pytest_unconfigure(config):
    if _TABLE in config.stash:
        config.stash[_TABLE].unlink(missing_ok=True)


@dataclass
class BuiltSite:
    path: Path
    returncode: int
    log: str

    def pages(self) -> list[str]:
        """Every HTML page of the site, as URL paths (`blog/sinusoidal-embeddings/`)."""
        found = []
        for html in sorted(self.path.rglob("index.html")):
            rel = html.parent.relative_to(self.path).as_posix()
            if rel.startswith(("javascripts", "assets", "search")):
                continue
            found.append("" if rel == "." else rel + "/")
        return found


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> BuiltSite:
    """`mkdocs build --strict` into a temporary folder (figures built by the hook).

    For quick iteration on the browser tests, MLNOTES_PREBUILT_SITE=DIR uses a site
    already built into DIR instead (the strict-build test then checks nothing new).
    """
    prebuilt = os.environ.get("MLNOTES_PREBUILT_SITE")
    if prebuilt:
        return BuiltSite(Path(prebuilt), 0, f"prebuilt site {prebuilt}, not rebuilt")
    return _build_once(tmp_path_factory, "site", SITE_URL=SITE_URL)


def _build_once(tmp_path_factory, name: str, **env) -> BuiltSite:
    """`_build` into `name` once per test run: under pytest-xdist the first worker that
    asks builds it into the run's temporary folder that the workers share; the others
    wait for it and read the same build. One lock for every build of the project, so that
    two never write its caches and figures at once."""
    root = _run_folder(tmp_path_factory)
    record = root / f"{name}.json"
    with build_lock(tmp_path_factory):
        if record.is_file():
            done = json.loads(record.read_text(encoding="utf-8"))
            return BuiltSite(root / name, done["returncode"], done["log"])
        built = _build(root / name, **env)
        record.write_text(
            json.dumps({"returncode": built.returncode, "log": built.log}), encoding="utf-8"
        )
        return built


def _run_folder(tmp_path_factory) -> Path:
    """The run's temporary folder, which every xdist worker shares."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # each worker's basetemp is a folder in the run's
    return root


@contextlib.contextmanager
def build_lock(tmp_path_factory):
    """Held while the project is built in its own folder (its caches and figures), by any
    worker of the run: two such builds never run at once."""
    with open(_run_folder(tmp_path_factory) / "whole-site-builds.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        yield


def _build(out: Path, **env) -> BuiltSite:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONWARNINGS="ignore", **env)
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    return BuiltSite(out, result.returncode, result.stdout + result.stderr)


@pytest.fixture(scope="session")
def offline_site(tmp_path_factory) -> BuiltSite:
    """The copy of `make offline` (the variable the Makefile sets), built."""
    built = _build_once(tmp_path_factory, "offline", OFFLINE="true")
    if built.returncode:
        pytest.fail(f"the offline build failed:\n{built.log[-6000:]}")
    return built


@pytest.fixture(scope="session")
def site(built_site) -> BuiltSite:
    """The built site, failing every dependent test at once if the build failed."""
    if built_site.returncode:
        pytest.fail(f"mkdocs build --strict failed:\n{built_site.log[-6000:]}")
    return built_site


@pytest.fixture(scope="session")
def base_url(site):
    with serve(site.path) as url:
        yield url


@pytest.fixture
def scratch_package(tmp_path) -> Path:
    """A scratch project root whose `mlnotes/` has alpha (imports beta), beta and gamma,
    and a `plotting.py` with two styles (figures drawn there differ by theme)."""
    package = tmp_path / "mlnotes"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plotting.py").write_text(PLOTTING)
    (package / "alpha.py").write_text("from . import beta\nA = 1\n")
    (package / "beta.py").write_text("B = 2\n")
    (package / "gamma.py").write_text("G = 3\n")
    return tmp_path


# a scratch package's styles: the figure builder draws under `mlnotes.plotting.style(theme)`
PLOTTING = """\
import matplotlib as mpl

STYLE = 1
BACKGROUNDS = {"light": "#ffffff", "dark": "#1e2129"}


def style(theme="light"):
    return mpl.rc_context({"axes.facecolor": BACKGROUNDS[theme], "svg.hashsalt": "scratch"})
"""
