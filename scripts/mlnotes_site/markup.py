"""What the build reads of other extensions' syntax in the Markdown sources, each in one place.

- `autodoc_blocks`: mkdocstrings' `::: identifier` blocks (its own `AutoDocProcessor.regex`),
  with their indented options and their line;
- `find_module`: the source files of the module an identifier names, as mkdocstrings'
  python handler finds them under its `paths`;
- `snippets` / `snippet_file`: pymdownx.snippets' `--8<--` lines (its own
  `SnippetPreprocessor` patterns) and the file each names under its `base_path`;
- `figure_names`: the figures a page shows (`figures/<name>.svg`, or its `-dark` twin);
- `first_heading` / `heading_text`: a page's first `# ` heading as it renders (attr_list's
  `{#id}` dropped, inline markup rendered to its text), for the social cards' titles.

A source is read as text, so a `:::` or `--8<--` line inside a code fence counts too (where
the extensions do not see it): a dependency too many, never one too few.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mkdocstrings import AutoDocProcessor
from pymdownx.snippets import SnippetPreprocessor

# a figure block's first line (`/// figure | name`, figure_blocks.py), and an image of docs/figures/
FIGURE_BLOCK = re.compile(r"^[ \t>]*/{3,}[ \t]*figure[ \t]*\|[ \t]*([\w-]+)", re.M)
FIGURE = re.compile(r"figures/([\w.-]+?)(?:-dark)?\.svg")
# the indented lines of a `:::` block's options, and a blank line inside them
# a level-1 ATX heading, and attr_list's attributes at the end of a heading
H1 = re.compile(r"^# +(.+?)\s*$", re.M)
ATTR_LIST = re.compile(r"\s*\{[^}]*\}\s*$")
_OPTIONS = re.compile(r"(?:[ \t]+\S.*\n|[ \t]*\n(?=[ \t]+\S))*")


@dataclass(frozen=True)
class Autodoc:
    """A `::: identifier` block: its line (1-based) and its extent in the text (the
    `:::` line and its indented options)."""

    identifier: str
    line: int
    start: int
    end: int


@dataclass(frozen=True)
class Snippet:
    """A file a `--8<--` line includes: its path as written (without a line range or
    section) and the line of the source that names it (1-based)."""

    path: str
    line: int


def snippet_bases(config) -> list[Path]:
    """pymdownx.snippets' `base_path` folders (or files), from the site's Markdown
    configuration, resolved as snippets resolves them: against the working directory."""
    base = (config.mdx_configs or {}).get("pymdownx.snippets", {}).get("base_path", ["."])
    if isinstance(base, (str, os.PathLike)):
        base = [base]
    return [Path(os.path.abspath(b)) for b in base]


def module_paths(config) -> list[Path]:
    """Where mkdocstrings' python handler looks for modules: its `paths` option (default
    `["."]`), relative to mkdocs.yml's folder."""
    root = Path(config.config_file_path).parent if config.config_file_path else Path()
    plugin = config.plugins.get("mkdocstrings")
    handlers = plugin.config.handlers if plugin is not None else {}
    return [root / path for path in (handlers.get("python") or {}).get("paths", ["."])]


def line_of(text: str, offset: int) -> int:
    """The 1-based line of `text` at character `offset`."""
    return text.count("\n", 0, offset) + 1


def autodoc_blocks(text: str) -> list[Autodoc]:
    """The `:::` blocks of a page, in order."""
    found = []
    for m in AutoDocProcessor.regex.finditer(text):
        end = m.end() + 1 if text[m.end() : m.end() + 1] == "\n" else m.end()
        end = _OPTIONS.match(text, end).end()
        found.append(Autodoc(m.group("name").strip(), line_of(text, m.start()), m.start(), end))
    return found


@dataclass(frozen=True)
class Module:
    """Where the module an identifier names is: `files`, its source file then its packages'
    `__init__.py` (empty if the package has no such module, not written yet); `members`,
    the rest of the identifier (`mlnotes.cnn.f` -> `["f"]`)."""

    files: list[Path]
    members: list[str]


