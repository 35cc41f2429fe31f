"""mkdocs.yml's plugins: the site's own come last, in order, and leave mkdocs-jupyter as it
ships."""

from __future__ import annotations

from pathlib import Path

from mkdocs_jupyter import plugin

ROOT = Path(__file__).resolve().parent.parent


def test_the_site_config_leaves_mkdocs_jupyter_as_it_ships():
    """No private function of mkdocs-jupyter is replaced: its cache key hashes the
    notebook it renders, which is the executed copy notebooks.py writes."""
    from mkdocs.config import load_config

    original = plugin._compute_cache_key
    config = load_config(str(ROOT / "mkdocs.yml"))
    ran = []
    for name, site_plugin in config.plugins.items():
        if name.startswith("mlnotes-") and hasattr(site_plugin, "on_config"):
            site_plugin.on_config(config)
            ran.append(name)
    assert "mlnotes-assets" in ran
    assert plugin._compute_cache_key is original
    assert plugin._compute_cache_key.__module__ == "mkdocs_jupyter.plugin"
    assert not hasattr(plugin._compute_cache_key, "__wrapped__")


# the site's plugins in order, each with one option (None: it has none); tests/test_plugins_tiny.py
# checks that a misspelt option of each fails the strict build of a tiny project
SITE_PLUGINS = {
    "mlnotes-figures": "jobs",
    "mlnotes-assets": None,
    "mlnotes-notebooks": "notebook_cache",
    "mlnotes-citations": "bib_file",
    "mlnotes-cite": "authors_file",
    "mlnotes-cards": None,
    "mlnotes-equations": "package",
    "mlnotes-incremental": "global_inputs",
    "mlnotes-typeset": "cache",
    "mlnotes-problems": None,
}


def test_the_site_plugins_are_configured_in_order_after_the_others():
    """The build's features are plugins under `plugins:` (entry points of pyproject.toml),
    last and in the order their hooks (mkdocs.yml `hooks:`, before) ran: at one event priority, the earlier runs first."""
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    assert not config.hooks  # no `hooks:`: every feature is a plugin with its options checked
    names = list(config.plugins)
    ours = [n for n in names if n.startswith("mlnotes-")]
    assert ours == list(SITE_PLUGINS)
    others = [n for n in names if not n.startswith("mlnotes-") and n != "autorefs"]
    assert names.index(ours[0]) > max(names.index(n) for n in others)
