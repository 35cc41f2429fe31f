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
- a file a page includes or documents that does not exist (yet): a `--8<--` snippet (a
  figure script not written yet, or renamed) or the module of a `:::` block (the line is
  left out, where pymdownx.snippets or mkdocstrings would otherwise stop the build): that
  page, naming its line; the page is rendered again when the file appears;
- an unknown citation key, a TeX error (scripts/mlnotes_site/plugins/typeset.py), a broken link, anything a
  plugin warns about while a page renders: that page;
- an edit of the build code itself (scripts/mlnotes_site/, but the figure builder, which is
  re-imported): Python keeps the plugin modules MkDocs imported at startup, so every page
  says "restart `make serve`" until the file is back as it was or the server restarts.

A warning logged outside any page (the figure builder's, the notebooks') is shown on the
pages it names: a plugin attributes a log record with `extra={"mlnotes_page": src_uri}` or
`extra={"mlnotes_figure": name}`. Fixing the file rebuilds the page without the banner
(scripts/mlnotes_site/plugins/incremental/ re-renders a page whose figures failed or recovered,
or whose included files changed). Under `mkdocs build` this plugin does nothing. It must
come after the other `mlnotes-*` plugins under `plugins:` (its banner goes in after theirs
have run).

Options:

    plugins:
      - mlnotes-problems:
          enabled: true   # false: a mistake stops `make serve`'s build, as a strict build
