"""The `mlnotes-incremental` plugin: incremental rebuilds under `mkdocs serve --dirty` (`make serve`).

With `--dirty`, MkDocs re-renders only the pages whose source is newer than their HTML,
so an edit costs one page instead of the whole site. On its own that is wrong in several
ways; this module keeps the served site equal to a clean build of the same sources:

- What a page depends on besides its source re-renders it: the files it includes with
  `pymdownx.snippets` (`--8<-- "scripts/figures/x.py"`), the `mlnotes` module a `::: mlnotes.x`
  block documents, and the functions whose docstrings name one of its equations
  (`Equation:` sections, scripts/mlnotes_site/plugins/equations.py: its "Computed by" lines). A notebook
  page is the executed copy mlnotes-notebooks hands mkdocs-jupyter (executed again when
  the notebook or `mlnotes` changes), so its bytes are its signature. The page's HTML is
  deleted, so MkDocs rebuilds it.
- Equation numbers: an API page links "equation (N) of <page title>". When a re-rendered
  page's equation numbers change, the pages that document a function computing one of
  its equations are re-rendered in the same build; the numbers of the pages not
  re-rendered are kept for mlnotes-equations.
- What lists pages: a change to the set of pages, to a page's front matter or to its
  first heading (titles and metadata appear in every page's navigation), to
  `mkdocs.yml`, `overrides/` or the build code rebuilds every page. The titles and
  metadata of the pages not re-rendered are restored from the previous build, so the
  navigation of the pages that are re-rendered names them correctly. If a re-rendered page's
  title or metadata changed anyway (a heading the scan cannot see), every other page
  is re-rendered in the same build. A blog post or view re-renders the whole blog.
- The search index: Material's search plugin indexes only the pages it renders; each
  page's entries are kept and the index is written whole, in a clean build's order.
- Cross-references (mkdocs-autorefs): the anchors of pages not re-rendered are kept.
- Links to other pages' anchors (`validation: anchors`): MkDocs checks them after the build,
  against the pages it rendered; the links and anchors of the pages not re-rendered are
  kept, so a link to a missing anchor (a renamed heading) warns on every build until it
  is fixed, as a clean strict build fails on it.
- The blog's feeds (mkdocs-rss-plugin): the plugin lists the pages it sees rendered and
  keeps its lists for the whole `mkdocs serve` process; each build starts them empty and
  gets the entries of the pages not re-rendered, in a clean build's order.
- Files of pages or assets that are gone are deleted from the served site.
- mkdocstrings' `objects.inv`: the objects of the pages not re-rendered are kept.

The plugin does nothing in `mkdocs build` or in `mkdocs serve` without `--dirty`. Its
state lives on the plugin object, which MkDocs keeps for the whole `mkdocs serve` process.
What it reads of the other `mlnotes-*` plugins (mlnotes-equations' equation references and
numbers, the figures that failed) goes through one adapter, `_Peers`, which checks when
the serve starts that they are configured and have what it reads. What it reads or writes
of the private state of MkDocs and of the other plugins (Material's search and blog,
mkdocs-jupyter, mkdocs-rss-plugin, mkdocs-autorefs, mkdocstrings) goes through another,
`_Upstream`, which checks it when the serve starts, against the versions pyproject.toml pins.

Options:

    plugins:
      - mlnotes-incremental:
          # inputs every page depends on besides those derived from the configuration
          # (the theme's custom_dir, this package, mlnotes-citations' bib file), relative
          # to mkdocs.yml (files or folders)
          global_inputs: []
"""

from __future__ import annotations

import copy
import importlib
import inspect
import json
import logging
import os
import re
from importlib import metadata
from pathlib import Path

import jinja2
from mkdocs.commands import build as _build
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import InclusionLevel
from mkdocs.structure.pages import Page

from mlnotes_site.keys import Key

log = logging.getLogger("mkdocs.plugins.incremental")

ROOT = Path(__file__).resolve().parents[3]
SNIPPET = re.compile(r"""^\s*-+8<-+\s+(["']?)([^"'\s]+)\1\s*$""", re.M)
AUTODOC = re.compile(r"^:::\s+([\w.]+)", re.M)
FIGURE_REF = re.compile(r"figures/([\w.-]+?)(?:-dark)?\.svg")
FRONT_MATTER = re.compile(r"\A(---\s*\n.*?\n(?:---|\.\.\.)\s*\n)", re.S)
HEADING = re.compile(r"^#{1,6}\s.*$|^.*\n(?:=+|-+)\s*$", re.M)
# Inputs that every page depends on besides mkdocs.yml and docs/'s dotfiles are derived
# from the configuration (`_derived_inputs`): the theme's `custom_dir` (the overrides), the
# build code (this package, when it lies in the project: an edit of it also needs a
# restart, which mlnotes-problems says), and mlnotes-citations' `bib_file` (every page's
# citations and References list are formatted from it). The `global_inputs` option adds
# more (relative to the config file's folder); none by default.
GLOBAL_INPUTS: tuple[str, ...] = ()


