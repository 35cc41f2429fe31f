r"""Typeset a page's math when the site is built: MathJax 4 in Node (typeset.mjs), no math
JavaScript in the reader's browser.

`typeset_html(html, render)` replaces the TeX inside each arithmatex wrapper
(`<span class="arithmatex">\(...\)</span>`, `<div class="arithmatex">\[...\]</div>`) by
MathJax's markup, keeping the wrapper and its attributes. A page is typeset as one
document (numbering continues across its expressions, an `\eqref` finds its `\label`
before or after it). `Typesetter` is such a `render`: one Node process running the
project's MathJax (its `node_modules`), started only for a page not in the cache, one
cache file per page keyed (keys.py) on its ordered expressions, typeset.mjs, MathJax's and
its font's versions and the output format. A notebook page's `$...$` are first put in
arithmatex wrappers by `wrap_notebook_math`, found in Node as MathJax found them in the
browser. Math as text (the search index, the table of contents) is mathtext.py's.
"""

from __future__ import annotations

import gzip
import html as htmllib
import json
import os
import re
import subprocess
from dataclasses import dataclass
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path
from typing import Callable

from mlnotes_site import keys, stop_process

# typeset.mjs, a file of this package (package data, wherever the package is installed)
SCRIPT = Path(str(resources.files(__package__) / "typeset.mjs"))
# in the project's node_modules (npm ci): MathJax, and its font, a package of its own (its
# glyph metrics and the stylesheet's characters)
MATHJAX_PACKAGE = "mathjax/package.json"
FONT_PACKAGE = "@mathjax/mathjax-newcm-font/package.json"

# An arithmatex wrapper: its tag, its other attributes, its TeX between \( \) or \[ \].
MATH = re.compile(
    r'<(span|div) class="arithmatex"([^>]*)>\s*(\\\(|\\\[)(.*?)(\\\)|\\\])\s*</\1>', re.S
)

Item = dict  # {"tex": str, "display": bool}
Rendered = dict  # {"items": [{"html": str, "error": str | None}], "css": str}


@dataclass
class TeXError:
    index: int  # the expression's place on the page (0-based)
    tex: str
    display: bool
    error: str

    def __str__(self) -> str:
        shown = self.tex.strip().replace("\n", " ")
        shown = shown if len(shown) <= 120 else shown[:117] + "..."
        kind = "display" if self.display else "inline"
        return f"TeX error in {kind} math {shown!r}: {self.error}"


def expressions(page_html: str) -> list[Item]:
    """The page's arithmatex expressions, in document order, as typeset.mjs takes them."""
    return [
        {"tex": htmllib.unescape(m.group(4)), "display": m.group(3) == "\\["}
        for m in MATH.finditer(page_html)
    ]


# MathJax's CHTML stylesheet names its woff2 files under the font package's npm name (the
# loader's `fonts` path in typeset.mjs); the site serves the package at
# javascripts/mathjax/fonts/mathjax-newcm-font/ (scripts/mlnotes_site/plugins/assets.py).
FONT_PREFIX = "@mathjax/mathjax-newcm-font/"
SITE_FONT_DIR = "javascripts/mathjax/fonts/mathjax-newcm-font/"


def stylesheet(css: str, font_url: str) -> str:
    """The page's `<style>`: `css` with its font URLs pointing at `font_url` (the served
    mathjax-newcm-font/ folder, relative to the page, ending in /)."""
    css = css.replace(FONT_PREFIX, font_url)
    # Not MathJax's own id (MJX-CHTML-styles): a MathJax loaded later in the page (its menu,
    # a preview) replaces the sheet of that id by its own, which has only its own glyphs.
    return f'<style class="mlnotes-math-styles">{css}</style>' if css else ""


