"""What a reader sees of one checkout, recorded as JSON for the change report (diff_report.py).

    python scripts/dev/diff_record.py --site-dir DIR --out record.json [--seed-from ROOT]

Run from the checkout's folder with its `mlnotes` and `mlnotes_site` first on PYTHONPATH
(diff_report.py does), so that the build is that checkout's own: this file works on any
commit whose plugins have the public methods it calls. It builds the site (not strict: the
tests fail a build, the report only describes it) with one more plugin, the recorder, which
reads each page's HTML before mlnotes-typeset replaces its TeX (the article's text with its
math as TeX, the equation references, the citations, the figures it shows) and the
equation numbers (mlnotes-equations' `page_numbers()`); then it runs the pages' doctest
examples and records what each printed (cached on a content key: the page and the code of
`mlnotes`), and lists the API (griffe) and the sources page's corrections record.
"""

from __future__ import annotations

import argparse
import doctest
import json
import os
import posixpath
import re
import shutil
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

PACKAGE = "mlnotes"
CHECK = re.compile(r'^(\s*)\?\?\?\+?\s+example\s+"Check', re.I)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
DOCTEST_FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
# a page's reading text leaves out what is not text: the permalinks, the source-file dates
DROP = "a.headerlink, script, style, .md-source-file, .mlnotes-typeset-css"


# ---------------------------------------------------------------------------------------
# The recorder plugin: added to the build's plugins by `build`
# ---------------------------------------------------------------------------------------


def _recorder_class():
    from mkdocs.plugins import BasePlugin, event_priority

    class Recorder(BasePlugin):
        """Reads each page as built, before mlnotes-typeset (its math still TeX)."""

        def __init__(self):
            self.pages: dict[str, dict] = {}
            self.numbers: dict[str, dict[str, int]] = {}
            self.urls: dict[str, str] = {}

        def on_files(self, files, *, config):
            self.files = files
            return files

        @event_priority(100)  # before mlnotes-typeset's on_post_page (0)
        def on_post_page(self, output, *, page, config):
            self.pages[page.file.src_uri] = {
                "title": page.title or page.file.src_uri,
                "url": page.url,
                "html": output,
            }
            return output

        @event_priority(-100)
        def on_post_build(self, *, config):
            equations = config.plugins.get("mlnotes-equations")
            if equations is not None and hasattr(equations, "page_numbers"):
                self.numbers = equations.page_numbers()
            self.urls = {f.src_uri: f.url for f in self.files.documentation_pages()}

    return Recorder


def build(site_dir: Path) -> tuple[dict, dict[str, dict[str, int]]]:
    """Build the site of the current folder into `site_dir`; the pages' records and the
    equation numbers."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    config = load_config("mkdocs.yml", site_dir=str(site_dir), strict=False)
    recorder = _recorder_class()()
    config.plugins["mlnotes-diff-recorder"] = recorder
    config.plugins.on_startup(command="build", dirty=False)  # as `mkdocs build` does
    try:
        mkdocs_build(config)
    finally:
        config.plugins.on_shutdown()
    urls = {uri: page["url"] for uri, page in recorder.pages.items()}
    by_url = {_norm_url(url): uri for uri, url in urls.items()}
    pages = {
        uri: read_page(uri, page, by_url, recorder.numbers) for uri, page in recorder.pages.items()
    }
    return pages, recorder.numbers


def _norm_url(url: str) -> str:
    url = url.strip("/")
    return "" if url in (".", "index.html") else url.removesuffix("/index.html")


def read_page(uri: str, page: dict, by_url: dict[str, str], numbers: dict) -> dict:
    """A page's reading text (math as TeX), its equation references, citations, figures."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page["html"], "html.parser")
    article = soup.select_one("article") or soup.body or soup
    for el in article.select(DROP):
        el.decompose()
    refs: set[tuple[str, str]] = set()
    for el in article.select("[data-eqrefs]"):  # \eqref{} on the page itself
        for item in el["data-eqrefs"].split(";"):
            refs.add((uri, item.partition("=")[0]))
    here = posixpath.dirname(_norm_url(page["url"]) + "/x")
    for a in article.select("a[href]"):  # links to an equation of a page (the API's)
        parts = urlsplit(a["href"])
        if not parts.fragment or parts.scheme or parts.netloc:
            continue
        target = (
            uri
            if not parts.path
            else by_url.get(_norm_url(posixpath.normpath(posixpath.join(here, parts.path))))
        )
        label = unquote(parts.fragment)
        if target is not None and label in numbers.get(target, {}):
            refs.add((target, label))
    cites = sorted(
        {
            a["href"].removeprefix("#ref-")
            for a in article.select("a.mlnotes-cite[href]")
            if a["href"].startswith("#ref-")
        }
    )
    figures = set()
    for img in article.select("img[src]"):
        path = urlsplit(img["src"]).path
        if "figures/" in path and path.endswith(".svg"):
            figures.add(Path(path).stem.removesuffix("-dark"))
    corrections = sorted(el["id"] for el in article.select("[id^=correction-]"))
    return {
        "title": page["title"],
        "url": page["url"],
        "text": reading_text(article),
        "refs": sorted(refs),
        "cites": cites,
        "figures": sorted(figures),
        "corrections": corrections,
    }


