"""The adapters to what MkDocs, Material and mkdocs-rss-plugin have without a public API
(scripts/mlnotes_site/upstream/): checked when `make serve` starts, against the versions
pyproject.toml pins, so that an upgrade that renames one stops the serve with a message
naming it instead of serving a site that differs from a clean build. Nothing else of the
build names a private member of mkdocs-autorefs, mkdocstrings or mkdocs-jupyter."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from mlnotes_site import upstream
from mlnotes_site.plugins import incremental, notebooks, problems
from mlnotes_site.plugins.incremental import signatures
from mlnotes_site.upstream import material, rss

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scripts" / "mlnotes_site"


def test_the_adapters_name_the_versions_pyproject_pins():
    """Each adapter's `PIN` (named in its errors) is the version pyproject.toml installs."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    pinned = dict(re.findall(r'"([\w.-]+)(?:\[[\w,]+\])?==([\w.]+)"', text))
    pins = {adapter.DIST: adapter.PIN for adapter in upstream.ADAPTERS}
    assert set(pins) == {"mkdocs", "mkdocs-material", "mkdocs-rss-plugin"}
    assert {name: pinned.get(name) for name in pins} == pins


def _site_config(events: bool = True):
    """The site's configuration, after the events that make what the adapters read (the
    feed plugin's lists in on_startup, the search index and mkdocstrings' handlers in on_config)."""
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    if events:
        config.plugins["rss"].on_startup(command="serve", dirty=True)
        for name in ("material/search", "mkdocstrings"):  # mkdocstrings adds autorefs
            config.plugins[name].on_config(config)
    return config


def _serve(config):
    serve = incremental.IncrementalPlugin()
    serve.load_config({})
    serve.on_startup(command="serve", dirty=True)
    return serve.on_config(config)


def test_the_adapters_read_the_site_plugins():
    config = _site_config()
    assert _serve(config) is config
    assert material.blog_dir(config.plugins["material/blog"]) == "blog/"
    assert material.search_entries(config.plugins["material/search"]) == []
    assert rss.pages(config.plugins["rss"]) == []
    # mkdocstrings' inventory, through its public `handlers`
    assert config.plugins["mkdocstrings"].handlers.inventory == {}
    # before those events (which the serve runs first): checked on the plugins' classes
    assert _serve(_site_config(events=False)) is not None


@pytest.mark.parametrize(
    "name, attribute, dist",
    [
        ("rss", "pages_to_filter", "mkdocs-rss-plugin"),
        ("rss", "feed_created", "mkdocs-rss-plugin"),
        ("material/search", "search_index", "mkdocs-material"),
        ("material/search", "search_index_prev", "mkdocs-material"),
    ],
)
def test_a_plugin_without_what_the_adapter_reads_stops_the_serve(name, attribute, dist):
    """A plugin whose class no longer has the attribute (an upgrade renamed it): a PluginError
    naming the plugin, the attribute and the pinned version, from the serve's on_config."""
    config = _site_config()
    plugin = config.plugins[name]

    class Renamed:  # the plugin's state, without `attribute`, and code that never names it
        def __init__(self):
            self.__dict__.update({k: v for k, v in vars(plugin).items() if k != attribute})

    config.plugins[name] = Renamed()
    config.plugins["mlnotes-notebooks"] = notebooks.NotebooksPlugin()
    config.plugins["mlnotes-problems"] = problems.ProblemsPlugin()
    pin = {a.DIST: a.PIN for a in upstream.ADAPTERS}[dist]
    with pytest.raises(PluginError, match=rf"`{attribute}`.*{re.escape(f'{dist}=={pin}')}"):
        _serve(config)
    build = incremental.IncrementalPlugin()  # `mkdocs build`: nothing is read, nothing checked
    build.load_config({})
    build.on_startup(command="build", dirty=False)
    assert build.on_config(config) is config


def test_mkdocs_without_what_the_adapter_uses_stops_the_serve(monkeypatch):
    from mkdocs.commands import build

    upstream.mkdocs.check()
    monkeypatch.delattr(build, "_populate_page")
    with pytest.raises(
        PluginError, match=r"MkDocs's `mkdocs.commands.build._populate_page`.*mkdocs==1\.6\.1"
    ):
        upstream.mkdocs.check()


def test_mkdocs_still_logs_the_dirty_warning_the_serve_filters(monkeypatch):
    """The warning's text is checked in MkDocs' source: a reworded warning stops the serve
    rather than showing on every build."""
    monkeypatch.setattr(upstream.mkdocs, "DIRTY_WARNING", "A dirty build, reworded")
    with pytest.raises(PluginError, match="A dirty build, reworded"):
        upstream.mkdocs.check()


def test_the_inputs_every_page_reads_are_derived_from_the_configuration():
    """mlnotes-incremental re-renders every page when the theme's custom_dir, the build
    code or mlnotes-citations' bib file changes: found from mkdocs.yml, not listed."""
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    assert signatures.derived_inputs(ROOT, config) == [
        "overrides",
        "scripts/mlnotes_site",
        "docs/references.bib",
    ]
    config.plugins.pop("mlnotes-citations")
    assert "docs/references.bib" not in signatures.derived_inputs(ROOT, config)


def _private_names(*objects) -> set[str]:
    """The private attributes (`_x`, not dunders) of objects and of their classes."""
    names = set()
    for obj in objects:
        for owner in (obj, *type(obj).__mro__):
            attributes = getattr(owner, "__dict__", {})
            names |= {n for n in attributes if n.startswith("_") and not n.startswith("__")}
    return names


def test_no_private_member_of_autorefs_mkdocstrings_or_jupyter_is_named():
    """The build uses mkdocs-autorefs, mkdocstrings and mkdocs-jupyter through their public
    APIs only: none of their plugins' private attributes appears in the package."""
    from mkdocs_autorefs import AutorefsPlugin
    from mkdocs_jupyter.plugin import Plugin as JupyterPlugin
    from mkdocstrings import Handlers, MkdocstringsPlugin

    config = _site_config()
    objects = [
        AutorefsPlugin(),
        config.plugins["mkdocstrings"],
        config.plugins["mkdocstrings"].handlers,
        config.plugins["mkdocs-jupyter"],
    ]
    jupyter = config.plugins["mkdocs-jupyter"]
    jupyter.on_pre_build(config)  # makes its `_used_cache_paths`
    from mkdocs.plugins import BasePlugin

    names = _private_names(*objects) - _private_names(BasePlugin())
    assert {"_primary_url_map", "_handlers", "_used_cache_paths"} <= names
    assert isinstance(config.plugins["mkdocstrings"], MkdocstringsPlugin)
    assert isinstance(objects[2], Handlers) and isinstance(jupyter, JupyterPlugin)
    found = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in PACKAGE.rglob("*.py")
        for name in names
        if re.search(rf"\.{re.escape(name)}\b", path.read_text(encoding="utf-8"))
    }
    assert found == set()


def test_private_members_of_upstream_packages_are_named_only_in_the_adapters():
    """Outside mlnotes_site/upstream/, no module reads or writes a private attribute
    (`x._name`) of another object than its own (`self._name`); `os._exit` and
    `sys._getframe` are documented functions of the standard library."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        if "upstream" in path.relative_to(PACKAGE).parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            for m in re.finditer(r"(\w+)\._[a-z]\w*", code):
                if m.group(1) not in ("self", "cls", "os", "sys"):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {m.group(0)}")
    assert found == [], found