def typeset_html(
    page_html: str,
    render: Callable[[list[Item]], Rendered],
    font_url: str = SITE_FONT_DIR,
) -> tuple[str, list[TeXError]]:
    """Replace the TeX of every arithmatex wrapper in `page_html` by its typeset markup.

    `page_html` is a whole page or a page's content (MkDocs' on_page_content). The
    stylesheet the page's math needs goes before `</head>` in a whole page, else at the
    start of the content (where Material's instant navigation swaps it in with the page).
    `font_url`: the served mathjax-newcm-font/ folder, relative to the page.

    Returns the new HTML and the TeX errors, each with its expression. A page without math
    is returned unchanged, without calling `render`.
    """
    items = expressions(page_html)
    if not items:
        return page_html, []
    answer = render(items)
    rendered = answer["items"]
    if len(rendered) != len(items):
        raise RuntimeError(f"typeset: {len(items)} expressions sent, {len(rendered)} returned")
    errors = [
        TeXError(i, item["tex"], item["display"], out["error"])
        for i, (item, out) in enumerate(zip(items, rendered))
        if out["error"]
    ]
    it = iter(rendered)

    def replace(m: re.Match) -> str:
        tag, attrs = m.group(1), m.group(2)
        return f'<{tag} class="arithmatex"{attrs}>{next(it)["html"]}</{tag}>'

    out = MATH.sub(replace, page_html)
    style = stylesheet(answer["css"], font_url)
    if "</head>" in out:
        out = out.replace("</head>", style + "</head>", 1)
    else:
        out = style + out
    return out, errors


# Notebook pages (mkdocs-jupyter): the elements whose math MathJax typeset in the browser
# (their markdown cells, their LaTeX outputs), as typeset.mjs's NOTEBOOK_CLASSES.
NOTEBOOK_CLASSES = ("jp-RenderedMarkdown", "jp-MarkdownOutput", "jp-RenderedLatex")
VOID = set("area base br col embed hr img input link meta source track wbr".split())


class _NotebookElements(HTMLParser):
    """The (start, end) offsets of the outermost elements with a NOTEBOOK_CLASSES class."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=False)
        # HTMLParser's getpos() counts lines by "\n" only
        self.lines = [0] + [m.end() for m in re.finditer("\n", text)]
        self.text = text
        self.spans: list[tuple[int, int]] = []
        self.open: tuple[str, int, int] | None = None  # tag, depth, start

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag, attrs):
        if self.open is not None:
            name, depth, start = self.open
            if tag == name:
                self.open = (name, depth + 1, start)
            return
        classes = (dict(attrs).get("class") or "").split()
        if any(c in NOTEBOOK_CLASSES for c in classes) and tag not in VOID:
            self.open = (tag, 1, self._offset())

    def handle_endtag(self, tag):
        if self.open is None or tag != self.open[0]:
            return
        name, depth, start = self.open
        if depth > 1:
            self.open = (name, depth - 1, start)
            return
        end = self.text.index(">", self._offset()) + 1
        self.spans.append((start, end))
        self.open = None


def notebook_elements(page_html: str) -> list[tuple[int, int]]:
    """Where the page's notebook elements are (their math, in `$...$`, is found in Node)."""
    if not any(c in page_html for c in NOTEBOOK_CLASSES):
        return []
    parser = _NotebookElements(page_html)
    parser.feed(page_html)
    parser.close()
    return parser.spans


def wrap_notebook_math(page_html: str, find: Callable[[list[str]], dict]) -> tuple[str, list[str]]:
    """The page with the math of its notebook elements in arithmatex wrappers, as
    typeset.mjs finds it (`find`: a Typesetter's `find`), and the errors."""
    spans = notebook_elements(page_html)
    if not spans:
        return page_html, []
    answer = find([page_html[a:b] for a, b in spans])
    out, last = [], 0
    for (a, b), new in zip(spans, answer["find"]):
        if new is not None:
            out += [page_html[last:a], new]
            last = b
    out.append(page_html[last:])
    return "".join(out), list(answer.get("errors") or [])


