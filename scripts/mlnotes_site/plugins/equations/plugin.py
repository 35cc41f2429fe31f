"""The `mlnotes-equations` plugin's events, and what the other plugins ask it."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Literal

from jinja2 import Environment
from markupsafe import escape
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

import mlnotes_site
from mlnotes_site import project_path
from mlnotes_site.plugins.equations.docstrings import (
    PACKAGE,
    EquationRef,
    collect_equation_refs,
    validate_equation_refs,
)
from mlnotes_site.plugins.equations.tree import EquationsMarkdown

log = get_plugin_logger("equations")

EXTENSION = "mlnotes_site.plugins.equations:EquationsExtension"
TEMPLATE = Path(mlnotes_site.__file__).parent / "templates"
ADMONITION = Path("python/material/docstring/admonition.html.jinja")


def equation_link(page: str, label: str, text: str | None = None) -> str:
    """The cross-reference the template writes for an `Equation:` line (mkdocs-autorefs
    resolves it); `text`: what the plugin makes of its text once the number is known."""
    ref = escape(f"{page}#{label}")
    return (
        f'<autoref identifier="{ref}" class="mlnotes-equation-link" data-preview>'
        f"{ref if text is None else text}</autoref>"
    )


def _extension_listed(extensions: list) -> bool:
    """Is `EquationsExtension` among the python handler's `extensions` (a path, or a
    {path: options} mapping)?"""
    names = [next(iter(e)) if isinstance(e, dict) else e for e in extensions or []]
    return EXTENSION in names


class EquationsConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Link equations and code (false: no "Computed by" lines, ids or numbers; an API page's
    `Equation:` links then fail to resolve, so unset mkdocstrings' custom_templates too)."""
    package = c.Type(str, default=PACKAGE)
    """The package (a folder next to mkdocs.yml) whose docstrings' `Equation:` sections link."""


