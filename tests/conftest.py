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

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
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


def pytest_collection_modifyitems(items):
    for item in items:
        if WHOLE_SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


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
    return _build(tmp_path_factory.mktemp("site"), SITE_URL=SITE_URL)


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
    built = _build(tmp_path_factory.mktemp("offline"), OFFLINE="true")
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