"""

from __future__ import annotations

import ast
import html
import logging
import re
from pathlib import Path
from typing import Literal

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

import mlnotes_site
from mlnotes_site import markup
from mlnotes_site.keys import Key

log = get_plugin_logger("problems")
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


def build_code() -> dict[Path, str]:
    """The content key of each module of the build code that Python imports once per
    process (this package's); figure_builder.py is left out: the figures plugin re-imports
    it when it changes."""
    package = Path(mlnotes_site.__file__).resolve().parent
    return {
        path: Key("build code").file(path, package).hexdigest()
        for path in sorted(package.rglob("*.py"))
        if path.name != "figure_builder.py"
    }


def _shown(path: Path, root: Path) -> str:
    """`path` as messages name it: relative to the project's folder when inside it."""
    path = Path(path).resolve()
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def syntax_error(path: Path, root: Path) -> str | None:
    """`file:line: message` if the Python file at `path` does not compile, else None; the
    file named relative to `root`, the project's folder."""
    try:
        compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    except SyntaxError as err:
        where = _shown(Path(err.filename or path), root)
        return f"{where}:{err.lineno}: {err.__class__.__name__}: {err.msg}"
    return None


def _defines(path: Path, names: list[str]) -> bool:
    """Is each of `names` (`["Disc", "area"]`) bound somewhere in the module at `path` (a
    function, a class, an import, an assignment, at any depth)? Loose on purpose: what it
    misses mkdocstrings reports (stopping the build), what it finds is there. A module that
    does not parse says yes (syntax_error reports it)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return True
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
    return "*" in bound or all(name in bound for name in names)


def banner(problems: list[str]) -> str:
    items = "".join(f"<li><pre>{html.escape(p)}</pre></li>" for p in dict.fromkeys(problems))
    return (
        '<div class="admonition failure mlnotes-build-problem" role="alert">'
        '<p class="admonition-title">This page has a problem (make serve; a strict build fails on it)</p>'
        f"<ul>{items}</ul></div>"
    )


class ProblemsConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Under `mkdocs serve`, show each mistake on the pages it touches and keep serving
    (false: a mistake that stops a strict build stops the serve's build too)."""


class ProblemsPlugin(BasePlugin[ProblemsConfig]):
    """Under `mkdocs serve`: a banner on each page that a mistake touches."""

    def __init__(self) -> None:
        self.serve = False
        self.code: dict[Path, str] = {}  # the build code's keys when the serve started
        self.collector: _Collector | None = None
        self.pages: dict[str, list[str]] = {}  # src_uri -> messages
        self.figures: dict[str, list[str]] = {}  # figure name -> messages
        self.build: list[str] = []  # messages of no page: shown on every page
        self.current: str | None = None  # the page being rendered
        self.root = Path()  # the project's folder (mkdocs.yml's)

    @property
    def active(self) -> bool:
        return self.serve and self.config.enabled

    def failed_figures(self) -> dict[str, list[str]]:
        """The figures this build failed to draw, and why (read by mlnotes-incremental)."""
        return dict(self.figures)

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self.serve = command == "serve"
        self.code = build_code()
        if self.serve and self.collector is None:
            self.collector = _Collector(self)
            for name in ("mkdocs", "griffe"):
                logging.getLogger(name).addHandler(self.collector)

    def on_shutdown(self) -> None:
        collector, self.collector = self.collector, None
        if collector is not None:
            for name in ("mkdocs", "griffe"):
                logging.getLogger(name).removeHandler(collector)

    @event_priority(200)  # the first of a build: forget the last build's problems
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.pages, self.figures, self.build, self.current = {}, {}, [], None
        self.root = Path(config.config_file_path or ".").resolve().parent
        if self.active:
            now = build_code()
            changed = sorted(
                _shown(path, self.root)
                for path in set(now) | set(self.code)
                if now.get(path) != self.code.get(path)
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
    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        if not self.active:
            return markdown
        uri = page.file.src_uri
        self.current = uri
        problems = self.pages.setdefault(uri, [])
        source = page.file.content_string
        # the line of the page's file where `markdown` starts (after its front matter)
        first = (
            source[: len(source) - len(markdown)].count("\n") if source.endswith(markdown) else 0
        )
        where = (
            f"{_shown(Path(page.file.abs_src_path), self.root)}:"
            if page.file.abs_src_path
            else f"{uri}:"
        )

        bases = markup.snippet_bases(config)
        lines = markdown.split("\n")
        for snippet in markup.snippets(markdown):
            if markup.snippet_file(snippet.path, bases) is None:
                folders = ", ".join(_shown(b, self.root) for b in bases)
                problems.append(
                    f"{where}{first + snippet.line}: --8<-- {snippet.path!r}: no such file "
                    f"under pymdownx.snippets' base_path ({folders})"
                )
                # left out (the line count kept): pymdownx.snippets shows it as written
                lines[snippet.line - 1] = markup.without_snippet(lines[snippet.line - 1])
        markdown = "\n".join(lines)

        paths = markup.module_paths(config)
        for block in reversed(markup.autodoc_blocks(markdown)):
            problem = self._autodoc_problem(block.identifier, paths)
            if problem is not None:
                problem = f"{where}{first + block.line}: ::: {block.identifier}: {problem}"
                problems.append(problem)
                markdown = (
                    markdown[: block.start]
                    + f'!!! failure "`{block.identifier}` cannot be documented"\n\n'
                    + f"    `{problem}`\n\n"
                    + markdown[block.end :]
                )

        for name in markup.figure_names(markdown):
            problems.extend(self.figures.get(name, []))
        return markdown

    def _autodoc_problem(self, identifier: str, paths: list[Path]) -> str | None:
        """What keeps mkdocstrings from documenting `identifier`, as far as the sources
        show: no module, a module that does not compile, no such member in it."""
        module = markup.find_module(identifier, paths)
        if module is None:  # not a package of the project: an installed one, say
            return None
        if not module.files:
            folders = ", ".join(_shown(p, self.root) for p in paths)
            return f"no module of it under {folders}"
        error = syntax_error(module.files[0], self.root)
        if error is not None:
            return error
        file, members = module.files[0], module.members
        if members and not _defines(file, members):
            if file.name == "__init__.py":  # `mlnotes.activations`, not written yet
                return (
                    f"no module {_shown(file.parent / members[0], self.root)}.py "
                    f"(nor `{members[0]}` in {_shown(file, self.root)})"
                )
            return f"{_shown(file, self.root)} has no {'.'.join(members)}"
        return None

    @event_priority(-100)  # after every other plugin has had its say
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
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
