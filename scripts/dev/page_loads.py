"""Count the pages the browser tests load: `pytest -p page_loads -m browser`.

A pytest plugin (scripts/dev is on pytest's `pythonpath`): every page Playwright opens
(Browser.new_page, and a context's `page` event for Browser.new_context) has its `load`
events counted by test and phase (a snapshot's visit counts for the test that first asks
for its page) and by path; the counts are printed at the end, and written to
PAGE_LOADS_JSON if set.
"""

from __future__ import annotations

import collections
import json
import os
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser

_current = ["(outside a test)"]
_loads: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)


def _watch(page):
    def on_load(p):
        url = p.url
        if url.startswith("about:"):
            return
        parsed = urlparse(url)
        _loads[_current[0]][parsed.path or url] += 1

    page.on("load", on_load)


_new_context, _new_page = Browser.new_context, Browser.new_page


def new_context(self, *args, **kwargs):
    context = _new_context(self, *args, **kwargs)
    context.on("page", _watch)
    return context


def new_page(self, *args, **kwargs):
    page = _new_page(self, *args, **kwargs)
    _watch(page)
    return page


Browser.new_context, Browser.new_page = new_context, new_page


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    _current[0] = item.nodeid + " [setup]"
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    _current[0] = item.nodeid
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item):
    _current[0] = item.nodeid + " [teardown]"
    return (yield)


def pytest_terminal_summary(terminalreporter):
    total = sum(sum(c.values()) for c in _loads.values())
    by_path = collections.Counter()
    for c in _loads.values():
        by_path.update(c)
    tr = terminalreporter
    tr.section(f"page loads: {total}")
    for test, c in sorted(_loads.items(), key=lambda kv: -sum(kv[1].values())):
        tr.write_line(f"{sum(c.values()):4d}  {test}")
    tr.write_line("by path:")
    for path, n in by_path.most_common():
        tr.write_line(f"{n:4d}  {path}")
    out = os.environ.get("PAGE_LOADS_JSON")
    if out:
        with open(out, "w") as f:
            json.dump(
                {"total": total, "tests": {k: dict(v) for k, v in _loads.items()}}, f, indent=1
            )
