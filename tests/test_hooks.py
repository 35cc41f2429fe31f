"""The mkdocs hooks' notebook cache key: a notebook is re-executed only when it, or an
`mlnotes` module it imports (transitively), changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs_jupyter import plugin

import build_figures  # scripts/build, on sys.path through pytest's `pythonpath` (pyproject.toml)
import hooks

# the plugin options its own key reads (values do not matter here, only that they are fixed)
JUPYTER_OPTIONS = {
    key: None
    for key in (
        "kernel_name", "theme", "allow_errors", "show_input", "no_input", "no_prompt",
        "remove_tag_config", "highlight_extra_classes", "include_requirejs",
        "custom_mathjax_url", "toc_depth",
    )
}


@pytest.fixture
def tree(scratch_package, monkeypatch):
    """The scratch project of conftest (alpha imports beta; gamma stands alone), with a
    notebooks folder."""
    (scratch_package / "docs" / "notebooks").mkdir(parents=True)
    # install_notebook_cache_key() replaces the plugin's function: put it back afterwards
    monkeypatch.setattr(plugin, "_compute_cache_key", plugin._compute_cache_key)
    return scratch_package


def _notebook(tree: Path, body: str) -> Path:
    path = tree / "docs" / "notebooks" / "nb.py"
    path.write_text("# %% [markdown]\n# # A notebook\n\n# %%\n" + body)
    return path


def test_notebook_dependencies_follow_its_mlnotes_imports(tree):
    nb = _notebook(tree, "from mlnotes.alpha import A\nimport numpy\n")
    names = {p.name for p in hooks.notebook_dependencies(nb, build_figures)}
    assert names == {"__init__.py", "plotting.py", "alpha.py", "beta.py"}


def test_a_notebook_that_does_not_parse_depends_on_all_of_mlnotes(tree):
    nb = _notebook(tree, "%timeit 1 + 1\n")  # a magic jupytext did not comment out
    names = {p.name for p in hooks.notebook_dependencies(nb, build_figures)}
    assert names == {"__init__.py", "plotting.py", "alpha.py", "beta.py", "gamma.py"}


def test_cache_key_changes_only_with_the_notebook_and_what_it_imports(tree):
    key = hooks.install_notebook_cache_key(build_figures)
    nb = _notebook(tree, "from mlnotes.alpha import A\nprint(A)\n")

    def current():
        return key(str(nb), JUPYTER_OPTIONS, True)

    first = current()
    assert current() == first  # deterministic
    (tree / "mlnotes" / "gamma.py").write_text("G = 4\n")  # not imported
    (tree / "docs" / "page.md").write_text("# an edited page\n")
    assert current() == first
    (tree / "mlnotes" / "beta.py").write_text("B = 3\n")  # imported through alpha
    second = current()
    assert second != first
    (tree / "mlnotes" / "plotting.py").write_text("STYLE = 2\n")
    third = current()
    assert third != second
    nb.write_text(nb.read_text() + "print(A + 1)\n")  # the notebook itself
    assert current() != third
    # the plugin's own options still count
    assert key(str(nb), JUPYTER_OPTIONS, False) != current()


def test_installing_twice_wraps_the_plugin_key_once(tree):
    original = plugin._compute_cache_key
    hooks.install_notebook_cache_key(build_figures)
    hooks.install_notebook_cache_key(build_figures)  # `mkdocs serve` reloads the hooks
    assert plugin._compute_cache_key.__wrapped__ is original


def test_the_site_config_installs_the_wrapper_on_the_plugin_it_runs(monkeypatch):
    """The hook as mkdocs.yml names it really replaces mkdocs-jupyter's private key function:
    it still exists with the signature the wrapper calls, the plugin still looks it up by
    name when it renders a notebook (so replacing the module attribute takes effect), and
    the hook's on_config replaces it. An upgrade of the pinned plugin that breaks any of
    these fails here, not silently in the cache."""
    import inspect

    from mkdocs.config import load_config

    monkeypatch.setattr(plugin, "_compute_cache_key", plugin._compute_cache_key)
    original = getattr(plugin._compute_cache_key, "__wrapped__", plugin._compute_cache_key)
    assert list(inspect.signature(original).parameters) == ["nb_path", "config", "exec_nb"]
    assert "_compute_cache_key" in plugin.Plugin.on_pre_page.__code__.co_names
    config = load_config(str(Path(__file__).resolve().parent.parent / "mkdocs.yml"))
    [hook] = [p for name, p in config.plugins.items() if name.endswith("scripts/build/hooks.py")]
    assert config.plugins["mkdocs-jupyter"].config["cache"]
    hook.on_config(config)
    assert plugin._compute_cache_key is not original
    assert plugin._compute_cache_key.__wrapped__ is original