class Typesetter:
    """A `render` for typeset_html: typeset.mjs in one Node process, with a per-page cache.

    `node_modules`: the project's (`mlnotes_site.node_modules`), where MathJax is;
    `cache_dir`: one gzipped JSON file a page (none: no cache). The process starts at the
    first page that is not in the cache; `close()` stops it. `started` counts the processes
    started (a warm build starts none).
    """

    def __init__(self, node_modules: Path, output: str = "chtml", cache_dir: Path | None = None):
        self.node_modules = Path(node_modules)
        self.output = output
        self.cache_dir = cache_dir
        self.salt = (
            keys.Key("typeset")
            .file(SCRIPT, SCRIPT.parent)
            .file(self.node_modules / MATHJAX_PACKAGE, self.node_modules, missing_ok=True)
            .file(self.node_modules / FONT_PACKAGE, self.node_modules, missing_ok=True)
            .add("output", output)
            .hexdigest()
        )
        self.process: subprocess.Popen | None = None
        self.started = 0
        self.used: set[Path] = set()  # the cache files this run read or wrote
        self._n = 0

    def key(self, items: list[Item]) -> str:
        """The cache key of a page's expressions, in order."""
        key = keys.Key("typeset page").add("typesetter", self.salt)
        for item in items:
            key.add("display" if item["display"] else "inline", item["tex"])
        return key.hexdigest()

    def _cached(self, key: str) -> Path | None:
        return None if self.cache_dir is None else self.cache_dir / f"{key}.json.gz"

    def __call__(self, items: list[Item]) -> Rendered:
        return self._cached_answer(self.key(items), lambda: self._typeset(items))

    def find(self, elements: list[str]) -> dict:
        """The notebook elements with their math in arithmatex wrappers (typeset.mjs's
        FIND): `{"find": [html or None (no math), ...], "errors": [...]}`, cached as pages are."""
        key = keys.Key("typeset find").add("typesetter", self.salt)
        for element in elements:
            key.add("element", element)
        return self._cached_answer(key.hexdigest(), lambda: self._ask({"find": elements}))

    def _cached_answer(self, key: str, compute: Callable[[], dict]) -> dict:
        path = self._cached(key)
        if path is not None:
            self.used.add(path)
        if path is not None and path.is_file():
            try:
                return json.loads(gzip.decompress(path.read_bytes()))
            except (OSError, ValueError, EOFError):
                pass
        answer = compute()
        if path is not None and not answer.get("fatal"):  # a failed run is never cached
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # one per writer
            tmp.write_bytes(gzip.compress(json.dumps(answer).encode(), mtime=0))
            tmp.replace(path)
        return answer

    def prune(self) -> int:
        """Delete the cache files this run did not use (after a whole build: pages that
        changed or went away leave theirs behind); return how many."""
        if self.cache_dir is None or not self.cache_dir.is_dir():
            return 0
        stale = [p for p in self.cache_dir.glob("*.json.gz") if p not in self.used]
        for p in stale:
            p.unlink(missing_ok=True)
        return len(stale)

    def _process(self) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            if not (self.node_modules / MATHJAX_PACKAGE).is_file():
                raise RuntimeError(
                    f"MathJax is not installed ({self.node_modules / 'mathjax'} is missing): "
                    "run `npm ci` in the project's folder"
                )
            self.process = subprocess.Popen(
                ["node", str(SCRIPT), str(self.node_modules), self.output],
                cwd=self.node_modules.parent,
                text=True,
                encoding="utf-8",
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            self.started += 1
        return self.process

    def _typeset(self, items: list[Item]) -> Rendered:
        answer = self._ask({"items": items})
        return {
            "items": answer["items"],
            "css": answer["css"],
            **({"fatal": True} if answer.get("fatal") else {}),
        }

    def _ask(self, request: dict) -> dict:
        process = self._process()
        self._n += 1
        try:
            process.stdin.write(json.dumps({"id": self._n, **request}) + "\n")
            process.stdin.flush()
            line = process.stdout.readline()
        except OSError as err:  # the process died (a broken pipe)
            self.close()
            raise RuntimeError(f"typeset.mjs stopped ({err}): see the error above") from err
        if not line:
            self.close()
            raise RuntimeError("typeset.mjs stopped: see the error above")
        answer = json.loads(line)
        if answer.get("id") != self._n:
            self.close()
            raise RuntimeError(f"typeset.mjs answered page {answer.get('id')}, not {self._n}")
        answer.pop("id")
        return answer

    def close(self) -> None:
        process, self.process = self.process, None
        stop_process(process)

    def __enter__(self) -> "Typesetter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
