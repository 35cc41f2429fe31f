"""The evidence that `mutation.py` runs: page doctests cut into Check blocks, and docstrings.

A page's doctest is the whole page, as pytest collects it (`--doctest-glob=*.md`): its
examples share one namespace, in order. Each example belongs to the Check block that
contains its line (`??? example "Check..."` and the lines indented under it), or to no
block (the page's own examples). A block is named by its page, line, section heading,
and the anchor and title of the correction or note it sits under.
"""

from __future__ import annotations

import ast
import doctest
import re
from dataclasses import dataclass, field
from pathlib import Path

CHECK = re.compile(r'^(?P<indent>\s*)\?\?\?\+?\s+example\s+"(?P<title>Check[^"]*)"')
HEADING = re.compile(r"^(#{1,6})\s+(?P<text>.*?)\s*(\{#(?P<id>[^}\s]+)[^}]*\})?\s*$")
ANCHOR = re.compile(r'<a id="(?P<id>[^"]+)"></a>')
ADMONITION = re.compile(r'^\s*(!!!|\?\?\?\+?)\s+\w+(\s+"(?P<title>[^"]*)")?')
FENCE = re.compile(r"^\s*(```|~~~)")
#: anchors that name a figure or a listing, not the correction or note a Check sits under
NOT_A_BOX = ("script-", "fig-", "eq:")


@dataclass
class Block:
    """A Check block of a page."""

    page: str  # project-relative path
    line: int  # 1-based line of its `??? example "Check"`
    end: int  # last line of the block
    title: str  # "Check" or "Check: ..."
    section: str  # the heading above it
    section_id: str  # the heading's anchor, if it has one
    box: str  # anchor of the correction or note it sits under ("" if none)
    box_title: str  # that correction's title, or the note's first words

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"


@dataclass
class Unit:
    """One doctest as pytest would run it: a page or a docstring."""

    name: str  # "docs/notes/cnn.md" or "mlnotes.cnn.conv_output_size"
    path: str  # file, project-relative
    test: doctest.DocTest
    lines: list[int]  # 1-based line of each example in `path`
    kind: str  # "page" or "docstring"
    blocks: list[Block] = field(default_factory=list)
    block_of: list[int | None] = field(default_factory=list)  # example -> index in blocks
    public: bool = True  # a docstring of a public name (see `public_names`)


def check_blocks(page: str, text: str) -> list[Block]:
    """The Check blocks of a Markdown page, with where they sit."""
    lines = text.splitlines()
    blocks: list[Block] = []
    section, section_id, box, box_title = "", "", "", ""
    in_fence = False
    for i, line in enumerate(lines):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if heading := HEADING.match(line):
            section, section_id, box, box_title = heading["text"], heading["id"] or "", "", ""
            continue
        if anchor := ANCHOR.search(line):
            if not anchor["id"].startswith(NOT_A_BOX):
                box, box_title = anchor["id"], _box_title(lines, i + 1)
            continue
        if check := CHECK.match(line):
            indent = len(check["indent"])
            end = i
            for j in range(i + 1, len(lines)):
                if lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) <= indent:
                    break
                if lines[j].strip():
                    end = j
            blocks.append(
                Block(page, i + 1, end + 1, check["title"], section, section_id, box, box_title)
            )
    return blocks


def _box_title(lines: list[str], start: int) -> str:
    """The title of the admonition after an anchor, or the first words of its paragraph."""
    for line in lines[start:]:
        if not line.strip():
            continue
        if admonition := ADMONITION.match(line):
            return admonition["title"] or ""
        words = line.strip()
        return words if len(words) <= 80 else words[:77] + "..."
    return ""


def page_unit(root: Path, path: Path) -> Unit:
    """The doctest of a page (as pytest's `--doctest-glob` builds it) and its Check blocks."""
    rel = str(path.relative_to(root))
    text = path.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {"__name__": "__main__"}, path.name, rel, 0)
    lines = [ex.lineno + 1 for ex in test.examples]
    blocks = check_blocks(rel, text)
    block_of = [
        next((b for b, blk in enumerate(blocks) if blk.line <= ln <= blk.end), None) for ln in lines
    ]
    return Unit(rel, rel, test, lines, "page", blocks, block_of)


def docstring_units(root: Path, path: Path, module: str, globs: dict) -> list[Unit]:
    """The docstring doctests of a module's source, one per docstring with examples.

    Read from the source file (the mutated copy's functions are trampolines), run in a
    copy of `globs`, the namespace of the module as imported, as doctest does.
    """
    rel = str(path.relative_to(root))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    public = public_names(tree)
    units = []
    for qualname, node in _documented(tree):
        doc = node.body[0].value
        name = f"{module}.{qualname}" if qualname else module
        test = doctest.DocTestParser().get_doctest(
            doc.value, dict(globs), name, rel, doc.lineno - 1
        )
        if not test.examples:
            continue
        lines = [doc.lineno + ex.lineno for ex in test.examples]
        is_public = not module.rpartition(".")[2].startswith("_") and (
            not qualname or qualname.split(".")[0] in public
        )
        units.append(Unit(name, rel, test, lines, "docstring", [], [None] * len(lines), is_public))
    return units


def _documented(tree: ast.Module, prefix: str = ""):
    """(qualified name, node) of the module and of each def and class with a docstring."""
    if not prefix and ast.get_docstring(tree, clean=False) is not None:
        yield "", tree
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            qualname = prefix + node.name
            if ast.get_docstring(node, clean=False) is not None:
                yield qualname, node
            if isinstance(node, ast.ClassDef):
                yield from _documented(node, qualname + ".")


def public_names(tree: ast.Module) -> set[str]:
    """The names in a module's `__all__` (its public API)."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return set(ast.literal_eval(node.value))
    return set()


def is_public(function: str, publics: dict[str, set[str]]) -> bool:
    """Whether a dotted function name ("mlnotes.cnn.conv_output_size",
    "mlnotes.embeddings.SinusoidalEmbeddings.forward") is public API: its module is
    public, its top-level name is in `__all__`, and a method is public or `__init__`."""
    for module, names in publics.items():
        if function.startswith(module + "."):
            parts = function[len(module) + 1 :].split(".")
            if module.rpartition(".")[2].startswith("_") or parts[0] not in names:
                return False
            return all(not p.startswith("_") or p == "__init__" for p in parts[1:])
    return False
