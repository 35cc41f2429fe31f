r"""The docstring side: a Google-style `Equation:` section, parsed by a Griffe extension.

`EquationsExtension` (mkdocstrings' python handler loads it, mkdocs.yml `extensions:`)
leaves the section's references on the documented object, `obj.extra["mlnotes"]`:
`"equations"`, a list of `{"page": ..., "label": ...}`, or `"equation_error"`, a message
naming the object, its file and line. `collect_equation_refs` loads the package with it
(`griffe.load`, statically) to list every reference; `validate_equation_refs` checks that
each names a page under docs/ and a `\label` on it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import griffe
from mkdocs.plugins import get_plugin_logger

log = get_plugin_logger("equations")

PACKAGE = "mlnotes"
LABEL = re.compile(r"\\label\{([^}]*)\}")
EQ_REF = re.compile(r"^\s*(?P<page>[\w./-]+\.md)#(?P<label>[^\s#]+)\s*$")
# the admonition kinds Griffe's Google parser gives the section "Equation:" / "Equations:"
KINDS = ("equation", "equations")


@dataclass(frozen=True)
class EquationRef:
    """A function (by its dotted path) that computes the equation `label` on `page`."""

    identifier: str
    page: str
    label: str
    source: str  # file:line of the docstring, for messages


# ---------------------------------------------------------------------------------------
# The Griffe extension
# ---------------------------------------------------------------------------------------


def section_equations(sections) -> list[tuple[str, str]]:
    """`(page, label)` pairs of the `Equation:` section among parsed docstring sections.

    Raises ValueError for a line that is not `page.md#label`, or for a second section.
    """
    found: list[tuple[str, str]] = []
    equation_sections = [
        s for s in sections if s.kind.value == "admonition" and s.value.kind in KINDS
    ]
    if len(equation_sections) > 1:
        raise ValueError(f"{len(equation_sections)} Equation: sections; list every equation in one")
    for section in equation_sections:
        for line in section.value.contents.splitlines():
            if not line.strip():
                continue
            m = EQ_REF.match(line)
            if not m:
                raise ValueError(
                    f"an Equation: line must read 'page.md#label', got {line.strip()!r}"
                )
            found.append((m.group("page"), m.group("label")))
    return found


def docstring_equations(doc: str) -> list[tuple[str, str]]:
    """`(page, label)` pairs named in a docstring's `Equation:` section (Griffe's Google parser).

    >>> docstring_equations("Summary.\\n\\nEquation:\\n    notes/cnn.md#eq:cnn-output-size\\n")
    [('notes/cnn.md', 'eq:cnn-output-size')]
    """
    return section_equations(griffe.parse_google(griffe.Docstring(doc or "")))


def _where(obj) -> str:
    """`path/to/module.py:LINE` of an object, relative to its package's parent."""
    try:
        path = obj.relative_package_filepath.as_posix()
    except (ValueError, AttributeError):
        path = str(obj.filepath)
    return f"{path}:{obj.lineno}"


class EquationsExtension(griffe.Extension):
    """Griffe: the `Equation:` section of each docstring, as `obj.extra["mlnotes"]`.

    `obj.extra["mlnotes"]["equations"]`: `[{"page": "notes/cnn.md", "label": "eq:..."}]`;
    a malformed section gives no equations and `obj.extra["mlnotes"]["equation_error"]`,
    a message naming the object (`mlnotes.cnn.f (mlnotes/cnn.py:12): ...`). The extension
    logs nothing: mlnotes-equations reports the error (a warning: the strict build fails).
    """

    def on_object(self, *, obj, loader, **kwargs) -> None:
        if obj.is_alias or obj.docstring is None or "quation" not in obj.docstring.value:
            return
        try:
            pairs = section_equations(obj.docstring.parsed)
        except ValueError as err:
            obj.extra["mlnotes"]["equation_error"] = f"{obj.path} ({_where(obj)}): {err}"
            obj.extra["mlnotes"]["equations"] = []
            return
        if pairs:
            obj.extra["mlnotes"]["equations"] = [{"page": p, "label": lab} for p, lab in pairs]


def load_package(package_dir: Path, package: str = PACKAGE):
    """The package as Griffe loads it (statically) with `EquationsExtension`."""
    return griffe.load(
        package,
        search_paths=[str(package_dir.parent)],
        docstring_parser="google",
        extensions=griffe.load_extensions(EquationsExtension),
        allow_inspection=False,
        resolve_aliases=False,
    )


def _objects(obj):
    """`obj` and its members, recursively, without aliases (an import is not a definition)."""
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


def collect_equation_refs(package_dir: Path, package: str = PACKAGE) -> list[EquationRef]:
    """Every `Equation:` reference in the docstrings of a package (loaded by Griffe).

    In source order: by file, then by line. A malformed section is a warning.
    """
    refs, errors = [], []
    # Griffe skips a module that does not parse, saying nothing at the default log level:
    # say it here (its API page says so too, problems.py; a strict build fails)
    for path in sorted(package_dir.rglob("*.py")):
        try:
            ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except SyntaxError as err:
            where = path.relative_to(package_dir.parent).as_posix()
            log.warning(f"{where}:{err.lineno}: SyntaxError: {err.msg}")
    root = load_package(package_dir, package)
    for obj in _objects(root):
        data = obj.extra.get("mlnotes", {})
        if "equation_error" in data:
            errors.append((str(obj.filepath), obj.lineno or 0, data["equation_error"]))
        for eq in data.get("equations", []):
            source = _where(obj)
            refs.append(
                (
                    str(obj.filepath),
                    obj.lineno or 0,
                    EquationRef(obj.path, eq["page"], eq["label"], source),
                )
            )
    for *_, message in sorted(errors):
        log.warning(message)
    return [ref for *_, ref in sorted(refs, key=lambda r: r[:2])]


def page_labels(markdown: str) -> set[str]:
    return set(LABEL.findall(markdown))


def validate_equation_refs(refs: list[EquationRef], docs_dir: Path) -> list[str]:
    """Messages for every reference whose page or label does not exist (empty: all good)."""
    problems = []
    labels: dict[str, set[str]] = {}
    for ref in refs:
        src = docs_dir / ref.page
        if ref.page not in labels:
            labels[ref.page] = (
                page_labels(src.read_text(encoding="utf-8")) if src.is_file() else None
            )
        if labels[ref.page] is None:
            problems.append(
                f"{ref.identifier} ({ref.source}): Equation: page '{ref.page}' does not exist in docs/"
            )
        elif ref.label not in labels[ref.page]:
            problems.append(
                f"{ref.identifier} ({ref.source}): Equation: no \\label{{{ref.label}}} on '{ref.page}'"
            )
    return problems
