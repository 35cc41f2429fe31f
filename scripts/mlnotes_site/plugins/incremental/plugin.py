"""The `mlnotes-incremental` plugin's events: what each does, and when."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Literal

from jinja2 import Environment
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from mlnotes_site import markup
from mlnotes_site.plugins.incremental import merge, signatures
from mlnotes_site.plugins.incremental.peers import Peers
from mlnotes_site.plugins.incremental.speed import MemoryBytecodeCache, quiet_dirty_warning
from mlnotes_site.plugins.incremental.stale import remove, remove_stale
from mlnotes_site.plugins.incremental.state import Build, PageRecord, ServeState
from mlnotes_site.upstream import material, rss
from mlnotes_site.upstream import mkdocs as mkdocs_upstream

log = get_plugin_logger("incremental")


def _pages(files: Files) -> list[File]:
    """Every page, whatever its inclusion (the blog plugin excludes posts until on_nav)."""
    return [f for f in files if f.is_documentation_page()]


def _served(files: Files) -> list[File]:
    """The pages the build renders, in its order (`mkdocs serve` renders drafts too)."""
    return list(files.documentation_pages(inclusion=InclusionLevel.is_in_serve))


class IncrementalConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Re-render only what an edit changes under `mkdocs serve --dirty` (false: MkDocs'
    own `--dirty`, which re-renders only the edited pages, navigation and indexes stale)."""
    global_inputs = c.ListOfItems(c.Type(str), default=[])
    """Files or folders (relative to mkdocs.yml) that every page depends on, besides those
    derived from the configuration (signatures.derived_inputs)."""