def _derived_inputs(root: Path, config) -> list[str]:
    """What every page reads, as the configuration says: the theme's custom_dir, the build
    code, mlnotes-citations' bib file (paths relative to `root`, those inside it)."""
    found = []
    custom_dir = config.theme.custom_dir if config.theme else None
    candidates = [Path(custom_dir)] if custom_dir else []
    candidates.append(Path(__file__).resolve().parent.parent)
    citations = config.plugins.get("mlnotes-citations")
    if citations is not None:
        candidates.append(Path(config.docs_dir) / citations.config.bib_file)
    for path in candidates:
        path = path if path.is_absolute() else root / path
        if path.resolve().is_relative_to(root.resolve()):
            found.append(path.resolve().relative_to(root.resolve()).as_posix())
    return found


class _MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled theme templates, kept across rebuilds (each rebuild makes a new Jinja
    environment, and compiling Material's templates again costs more than a page).
    Jinja checks each entry against its template's source, so an edited template is
    compiled again."""

    def __init__(self):
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        code = self.store.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket):
        self.store[bucket.key] = bucket.bytecode_to_string()


class _DirtyWarning(logging.Filter):
    """MkDocs warns on every --dirty build that navigation may be wrong: here it is not."""

    def filter(self, record):
        return not record.getMessage().startswith("A 'dirty' build is being performed")


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b"<missing>"


def _global_key(root: Path, config, inputs=GLOBAL_INPUTS) -> str:
    """The content key (keys.py) of what every page reads: mkdocs.yml, the global inputs
    and the dotfiles under docs/."""
    key = Key("site inputs")
    if config.config_file_path:
        key.add("config", _read(Path(config.config_file_path)))
    for name in inputs:
        base = root / name
        for path in sorted(base.rglob("*")) if base.is_dir() else [base]:
            if path.is_file() and "__pycache__" not in path.parts:
                key.file(path, root, missing_ok=True)
    # dotfiles are not site files but pages show them: the blog's authors (.authors.yml),
    # Material's meta plugin's defaults for a folder (.meta.yml: the search boost), any other
    docs = Path(config.docs_dir)
    for path in sorted(docs.rglob(".*")):
        if path.is_file():
            key.file(path, docs, missing_ok=True)
    return key.hexdigest()


def _module_file(root: Path, identifier: str) -> list[Path]:
    """The source file of the module that `identifier` names, and its packages' `__init__`."""
    parts = identifier.split(".")
    for n in range(len(parts), 0, -1):
        base = root.joinpath(*parts[:n])
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                inits = [root.joinpath(*parts[:i], "__init__.py") for i in range(1, n)]
                return [candidate, *(p for p in inits if p.is_file())]
    return []


def _dependencies(root: Path, file, text: str) -> list[Path]:
    deps: list[Path] = []
    for _, name in SNIPPET.findall(text):
        name = re.sub(r"(:-?\d*)+$", "", name)
        deps.append(root / name)
    for identifier in AUTODOC.findall(text):
        deps += _module_file(root, identifier)
    return deps


def _notebook_heading(text: str) -> str:
    """The first `# ` line of a notebook's Markdown cells (its title), from its JSON."""
    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):
        return ""
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            source = "".join(source) if isinstance(source, list) else source
            heading = re.search(r"^#\s.*$", source, re.M)
            if heading:
                return heading.group(0)
    return ""


