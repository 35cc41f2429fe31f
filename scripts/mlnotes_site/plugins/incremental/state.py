"""What `make serve` keeps between builds, and what one build decides and collects."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PageScan:
    """A page as read before the build: `signature`, the content key of everything its
    HTML depends on (None: its source could not be read, so it is rendered); `navkey`, its
    front matter and title, which every page's navigation shows."""

    signature: str | None
    navkey: tuple[str, str | None] | None


@dataclass(frozen=True)
class AnchorCall:
    """One `register_anchor` call of mkdocs-autorefs' plugin made while a page rendered."""

    identifier: str
    anchor: str | None
    title: str | None
    primary: bool


@dataclass
class PageRecord:
    """What a page's last render left that the builds not rendering it still need."""

    scan: PageScan
    title: str | None  # the title its first heading gave it (MkDocs' `_title_from_render`)
    shown: str | None  # the title the navigation showed (`Page.title`)
    meta: dict[str, Any]
    links: dict[str, dict[str, str]]  # its links to other pages' anchors, by target page
    anchors: set[str] | None  # its own anchors, which those links are checked against
    search: list = field(default_factory=list)  # its entries in the search index


@dataclass
class Build:
    """One build: what `on_files` decided, and what the events collect as pages render."""

    full: bool  # every page is rendered
    scans: dict[str, PageScan]
    global_key: str  # kept once the build succeeds: a failed build is redone in full
    search: dict[str, list] = field(default_factory=dict)  # entries of the pages indexed
    search_mark: int = 0  # how many entries the search plugin had before the page indexed
    anchors: dict[str, list[AnchorCall]] = field(default_factory=dict)  # by page
    rendered: set[str] = field(default_factory=set)  # the pages rendered (src_uri)
    rendered_urls: set[str] = field(default_factory=set)
    order: list[str] = field(default_factory=list)  # every page, in a clean build's order
    dests: set[str] = field(default_factory=set)  # every file the build writes or copies


@dataclass
class ServeState:
    """Everything kept from one build of `mkdocs serve --dirty` to the next."""

    active: bool = False
    pages: dict[str, PageRecord] = field(default_factory=dict)  # by src_uri
    global_key: str | None = None
    dests: set[str] = field(default_factory=set)  # the files the last build wrote
    feeds: dict[str, Any] = field(default_factory=dict)  # the feeds' entry of a page
    inventory: dict[str, list] = field(default_factory=dict)  # mkdocstrings' items, by page URL
    anchors: dict[str, list[AnchorCall]] = field(default_factory=dict)  # autorefs', by page
    build: Build | None = None