class IncrementalPlugin(BasePlugin[IncrementalConfig]):
    """`mkdocs serve --dirty`: re-render only what an edit changes, as a clean build would."""

    def __init__(self) -> None:
        self.state = ServeState()
        self.peers: Peers | None = None
        self.templates = MemoryBytecodeCache()
        self.anchors = merge.AnchorRecorder()
        self.search: BasePlugin | None = None
        self.blog: BasePlugin | None = None
        self.rss: BasePlugin | None = None
        self.mkdocstrings: BasePlugin | None = None

    @property
    def active(self) -> bool:
        return self.state.active and self.config.enabled

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self.state = ServeState(active=command == "serve" and dirty)
        self.templates = MemoryBytecodeCache()
        if self.state.active:
            quiet_dirty_warning()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        if not self.active:
            return config
        self.peers = Peers(config)
        plugins = config.plugins
        self.search = plugins.get("material/search") or plugins.get("search")
        self.blog = plugins.get("material/blog") or plugins.get("blog")
        self.rss = plugins.get("rss")
        self.mkdocstrings = plugins.get("mkdocstrings")
        mkdocs_upstream.check()
        material.check(self.search, self.blog)
        if self.rss is not None:
            rss.check(self.rss)
        return config

    # after the plugins that add files (blog views, notebooks, MathJax)
    @event_priority(-100)
    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        """Decide which pages to render: delete their HTML (MkDocs renders a page whose HTML
        is older than its source, or missing)."""
        if not self.active:
            return files
        state, peers = self.state, self.peers
        root = Path(config.config_file_path or ".").resolve().parent
        pages = _pages(files)
        failed = peers.failed_figures()
        bases, paths = markup.snippet_bases(config), markup.module_paths(config)
        scans = {
            f.src_uri: signatures.scan_page(
                root,
                f,
                peers.computed_by(f.src_uri),
                failed,
                snippet_bases=bases,
                module_paths=paths,
            )
            for f in pages
        }
        inputs = [*signatures.derived_inputs(root, config), *self.config.global_inputs]
        key = signatures.global_key(root, config, inputs)
        blog = material.blog_dir(self.blog) if self.blog is not None else None
        reason, forced = signatures.decide(state.pages, state.global_key, scans, key, blog)
        for f in pages:
            if f.src_uri in forced:
                remove(f.abs_dest_path)
            elif getattr(f, "generated_by", None):
                mkdocs_upstream.hold(f)
        if reason and state.pages:
            log.info(f"rebuilding every page ({reason})")
        elif forced:
            log.info(f"re-rendering {sorted(forced)}")
        if self.rss is not None:
            rss.reset(self.rss)
        autorefs = config.plugins.get("autorefs")
        if autorefs is not None:
            self.anchors.install(autorefs)
        state.build = Build(full=bool(reason), scans=scans, global_key=key)
        return files

    def _restore(self, page: Page) -> None:
        """Give a page that is not rendered the title and metadata of its last render."""
        record = self.state.pages.get(page.file.src_uri)
        if record is not None and page.content is None:
            page.meta = copy.deepcopy(record.meta)
            mkdocs_upstream.set_rendered_title(page, record.title)
            # Page.title is None for a page whose source was not read (MkDocs 1.6): give it
            # the title it showed (its source is unchanged, so is its title)
            page.title = record.shown

    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation:
        if self.active:
            for f in _pages(files):
                if f.page is not None and not f.is_modified():
                    self._restore(f.page)
        return nav

    # --- on_env: first, before anything renders navigation or resolves references ---------

    @event_priority(100)
    def _cache_templates(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> None:
        if self.active:
            env.bytecode_cache = self.templates

    @event_priority(100)
    def _restore_pages(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> None:
        """Restore the titles and metadata of the pages not rendered; if a rendered page's
        changed anyway (a heading the scan cannot see), render every page."""
        if not self.active:
            return
        build, old = self.state.build, self.state.pages
        if not build.full:
            moved = [
                f.src_uri
                for f in _pages(files)
                if f.page is not None
                and f.page.content is not None
                and f.src_uri in old
                and (mkdocs_upstream.rendered_title(f.page), f.page.meta)
                != (old[f.src_uri].title, old[f.src_uri].meta)
            ]
            if moved:
                log.info(f"title or metadata of {moved} changed: rendering every page")
                build.full = True
                for f in _served(files):
                    if f.page is None:
                        Page(None, f, config)
                    if f.page.content is None:
                        remove(f.abs_dest_path)
                        mkdocs_upstream.render(f.page, config, files)
        for f in _pages(files):
            if f.page is not None:
                self._restore(f.page)

    @event_priority(99)
    def _renumber(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> None:
        """Render the pages that link to an equation this build renumbered (mlnotes-equations
        says which), before any page is written."""
        if not self.active or self.state.build.full:
            return
        citing = self.peers.citing_renumbered()
        for f in _pages(files):
            if f.src_uri in citing and f.page is not None and f.page.content is None:
                log.info(f"equation numbers it links to changed: re-rendering {f.src_uri}")
                remove(f.abs_dest_path)
                mkdocs_upstream.render(f.page, config, files)

    @event_priority(98)
    def _record_pages(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> None:
        """Keep what the rendered pages left; give the others their links and anchors."""
        if not self.active:
            return
        state, build = self.state, self.state.build
        pages = _pages(files)
        rendered = [f for f in pages if f.page is not None and f.page.content is not None]
        build.rendered = {f.src_uri for f in rendered}
        build.rendered_urls = {f.page.url for f in rendered}
        for f in rendered:
            old = state.pages.get(f.src_uri)
            state.pages[f.src_uri] = PageRecord(
                scan=build.scans[f.src_uri],
                title=mkdocs_upstream.rendered_title(f.page),
                shown=f.page.title,
                meta=copy.deepcopy(f.page.meta),
                links=mkdocs_upstream.anchor_links(f.page),
                anchors=mkdocs_upstream.anchors(f.page),
                search=old.search if old is not None else [],
            )
        # MkDocs checks every page's links to anchors after the build (`validation:
        # anchors`), against the anchors of the pages it rendered: with the kept links and
        # anchors of the others, a renamed heading warns about each page that links to its
        # old anchor, as a clean strict build fails on it
        for f in pages:
            if f.src_uri not in build.rendered and f.page is not None:
                record = state.pages.get(f.src_uri)
                mkdocs_upstream.set_anchor_links(f.page, record.links if record else {}, files)
                mkdocs_upstream.set_anchors(f.page, record.anchors if record else None)
        for uri in set(state.pages) - {f.src_uri for f in pages}:
            del state.pages[uri]
        build.order = [f.src_uri for f in _served(files)]
        build.dests = {f.abs_dest_path for f in files if f.abs_dest_path}

    @event_priority(97)
    def _merge_feeds(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> None:
        if self.active and self.rss is not None:
            merge.merge_feeds(self.state, self.state.build, self.rss, _pages(files))

    @event_priority(96)  # before mkdocstrings writes objects.inv (its on_env, at -20)
    def _merge_inventory(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> None:
        if not self.active or self.mkdocstrings is None:
            return
        try:
            inventory = self.mkdocstrings.handlers.inventory
        except RuntimeError:  # mkdocstrings is disabled: it made no handlers
            return
        urls = [f.page.url for f in _served(files) if f.page is not None]
        merge.merge_inventory(self.state, self.state.build, inventory, urls)

    @event_priority(95)  # before autorefs resolves the references (its on_env, at -50)
    def _merge_anchors(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> None:
        autorefs = config.plugins.get("autorefs")
        if self.active and autorefs is not None:
            pages = [f.page for f in _pages(files) if f.page is not None]
            self.anchors.merge(self.state, self.state.build, autorefs, pages)

    on_env = CombinedEvent(
        _cache_templates,
        _restore_pages,
        _renumber,
        _record_pages,
        _merge_feeds,
        _merge_inventory,
        _merge_anchors,
    )

    # after the search plugin indexed the page
    @event_priority(-100)
    def on_page_context(
        self, context: TemplateContext, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        if self.active and self.search is not None:
            merge.collect_search(self.state.build, self.search, page)
        return context

    # before the search plugin writes its index
    @event_priority(100)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if not self.active:
            return
        state, build = self.state, self.state.build
        state.global_key = build.global_key
        if self.search is not None:
            merge.write_search(state, build, self.search)
        remove_stale(state.dests, build.dests, config.site_dir)
        state.dests = build.dests