class EquationsPlugin(BasePlugin[EquationsConfig]):
    """Equation <-> code links: "Computed by" lines, equation ids and numbers, API links.

    It owns the equation numbers: the other plugins read them through its methods
    (`page_numbers`, `computed_by`, `citing_renumbered`), never its attributes. Under
    `mkdocs serve` the plugin object lives as long as the server (it has an `on_startup`
    event), and a page's numbers are those of the build that last rendered it, so a
    `--dirty` build knows the numbers of the pages it does not render.
    """

    def __init__(self) -> None:
        self.refs: list[EquationRef] = []
        self.by_page: dict[str, dict[str, list[str]]] = {}
        self.markdown = EquationsMarkdown()
        self.autorefs: BasePlugin | None = None
        # {src_uri: {label: N}}, from each page's last render
        self._numbers: dict[str, dict[str, int]] = {}
        # the pages this build rendered with numbers other than their last render's
        self._renumbered: set[str] = set()
        # {page: the pages whose equations it links to}, from its last render
        self._citing: dict[str, set[str]] = {}

    # --- what the other plugins ask ---------------------------------------------------

    def page_numbers(self) -> dict[str, dict[str, int]]:
        """Each page's equation numbers, `{src_uri: {label: N}}` (a copy): every page's
        once the build has rendered them all (at `on_env`, and after)."""
        return {uri: dict(numbers) for uri, numbers in self._numbers.items()}

    def computed_by(self, src_uri: str) -> list[tuple[str, str]]:
        """`(label, function)` for each equation of the page a docstring names, sorted: what
        the page's "Computed by" lines say."""
        return sorted(
            (label, identifier)
            for label, identifiers in self.by_page.get(src_uri, {}).items()
            for identifier in identifiers
        )

    def citing_renumbered(self) -> set[str]:
        """The pages that link to an equation of a page this build rendered with new numbers
        (as those pages linked when they last rendered): the pages whose links must be
        rendered again, where a `--dirty` build did not render them."""
        return {page for page, targets in self._citing.items() if targets & self._renumbered}

    # --- events ------------------------------------------------------------------------

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        """(Its presence keeps this plugin object, and so its numbers, for the whole
        `mkdocs serve`: MkDocs' rule for plugins with an on_startup event.)"""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self._renumbered = set()
        # one instance: a config reused by `mkdocs serve` must not get a second
        config.markdown_extensions[:] = [
            e for e in config.markdown_extensions if not isinstance(e, EquationsMarkdown)
        ]
        if not self.config.enabled:
            self.refs, self.by_page = [], {}
            return config
        docs = Path(config.docs_dir)
        package_dir = project_path(config, self.config.package)
        self.refs = (
            collect_equation_refs(package_dir, self.config.package) if package_dir.is_dir() else []
        )
        for problem in validate_equation_refs(self.refs, docs):
            log.warning(problem)
        by_page: dict[str, dict[str, list[str]]] = {}
        for ref in self.refs:
            by_page.setdefault(ref.page, {}).setdefault(ref.label, []).append(ref.identifier)
        self.by_page = by_page
        self._check_mkdocstrings(config)
        config.markdown_extensions.append(self.markdown)
        return config

    def _check_mkdocstrings(self, config: MkDocsConfig) -> None:
        """An `Equation:` section renders as links only with the Griffe extension in the
        python handler's options and this package's templates as mkdocstrings'
        `custom_templates`: else it renders as plain text, which is a warning."""
        plugin = config.plugins.get("mkdocstrings")
        if plugin is None or not self.refs:
            return
        python = plugin.config.handlers.get("python") or {}
        templates = plugin.config.custom_templates
        admonition = project_path(config, templates) / ADMONITION if templates else None
        missing = []
        if not _extension_listed((python.get("options") or {}).get("extensions")):
            missing.append(f"`extensions: [{EXTENSION}]` in its python handler's options")
        if admonition is None or "mlnotes-equation-link" not in _read(admonition):
            missing.append(f"`custom_templates: {_shown(TEMPLATE, config)}`")
        if missing:
            log.warning(
                f"mkdocstrings renders the Equation: sections of {self.config.package}'s "
                f"docstrings ({len(self.refs)} references) as plain text, not as links: it "
                f"needs {' and '.join(missing)} (README: Layout)"
            )

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        pages = {f.src_uri for f in files.documentation_pages()}
        for kept in (self._numbers, self._citing):
            for uri in set(kept) - pages:
                del kept[uri]
        self.autorefs = config.plugins.get("autorefs")
        return files

    def on_pre_page(self, page: Page, *, config: MkDocsConfig, files: Files) -> Page:
        self.markdown.start_page(self.by_page.get(page.file.src_uri, {}))
        return page

    def on_page_content(
        self, output: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        if not self.config.enabled:
            return output
        uri, equations = page.file.src_uri, self.markdown.page
        if equations.inner and equations.outer:
            log.warning(
                f"{uri}: equations are numbered both in its docstrings and in its own text: "
                "the build numbers the docstrings' first, MathJax in the page's order"
            )
        numbers = dict(equations.numbers)
        if uri in self._numbers and self._numbers[uri] != numbers:
            self._renumbered.add(uri)
        self._numbers[uri] = numbers
        if self.autorefs is not None:  # the API pages' links to the equations
            for label in dict.fromkeys(equations.labels):
                self.autorefs.register_anchor(page, f"{uri}#{label}", label)
        return output

    # after the pages render (all numbered), before autorefs resolves the links (at -50)
    @event_priority(-40)
    def on_env(self, env: Environment, *, config: MkDocsConfig, files: Files) -> Environment:
        """The text of the API pages' links: "equation (N) of <page title>"."""
        titles = {f.src_uri: f.page.title for f in files.documentation_pages() if f.page}
        for f in files.documentation_pages():
            page = f.page
            if page is None or page.content is None:
                continue
            content, targets = page.content, set()
            for ref in self.refs:
                link = equation_link(ref.page, ref.label)
                if link not in content:
                    continue
                targets.add(ref.page)
                number = self._numbers.get(ref.page, {}).get(ref.label)
                what = f"equation ({number})" if number else html.escape(ref.label)
                title = html.escape(titles.get(ref.page) or ref.page)
                content = content.replace(
                    link, equation_link(ref.page, ref.label, f"{what} of {title}")
                )
            page.content = content
            self._citing[f.src_uri] = targets
        return env


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def _shown(path: Path, config: MkDocsConfig) -> str:
    """`path` relative to mkdocs.yml's folder, when inside it."""
    root = Path(config.config_file_path or ".").resolve().parent
    path = path.resolve()
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