BLOCKS = ("p h1 h2 h3 h4 h5 h6 li dt dd tr th td pre figcaption caption summary blockquote").split()


def reading_text(article) -> list[str]:
    """The article's text, one block (paragraph, heading, list item, cell, code line...) a
    line, its whitespace collapsed (a code block's lines kept); math as its TeX."""
    from bs4 import NavigableString

    for string in list(article.find_all(string=True)):
        if "\n" in string and string.find_parent("pre") is None:
            string.replace_with(NavigableString(string.replace("\n", " ")))
    for el in article.find_all([*BLOCKS, "div"]):
        if el.name != "div" or "arithmatex" in (el.get("class") or []):
            el.insert_before("\n")
            el.append("\n")
    lines = (" ".join(line.split()) for line in article.get_text("").splitlines())
    return [line for line in lines if line]


# ---------------------------------------------------------------------------------------
# The pages' doctest examples: what each printed
# ---------------------------------------------------------------------------------------


TRACEBACK = "Traceback (most recent call last):"


def _printed(got: str) -> str:
    """What an example printed, a traceback cut to its exception line(s) (as doctest
    compares them): its frames name the checkout's paths and line numbers."""
    before, header, after = got.partition(TRACEBACK)
    if not header:
        return got
    lines = after.splitlines(keepends=True)
    first = next((i for i, line in enumerate(lines) if line.strip() and not line[0].isspace()), 0)
    return before + header + "\n  ...\n" + "".join(lines[first:])


class _Recording(doctest.DocTestRunner):
    def __init__(self):
        super().__init__(optionflags=DOCTEST_FLAGS, verbose=False)
        self.got: list[tuple[int, str, str]] = []

    def report_start(self, out, test, example):
        pass

    def report_success(self, out, test, example, got):
        self.got.append((example.lineno, example.source, _printed(got)))

    def report_failure(self, out, test, example, got):
        self.got.append((example.lineno, example.source, _printed(got)))

    def report_unexpected_exception(self, out, test, example, exc_info):
        kind, value = exc_info[:2]
        self.got.append((example.lineno, example.source, f"{kind.__name__}: {value}\n"))


def _where(lines: list[str]) -> list[tuple[str, bool]]:
    """For each line of a page: the heading it is under, and whether it is in a Check."""
    found, heading, check_indent = [], "", None
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if check_indent is not None and stripped and indent <= check_indent:
            check_indent = None
        m = CHECK.match(line)
        if m:
            check_indent = len(m.group(1))
        h = HEADING.match(line)
        if h and check_indent is None:
            heading = re.sub(r"\s*\{[#.][^}]*\}\s*$", "", h.group(1))  # its {#id}
        found.append((heading, check_indent is not None))
    return found


def page_doctests(path: Path) -> list[dict]:
    """Run the page's doctest examples (as pytest's --doctest-glob does: one namespace a
    page); each example's source, what it printed, its section and whether a Check holds it."""
    text = path.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(
        text, {"__name__": "__main__"}, path.name, str(path), 0
    )
    if not test.examples:
        return []
    runner = _Recording()
    cwd = os.getcwd()
    try:
        runner.run(test, out=lambda s: None, clear_globs=True)
    finally:
        os.chdir(cwd)
    where = _where(text.splitlines())
    examples = []
    for lineno, source, got in runner.got:
        heading, check = where[lineno] if lineno < len(where) else ("", False)
        examples.append(
            {"line": lineno + 1, "source": source, "got": got, "section": heading, "check": check}
        )
    return examples


