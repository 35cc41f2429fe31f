r"""Typeset a page's math when the site is built: MathJax 4 in Node (typeset.mjs), no math
JavaScript in the reader's browser.

Python-Markdown's arithmatex (generic mode) writes each expression as
`<span class="arithmatex">\(...\)</span>` or `<div class="arithmatex">\[...\]</div>` (with
the attributes scripts/mlnotes_site/plugins/equations.py adds: `data-eqn-start`, `data-eqrefs`).
`typeset_html(html, render)` replaces the TeX inside each of these wrappers by MathJax's
markup (an `<mjx-container>`, with its assistive MathML), keeping the wrapper, its class
and its attributes, so that the site's CSS (div.arithmatex scrolls a wide equation in its
own box) and everything that looks for `.arithmatex` still finds it.

The page is typeset as one document (numbering continues across its expressions, and an
`\eqref` finds its `\label` before or after it): `render(items)` gets the page's
expressions in order and answers with each one's markup and error, and the stylesheet they
need. `Typesetter` is such a `render`: one Node process (started only when a page is not in
the cache), and a cache under `.cache/typeset/`, one file per page keyed on a hash of the
page's ordered expressions, MathJax's package.json, typeset.mjs and the output format.

A notebook page (mkdocs-jupyter) has no arithmatex wrappers: its markdown cells keep their
`$...$` and `$$...$$`. `wrap_notebook_math(html, typesetter.find)` puts that math in
arithmatex wrappers first, found in Node by MathJax's own code as the browser found it
(typeset.mjs, FIND), cached like a page; `typeset_html` then typesets the page.
`readable_math` turns math into plain text where it cannot be typeset (the search index,
the table of contents).
"""

from __future__ import annotations

import gzip
import hashlib
import html as htmllib
import json
import os
import re
import subprocess
from html.parser import HTMLParser
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from mlnotes_site import stop_process

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("typeset.mjs")
MATHJAX_PACKAGE = ROOT / "node_modules" / "mathjax" / "package.json"
FONT_PACKAGE = ROOT / "node_modules" / "@mathjax" / "mathjax-newcm-font" / "package.json"
CACHE_DIR = ROOT / ".cache" / "typeset"

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


def _salt(output: str) -> str:
    h = hashlib.sha256(SCRIPT.read_bytes())
    h.update(MATHJAX_PACKAGE.read_bytes() if MATHJAX_PACKAGE.is_file() else b"no mathjax")
    # the font is a package of its own (its glyph metrics and the stylesheet's characters)
    h.update(FONT_PACKAGE.read_bytes() if FONT_PACKAGE.is_file() else b"no font")
    h.update(output.encode())
    return h.hexdigest()