def find_module(identifier: str, paths: Iterable[Path]) -> Module | None:
    """The module `identifier` names (`mlnotes.cnn`, or `mlnotes.cnn.f` for a member of it),
    as mkdocstrings' python handler finds it: under the first of `paths` (its `paths`
    option) that has the top-level package. None: no such package under `paths` (an
    installed one, say)."""
    parts = identifier.split(".")
    for base in paths:
        base = Path(base)
        if not ((base / parts[0]).is_dir() or (base / f"{parts[0]}.py").is_file()):
            continue
        for n in range(len(parts), 0, -1):
            stem = base.joinpath(*parts[:n])
            for candidate in (stem.with_suffix(".py"), stem / "__init__.py"):
                if candidate.is_file():
                    inits = [base.joinpath(*parts[:i], "__init__.py") for i in range(1, n)]
                    return Module([candidate, *(p for p in inits if p.is_file())], parts[n:])
        return Module([], parts[1:])
    return None


def module_files(identifier: str, paths: Iterable[Path]) -> list[Path]:
    """The files of `find_module` (none for a module not found)."""
    module = find_module(identifier, paths)
    return module.files if module is not None else []


def snippets(text: str) -> list[Snippet]:
    """The files the `--8<--` lines of a page include, inline (`--8<-- "path"`) or as a
    block of paths between two `--8<--` lines; not those escaped (`;--8<--`), commented
    out (`;path`) or URLs."""
    found = []
    block = False
    for number, line in enumerate(text.splitlines(), start=1):
        m = SnippetPreprocessor.RE_ALL_SNIPPETS.match(line)
        if m and m.group("escape"):
            continue
        if m and m.group("inline_marker") and not block:
            path = m.group("snippet")[1:-1].strip()
        elif m:
            block = not block
            continue
        elif block:
            path = line.strip()
        else:
            continue
        if not path or path.startswith(";") or path.lower().startswith(("http://", "https://")):
            continue
        path = SnippetPreprocessor.RE_SNIPPET_FILE.match(path).group(1)
        if path:
            found.append(Snippet(path, number))
    return found


def without_snippet(line: str) -> str:
    """The `--8<--` line (or a path line of a block) as pymdownx.snippets leaves it out:
    an inline one escaped (`;--8<-- "x"`, shown as written), a block's path commented out."""
    m = SnippetPreprocessor.RE_ALL_SNIPPETS.match(line)
    at = m.start("all") if m else len(line) - len(line.lstrip())
    return f"{line[:at]};{line[at:]}"


def snippet_file(path: str, base_paths: Iterable[Path]) -> Path | None:
    """The file `path` names, as pymdownx.snippets looks it up: under the first of its
    `base_path` folders that has it (or a `base_path` that is that file); None if none."""
    for base in base_paths:
        base = Path(base)
        if base.is_dir():
            candidate = base / path
            if candidate.exists() and Path(os.path.abspath(candidate)).is_relative_to(
                os.path.abspath(base)
            ):
                return candidate
        elif base.is_file() and (base.parent / path).exists():
            if os.path.samefile(base.parent / path, base):
                return base
    return None


def figure_block_line(text: str, name: str) -> int | None:
    """The line (from 1) of the first figure block of `text` that shows figure `name`."""
    for match in FIGURE_BLOCK.finditer(text):
        if match.group(1) == name:
            return text.count("\n", 0, match.start()) + 1
    return None


def figure_names(text: str) -> list[str]:
    """The figures a page's Markdown shows, by script name, once each: its figure blocks'
    (`/// figure | name`), then any image of docs/figures/ (`figures/<name>.svg`,
    `figures/<name>-dark.svg`)."""
    return list(dict.fromkeys(FIGURE_BLOCK.findall(text) + FIGURE.findall(text)))


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)


def heading_text(source: str) -> str:
    """A Markdown heading's text as it renders: `# `x`: *y* {#id}` -> `x: y`."""
    import markdown

    source = ATTR_LIST.sub("", source.strip().lstrip("#").strip())
    parser = _Text()
    parser.feed(markdown.markdown(source))
    return " ".join("".join(parser.parts).split())


def first_heading(markdown_source: str) -> str | None:
    """The first level-1 heading of a Markdown text (after any front matter), or None."""
    match = H1.search(markdown_source)
    return heading_text(match.group(1)) if match else None