def doctest_key(page: Path, root: Path) -> str:
    """The content key of a page's doctest outputs: the page, every module of `mlnotes`
    (by its code), the lock (the libraries' versions), this recorder's code."""
    from mlnotes_site import keys

    key = keys.Key("diff-doctests").add("recorder", keys.code_digest(Path(__file__)))
    key.file(page, root)
    key.file(root / "requirements.lock", root, missing_ok=True)  # the libraries' versions
    for module in sorted((root / PACKAGE).rglob("*.py")):
        key.code(module, root)
    return key.hexdigest()


def doctests(docs: Path, root: Path, cache: Path | None) -> dict[str, list[dict]]:
    found = {}
    for page in sorted(docs.rglob("*.md")):
        uri = page.relative_to(docs).as_posix()
        if ">>> " not in page.read_text(encoding="utf-8"):
            continue
        key = doctest_key(page, root) if cache is not None else None
        stored = cache / f"{key}.json" if key else None
        if stored is not None and stored.is_file():
            found[uri] = json.loads(stored.read_text(encoding="utf-8"))
            continue
        t0 = time.perf_counter()
        found[uri] = page_doctests(page)
        print(
            f"[diff] doctests of {uri}: {len(found[uri])} examples, "
            f"{time.perf_counter() - t0:.1f} s",
            flush=True,
        )
        if stored is not None:
            stored.parent.mkdir(parents=True, exist_ok=True)
            stored.write_text(json.dumps(found[uri]), encoding="utf-8")
    return found


# ---------------------------------------------------------------------------------------
# The API (griffe: what mkdocstrings renders) and the corrections record
# ---------------------------------------------------------------------------------------

DIRECTIVE = re.compile(r"^:::\s+([\w.]+)", re.M)


def _signature(obj) -> str:
    import griffe

    if isinstance(obj, griffe.Class):
        init = obj.members.get("__init__")
        params = init.parameters if isinstance(init, griffe.Function) else []
        return f"class {obj.name}({_params(params, skip_self=True)})"
    returns = f" -> {obj.returns}" if obj.returns else ""
    return f"{obj.name}({_params(obj.parameters, skip_self=False)}){returns}"


def _params(parameters, skip_self: bool) -> str:
    out = []
    for p in parameters:
        if skip_self and p.name == "self":
            continue
        kind = p.kind.value if p.kind is not None else ""
        star = {"variadic positional": "*", "variadic keyword": "**"}.get(kind, "")
        text = star + p.name + (f": {p.annotation}" if p.annotation else "")
        if p.default is not None:
            text += f" = {p.default}"
        out.append(text)
    return ", ".join(out)


def api(docs: Path, root: Path) -> dict[str, str]:
    """`{identifier: signature}` of every public function, class and method under the
    objects the API pages document (`::: mlnotes.x`)."""
    import griffe

    documented = sorted(
        {m for page in docs.rglob("*.md") for m in DIRECTIVE.findall(page.read_text("utf-8"))}
    )
    found: dict[str, str] = {}
    loader = griffe.GriffeLoader(search_paths=[str(root)])
    for identifier in documented:
        try:
            obj = loader.load(identifier)
        except Exception as exc:  # an object the page names that no longer exists
            found[identifier] = f"(not found: {exc.__class__.__name__})"
            continue
        _walk(obj, found)
    return found


def _walk(obj, found: dict[str, str]) -> None:
    import griffe

    if obj.is_alias:
        return
    if isinstance(obj, (griffe.Function, griffe.Class)):
        found[obj.path] = _signature(obj)
    if isinstance(obj, (griffe.Module, griffe.Class)):
        for name, member in obj.members.items():
            if name.startswith("_") or member.is_alias:
                continue
            if isinstance(member, (griffe.Module, griffe.Class, griffe.Function)):
                _walk(member, found)


ROW = re.compile(r"^\|\s*\[(?P<where>[^\]]*)\]\((?P<target>[^)#]*#correction-[^)]+)\)")


def corrections(docs: Path) -> list[dict]:
    """The rows of the sources page's Corrections tables: the page, its section, the quote."""
    path = docs / "sources.md"
    if not path.is_file():
        return []
    rows, section, in_table = [], "", False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        if line.startswith("#"):
            in_table = line.strip().lower().endswith("corrections")
            continue
        m = ROW.match(line) if in_table else None
        if m:
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            rows.append(
                {
                    "section": section,
                    "where": m.group("where"),
                    "target": m.group("target"),
                    "quote": cells[1] if len(cells) > 1 else "",
                    "row": line.strip(),
                }
            )
    return rows


# ---------------------------------------------------------------------------------------
# Products of another checkout that this one can use (figures, notebooks)
# ---------------------------------------------------------------------------------------