class Typesetter:
    """A `render` for typeset_html: typeset.mjs in one Node process, with a per-page cache.

    The process starts at the first page that is not in the cache; `close()` stops it.
    `started` counts the processes started (a warm build starts none).
    """

    def __init__(self, output: str = "chtml", cache_dir: Path | None = CACHE_DIR):
        self.output = output
        self.cache_dir = cache_dir
        self.salt = _salt(output)
        self.process: subprocess.Popen | None = None
        self.started = 0
        self.used: set[Path] = set()  # the cache files this run read or wrote
        self._n = 0

    def key(self, items: list[Item]) -> str:
        h = hashlib.sha256(self.salt.encode())
        for item in items:
            h.update(b"\1" if item["display"] else b"\0")
            h.update(item["tex"].encode())
            h.update(b"\xff")
        return h.hexdigest()[:40]

    def _cached(self, key: str) -> Path | None:
        return None if self.cache_dir is None else self.cache_dir / f"{key}.json.gz"

    def __call__(self, items: list[Item]) -> Rendered:
        return self._cached_answer(self.key(items), lambda: self._typeset(items))

    def find(self, elements: list[str]) -> dict:
        """The notebook elements with their math in arithmatex wrappers (typeset.mjs's
        FIND): `{"find": [html or None (no math), ...], "errors": [...]}`, cached as pages are."""
        h = hashlib.sha256(self.salt.encode() + b"find")
        for element in elements:
            h.update(element.encode())
            h.update(b"\xff")
        return self._cached_answer(h.hexdigest()[:40], lambda: self._ask({"find": elements}))

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
            if not MATHJAX_PACKAGE.is_file():
                raise RuntimeError("MathJax is not installed (node_modules/mathjax): run `npm ci`")
            self.process = subprocess.Popen(
                ["node", str(SCRIPT), self.output],
                cwd=ROOT,
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


# Math as text, where it cannot be typeset: the search index (titles and texts) and the
# table of contents (Material writes headings there as text). `readable` spells TeX out
# with Unicode symbols and a few ASCII conventions (a/b, ^, _, C(n, k)): `n = 16`,
# `⌊ (n + 2p - k)/s ⌋ + 1`, `ω_i = 10000^(-2i/d)`. It is not what MathJax shows (no
# layout, no equation numbers) nor what a reader would type in a search box (`⌊`, `σ`).
# Its rules cover the TeX the site's pages use (tests/test_site.py checks the built
# search index for leftover macro names); a macro it does not know keeps its name.
_SYMBOLS = {
    **{
        name: chr(0x3B1 + i)
        for i, name in enumerate(
            "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron "
            "pi rho varsigma sigma tau upsilon phi chi psi omega".split()
        )
    },
    **{
        name: char
        for name, char in zip(
            "Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega".split(), "ΓΔΘΛΞΠΣΦΨΩ"
        )
    },
    "varepsilon": "ε",
    "vartheta": "ϑ",
    "varphi": "φ",
    "ell": "ℓ",
    "infty": "∞",
    "partial": "∂",
    "nabla": "∇",
    "sum": "∑",
    "prod": "∏",
    "int": "∫",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "neq": "≠",
    "approx": "≈",
    "sim": "∼",
    "equiv": "≡",
    "propto": "∝",
    "cdot": "·",
    "cdots": "⋯",
    "ldots": "…",
    "dots": "…",
    "vdots": "⋮",
    "ddots": "⋱",
    "times": "×",
    "pm": "±",
    "mp": "∓",
    "in": "∈",
    "notin": "∉",
    "subset": "⊂",
    "subseteq": "⊆",
    "cup": "∪",
    "cap": "∩",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "Rightarrow": "⇒",
    "iff": "⇔",
    "mapsto": "↦",
    "forall": "∀",
    "exists": "∃",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "lceil": "⌈",
    "rceil": "⌉",
    "langle": "⟨",
    "rangle": "⟩",
    "top": "⊤",
    "perp": "⊥",
    "implies": "⟹",
    "impliedby": "⟸",
    "Leftarrow": "⇐",
    "Leftrightarrow": "⇔",
    "leftrightarrow": "↔",
    "neg": "¬",
    "land": "∧",
    "lor": "∨",
    "circ": "∘",
    "emptyset": "∅",
    "varnothing": "∅",
    "setminus": "∖",
    "odot": "⊙",
    "otimes": "⊗",
    "oplus": "⊕",
    "ast": "∗",
    "ll": "≪",
    "gg": "≫",
    "prime": "′",
    "colon": ":",
    "bmod": " mod ",
    "mod": " mod ",
    "mid": "|",
    "vert": "|",
    "lvert": "|",
    "rvert": "|",
    "Vert": "‖",
    "lVert": "‖",
    "rVert": "‖",
    "|": "‖",
    "{": "\ue000",  # a brace shown, not a group (restored at the end)
    "}": "\ue001",
    "&": "\ue002",  # an ampersand shown, not an alignment point
    "%": "%",
    "$": "$",
    "_": "_",
    "#": "#",
}
_DROP = (
    "left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr displaystyle "
    "textstyle scriptstyle limits nolimits quad qquad notag nonumber tiny scriptsize "
    "footnotesize small normalsize large Large LARGE huge Huge"
).split()
_GROUP = r"\{([^{}]*)\}"
# environments whose first argument is not content (array's column spec, alignat's count)
_ENV_ARGUMENT = {"array", "alignat", "alignat*", "subarray", "tabular"}
# a matrix environment's delimiters
_ENV_DELIMITERS = {
    "pmatrix": ("(", ")"),
    "bmatrix": ("[", "]"),
    "Bmatrix": ("\ue000", "\ue001"),
    "vmatrix": ("|", "|"),
    "Vmatrix": ("‖", "‖"),
    "cases": ("\ue000", ""),
}
_ENVIRONMENT = re.compile(r"\\(begin|end)\s*\{([A-Za-z]+\*?)\}")
_REF = re.compile(r"\\(eqref|ref)\s*\{([^{}]*)\}")


def readable(tex: str, refs: dict[str, int] | None = None) -> str:
    r"""TeX as plain text (Unicode symbols, a/b for a fraction, ^ and _ kept).

    Environments keep their content (`&` a space, a row break `\\` "; "), `\label`s go;
    `\eqref{label}` is "(N)" and `\ref{label}` "N" with N the label's number in `refs`
    (the page's equation numbers), else "(eq.)" and "eq.".
    """
    s = tex.strip()
    s = re.sub(r"\\label\s*\{[^{}]*\}", "", s)
    s = _REF.sub(lambda m: _ref(m.group(1), m.group(2), refs), s)
    s = re.sub(r"\\tag\*\s*" + _GROUP, r" \1", s)
    s = re.sub(r"\\tag\s*" + _GROUP, r" (\1)", s)
    s = re.sub(r"\\(?:left|right)\s*\.", "", s)  # an invisible delimiter
    # a row break, and its extra space (\\[2pt])
    s = re.sub(r"\s*\\\\(?:\s*\[\s*-?[\d.]+\s*[a-z]{2}\s*\])?\s*", "\ue003", s)

    def environment(m: re.Match) -> str:
        begin, name = m.group(1) == "begin", m.group(2)
        delimiters = _ENV_DELIMITERS.get(name.rstrip("*"), ("", ""))
        # \ue004, \ue005: no space inside the delimiters (removed at the end)
        return f" {delimiters[0]}\ue004" if begin else f"\ue005{delimiters[1]} "

    s = re.sub(
        r"\\begin\s*\{(" + "|".join(re.escape(e) for e in _ENV_ARGUMENT) + r")\}\s*" + _GROUP,
        r"\\begin{\1}",
        s,
    )
    s = _ENVIRONMENT.sub(environment, s)
    s = re.sub(r"\\[,;:!> ]|~", " ", s)
    # the symbols first: a macro's name ends at the next non-letter, which must stay there
    s = re.sub(
        r"\\([A-Za-z]+|[|{}%$_&#])",
        lambda m: "" if m.group(1) in _DROP else _SYMBOLS.get(m.group(1), m.group(0)),
        s,
    )
    s = s.replace("&", " ")  # an alignment point
    for _ in range(4):  # nested groups, innermost first
        s = re.sub(
            r"\\[dt]?frac\s*" + _GROUP + r"\s*" + _GROUP,
            lambda m: f"{_paren(m.group(1))}/{_paren(m.group(2))}",
            s,
        )
        s = re.sub(
            r"\\[dt]?binom\s*" + _GROUP + r"\s*" + _GROUP,
            lambda m: f"\ue006C({m.group(1).strip()}, {m.group(2).strip()})",
            s,
        )
        s = re.sub(r"\\sqrt\s*\[([^\]]*)\]\s*" + _GROUP, _root, s)
        s = re.sub(r"\\sqrt\s*" + _GROUP, lambda m: "√" + _paren(m.group(1)), s)
        s = re.sub(  # after a macro (\det\mathbf{R}), a space keeps its name apart
            r"(\\[A-Za-z]+\s*)?\\(?:mathbf|mathrm|mathit|mathcal|mathbb|boldsymbol|operatorname\*?"
            r"|text|textbf|textit|mathsf|vec|hat|bar|tilde|overline)\s*" + _GROUP,
            lambda m: (m.group(1).rstrip() + " " if m.group(1) else "") + m.group(2),
            s,
        )
        s = re.sub(r"([_^])" + _GROUP, lambda m: m.group(1) + _paren(m.group(2)), s)
    s = re.sub(r"\\sqrt\s*(?![{\[])", "√", s)  # \sqrt 2
    s = re.sub(r"\\pmod\s*" + _GROUP, r" (mod \1)", s)
    # \sin, \log, ...: their names, a word apart from a letter or number next to them
    s = re.sub(r"(?<=[^\W_])\\([A-Za-z]+)", r" \\\1", s)
    s = re.sub(r"\\([A-Za-z]+)(?![A-Za-z])(?=[^\W_]|\\)", r"\\\1 ", s)
    s = re.sub(r"\\([A-Za-z]+)", r"\1", s)
    s = s.replace("{", "").replace("}", "")
    # \ue006: a word starts (C(n, k), root(n, x)): apart from a letter or number before it
    s = re.sub(r"(?<=[^\W_])\ue006", " ", s).replace("\ue006", "")
    s = re.sub(r"\s+", " ", s).strip()
    # row breaks: "; " between rows, none at the end of a block or before another break
    s = re.sub(r"\s*\ue003\s*(?=\ue003|\ue005|$)", "", s)
    s = re.sub(r"^\s*\ue003\s*", "", s)
    s = re.sub(r"\s*\ue003\s*", "; ", s)
    s = re.sub(r"\s*\ue005([^\s\ue004]*) (?=[,.;:])", r"\1", s)  # "(1; 2)," not "(1; 2) ,"
    s = re.sub(r"\ue004\s*|\s*\ue005", "", s)
    for placeholder, char in (("\ue000", "{"), ("\ue001", "}"), ("\ue002", "&")):
        s = s.replace(placeholder, char)
    return re.sub(r"\s+", " ", s).strip()


def _ref(kind: str, label: str, refs: dict[str, int] | None) -> str:
    number = (refs or {}).get(label.strip())
    shown = str(number) if number is not None else "eq."
    return f"({shown})" if kind == "eqref" else shown


def _root(m: re.Match) -> str:
    """`\\sqrt[n]{x}`: ∛x, ∜x, else root(n, x)."""
    n, x = m.group(1).strip(), m.group(2).strip()
    if n in ("3", "4"):
        return "∛∜"[int(n) - 3] + _paren(x)
    return f"\ue006root({n}, {x})"


def _paren(group: str) -> str:
    """A fraction's part, an exponent or a subscript: bare if one word, else in ( )."""
    group = group.strip()
    if re.fullmatch(r"[\w.]+|\(.*\)", group):
        return group
    return f"({group})"


# TeX in text: arithmatex's \( \) and \[ \], and a notebook's $ and $$ (`dollars`)
_TEX_IN_TEXT = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)
_DOLLARS_IN_TEXT = re.compile(r"\$\$(.+?)\$\$|\$([^$]+?)\$", re.S)
_CODE = re.compile(r"(<pre\b.*?</pre>|<code\b.*?</code>)", re.S)
_DOLLAR = "\ue010"  # an escaped \$ while the $...$ are found


def readable_math(
    text: str, dollars: bool = False, escaped: bool = True, refs: dict[str, int] | None = None
) -> str:
    r"""`text` (HTML, `escaped`, or plain text) with its math as `readable` text; code is
    left alone. `dollars`: $...$ and $$...$$ are math too (a notebook page's), and `\$` is
    a dollar sign, as MathJax's `processEscapes` reads it. `refs`: the page's equation
    numbers, {label: N}, for `\eqref` and `\ref`."""

    def one(m: re.Match) -> str:
        tex = next(g for g in m.groups() if g is not None).replace(_DOLLAR, r"\$")
        if escaped:
            return htmllib.escape(readable(htmllib.unescape(tex), refs), quote=False)
        return readable(tex, refs)

    parts = _CODE.split(text) if escaped else [text]
    for i in range(0, len(parts), 2):
        parts[i] = _TEX_IN_TEXT.sub(one, parts[i])
        if dollars:
            parts[i] = _DOLLARS_IN_TEXT.sub(one, parts[i].replace(r"\$", _DOLLAR))
            parts[i] = parts[i].replace(_DOLLAR, "$")
    return "".join(parts)
