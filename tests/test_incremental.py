"""mlnotes-incremental's parts (scripts/mlnotes_site/plugins/incremental/), each on its own:
what it asks the other mlnotes plugins, the key of what every page reads, the dirty
decision, and the record of autorefs' anchors. tests/test_serve*.py check the whole serve
against clean builds."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from mlnotes_site.plugins import equations, incremental, problems
from mlnotes_site.plugins.incremental import merge, signatures
from mlnotes_site.plugins.incremental.state import Build, PageRecord, PageScan, ServeState


def _serve() -> incremental.IncrementalPlugin:
    serve = incremental.IncrementalPlugin()
    serve.load_config({})
    serve.on_startup(command="serve", dirty=True)
    return serve


def test_the_incremental_serve_checks_the_plugins_it_reads_when_it_starts():
    """mlnotes-incremental reads what mlnotes-equations says of the pages (which functions
    compute their equations, which pages link to renumbered equations) and the problems'
    failed figures through one adapter, which stops `make serve` at its first build, naming
    what is missing."""
    config = SimpleNamespace(plugins={"mlnotes-problems": problems.ProblemsPlugin()})
    serve = _serve()
    with pytest.raises(PluginError, match="reads mlnotes-equations .*is not configured"):
        serve.on_config(config)
    config.plugins["mlnotes-equations"] = object()
    with pytest.raises(
        PluginError, match="mlnotes-equations .*has no computed_by, citing_renumbered"
    ):
        serve.on_config(config)
    config.plugins["mlnotes-equations"] = equations.EquationsPlugin()
    serve.on_config(config)
    assert serve.peers.computed_by("a.md") == [] and serve.peers.failed_figures() == {}
    assert serve.peers.citing_renumbered() == set()
    build = incremental.IncrementalPlugin()  # `mkdocs build`: it does nothing, reads nothing
    build.load_config({})
    build.on_startup(command="build", dirty=False)
    assert build.on_config(SimpleNamespace(plugins={})) is not None


def test_the_serve_rebuilds_every_page_when_a_folders_meta_changes(tmp_path):
    """`make serve` re-renders every page when an input every page reads changes: a folder's
    `.meta.yml` (Material's meta plugin: the search boost) or `.authors.yml` is one, though
    neither is a page nor copied into the site (incremental/signatures.py)."""
    docs = tmp_path / "docs"
    (docs / "notes").mkdir(parents=True)
    (docs / "notes" / "page.md").write_text("# A page\n")
    meta = docs / "notes" / ".meta.yml"
    meta.write_text("search:\n  boost: 4\n")
    config = SimpleNamespace(config_file_path=str(tmp_path / "mkdocs.yml"), docs_dir=str(docs))
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")

    first = signatures.global_key(tmp_path, config)
    (docs / "notes" / "page.md").write_text("# A page, edited\n")  # a page: its own key
    assert signatures.global_key(tmp_path, config) == first
    meta.write_text("search:\n  boost: 2\n")
    second = signatures.global_key(tmp_path, config)
    assert second != first
    (docs / "blog").mkdir()
    (docs / "blog" / ".authors.yml").write_text("authors: {}\n")
    assert signatures.global_key(tmp_path, config) != second


def _record(signature: str, navkey=("{}", "T")) -> PageRecord:
    return PageRecord(PageScan(signature, navkey), "T", "T", {}, {}, set())


def test_the_dirty_decision_renders_what_changed_and_the_whole_blog_with_a_post():
    before = {"a.md": _record("1"), "blog/posts/p.md": _record("2"), "blog/index.md": _record("3")}
    scans = {uri: record.scan for uri, record in before.items()}
    assert signatures.decide(before, "k", scans, "k", "blog/") == (None, set())
    edited = {**scans, "a.md": PageScan("1b", ("{}", "T"))}
    assert signatures.decide(before, "k", edited, "k", "blog/") == (None, {"a.md"})
    post = {**scans, "blog/posts/p.md": PageScan("2b", ("{}", "T"))}
    assert signatures.decide(before, "k", post, "k", "blog/")[1] == {
        "blog/posts/p.md",
        "blog/index.md",
    }
    unread = {**scans, "a.md": PageScan(None, None)}  # a source that could not be read
    assert "a.md" in signatures.decide(before, "k", unread, "k", "blog/")[1]
    for reason, (key, new) in {
        "first build": ("k", scans),
        "configuration": ("k2", scans),
        "pages added": ("k", {**scans, "b.md": PageScan("4", ("{}", "B"))}),
        "title of ['a.md']": ("k", {**scans, "a.md": PageScan("1", ("{}", "T2"))}),
    }.items():
        old = {} if reason == "first build" else before
        why, forced = signatures.decide(old, "k", new, key, "blog/")
        assert reason in why and forced == set(new)


def test_a_pages_signature_follows_its_snippets_under_the_snippets_base_path(tmp_path):
    """pymdownx.snippets finds `--8<-- "x.py"` under its `base_path` (mkdocs.yml), not
    necessarily the project's folder: the signature follows the file snippets includes,
    and a file that does not exist yet (its appearance re-renders the page)."""
    listings = tmp_path / "listings"
    listings.mkdir()
    page = SimpleNamespace(content_bytes=b'# P\n\n--8<-- "x.py"\n', src_uri="p.md")

    def signature():
        return signatures.scan_page(tmp_path, page, snippet_bases=[listings]).signature

    missing = signature()
    (tmp_path / "x.py").write_text("not the one\n")  # in the project's folder: not included
    assert signature() == missing
    (listings / "x.py").write_text("A = 1\n")
    appeared = signature()
    assert appeared != missing
    (listings / "x.py").write_text("A = 2\n")
    assert signature() != appeared


def test_a_pages_signature_follows_the_module_its_autodoc_block_documents(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    page = SimpleNamespace(content_bytes=b"# API\n\n::: pkg.mod\n", src_uri="api.md")

    def signature():
        return signatures.scan_page(tmp_path, page, module_paths=[tmp_path]).signature

    before = signature()
    (tmp_path / "pkg" / "mod.py").write_text('"""A module not written yet."""\n')
    written = signature()
    assert written != before
    (tmp_path / "pkg" / "mod.py").write_text('"""The module, edited."""\n')
    assert signature() != written


def test_the_navigation_key_is_the_front_matter_and_the_title(tmp_path):
    def navkey(text: str):
        page = SimpleNamespace(content_bytes=text.encode(), src_uri="p.md")
        return signatures.scan_page(tmp_path, page).navkey

    plain = navkey("---\ntitle: A\n---\n\n# Heading\n\nText.\n")
    assert plain == navkey("---\ntitle:   A  # a comment\n---\n\n# Heading\n\nText, edited.\n")
    assert plain != navkey("---\ntitle: B\n---\n\n# Heading\n\nText.\n")
    assert plain != navkey("---\ntitle: A\n---\n\n# Heading, edited\n\nText.\n")


class _Page(SimpleNamespace):
    """A page as autorefs' register_anchor reads it: its URL."""


def test_the_anchors_of_the_pages_not_rendered_are_registered_again():
    """autorefs starts each build empty (mkdocstrings makes a new plugin object): the
    anchors the pages not rendered registered at their last render are registered again,
    through its public `register_anchor`, and resolve as in a clean build."""
    from mkdocs_autorefs import AutorefsPlugin

    a, b = _Page(url="a/"), _Page(url="b/")
    state, recorder = ServeState(active=True), merge.AnchorRecorder()
    first = AutorefsPlugin()
    recorder.install(first)
    first.register_anchor(a, "pkg.f", "pkg.f", title="f")
    first.register_anchor(b, "sec", primary=False)
    full = Build(full=True, scans={}, global_key="k", rendered_urls={"a/", "b/"})
    recorder.merge(state, full, first, [a, b])

    second = AutorefsPlugin()  # the next build: only b/ is rendered, and registers anew
    recorder.install(second)
    second.register_anchor(b, "sec2")
    partial = Build(full=False, scans={}, global_key="k", rendered_urls={"b/"})
    recorder.merge(state, partial, second, [a, b])
    assert second.get_item_url("pkg.f") == ("a/#pkg.f", "f")
    assert second.get_item_url("sec2") == ("b/#sec2", None)
    with pytest.raises(KeyError):  # b/'s anchor of its last render is gone
        second.get_item_url("sec")
    assert [c.identifier for c in state.anchors["a/"]] == ["pkg.f"]
    assert [c.identifier for c in state.anchors["b/"]] == ["sec2"]
