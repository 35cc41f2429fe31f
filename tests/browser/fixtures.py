"""The browser layer's fixtures (tests/conftest.py imports them, for every test file).

`browser`: the session's Chromium, every context guarded (guard.py). A request that
leaves localhost from a context with no owner to report it fails the test that made it,
at its teardown. `reader`: a tab of its own for a test that navigates. `desktop`,
`phone`: the session's snapshots (snapshots.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mlnotes_site.chromium import CHROMIUM, CHROMIUM_ARGS

from .guard import Guard, GuardedBrowser
from .snapshots import desktop_snapshots, phone_snapshots
from .tab import Reader


@pytest.fixture(scope="session")
def guard() -> Guard:
    return Guard()


@pytest.fixture(scope="session")
def browser(guard):
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} not found: the browser tests need Debian's Chromium "
            "(apt-get install -y chromium; .ci/run does it)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield GuardedBrowser(chromium, guard)
        chromium.close()


@pytest.fixture(autouse=True)
def _nothing_leaves_localhost(request):
    """Fail a browser test whose pages asked for anything beyond localhost."""
    if "browser" not in request.fixturenames:
        yield
        return
    guard = request.getfixturevalue("guard")
    start = len(guard.refused)
    yield
    left = guard.refused[start:]
    if left:
        pytest.fail("\n".join(left))


@pytest.fixture
def reader(browser, base_url):
    with Reader(browser, base_url) as r:
        yield r


@pytest.fixture(scope="session")
def desktop(browser, base_url):
    """Each page as a desktop (1280 px) shows it, in both palettes: snapshots.py."""
    return desktop_snapshots(browser, base_url)


@pytest.fixture(scope="session")
def phone(browser, base_url):
    """Each page as a phone (360 px, then widened) shows it: snapshots.py."""
    return phone_snapshots(browser, base_url)
