"""Shared fixtures: the strict site build, a localhost server for it, and Chromium.

The site is built once per test session (`mkdocs build --strict` into a temporary
folder) and served on a free localhost port. Browser tests drive Debian's Chromium
(`/usr/bin/chromium`) through Playwright; if it is missing they fail (CI installs it
in `.ci/run`), they are never skipped.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent

# No per-example deadline: on a shared, loaded machine a first example can take
# 0.5 s for reasons unrelated to the code (imports, caches), and a deadline turns
# that into a flaky failure. Speed is measured by `make bench`, never asserted.
settings.register_profile("mlnotes", deadline=None)
settings.load_profile("mlnotes")
sys.path.insert(0, str(ROOT / "scripts"))

from screenshot import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402


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
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONWARNINGS="ignore")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    return BuiltSite(out, result.returncode, result.stdout + result.stderr)


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


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} not found: the browser tests need Debian's Chromium "
            "(apt-get install -y chromium; .ci/run does it)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def scratch_package(tmp_path, monkeypatch) -> Path:
    """A scratch project root whose `mlnotes/` has alpha (imports beta), beta and gamma.

    `build_figures` (whose dependency tracking the figure and notebook caches share)
    is pointed at it.
    """
    import build_figures

    package = tmp_path / "mlnotes"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plotting.py").write_text("STYLE = 1\n")
    (package / "alpha.py").write_text("from . import beta\nA = 1\n")
    (package / "beta.py").write_text("B = 2\n")
    (package / "gamma.py").write_text("G = 3\n")
    monkeypatch.setattr(build_figures, "ROOT", tmp_path)
    monkeypatch.setattr(build_figures, "PACKAGE", package)
    return tmp_path
