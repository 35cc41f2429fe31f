"""The `mlnotes-problems` plugin (mkdocs.yml `plugins:`): the author's mistakes, shown in the browser under `make serve`.

A strict build (`make site`, `make test`) fails on a mistake and names it in the terminal.
Under `mkdocs serve` a failed build would leave the browser waiting on the old site with
no message, so the build goes on and each page the mistake touches says so at its top,
in a banner naming the file (or key), the line and the message:

- a figure script that raises (scripts/mlnotes_site/figure_builder.py deletes its old SVGs, so no
  stale figure is served): every page that shows the figure;
- a notebook cell that raises (scripts/mlnotes_site/plugins/notebooks.py): the notebook's page, shown
  from its source, unexecuted, with no download;
- a syntax error in an `mlnotes` module: its API page (the `:::` block is replaced by the
  error; mkdocstrings would otherwise stop the build), and through the two above every
  figure and notebook that imports it;
- an unknown citation key, a TeX error (scripts/mlnotes_site/plugins/typeset.py), a broken link, anything a
  plugin warns about while a page renders: that page;
- an edit of the build code itself (scripts/mlnotes_site/, but the figure builder, which is
  re-imported): Python keeps the plugin modules MkDocs imported at startup, so every page
  says "restart `make serve`" until the file is back as it was or the server restarts.

A warning logged outside any page (the figure builder's, the notebooks') is shown on the
pages it names: a plugin attributes a log record with `extra={"mlnotes_page": src_uri}` or
`extra={"mlnotes_figure": name}`. Fixing the file rebuilds the page without the banner
(scripts/mlnotes_site/plugins/incremental.py re-renders a page whose figures failed or recovered).
Under `mkdocs build` this plugin does nothing. It has no options. It must come after the
other `mlnotes-*` plugins under `plugins:` (its banner goes in after theirs have run).
"""

from __future__ import annotations

import html
import logging
import re
from pathlib import Path

from mkdocs.config import base
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger

from mlnotes_site.plugins.figure_blocks import shown_figures

log = get_plugin_logger("problems")
ROOT = Path(__file__).resolve().parents[3]
AUTODOC_BLOCK = re.compile(
    r"^:::[ \t]+(mlnotes(?:\.\w+)*)[ \t]*\n(?:[ \t]+.*\n|[ \t]*\n(?=[ \t]+\S))*", re.M
)
ARTICLE = re.compile(r'(<article class="md-content__inner[^"]*"[^>]*>)')


class _Collector(logging.Handler):
    """Keeps each warning of a build with the page (or figure) it belongs to."""

    def __init__(self, plugin: ProblemsPlugin):
        super().__init__(level=logging.WARNING)
        self.plugin = plugin

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("mkdocs.livereload"):  # the server's request log, not the build
            return
        try:
            message = record.getMessage()
        except Exception:  # a malformed record must not break the build
            message = str(record.msg)
        plugin = self.plugin
        page = getattr(record, "mlnotes_page", None)
        figure = getattr(record, "mlnotes_figure", None)
        if figure is not None:
            plugin.figures.setdefault(figure, []).append(message)
        elif page is not None:
            plugin.pages.setdefault(page, []).append(message)
        elif plugin.current is not None:
            plugin.pages.setdefault(plugin.current, []).append(message)
        else:
            plugin.build.append(message)


def _hook_code() -> dict[str, bytes]:
    """The build code Python imports once per process (this package's modules);
    figure_builder.py is left out: the figures plugin re-imports it when it changes."""
    return {
        p.relative_to(ROOT).as_posix(): p.read_bytes()
        for p in sorted(Path(__file__).resolve().parent.parent.rglob("*.py"))
        if p.name != "figure_builder.py"
    }


def syntax_error(path: Path) -> str | None:
    """`file:line: message` if the Python file at `path` does not compile, else None."""
    try:
        compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    except SyntaxError as err:
        where = Path(err.filename or path)
        try:
            where = where.resolve().relative_to(ROOT)
        except ValueError:
            pass
        return f"{where.as_posix()}:{err.lineno}: {err.__class__.__name__}: {err.msg}"
    return None