def _scan(root: Path, file, computed_by: list, failed: dict | None = None) -> dict:
    """The page's signature (source + what it includes + the functions that compute its
    equations + which of its figures failed to draw, so that the page shows the failure
    and, once fixed, the figure), its navigation key and the identifiers its `:::`
    blocks document."""
    try:
        raw = file.content_bytes
    except (OSError, TypeError, ValueError):
        return {"sig": None, "navkey": None, "autodoc": []}
    text = raw.decode("utf-8", errors="replace")
    sig = Key("page").add("source", raw).add("computed by", repr(computed_by))
    for dep in _dependencies(root, file, text):
        # a snippet's path, relative to the project (`..` if it lies outside)
        sig.add(f"includes {os.path.relpath(dep, root)}", _read(dep))
    for name in sorted(set(FIGURE_REF.findall(text)) & set(failed or {})):
        sig.add(f"figure {name} failed", str(failed[name]))
    if file.src_uri.endswith(".md"):
        front = FRONT_MATTER.match(text)
        body = text[front.end() :] if front else text
        heading = HEADING.search(body)
        navkey = (
            (front.group(1) if front else ""),
            heading.group(0) if heading else "",
        )
    else:  # a notebook: the executed .ipynb (mlnotes-notebooks), or the jupytext source
        heading = _notebook_heading(text) if text.lstrip().startswith("{") else ""
        navkey = ("", heading)
    return {"sig": sig.hexdigest(), "navkey": navkey, "autodoc": AUTODOC.findall(text)}


def _pages(files):
    """Every Markdown page, whatever its inclusion (the blog plugin excludes posts until on_nav)."""
    return [f for f in files if f.is_documentation_page()]


def _served(files):
    """The pages the build renders, in its order (`mkdocs serve` renders drafts too)."""
    return files.documentation_pages(inclusion=InclusionLevel.is_in_serve)


def _remove(path: str | None) -> None:
    if path and os.path.isfile(path):
        os.remove(path)


# The versions of the packages whose private state `_Upstream` reaches into, as pyproject.toml
# pins them (tests/test_incremental_upstream.py checks that the two agree): what it was written against.
PINS = {
    "mkdocs": "1.6.1",
    "mkdocs-material": "9.8.1",
    "mkdocs-jupyter": "0.26.3",
    "mkdocs-rss-plugin": "1.19.0",
    "mkdocs-autorefs": "1.4.5",
    "mkdocstrings": "1.0.8",
}


