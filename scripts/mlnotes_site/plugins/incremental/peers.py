"""What mlnotes-incremental asks the other mlnotes plugins, through their methods."""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError


class Peers:
    """The other mlnotes plugins' methods that mlnotes-incremental calls.

    Made in on_config of a `mkdocs serve --dirty`: a missing plugin, or one without a method
    called here, stops the serve at once with a message, instead of a served site that
    silently differs from a clean build.
    """

    # plugin -> the methods called: which functions compute a page's equations and which
    # pages link to an equation this build renumbered; the figures that failed to draw
    NEEDS = {
        "mlnotes-equations": ("computed_by", "citing_renumbered"),
        "mlnotes-problems": ("failed_figures",),
    }

    def __init__(self, config: MkDocsConfig) -> None:
        self.plugins = {}
        for name, methods in self.NEEDS.items():
            plugin = config.plugins.get(name)
            missing = [m for m in methods if plugin is not None and not hasattr(plugin, m)]
            if plugin is None or missing:
                what = f"has no {', '.join(missing)}" if plugin else "is not configured"
                raise PluginError(
                    f"mlnotes-incremental reads {name} ({', '.join(methods)}), which {what}: "
                    f"list {name} under `plugins:` in mkdocs.yml (README: Layout)"
                )
            self.plugins[name] = plugin

    def computed_by(self, src_uri: str) -> list[tuple[str, str]]:
        """`(label, function)`: the functions that compute the page's equations."""
        return self.plugins["mlnotes-equations"].computed_by(src_uri)

    def citing_renumbered(self) -> set[str]:
        """The pages that link to an equation this build renumbered."""
        return self.plugins["mlnotes-equations"].citing_renumbered()

    def failed_figures(self) -> dict[str, list[str]]:
        """The figures this build failed to draw, and why."""
        return self.plugins["mlnotes-problems"].failed_figures()