def _module_path(root: Path, identifier: str) -> Path | None:
    parts = identifier.split(".")
    for n in range(len(parts), 0, -1):
        for candidate in (
            root.joinpath(*parts[:n]).with_suffix(".py"),
            root.joinpath(*parts[:n], "__init__.py"),
        ):
            if candidate.is_file():
                return candidate
    return None


def banner(problems: list[str]) -> str:
    items = "".join(f"<li><pre>{html.escape(p)}</pre></li>" for p in dict.fromkeys(problems))
    return (
        '<div class="admonition failure mlnotes-build-problem" role="alert">'
        '<p class="admonition-title">This page has a problem (make serve; a strict build fails on it)</p>'
        f"<ul>{items}</ul></div>"
    )


class ProblemsConfig(base.Config):
    """No options: an unknown one fails the strict build."""


class ProblemsPlugin(BasePlugin[ProblemsConfig]):
    """Under `mkdocs serve`: a banner on each page that a mistake touches."""

    def __init__(self):
        self.active = False
        self.hook_code: dict[str, bytes] = {}
        self.collector: _Collector | None = None
        self.pages: dict[str, list[str]] = {}  # src_uri -> messages
        self.figures: dict[str, list[str]] = {}  # figure name -> messages
        self.build: list[str] = []  # messages of no page: shown on every page
        self.current: str | None = None  # the page being rendered

    def failed_figures(self) -> dict[str, list[str]]:
        """The figures this build failed to draw, and why (read by mlnotes-incremental)."""
        return dict(self.figures)

    def on_startup(self, *, command, dirty):
        self.active = command == "serve"
        self.hook_code = _hook_code()
        if self.active and self.collector is None:
            self.collector = _Collector(self)
            for name in ("mkdocs", "griffe"):
                logging.getLogger(name).addHandler(self.collector)

    def on_shutdown(self):
        collector, self.collector = self.collector, None
        if collector is not None:
            for name in ("mkdocs", "griffe"):
                logging.getLogger(name).removeHandler(collector)

    @event_priority(200)  # the first of a build: forget the last build's problems
    def on_config(self, config):
        self.pages, self.figures, self.build, self.current = {}, {}, [], None
        if self.active:
            now = _hook_code()
            changed = sorted(
                n for n in set(now) | set(self.hook_code) if now.get(n) != self.hook_code.get(n)
            )
            if changed:
                # Python keeps the plugin modules imported at startup: this build ran the old code
                log.warning(
                    f"{', '.join(changed)} changed since `make serve` started; MkDocs keeps the "
                    "build code it loaded, so these pages were built with the old one: "
                    "restart `make serve`"
                )
        return config

    @event_priority(100)  # before the other plugins' on_page_markdown, and mkdocstrings converts
    def on_page_markdown(self, markdown: str, page, config, files):
        if not self.active:
            return markdown
        uri = page.file.src_uri
        self.current = uri
        root = Path(config.config_file_path).parent

        def replace(match: re.Match) -> str:
            path = _module_path(root, match.group(1))
            problem = syntax_error(path) if path is not None else None
            if problem is None:
                return match.group(0)
            self.pages.setdefault(uri, []).append(problem)
            return f'!!! failure "`{match.group(1)}` does not compile"\n\n    `{problem}`\n\n'

        markdown = AUTODOC_BLOCK.sub(replace, markdown)
        for name in shown_figures(markdown):
            for message in self.figures.get(name, []):
                self.pages.setdefault(uri, []).append(message)
        return markdown

    @event_priority(-100)  # after every other plugin has had its say
    def on_post_page(self, output: str, page, config):
        if not self.active:
            return output
        self.current = None
        problems = [*self.build, *self.pages.get(page.file.src_uri, [])]
        if not problems:
            return output
        block = banner(problems)
        output, n = ARTICLE.subn(lambda m: m.group(1) + block, output, count=1)
        if not n:  # a page without Material's article: put it first in the body
            output = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + block, output, count=1)
        return output
