"""The `mlnotes-tex` plugin (mkdocs.yml `plugins:`): every TeX expression is checked when the site is built.

A TeX mistake (`\\fracc`, a missing brace) would show only as red text on the page
(mlnotes-typeset reports it too, when it typesets the page). This plugin parses each expression of each page
(the post, the notes, the API reference's docstrings, the sources page: the
`arithmatex` spans Python-Markdown writes) with the site's own MathJax 4 in Node
(scripts/mlnotes_site/tex_check.mjs, npm `mathjax` as pinned in package.json, the pages' TeX
configuration) and logs a warning naming the page and the expression for each error: a
strict build (`make site`, `make test`) fails, and under `make serve` the page shows it
(scripts/mlnotes_site/problems.py).

One Node process per build, started only when an expression is not in the cache: the
file of the `cache` option (default `.cache/tex/checked.json`, relative to mkdocs.yml)
maps a hash of each expression (with its display mode, the MathJax version and the
checker's code) to its error or to none, so a warm build and an edit under `make serve`
pay only for new or changed expressions. Under `make serve` the
process lives as long as the server.

Options:

    plugins:
      - mlnotes-tex:
          cache: .cache/tex/checked.json   # the checked expressions, relative to mkdocs.yml
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger

from mlnotes_site import project_path, stop_process
from mlnotes_site.keys import Key, digest

log = get_plugin_logger("tex")

ROOT = Path(__file__).resolve().parents[2]
CHECKER = Path(__file__).with_name("tex_check.mjs")
MATHJAX_PACKAGE = ROOT / "node_modules" / "mathjax" / "package.json"
CACHE = ".cache/tex/checked.json"  # the default of the `cache` option
# arithmatex (generic): <span class="arithmatex">\(...\)</span>, <div class="arithmatex">\[...\]</div>
# (mlnotes-equations, which runs first, adds attributes to the display blocks: data-eqn-start)
MATH = re.compile(
    r'<(span|div) class="arithmatex"[^>]*>\s*(\\\(|\\\[)(.*?)(\\\)|\\\])\s*</\1>', re.S
)


def _salt() -> str:
    """What, besides the expression, decides whether it is an error: MathJax and the checker."""
    key = Key("tex checker").file(CHECKER, ROOT)
    return key.file(MATHJAX_PACKAGE, ROOT, missing_ok=True).hexdigest()


def expressions(content: str) -> list[tuple[str, bool]]:
    """The TeX of each arithmatex expression in a page's HTML, with its display mode."""
    return [(html.unescape(m.group(3)), m.group(2) == "\\[") for m in MATH.finditer(content)]


class TexConfig(base.Config):
    cache = c.Type(str, default=CACHE)
    """The checked expressions (JSON), relative to mkdocs.yml's folder."""


class TexPlugin(BasePlugin[TexConfig]):
    """Checks the TeX of every page with MathJax in Node; a TeX error is a warning."""

    def __init__(self):
        self.process: subprocess.Popen | None = None
        self.cache: dict | None = None
        self.salt: str | None = None
        self.serve = False
        self.dirty = False
        self.cache_file = ROOT / CACHE

    def on_startup(self, *, command, dirty):
        self.serve = command == "serve"

    def on_shutdown(self):
        self._stop()

    def on_config(self, config):
        self.cache_file = project_path(config, self.config.cache)
        return config

    def _stop(self) -> None:
        process, self.process = self.process, None
        stop_process(process)

    def on_pre_build(self, config):
        salt = _salt()
        if self.cache is None or salt != self.salt:
            try:
                cache = json.loads(self.cache_file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                cache = {}
            self.cache = cache if cache.get("salt") == salt else {"salt": salt, "checked": {}}
            self.salt = salt
            self._stop()  # a checker started with other code or another MathJax

    def _process(self) -> subprocess.Popen:
        process = self.process
        if process is None or process.poll() is not None:
            if not MATHJAX_PACKAGE.is_file():
                raise PluginError(
                    "MathJax is not installed (node_modules/mathjax): run `npm ci` (or any make target)"
                )
            process = subprocess.Popen(
                ["node", str(CHECKER)],
                cwd=ROOT,
                text=True,
                encoding="utf-8",
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            self.process = process
        return process

    def check(self, expressions: list[tuple[str, bool]]) -> list[str | None]:
        """The TeX error of each (tex, display) expression, or None; cached by content."""
        checked = self.cache["checked"]
        keys = [
            digest("tex", [("display", str(int(display))), ("tex", tex)])[:32]
            for tex, display in expressions
        ]
        todo = {key: expr for key, expr in zip(keys, expressions) if key not in checked}
        if todo:
            process = self._process()
            for key, (tex, display) in todo.items():
                process.stdin.write(json.dumps({"id": key, "tex": tex, "display": display}) + "\n")
            process.stdin.flush()
            for _ in todo:
                line = process.stdout.readline()
                if not line:
                    raise PluginError(
                        "the TeX checker (scripts/mlnotes_site/tex_check.mjs) stopped: see the error above"
                    )
                answer = json.loads(line)
                checked[answer["id"]] = answer["error"]
            self.dirty = True
        return [checked[key] for key in keys]

    def on_page_content(self, html: str, page, config, files):
        found = expressions(html)
        if not found:
            return html
        for (tex, display), error in zip(found, self.check(found)):
            if error is not None:
                shown = tex.strip().replace("\n", " ")
                shown = shown if len(shown) <= 120 else shown[:117] + "..."
                log.warning(
                    f"{page.file.src_uri}: TeX error in {'display' if display else 'inline'} math "
                    f"{shown!r}: {error}"
                )
        return html

    def on_post_build(self, config):
        if self.dirty:
            self.cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.cache_file.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.cache, sort_keys=True), encoding="utf-8")
            tmp.replace(self.cache_file)
            self.dirty = False
        if not self.serve:
            self._stop()
