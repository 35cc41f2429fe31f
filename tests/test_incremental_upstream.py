"""mlnotes-incremental's reaches into the private state of MkDocs and of the third-party plugins
(scripts/mlnotes_site/plugins/incremental.py, `_Upstream`): checked when `make serve` starts, against
the versions pyproject.toml pins, so that an upgrade that renames one stops the serve with a
message naming it instead of serving a site that differs from a clean build."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from mlnotes_site.plugins import incremental, notebooks, problems

ROOT = Path(__file__).resolve().parent.parent


def test_the_adapter_names_the_versions_pyproject_pins():
    """`_Upstream.PINS` (named in its errors) are the versions pyproject.toml installs."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    pinned = dict(re.findall(r'"([\w.-]+)==([\w.]+)"', text))
    assert {name: pinned.get(name) for name in incremental.PINS} == incremental.PINS


def _site_config(events: bool = True):
    """The site's configuration, after the events that make what the adapter reads (the
    feed plugin's lists in on_startup, the search index and mkdocstrings' handlers in on_config)."""
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    if events:
        config.plugins["rss"].on_startup(command="serve", dirty=True)
        for name in ("material/search", "mkdocstrings"):  # mkdocstrings adds autorefs
            config.plugins[name].on_config(config)
    return config


def test_the_adapter_reads_the_site_plugins():
    config = _site_config()
    upstream = incremental._Upstream(config)
    assert upstream.blog_dir() == "blog/"
    assert upstream.search_entries() == []
    assert upstream.feed_pages() == []
    assert upstream.inventory() is not None
    maps = upstream.autorefs_maps()
    assert set(maps) == {"_primary_url_map", "_secondary_url_map", "_title_map"}
    # before those events (which the serve runs first): checked on the plugins' classes
    assert incremental._Upstream(_site_config(events=False)).autorefs() is None


@pytest.mark.parametrize(
    "name, attribute, dist",
    [
        ("autorefs", "_title_map", "mkdocs-autorefs"),
        ("rss", "pages_to_filter", "mkdocs-rss-plugin"),
        ("material/search", "search_index", "mkdocs-material"),
        ("mkdocstrings", "_handlers", "mkdocstrings"),
        ("mkdocs-jupyter", "_used_cache_paths", "mkdocs-jupyter"),
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
    serve = incremental.IncrementalPlugin()
    serve.on_startup(command="serve", dirty=True)
    pin = re.escape(f"{dist}=={incremental.PINS[dist]}")
    with pytest.raises(PluginError, match=rf"`{attribute}`.*{pin}"):
        serve.on_config(config)
    build = incremental.IncrementalPlugin()  # `mkdocs build`: nothing is read, nothing checked
    build.on_startup(command="build", dirty=False)
    assert build.on_config(config) is config


def test_mkdocs_without_what_the_adapter_uses_stops_the_serve(monkeypatch):
    from mkdocs.commands import build

    config = SimpleNamespace(plugins={})
    incremental._Upstream(config)
    monkeypatch.delattr(build, "_populate_page")
    with pytest.raises(
        PluginError, match=r"MkDocs's `mkdocs.commands.build._populate_page`.*mkdocs==1\.6\.1"
    ):
        incremental._Upstream(config)


def test_the_inputs_every_page_reads_are_derived_from_the_configuration():
    """mlnotes-incremental re-renders every page when the theme's custom_dir, the build
    code or mlnotes-citations' bib file changes: found from mkdocs.yml, not listed."""
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    assert incremental._derived_inputs(ROOT, config) == [
        "overrides",
        "scripts/mlnotes_site",
        "docs/references.bib",
    ]
    config.plugins.pop("mlnotes-citations")
    assert "docs/references.bib" not in incremental._derived_inputs(ROOT, config)
