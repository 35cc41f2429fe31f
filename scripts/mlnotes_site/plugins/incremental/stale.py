"""The files of pages or assets that are gone, deleted from the served site."""

from __future__ import annotations

import os
from collections.abc import Iterable


def remove(path: str | None) -> None:
    """Delete the file at `path`, if there is one."""
    if path and os.path.isfile(path):
        os.remove(path)


def remove_stale(before: Iterable[str], now: set[str], site_dir: str) -> None:
    """Delete the files the last build wrote that this one does not (`before` - `now`), and
    the folders of the site that this leaves empty."""
    site = os.path.realpath(site_dir)
    for path in sorted(set(before) - now):
        remove(path)
        parent = os.path.dirname(path)
        while os.path.realpath(parent).startswith(site + os.sep) and not os.listdir(parent):
            os.rmdir(parent)
            parent = os.path.dirname(parent)
