"""MkDocs hook (mkdocs.yml: `hooks:`): the author's mistakes, shown in the browser under `make serve`.

A strict build (`make site`, `make test`) fails on a mistake and names it in the terminal.
Under `mkdocs serve` a failed build would leave the browser waiting on the old site with
no message, so the build goes on and each page the mistake touches says so at its top,
in a banner naming the file (or key), the line and the message:

- a figure script that raises (scripts/mlnotes_site/build_figures.py deletes its old SVGs, so no
  stale figure is served): every page that shows the figure;
- a notebook cell that raises (scripts/mlnotes_site/apparatus.py): the notebook's page, shown
  from its source, unexecuted, with no download;
- a syntax error in an `mlnotes` module: its API page (the `:::` block is replaced by the
  error; mkdocstrings would otherwise stop the build), and through the two above every
  figure and notebook that imports it;
- an unknown citation key, a TeX error (scripts/mlnotes_site/tex.py), a broken link, anything a
  hook or plugin warns about while a page renders: that page;
- an edit of the build code itself (scripts/mlnotes_site/, but the figure builder, which is
  re-imported): MkDocs keeps the hook modules it loaded at startup, so every page says
  "restart `make serve`" until the file is back as it was or the server restarts.

A warning logged outside any page (the figure builder's, the notebooks') is shown on the
pages it names: a hook attributes a log record with `extra={"mlnotes_page": src_uri}` or
`extra={"mlnotes_figure": name}`. Fixing the file rebuilds the page without the banner
(scripts/mlnotes_site/incremental.py re-renders a page whose figures failed or recovered).
Under `mkdocs build` this hook does nothing.
"""

from __future__ import annotations

import html
import logging
import re
from pathlib import Path

from mkdocs.plugins import event_priority, get_plugin_logger

log = get_plugin_logger("problems")
ROOT = Path(__file__).resolve().parents[2]
AUTODOC_BLOCK = re.compile(
    r"^:::[ \t]+(mlnotes(?:\.\w+)*)[ \t]*\n(?:[ \t]+.*\n|[ \t]*\n(?=[ \t]+\S))*", re.M
)
FIGURE_REF = re.compile(r"figures/([\w.-]+?)(?:-dark)?\.svg")
ARTICLE = re.compile(r'(<article class="md-content__inner[^"]*"[^>]*>)')

_STATE: dict = {"active": False}


class _Collector(logging.Handler):
    """Keeps each warning of a build with the page (or figure) it belongs to."""

    def __init__(self):
        super().__init__(level=logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("mkdocs.livereload"):  # the server's request log, not the build
            return
        try:
            message = record.getMessage()
        except Exception:  # a malformed record must not break the build
            message = str(record.msg)
        page = getattr(record, "mlnotes_page", None)
        figure = getattr(record, "mlnotes_figure", None)
        if figure is not None:
            _STATE["figures"].setdefault(figure, []).append(message)
        elif page is not None:
            _STATE["pages"].setdefault(page, []).append(message)
        elif _STATE.get("current") is not None:
            _STATE["pages"].setdefault(_STATE["current"], []).append(message)
        else:
            _STATE["build"].append(message)


def _hook_code() -> dict[str, bytes]:
    """The build code MkDocs loads once per process (the hooks and what they import by path);
    build_figures.py is left out: hooks.py re-imports it when it changes."""
    return {
        p.relative_to(ROOT).as_posix(): p.read_bytes()
        for p in sorted((ROOT / "scripts" / "mlnotes_site").glob("*.py"))
        if p.name != "build_figures.py"
    }


def on_startup(command, **kwargs):
    _STATE.clear()
    _STATE["active"] = command == "serve"
    _STATE["hook_code"] = _hook_code()
    if _STATE["active"]:
        _STATE["collector"] = _Collector()
        for name in ("mkdocs", "griffe"):
            logging.getLogger(name).addHandler(_STATE["collector"])


def on_shutdown(**kwargs):
    collector = _STATE.pop("collector", None)
    if collector is not None:
        for name in ("mkdocs", "griffe"):
            logging.getLogger(name).removeHandler(collector)


@event_priority(200)  # the first hook of a build: forget the last build's problems
def on_config(config, **kwargs):
    _STATE.update(pages={}, figures={}, build=[], current=None)
    if _STATE.get("active"):
        now = _hook_code()
        changed = sorted(
            n
            for n in set(now) | set(_STATE["hook_code"])
            if now.get(n) != _STATE["hook_code"].get(n)
        )
        if changed:
            # MkDocs keeps the hook modules it loaded at startup: this build ran the old code
            log.warning(
                f"{', '.join(changed)} changed since `make serve` started; MkDocs keeps the build "
                "code it loaded, so these pages were built with the old one: restart `make serve`"
            )
    return config


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


@event_priority(100)  # before the other hooks' on_page_markdown, and before mkdocstrings converts
def on_page_markdown(markdown: str, page, config, files, **kwargs):
    if not _STATE.get("active"):
        return markdown
    uri = page.file.src_uri
    _STATE["current"] = uri
    root = Path(config.config_file_path).parent

    def replace(match: re.Match) -> str:
        path = _module_path(root, match.group(1))
        problem = syntax_error(path) if path is not None else None
        if problem is None:
            return match.group(0)
        _STATE["pages"].setdefault(uri, []).append(problem)
        return f'!!! failure "`{match.group(1)}` does not compile"\n\n    `{problem}`\n\n'

    markdown = AUTODOC_BLOCK.sub(replace, markdown)
    for name in dict.fromkeys(FIGURE_REF.findall(markdown)):
        for message in _STATE["figures"].get(name, []):
            _STATE["pages"].setdefault(uri, []).append(message)
    return markdown


def banner(problems: list[str]) -> str:
    items = "".join(f"<li><pre>{html.escape(p)}</pre></li>" for p in dict.fromkeys(problems))
    return (
        '<div class="admonition failure mlnotes-build-problem" role="alert">'
        '<p class="admonition-title">This page has a problem (make serve; a strict build fails on it)</p>'
        f"<ul>{items}</ul></div>"
    )


@event_priority(-100)  # after every other hook has had its say
def on_post_page(output: str, page, config, **kwargs):
    if not _STATE.get("active"):
        return output
    _STATE["current"] = None
    problems = [*_STATE["build"], *_STATE["pages"].get(page.file.src_uri, [])]
    if not problems:
        return output
    block = banner(problems)
    output, n = ARTICLE.subn(lambda m: m.group(1) + block, output, count=1)
    if not n:  # a page without Material's article: put it first in the body
        output = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + block, output, count=1)
    return output
