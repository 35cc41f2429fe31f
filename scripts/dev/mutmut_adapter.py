"""The one module that touches mutmut's internals (mutmut 3 has no library API).

`scripts/dev/mutation.py` uses mutmut for what it does well: generating the mutants of
each function (libcst, its mutation operators, `# pragma: no mutate`) into trampolined
copies of the package, where `MUTANT_UNDER_TEST` picks the mutant at call time, and
recording which mutated functions a piece of code calls (`MUTANT_UNDER_TEST=stats`).
mutmut's own runner (pytest, one test item per page) is not used. The names used from
mutmut are checked by `check()` when the tool starts, so an upgrade fails loudly.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import multiprocessing
import os
import shutil
import textwrap
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import mutmut
from mutmut.mutation import file_mutation, trampoline_templates
from mutmut.state import state
from mutmut.utils import format_utils

#: the mutmut this adapter was written against (pyproject.toml pins it)
MUTMUT_VERSION = "3.8.1"
SEPARATOR = trampoline_templates.CLASS_NAME_SEPARATOR


@dataclass(frozen=True)
class Mutant:
    """One mutant of one function, as mutmut generated it."""

    key: str  # what MUTANT_UNDER_TEST takes: "mlnotes.linalg.x_project__mutmut_3"
    function_key: str  # what the stats record: "mlnotes.linalg.x_project"
    function: str  # dotted name as a reader knows it: "mlnotes.linalg.project"
    path: str  # source file, relative to the project
    line: int  # first changed line in the source file
    reach: tuple[int, int]  # source lines one of which runs whenever the mutated code runs
    diff: str  # the changed lines, "-" original and "+" mutant
    fingerprint: str  # hash of the mutated function (docstring left out): for equivalences


def check() -> None:
    """Fail unless the installed mutmut is the one this adapter was written against."""
    if mutmut.__version__ != MUTMUT_VERSION:
        raise RuntimeError(
            f"scripts/dev/mutmut_adapter.py was written against mutmut {MUTMUT_VERSION}, "
            f"found {mutmut.__version__}: check the names it uses, then update MUTMUT_VERSION"
        )
    used = [
        (file_mutation, ["mutate_file_contents"]),
        (format_utils, ["mangled_name_from_mutant_name", "orig_function_and_class_names_from_key"]),
        (state(), ["_stats"]),
        (mutmut, ["_reset_globals", "configuration"]),
    ]
    missing = [name for owner, names in used for name in names if not hasattr(owner, name)]
    if missing:
        raise RuntimeError(f"mutmut {mutmut.__version__} lacks {missing}: update the adapter")


def _configure(workdir: Path, package: str) -> None:
    """Load mutmut's configuration from a setup.cfg of ours (pyproject.toml has none).

    mutmut reads its configuration from the working directory; its generator only needs
    `do_not_mutate_patterns` (empty) and a source path, so `workdir` gets a two-line
    setup.cfg, mutmut's documented alternative to `[tool.mutmut]`.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "setup.cfg").write_text(f"[mutmut]\nsource_paths = {package}\n")
    old = Path.cwd()
    os.chdir(workdir)
    try:
        mutmut._reset_globals()
        mutmut.configuration.config()
    finally:
        os.chdir(old)


def generate(
    root: Path, package: str, out: Path, jobs: int = 1
) -> tuple[list[Mutant], dict[str, list[tuple[int, int, int]]]]:
    """Write the trampolined copy of `root/package` under `out/package`.

    Returns its mutants, and per mutated file (absolute path) where the unmutated copy of
    each function lies: `(first line, last line, add this to get the source's line)`.
    """
    check()
    shutil.rmtree(out / package, ignore_errors=True)
    _configure(out, package)
    paths = sorted((root / package).rglob("*.py"), key=lambda p: -p.stat().st_size)
    context = multiprocessing.get_context("fork")  # the workers inherit the configuration
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        done = dict(zip(paths, pool.map(_mutate_file, [(root, p, out) for p in paths])))
    mutants = [m for path in sorted(paths) for m in done[path][0]]
    return mutants, {str(out / p.relative_to(root)): done[p][1] for p in paths}