def seed_from(other: Path, root: Path) -> list[str]:
    """Copy into this checkout the figures and executed notebooks of checkout `other` that
    this checkout's own code keys the same (keys.py's Stamp, computed here): shared caches,
    so that what did not change is not drawn or executed again. Returns what it copied."""
    copied = []
    try:
        from mlnotes_site import figure_builder, keys
        from mlnotes_site.plugins import notebooks
    except ImportError:
        return copied
    here, there = figure_builder.FigureProject.at(root), figure_builder.FigureProject.at(other)
    for name, script in here.discover().items():
        mine, theirs = here.stamp(name), there.stamp(name)
        try:
            if mine.fresh(figure_builder.cache_key(here, script, None, mine.imports())):
                continue
            made = theirs.key_file.read_text(encoding="utf-8")
            if made != figure_builder.cache_key(here, script, None, theirs.imports()):
                continue
        except (OSError, ValueError, SyntaxError, TypeError, AttributeError):
            continue
        if _copy([*there.outputs(name), theirs.imports_file, theirs.key_file], here, there):
            copied.append(f"figure {name}")
    # a base from before notebook_key was public has none: its notebooks run again, not copied
    key = getattr(notebooks, "notebook_key", None)
    cache_here, cache_there = root / ".cache" / "notebooks", other / ".cache" / "notebooks"
    for source in sorted((root / "docs" / "notebooks").glob("*.py")) if key else []:
        mine = keys.Stamp(cache_here, source.stem)
        theirs = keys.Stamp(cache_there, source.stem)
        try:
            if mine.fresh(key(source, root, mine.imports())) and all(
                (cache_here / f"{source.stem}{s}").is_file() for s in (".ipynb", ".light.ipynb")
            ):
                continue
            if theirs.key_file.read_text(encoding="utf-8") != key(source, root, theirs.imports()):
                continue
        except (OSError, ValueError, SyntaxError, TypeError):
            continue
        files = [cache_there / f"{source.stem}{s}" for s in (".ipynb", ".light.ipynb")]
        cache_here.mkdir(parents=True, exist_ok=True)
        for f in [*files, theirs.imports_file, theirs.key_file]:  # the key last
            shutil.copyfile(f, cache_here / f.name)
        copied.append(f"notebook {source.stem}")
    typeset_here, typeset_there = root / ".cache" / "typeset", other / ".cache" / "typeset"
    if typeset_there.is_dir():  # one file a page's math, named by its content key
        typeset_here.mkdir(parents=True, exist_ok=True)
        for f in typeset_there.glob("*.json.gz"):
            if not (typeset_here / f.name).exists():
                shutil.copyfile(f, typeset_here / f.name)
    return copied


def _copy(files: list[Path], here, there) -> bool:
    if not all(f.is_file() for f in files):
        return False
    here.out.mkdir(parents=True, exist_ok=True)
    here.cache.mkdir(parents=True, exist_ok=True)
    for f in files:  # the outputs first, the key last: a copy cut short is not fresh
        target = (here.out if f.parent == there.out else here.cache) / f.name
        shutil.copyfile(f, target)
    return True


def figure_digests(root: Path) -> dict[str, str]:
    """The content key of each figure's light SVG (docs/figures/<name>.svg)."""
    from mlnotes_site import keys

    out = root / "docs" / "figures"
    return {
        p.stem: keys.Key("svg").file(p, out).hexdigest()
        for p in sorted(out.glob("*.svg"))
        if not p.stem.endswith("-dark")
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site-dir", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed-from", type=Path, help="a checkout whose products to reuse")
    parser.add_argument("--doctest-cache", type=Path, help="where to keep the doctest outputs")
    args = parser.parse_args(argv)
    root = Path.cwd()
    docs = root / "docs"
    if args.seed_from:
        copied = seed_from(args.seed_from.resolve(), root)
        if copied:
            print(f"[diff] reused from the other checkout: {', '.join(copied)}", flush=True)
    t0 = time.perf_counter()
    pages, numbers = build(args.site_dir)
    built = time.perf_counter() - t0
    t1 = time.perf_counter()
    record = {
        "pages": pages,
        "equations": numbers,
        "figures": figure_digests(root),
        "doctests": doctests(docs, root, args.doctest_cache),
        "api": api(docs, root),
        "corrections": corrections(docs),
        "seconds": {"build": round(built, 2), "rest": round(time.perf_counter() - t1, 2)},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.path[:] = [p for p in sys.path if Path(p).resolve() != Path(__file__).resolve().parent]
    raise SystemExit(main())
