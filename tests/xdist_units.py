"""How `make test` shares the tests out over pytest-xdist's workers (`--dist loadgroup`).

Each test belongs to a unit that one worker runs, in order:

- the browser tests, in two units of one Chromium each: those that read the desktop
  snapshots (and navigate on a desktop), and the others (the phone snapshots, phone
  navigation, the tiny project's explorable figure); each set of snapshots is taken once;
- the other slow tests (the whole site's among them), one unit per file: a file's module
  fixtures are built once (the site and offline builds are shared by a file lock, and so
  is every build of the project in its own folder: conftest.py);
- every other test on its own.

The controller hands out the desktop browser unit first, whose worker builds the site
(`_build_once`, 8 to 45 s); then, to the other worker, the slow unit with the most tests
among those that need no site build, so that it does not wait for that build; then the
other browser unit; then the other units by size (most tests first); then the tests on
their own. Each worker takes the next unit when it is almost done (xdist's loadscope
rule: at most two tests left).

Why not xdist's own loadgroup: with pytest 9.2 it no longer groups at all (it renames
`item._nodeid`, which pytest no longer reads: pytest-xdist issue 1386), so the workers
write each test's unit to a file and the scheduler below reads it. This module is the one
place that uses xdist's scheduler internals (`LoadScopeScheduling`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling

BROWSER_DESKTOP = "browser-desktop"
BROWSER = "browser"


def unit_of(item) -> str | None:
    """The unit of a collected test (marked `slow` where it needs the whole site): a name
    shared with other tests, or None (on its own)."""
    if item.get_closest_marker("browser"):
        fixtures = set(getattr(item, "fixturenames", ()))
        desktop = "desktop" in fixtures or item.path.name == "test_navigation.py"
        return BROWSER_DESKTOP if desktop else BROWSER
    if item.get_closest_marker("slow"):
        return f"slow:{item.path.name}"
    return None


def record(path: str, units: dict[str, str], site_free: set[str]) -> None:
    """A worker writes {node id: unit} for the controller, and the units none of whose tests
    needs the site built (each worker the same table)."""
    tmp = Path(f"{path}.{os.getpid()}")
    tmp.write_text(json.dumps({"units": units, "site_free": sorted(site_free)}), encoding="utf-8")
    tmp.replace(path)


def order(queue: list[tuple[str, dict]], site_free: set[str]) -> list[tuple[str, dict]]:
    """The work queue's (scope, tests) in the order they are handed out: the desktop browser
    unit, the site-free unit with the most tests, the other browser unit, the other units
    by size, then the tests on their own (quick ones, which fill in at the end: a slow test
    of a file of its own, test_serve.py's 90 s, handed out last left one worker alone)."""
    by_size = sorted(queue, key=lambda entry: (not entry[0].startswith("unit:"), -len(entry[1])))

    def named(*names: str) -> list[tuple[str, dict]]:
        return [e for e in by_size if e[0].removeprefix("unit:") in names]

    free = [
        e for e in named(*site_free) if e[0] not in {f"unit:{BROWSER_DESKTOP}", f"unit:{BROWSER}"}
    ]
    first = [*named(BROWSER_DESKTOP), *free[:1], *named(BROWSER)]
    return first + [e for e in by_size if e not in first]


class UnitScheduling(LoadScopeScheduling):
    """loadscope's scheduling, with scopes read from the workers' table (`record`)."""

    def __init__(self, config, log, path: str) -> None:
        super().__init__(config, log)
        self._path = path
        self._units: dict[str, str] | None = None
        self._site_free: set[str] = set()
        self._ordered = False

    def _split_scope(self, nodeid: str) -> str:
        if self._units is None:
            table = json.loads(Path(self._path).read_text(encoding="utf-8"))
            self._units, self._site_free = table["units"], set(table["site_free"])
        # an xdist that groups again appends "@group" to the id: the table has it without
        at, bracket = nodeid.rfind("@"), nodeid.rfind("]")
        key = nodeid[:at] if at > bracket else nodeid
        unit = self._units.get(key)
        return f"unit:{unit}" if unit else nodeid

    def _assign_work_unit(self, node) -> None:
        if not self._ordered:
            self._ordered = True
            queue = order(list(self.workqueue.items()), self._site_free)
            self.workqueue.clear()
            self.workqueue.update(queue)
        super()._assign_work_unit(node)