def _installed(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def _named(cls, name: str) -> bool:
    """Does a function of `cls` (or of its bases) name the attribute `name`? (Where an
    attribute is first assigned in an event, `self.name = ...`, it exists only once that
    event has run: this is how its existence is checked before.)"""
    for klass in getattr(cls, "__mro__", ()):
        for value in vars(klass).values():
            code = getattr(getattr(value, "__func__", value), "__code__", None)
            if code is not None and name in code.co_names:
                return True
    return False


class _Upstream:
    """What mlnotes-incremental reads or writes of other packages' private state, in one place:
    MkDocs' own build (`_build._populate_page`, a page's `_title_from_render`, its anchors and
    links to other pages' anchors), Material's search and blog plugins, mkdocs-jupyter,
    mkdocs-rss-plugin, mkdocs-autorefs and mkdocstrings (its objects inventory). The rest
    of the module calls only these methods.

    Built in on_config of a `mkdocs serve --dirty`: each attribute or function it uses is
    checked there, with the kind it must have, on MkDocs and on each of these plugins that
    is configured (one that is not is not read). An upgrade that renamed one stops the
    serve at once with a PluginError naming the plugin, the attribute and the version this
    was written against (`PINS`, as pyproject.toml pins it), instead of a served site that
    silently differs from a clean build.
    """

    def __init__(self, config):
        plugins = config.plugins
        self.search = plugins.get("material/search") or plugins.get("search")
        self.blog = plugins.get("material/blog") or plugins.get("blog")
        self.rss = plugins.get("rss")
        self.plugins = plugins
        self.checked_autorefs = None
        self.mkdocstrings = plugins.get("mkdocstrings")
        self.jupyter = plugins.get("mkdocs-jupyter")
        self._check_mkdocs()
        if self.search is not None:
            self._need("search", "mkdocs-material", self.search, "search_index", object)
            self._need("search", "mkdocs-material", self.search, "search_index_prev", object)
            index = getattr(self.search, "search_index", None) or self._class(
                "search", "mkdocs-material", type(self.search).__module__, "SearchIndex"
            )  # made in the search plugin's on_config
            self._need("search", "mkdocs-material", index, "search_index.entries", list)
        if self.blog is not None:
            self._need("blog", "mkdocs-material", self.blog.config, "config.blog_dir", str)
        if self.rss is not None:
            models = "mkdocs_rss_plugin.models"
            self._need("rss", "mkdocs-rss-plugin", self.rss, "pages_to_filter", list)
            for feed in ("feed_created", "feed_updated"):
                self._need("rss", "mkdocs-rss-plugin", self.rss, feed, object)
                owner = getattr(self.rss, feed, None) or self._class(
                    "rss", "mkdocs-rss-plugin", models, "RssFeedBase"
                )  # made in the feed plugin's on_startup
                self._need("rss", "mkdocs-rss-plugin", owner, f"{feed}.entries", list)
            page_information = self._class("rss", "mkdocs-rss-plugin", models, "PageInformation")
            fields = getattr(page_information, "__dataclass_fields__", {})
            if "abs_path" not in fields:
                self._fail("rss", "mkdocs-rss-plugin", "PageInformation.abs_path", "a field")
        self.autorefs()
        if self.mkdocstrings is not None:
            self._need("mkdocstrings", "mkdocstrings", self.mkdocstrings, "_handlers", object)
            handlers = self.mkdocstrings._handlers or self._class(
                "mkdocstrings", "mkdocstrings", "mkdocstrings", "Handlers"
            )  # made in mkdocstrings' on_config
            self._need("mkdocstrings", "mkdocstrings", handlers, "_handlers.inventory", dict)
            item = self._class("mkdocstrings", "mkdocstrings", "mkdocstrings", "InventoryItem")
            for name in ("name", "uri"):
                self._need("mkdocstrings", "mkdocstrings", item, f"InventoryItem.{name}", str)
        if self.jupyter is not None:
            self._need("mkdocs-jupyter", "mkdocs-jupyter", self.jupyter, "_used_cache_paths", set)
            for option in ("cache", "cache_dir"):
                if option not in self.jupyter.config:
                    self._fail("mkdocs-jupyter", "mkdocs-jupyter", f"config.{option}", "an option")

    @staticmethod
    def _fail(plugin: str, dist: str, attribute: str, kind: str):
        raise PluginError(
            f"mlnotes-incremental uses {plugin}'s `{attribute}` ({kind}), which "
            f"{dist} {_installed(dist)} does not have: it was written against "
            f"{dist}=={PINS[dist]} (pyproject.toml pins it); install that version, or update "
            "scripts/mlnotes_site/plugins/incremental.py (_Upstream)"
        )

    @classmethod
    def _class(cls, plugin: str, dist: str, module: str, name: str) -> type:
        """The class `name` of `module` (which the plugin makes the object of later)."""
        try:
            value = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            value = None
        if not isinstance(value, type):
            cls._fail(plugin, dist, f"{module}.{name}", "a class")
        return value

    @classmethod
    def _need(cls, plugin: str, dist: str, owner, path: str, kind) -> None:
        """`owner` has the attribute (the last name of `path`) with the kind `kind` (a type,
        or "callable"); a class, or an object without it yet, must assign it in a method."""
        name = path.rsplit(".", 1)[-1]
        label = (
            "a function"
            if kind == "callable"
            else "an attribute"
            if kind is object
            else f"a {kind.__name__}"
        )
        if isinstance(owner, type) or not hasattr(owner, name):
            cls_ = owner if isinstance(owner, type) else type(owner)
            value = getattr(cls_, name, None)
            if value is not None and kind != "callable" and not isinstance(value, kind):
                cls._fail(plugin, dist, path, label)
            if value is None and not _named(cls_, name):
                cls._fail(plugin, dist, path, label)
            return
        value = getattr(owner, name)
        ok = callable(value) if kind == "callable" else isinstance(value, kind)
        if not ok and not (kind is not object and value is None and _named(type(owner), name)):
            cls._fail(plugin, dist, path, label)

    def _check_mkdocs(self) -> None:
        populate = getattr(_build, "_populate_page", None)
        if not callable(populate) or not {"page", "config", "files", "dirty"} <= set(
            inspect.signature(populate).parameters
        ):
            self._fail("MkDocs", "mkdocs", "mkdocs.commands.build._populate_page", "a function")
        self._need("MkDocs", "mkdocs", Page, "Page._title_from_render", str)
        for name in ("links_to_anchors", "present_anchor_ids"):
            # read after the build by Page.validate_anchor_links
            if not hasattr(Page, name) or not _named(Page, name):
                self._fail("MkDocs", "mkdocs", f"Page.{name}", "an attribute")
        if not callable(getattr(Page, "validate_anchor_links", None)):
            self._fail("MkDocs", "mkdocs", "Page.validate_anchor_links", "a function")

    # MkDocs
    @staticmethod
    def render(page: Page, config, files) -> None:
        """Read and render a page that MkDocs' --dirty build skipped."""
        _build._populate_page(page, config, files, dirty=True)

    @staticmethod
    def rendered_title(page: Page):
        """The title the page's first heading gave it at its render (None if none)."""
        return page._title_from_render

    @staticmethod
    def set_rendered_title(page: Page, title) -> None:
        page._title_from_render = title

    @staticmethod
    def anchor_links(page: Page) -> dict:
        """`{target src_uri: {anchor: link}}`: the page's links to other pages' anchors."""
        return {
            target.src_uri: dict(links) for target, links in (page.links_to_anchors or {}).items()
        }

    @staticmethod
    def set_anchor_links(page: Page, links: dict, files) -> None:
        found = {}
        for target_uri, anchors in links.items():
            target = files.get_file_from_path(target_uri)
            if target is not None:
                found[target] = dict(anchors)
        page.links_to_anchors = found

    @staticmethod
    def anchors(page: Page) -> set | None:
        """The anchors the page has (that other pages may link to), None if it was not rendered."""
        return None if page.present_anchor_ids is None else set(page.present_anchor_ids)

    @staticmethod
    def set_anchors(page: Page, anchors: set | None) -> None:
        page.present_anchor_ids = None if anchors is None else set(anchors)

    # Material's blog plugin
    def blog_dir(self) -> str | None:
        """The blog's folder under docs/ (with a trailing /), None without the blog."""
        return (self.blog.config.blog_dir.strip("/") + "/") if self.blog is not None else None

    # Material's search plugin
    def search_entries(self) -> list | None:
        """The search index's entries so far in this build (None without search)."""
        return self.search.search_index.entries if self.search is not None else None

    def set_search_entries(self, entries: list) -> None:
        """The index written after the build: `entries`, whole (not merged with the last one)."""
        if self.search is not None:
            self.search.search_index.entries = entries
            self.search.search_index_prev = None

    # mkdocs-rss-plugin
    def reset_feeds(self) -> None:
        """Empty the feed plugin's lists of pages and entries (kept for the whole serve)."""
        if self.rss is not None:
            self.rss.pages_to_filter = []
            self.rss.feed_created.entries = []
            self.rss.feed_updated.entries = []

    def feed_pages(self) -> list | None:
        """The feed's page entries of this build, each with its source's `abs_path` (None without feeds)."""
        return list(self.rss.pages_to_filter) if self.rss is not None else None

    def set_feed_pages(self, entries: list) -> None:
        if self.rss is not None:
            self.rss.pages_to_filter = entries

    # mkdocs-autorefs
    AUTOREFS_MAPS = ("_primary_url_map", "_secondary_url_map", "_title_map")

    def autorefs(self):
        """The autorefs plugin, checked (mkdocstrings adds one in its on_config if none is
        configured, which may come after this adapter is made: it is looked up when used)."""
        plugin = self.plugins.get("autorefs")
        if plugin is not None and plugin is not self.checked_autorefs:
            for name in self.AUTOREFS_MAPS:
                self._need("autorefs", "mkdocs-autorefs", plugin, name, dict)
            self.checked_autorefs = plugin
        return plugin

    def autorefs_maps(self) -> dict | None:
        """A copy of autorefs' maps of identifiers and titles to URLs (None without autorefs)."""
        plugin = self.autorefs()
        if plugin is None:
            return None
        return {name: copy.deepcopy(getattr(plugin, name)) for name in self.AUTOREFS_MAPS}

    def add_autorefs(self, saved: dict, keep) -> None:
        """Add to autorefs' maps the URLs of `saved` for which `keep(url)`."""
        plugin = self.autorefs()
        if plugin is None:
            return
        for name in ("_primary_url_map", "_secondary_url_map"):
            current = getattr(plugin, name)
            for identifier, urls in saved[name].items():
                for url in urls:
                    if keep(url):
                        current.setdefault(identifier, [])
                        if url not in current[identifier]:
                            current[identifier].append(url)
        for url, title in saved["_title_map"].items():
            if keep(url):
                plugin._title_map.setdefault(url, title)

    # mkdocstrings
    def inventory(self) -> dict | None:
        """mkdocstrings' objects inventory of this build, `{name: item}` (None without it)."""
        plugin = self.mkdocstrings
        handlers = getattr(plugin, "_handlers", None) if plugin is not None else None
        return handlers.inventory if handlers is not None else None

    # mkdocs-jupyter
    def keep_notebook_cache(self) -> None:
        """mkdocs-jupyter evicts the cached execution of every notebook it did not render in
        this build: under --dirty, that is every notebook not edited. Keep the cache whole
        while serving (a clean build evicts what is stale)."""
        plugin = self.jupyter
        if plugin is None or not plugin.config.get("cache"):
            return
        plugin._used_cache_paths |= set(Path(plugin.config["cache_dir"]).glob("*.json"))


class _Peers:
    """What mlnotes-incremental reads of the other mlnotes plugins, in one place.

    Built in on_config of a `mkdocs serve --dirty`: a missing plugin, or one without what
    is read here, stops the serve at once with a message, instead of a served site that
    silently differs from a clean build.
    """

    # plugin -> what is read of it: the equation references and numbers by
    # page, the figures that failed to draw (kept by mlnotes-problems)
    NEEDS = {
        "mlnotes-equations": ("computed_by", "citing_renumbered"),
        "mlnotes-problems": ("failed_figures",),
    }

    def __init__(self, config):
        self.plugins = {}
        for name, attributes in self.NEEDS.items():
            plugin = config.plugins.get(name)
            missing = [a for a in attributes if plugin is not None and not hasattr(plugin, a)]
            if plugin is None or missing:
                what = f"has no {', '.join(missing)}" if plugin else "is not configured"
                raise PluginError(
                    f"mlnotes-incremental reads {name} ({', '.join(attributes)}), which {what}: "
                    f"list {name} under `plugins:` in mkdocs.yml (README: Layout)"
                )
            self.plugins[name] = plugin

    def computed_by(self, src_uri: str) -> list[tuple[str, str]]:
        """The functions that compute the page's equations, `(label, function)` (mlnotes-equations)."""
        return self.plugins["mlnotes-equations"].computed_by(src_uri)

    def citing_renumbered(self) -> set[str]:
        """The pages that link to an equation this build renumbered (mlnotes-equations)."""
        return self.plugins["mlnotes-equations"].citing_renumbered()

    def failed_figures(self) -> dict:
        """The figures this build failed to draw, and why."""
        return self.plugins["mlnotes-problems"].failed_figures()


class IncrementalConfig(base.Config):
    global_inputs = c.ListOfItems(c.Type(str), default=list(GLOBAL_INPUTS))
    """Files or folders (relative to mkdocs.yml) that every page depends on, besides those
    derived from the configuration (`_derived_inputs`)."""


class IncrementalPlugin(BasePlugin[IncrementalConfig]):
    """`mkdocs serve --dirty`: re-render only what an edit changes, as a clean build would."""

    def __init__(self):
        self.state: dict = {"active": False}
        self.peers: _Peers | None = None
        self.upstream: _Upstream | None = None

    def on_config(self, config):
        if self.state["active"]:
            self.peers = _Peers(config)
            self.upstream = _Upstream(config)
        return config

    def on_startup(self, command, dirty, **kwargs):
        state = self.state
        state.clear()
        state["active"] = command == "serve" and dirty
        if state["active"]:
            logging.getLogger("mkdocs.commands.build").addFilter(_DirtyWarning())
        state["pages"] = {}  # src_uri -> {"sig", "navkey", "title", "meta", "search"}
        state["dests"] = set()  # every file the last build wrote or copied
        state["global"] = None
        state["autorefs"] = None
        state["templates"] = _MemoryBytecodeCache()

    # after the plugins that add files (blog views, notebooks, MathJax)
    @event_priority(-100)
    def on_files(self, files, config, **kwargs):
        state = self.state
        if not state["active"]:
            return files
        root = Path(config.config_file_path or ".").resolve().parent
        pages = _pages(files)
        failed = self.peers.failed_figures()
        scans = {
            f.src_uri: _scan(root, f, self.peers.computed_by(f.src_uri), failed) for f in pages
        }
        old = state["pages"]
        key = _global_key(
            root, config, [*_derived_inputs(root, config), *self.config.global_inputs]
        )
        reason = None
        if not old:
            reason = "first build"
        elif key != state["global"]:
            reason = "configuration, theme overrides or build code changed"
        elif set(scans) != set(old):
            added, gone = sorted(set(scans) - set(old)), sorted(set(old) - set(scans))
            reason = f"pages added {added} or removed {gone}"
        else:
            changed = [u for u, s in scans.items() if s["navkey"] != old[u]["navkey"]]
            if changed:
                reason = f"front matter or title of {changed} changed"
        forced = {
            u for u, s in scans.items() if reason or s["sig"] is None or s["sig"] != old[u]["sig"]
        }
        upstream = self.upstream
        blog = upstream.blog_dir()
        if blog and any(u.startswith(blog) for u in forced):
            forced |= {u for u in scans if u.startswith(blog)}
        for f in pages:
            if f.src_uri in forced:
                _remove(f.abs_dest_path)
            elif (
                getattr(f, "generated_by", None)
                and f.abs_src_path
                and os.path.isfile(f.abs_src_path)
            ):
                # a view the blog plugin writes to a temporary file on every build (a category):
                # always newer than its HTML, MkDocs would render it without its posts' excerpts
                os.utime(f.abs_src_path, (0, 0))
        if reason and old:
            log.info(f"incremental: rebuilding every page ({reason})")
        elif forced:
            log.info(f"incremental: re-rendering {sorted(forced)}")
        upstream.reset_feeds()
        # the global key is kept only once the build succeeds: a failed build is redone in full
        state["build"] = {
            "full": bool(reason),
            "scans": scans,
            "entries": {},
            "mark": 0,
            "global": key,
        }
        return files

    def _restore(self, page: Page) -> None:
        """Give a page that is not re-rendered the title and metadata of its last render."""
        state = self.state
        record = state["pages"].get(page.file.src_uri)
        if record is not None and page.content is None:
            page.meta = copy.deepcopy(record["meta"])
            self.upstream.set_rendered_title(page, record["title"])
            # Page.title is None for a page whose source was not read (MkDocs 1.6): give it the
            # title it showed (its source is unchanged, so is its title)
            page.title = record["shown"]

    def on_nav(self, nav, config, files, **kwargs):
        state = self.state
        if state["active"]:
            for f in _pages(files):
                if f.page is not None and not f.is_modified():
                    self._restore(f.page)
        return nav

    # first: before anything renders navigation or resolves references
    @event_priority(100)
    def on_env(self, env, config, files, **kwargs):
        state = self.state
        if not state["active"]:
            return env
        env.bytecode_cache = state["templates"]
        build, old, upstream = state["build"], state["pages"], self.upstream
        pages = _pages(files)
        rendered = [f for f in pages if f.page is not None and f.page.content is not None]
        if not build["full"]:
            moved = [
                f.src_uri
                for f in rendered
                if f.src_uri in old
                and (upstream.rendered_title(f.page), f.page.meta)
                != (old[f.src_uri]["title"], old[f.src_uri]["meta"])
            ]
            if moved:
                log.info(f"incremental: title or metadata of {moved} changed: rendering every page")
                build["full"] = True
                for f in _served(files):
                    if f.page is None:
                        Page(None, f, config)
                    if f.page.content is None:
                        _remove(f.abs_dest_path)
                        upstream.render(f.page, config, files)
                rendered = [f for f in pages if f.page is not None and f.page.content is not None]
        if not build["full"]:
            rendered += self._renumbered(config, files, pages, rendered)
        for f in pages:
            if f.page is not None:
                self._restore(f.page)
        build["rendered"] = {f.src_uri for f in rendered}
        build["rendered_urls"] = {f.page.url for f in rendered}
        for f in rendered:
            state["pages"][f.src_uri] = {
                **build["scans"][f.src_uri],
                "title": upstream.rendered_title(f.page),
                "shown": f.page.title,
                "meta": copy.deepcopy(f.page.meta),
                "search": old.get(f.src_uri, {}).get("search", []),
                # its links to anchors of other pages ({target src_uri: {anchor: link}}), so
                # that they are checked again when a target changes, and its anchors, which
                # the links of the pages re-rendered are checked against (_restore_links)
                "links": upstream.anchor_links(f.page),
                "anchors": upstream.anchors(f.page),
            }
        self._restore_links(files, pages, build["rendered"])
        for uri in set(state["pages"]) - {f.src_uri for f in pages}:
            del state["pages"][uri]
        build["order"] = [f.src_uri for f in _served(files)]
        self._merge_rss(pages)
        self._merge_inventory(files)
        build["dests"] = {f.abs_dest_path for f in files if f.abs_dest_path}
        self._merge_autorefs()
        return env

    def _restore_links(self, files, pages, rendered: set) -> None:
        """A page that is not re-rendered keeps its links to other pages' anchors and its own
        anchors, as recorded at its last render. MkDocs validates every page's links after
        the build (`validation: anchors`), but only against the anchors of the pages this
        build rendered: so renaming a heading warns about each page that links to its old
        anchor, and a re-rendered page's link to a missing anchor of a page not re-rendered
        warns, in the serve as in a clean strict build (where `--dirty` alone checks
        neither)."""
        state, upstream = self.state, self.upstream
        for f in pages:
            if f.src_uri in rendered or f.page is None:
                continue
            record = state["pages"].get(f.src_uri, {})
            upstream.set_anchor_links(f.page, record.get("links", {}), files)
            upstream.set_anchors(f.page, record.get("anchors"))

    def _merge_rss(self, pages) -> None:
        """The feed entries of every page: this build's for the pages it rendered, the kept ones for the others."""
        state = self.state
        entries = self.upstream.feed_pages()
        if entries is None:
            return
        kept = state.setdefault("rss", {})
        by_path = {f.abs_src_path: f.src_uri for f in pages}
        fresh = {by_path.get(str(entry.abs_path)): entry for entry in entries}
        rendered = state["build"]["rendered"]
        for f in pages:
            if f.src_uri in rendered:
                if f.src_uri in fresh:
                    kept[f.src_uri] = fresh[f.src_uri]
                else:
                    kept.pop(f.src_uri, None)
        current = {f.src_uri for f in pages}
        for uri in set(kept) - current:
            del kept[uri]
        self.upstream.set_feed_pages([kept[f.src_uri] for f in pages if f.src_uri in kept])

    def _merge_inventory(self, files) -> None:
        """mkdocstrings' objects.inv lists the objects of the pages rendered in this build: add the
        kept ones of the other pages, in a clean build's order (mkdocstrings writes it in on_env)."""
        state = self.state
        inventory = self.upstream.inventory()
        if inventory is None:
            return
        kept = state.setdefault("inventory", {})  # page URL -> its items, in render order
        fresh: dict = {}
        for item in inventory.values():
            fresh.setdefault(item.uri.split("#", 1)[0], []).append(item)
        build = state["build"]
        urls = [f.page.url for f in _served(files) if f.page is not None]
        for url in urls:
            if url in build["rendered_urls"] or build["full"]:
                kept[url] = fresh.get(url, [])
        for url in set(kept) - set(urls):
            del kept[url]
        inventory.clear()
        for url in urls:
            for item in kept.get(url, []):
                inventory.setdefault(item.name, item)

    def _renumbered(self, config, files, pages, rendered) -> list:
        """Render the pages that link to an equation whose page was re-rendered with new
        numbers (mlnotes-equations says which), before any page is written. Returns the files
        rendered."""
        citing = self.peers.citing_renumbered()
        done = {f.src_uri for f in rendered}
        extra = []
        for f in pages:
            if f.src_uri in done or f.page is None or f.src_uri not in citing:
                continue
            log.info(f"incremental: equation numbers it links to changed: re-rendering {f.src_uri}")
            _remove(f.abs_dest_path)
            self.upstream.render(f.page, config, files)
            extra.append(f)
        return extra

    def _merge_autorefs(self) -> None:
        """Give autorefs the anchors of the pages not re-rendered (before it resolves references)."""
        state = self.state
        saved = state["autorefs"]
        if saved is None or state["build"]["full"]:
            return
        fresh = state["build"]["rendered_urls"]
        self.upstream.add_autorefs(saved, lambda url: url.split("#", 1)[0] not in fresh)

    # after the search plugin indexed the page
    @event_priority(-100)
    def on_page_context(self, context, page, config, nav, **kwargs):
        state = self.state
        if state["active"]:
            entries = self.upstream.search_entries()
            if entries is not None:
                build = state["build"]
                build["entries"][page.file.src_uri] = entries[build["mark"] :]
                build["mark"] = len(entries)
        return context

    # before the search plugin writes its index
    @event_priority(100)
    def on_post_build(self, config, **kwargs):
        state = self.state
        if not state["active"]:
            return
        build = state["build"]
        state["global"] = build["global"]
        pages = state["pages"]
        for uri, entries in build["entries"].items():
            if uri in pages:
                pages[uri]["search"] = entries
        upstream = self.upstream
        upstream.set_search_entries(
            [e for uri in build["order"] for e in pages.get(uri, {}).get("search", [])]
        )
        state["autorefs"] = upstream.autorefs_maps()
        upstream.keep_notebook_cache()
        # files of pages or assets that are gone
        dests = build["dests"]
        site = os.path.realpath(config.site_dir)
        for path in sorted(state["dests"] - dests):
            _remove(path)
            parent = os.path.dirname(path)
            while os.path.realpath(parent).startswith(site + os.sep) and not os.listdir(parent):
                os.rmdir(parent)
                parent = os.path.dirname(parent)
        state["dests"] = dests