def _mutate_file(job: tuple[Path, Path, Path]):
    root, path, out = job
    rel = path.relative_to(root)
    target = out / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    source = path.read_text()
    mutated = file_mutation.mutate_file_contents(str(rel), source)
    target.write_text(mutated.code)
    module = ".".join(rel.with_suffix("").parts)
    if module.endswith(".__init__"):
        module = module[: -len(".__init__")]
    return _describe(module, str(rel), source, mutated)


def _describe(module: str, rel: str, source: str, mutated):
    lines = mutated.code.splitlines()
    spans = mutated.line_span_by_function_name

    def text(name: str) -> list[str]:
        span = spans[name]
        return lines[span.start - 1 : span.end]

    def def_index(copy: list[str]) -> int:
        return next(i for i, t in enumerate(copy) if t.lstrip().startswith(("def ", "async def ")))

    tree = ast.parse(source)
    defs = _def_lines(tree)
    line_map, result = [], []
    for name in mutated.mutant_names:
        mangled = format_utils.mangled_name_from_mutant_name(name)  # x_f or xǁCǁf
        func, cls = format_utils.orig_function_and_class_names_from_key(name)
        orig, mutant = text(mangled + "__mutmut_orig"), text(name)
        mutant = [line.replace(name, mangled + "__mutmut_orig") for line in mutant]
        diff = [
            d
            for d in difflib.unified_diff(orig, mutant, lineterm="", n=0)
            if d[:1] in "+-" and not d.startswith(("+++", "---"))
        ]
        # original line = copy index + shift
        node = defs[(cls, func)]
        shift = node.lineno - def_index(orig)
        span = spans[mangled + "__mutmut_orig"]
        entry = (span.start, span.end, shift - span.start)
        if entry not in line_map:
            line_map.append(entry)
        changed = [
            (i1, max(i1, i2 - 1))
            for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, orig, mutant).get_opcodes()
            if tag != "equal"
        ]
        first, last = changed[0][0] + shift, changed[-1][1] + shift
        body = node.body[0].lineno
        if node.body[1:] and ast.get_docstring(node, clean=False) is not None:
            body = node.body[1].lineno
        # a default value changed in the signature acts on every call: any line of the body
        reach = (body, node.end_lineno) if first < body else (_statement_start(tree, first), last)
        shown = [d.replace(mangled + "__mutmut_orig", func) for d in diff]
        dotted = f"{module}.{cls}.{func}" if cls else f"{module}.{func}"
        result.append(
            Mutant(
                key=f"{module}.{name}",
                function_key=f"{module}.{mangled}",
                function=dotted,
                path=rel,
                line=first,
                reach=reach,
                diff="\n".join(d[0] + " " + d[1:].strip() for d in shown),
                fingerprint=_fingerprint(dotted, "\n".join(mutant)),
            )
        )
    return result, line_map


def _statement_start(tree: ast.Module, line: int) -> int:
    """First line of the innermost statement that contains `line`.

    A mutant changes behaviour only once its statement runs, and line tracing reports a
    statement that spans lines by some of its lines only: where it starts, at least.
    """
    starts = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.stmt)
        and not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.lineno <= line <= node.end_lineno
    ]
    return max(starts, default=line)


def _def_lines(tree: ast.Module) -> dict[tuple[str | None, str], ast.FunctionDef]:
    """(class or None, function) -> its `def` in the source."""
    found: dict[tuple[str | None, str], ast.FunctionDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found[None, node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    found[node.name, item.name] = item
    return found


def _fingerprint(dotted: str, code: str) -> str:
    """12 hex digits naming a mutant by what it is, not by mutmut's running number.

    A hash of the mutated function's syntax tree without its docstring: it stays the same
    when other functions or the docstring change, and changes when the function does.
    """
    node = ast.parse(textwrap.dedent(code)).body[0]
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        node.body = body[1:] or [ast.Pass()]
    node.decorator_list = []
    dumped = ast.dump(node, annotate_fields=False)
    return hashlib.sha256(f"{dotted}\n{dumped}".encode()).hexdigest()[:12]


def activate(key: str) -> None:
    """Make `key` the active mutant ("" for none, "stats" to record calls)."""
    os.environ["MUTANT_UNDER_TEST"] = key


def take_hits() -> set[str]:
    """The function keys called since the last take (under `activate("stats")`)."""
    hits = set(state()._stats)
    state()._stats.clear()
    return hits
