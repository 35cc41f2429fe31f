"""The network guard: no page of the site may fetch anything from beyond localhost.

Every context that the `browser` fixture opens routes the requests that leave localhost
(and only those: the others are not intercepted) to `Guard`, which refuses each one and
records it, in the list of its owner (a reader's tab, a snapshot's visit) or else in its
own, which tests/browser/fixtures.py checks after every browser test.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}
# data: and blob: URLs, about:blank and the offline copy's file:// pages never leave the
# machine
LOCAL_SCHEMES = ("data:", "blob:", "about:", "file:")

# Every URL that is not local, matched by Chromium itself (a regular expression is sent to
# the browser; a local request is then never stopped on its way): `is_local`, written as
# a pattern, and tested against it in tests/browser/test_guard.py.
LEAVING = re.compile(
    r"^(?!(?:data|blob|about|file):|(?:https?|wss?)://(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?(?:[/?#]|$))",
    re.IGNORECASE,
)


def is_local(url: str) -> bool:
    """Whether a request for `url` stays on this machine."""
    if url.lower().startswith(LOCAL_SCHEMES):
        return True
    parsed = urlparse(url)
    return (
        parsed.scheme.lower() in {"http", "https", "ws", "wss"}
        and (parsed.hostname or "") in LOCAL_HOSTS
    )


class Guard:
    """Refuses every request that leaves localhost and records it."""

    def __init__(self):
        self.refused: list[str] = []

    def install(self, context, sink: list[str] | None = None):
        """Guard `context`; record what it refuses in `sink` (its owner checks it) or in
        `self.refused`."""
        record = self.refused if sink is None else sink

        def refuse(route):
            url = route.request.url
            if is_local(url):  # the pattern and is_local disagree: let it through
                route.fallback()
                return
            record.append(f"request leaves localhost: {url}")
            route.abort()

        context.route(LEAVING, refuse)
        return context


class GuardedBrowser:
    """The session's Chromium, whose every new context and page is guarded."""

    def __init__(self, browser, guard: Guard):
        self._browser = browser
        self.guard = guard

    def new_context(self, sink: list[str] | None = None, **options):
        return self.guard.install(self._browser.new_context(**options), sink)

    def new_page(self, sink: list[str] | None = None, **options):
        """A page in a context of its own (closing the page closes it), guarded."""
        page = self._browser.new_page(**options)
        self.guard.install(page.context, sink)
        return page

    def __getattr__(self, name):
        return getattr(self._browser, name)
