"""Content keys: the one way the build decides that cached work is still valid.

Every cache of the build is keyed here (figures, executed notebooks, typeset math,
`make serve`'s page records). A `Key` is a SHA-256 over named, length-framed parts:

    Key("figure").module(figure_builder).file(script, root).code(module, root).hexdigest()

`Key.file` names a file by its path relative to the project, `Key.code` keys a module's
code without docstrings and comments, `Key.module` an imported module's code by its dotted
name (a producer's version is its code). `dependencies` finds what a script imports of a
package by reading it, `ImportRecorder` records it as the script runs, and a `Stamp` beside
a product (`<name>.key`, `<name>.imports`) says what it was made from. A key holds no
absolute path and no modification time, so a cache restored on another machine or in
another checkout stays valid; parses are memoised on a file's bytes, never on its mtime.
"""

from __future__ import annotations

import ast
import builtins
import functools
import hashlib
import importlib
import importlib.util
import json
import os
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

__all__ = [
    "ImportRecorder",
    "Key",
    "Stamp",
    "code_digest",
    "dependencies",
    "digest",
    "imports",
    "read_imports",
    "relative_name",
]


class Key:
    """A SHA-256 over named parts; `kind` names what is keyed (a figure, a notebook...)."""

    def __init__(self, kind: str):
        self._hash = hashlib.sha256()
        self._part(b"kind", kind, kind.encode())

    def _part(self, tag: bytes, name: str, value: bytes) -> Key:
        for field in (tag, name.encode(), value):
            self._hash.update(len(field).to_bytes(8, "little"))
            self._hash.update(field)
        return self

    def add(self, name: str, value: bytes | str) -> Key:
        """Add `value` (bytes, or text as UTF-8) under `name`."""
        if isinstance(value, str):
            return self._part(b"text", name, value.encode())
        if not isinstance(value, bytes):
            raise TypeError(f"a key's part {name!r} is {type(value).__name__}, not bytes or str")
        return self._part(b"bytes", name, value)

    def file(self, path: Path, root: Path, missing_ok: bool = False) -> Key:
        """Add the bytes of the file at `path`, named by its path relative to `root`.

        A missing (or unreadable) file raises, or with `missing_ok` counts as missing
        (distinct from any content, an empty file included)."""
        name = relative_name(path, root)
        try:
            return self._part(b"file", name, Path(path).read_bytes())
        except OSError:
            if not missing_ok:
                raise
            return self._part(b"missing", name, b"")

    def code(self, path: Path, root: Path, missing_ok: bool = False) -> Key:
        """Add the code of the Python module at `path` (`code_digest`), named by its path
        relative to `root`; a missing file as in `file`."""
        name = relative_name(path, root)
        try:
            return self._part(b"code", name, code_digest(Path(path)))
        except OSError:
            if not missing_ok:
                raise
            return self._part(b"missing", name, b"")

    def module(self, module: ModuleType) -> Key:
        """Add the code (`code_digest`) of the imported `module`'s source file, as it is on
        disk now, named by its dotted name: the version of a producer is its code (no
        counter to bump by hand), wherever the package is installed."""
        return self._part(b"module", module.__name__, code_digest(Path(module.__file__)))

    def hexdigest(self) -> str:
        return self._hash.copy().hexdigest()


def digest(kind: str, parts: Iterable[tuple[str, bytes | str]]) -> str:
    """The key of `kind` over (name, value) parts, in their order: `Key` in one call."""
    key = Key(kind)
    for name, value in parts:
        key.add(name, value)
    return key.hexdigest()


def relative_name(path: Path, root: Path) -> str:
    """`path` relative to `root`, in POSIX form: how a key names a file."""
    # normalised first: `docs/../mlnotes/x.py` and `mlnotes/x.py` are one file, one name
    try:
        return Path(os.path.normpath(path)).relative_to(os.path.normpath(root)).as_posix()
    except ValueError:
        raise ValueError(
            f"{path} is not under {root}: a content key names files relative to the project "
            "(no absolute paths, so a cache stays valid on another machine)"
        ) from None


# ---------------------------------------------------------------------------------------
# The code of a module
# ---------------------------------------------------------------------------------------


def code_digest(path: Path) -> bytes:
    """What of a Python source file can change what it computes.

    Its syntax tree without docstrings, comments and positions (`ast.dump`), so editing a
    docstring or a comment, or re-flowing the code, keeps the digest, while any change of
    behaviour changes it. A file that does not parse counts by its bytes (whatever runs it
    runs again, and fails naming the syntax error). Sound only while nothing reads a
    `__doc__` at run time (tests/test_code_keys.py checks it of mlnotes, the figures and the notebooks).
    """
    return _code_digest(Path(path).read_bytes())


# One parse per version of a file, memoised on its bytes (never on its modification time,
# which a quick same-size edit can leave unchanged): every figure's key reads plotting's
# and __init__'s, and under `make serve` every rebuild computes every figure's key (1,500
# at --scale 100).
@functools.lru_cache(maxsize=1024)
def _code_digest(data: bytes) -> bytes:
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return hashlib.sha256(b"unparsed\0" + data).digest()
    return hashlib.sha256(
        ast.dump(_strip_docstrings(tree), include_attributes=False).encode()
    ).digest()


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                node.body = body[1:] or [ast.Pass()]
    return tree


# ---------------------------------------------------------------------------------------
# The modules a script imports
# ---------------------------------------------------------------------------------------


def imports(script: Path, package: Path, always: Iterable[str] = ()) -> list[Path]:
    """The modules of `package` (a flat package folder, such as `mlnotes/`) that the script
    at `script` imports, followed through the package's own imports; sorted paths.

    The package's `__init__.py` (run by any import of it) and the modules named in
    `always` (file stems) are included. A script that does not parse raises SyntaxError
    (or ValueError); a module of the package that does not parse imports nothing here (its
    own `code_digest`, its bytes, changes, and what imports it runs and fails).
    """
    seen = {"__init__", *always}
    todo = list(_imports(Path(script), Path(package), strict=True) | seen)
    while todo:
        module = todo.pop()
        seen.add(module)
        todo.extend(_imports(package / f"{module}.py", package, strict=False) - seen)
    return sorted(package / f"{m}.py" for m in seen if (package / f"{m}.py").exists())


def dependencies(source: Path, package: Path, always: Iterable[str] = ()) -> list[Path]:
    """The modules of `package` that the script or jupytext notebook at `source` imports,
    transitively, with `__init__.py` and the `always` modules (`imports`); sorted paths.

    A source that does not parse as Python (a syntax error, a notebook magic that jupytext
    did not comment out, bytes that are not UTF-8) depends on every module of `package`:
    whatever runs it runs again, and fails naming the error.
    """
    try:
        return imports(Path(source), Path(package), always)
    except (SyntaxError, ValueError):  # UnicodeDecodeError is a ValueError
        return sorted(Path(package).rglob("*.py"))


def _imports(path: Path, package: Path, strict: bool) -> frozenset[str]:
    """The modules of `package` (file stems) the file at `path` imports, directly."""
    try:
        modules, names = _parse_imports(path.read_bytes(), path.parent == package, package.name)
    except (OSError, SyntaxError, ValueError):
        if strict:
            raise
        return frozenset()
    # `from mlnotes import x`: x is a module if there is a file of it, else a name of __init__
    found = modules | {n if (package / f"{n}.py").exists() else "__init__" for n in names}
    return frozenset(m for m in found if (package / f"{m}.py").exists())


@functools.lru_cache(maxsize=1024)
def _parse_imports(data: bytes, in_package: bool, top: str) -> tuple[frozenset, frozenset]:
    """The modules of package `top` a source imports (`import top.x`, `from .x import y`),
    and the names it imports from the package itself (`from top import x`)."""
    tree = ast.parse(data)
    modules: set[str] = set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == top:
                    modules.add(parts[1] if len(parts) > 1 else "__init__")
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and node.module.split(".")[0] == top:
                parts = node.module.split(".")
            elif node.level == 1 and in_package:  # from . import x / from .x import y
                parts = [top] + (node.module.split(".") if node.module else [])
            else:
                continue
            if len(parts) > 1:
                modules.add(parts[1])
            else:  # from mlnotes import embeddings, ...
                names.update(alias.name for alias in node.names)
    return frozenset(modules), frozenset(names)


# ---------------------------------------------------------------------------------------
# The modules a script imported, recorded as it runs
# ---------------------------------------------------------------------------------------


def read_imports(path: Path) -> list[str] | None:
    """The files an `ImportRecorder` recorded, as a figure's or a notebook's last run saved
    them (a JSON list, `<cache>/<name>.imports`); None if there is no such record."""
    try:
        imports = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return imports if isinstance(imports, list) else None


@dataclass(frozen=True)
class Stamp:
    """The record of a product made into `outputs`, kept in the folder `cache`:
    `<name>.key` (the key it was made under) and `<name>.imports` (the package's files its
    producer imported, a JSON list: `ImportRecorder.files`).

    The product is fresh for a key when the key file holds that key and every output
    exists; `write` records a new product (after its outputs are written), `remove`
    deletes the product and its record (nothing stale is left when making it failed).
    """

    cache: Path
    name: str
    outputs: tuple[Path, ...] = ()

    @property
    def key_file(self) -> Path:
        return Path(self.cache) / f"{self.name}.key"

    @property
    def imports_file(self) -> Path:
        return Path(self.cache) / f"{self.name}.imports"

    def imports(self) -> list[str] | None:
        """What the last run recorded it importing (`read_imports`), or None."""
        return read_imports(self.imports_file)

    def fresh(self, key: str) -> bool:
        """Was the product made under `key`, and are all its outputs there?"""
        try:
            made = self.key_file.read_text(encoding="utf-8")
        except OSError:
            return False
        return made == key and all(Path(p).is_file() for p in self.outputs)

    def write(self, key: str, imports: list[str]) -> None:
        """Record the product just made: its key and what it imported."""
        Path(self.cache).mkdir(parents=True, exist_ok=True)
        self.imports_file.write_text(json.dumps(imports), encoding="utf-8")
        self.key_file.write_text(key, encoding="utf-8")

    def remove(self) -> None:
        """Delete the outputs and the record."""
        for path in (*self.outputs, self.key_file, self.imports_file):
            Path(path).unlink(missing_ok=True)


class ImportRecorder:
    """Which modules of a package (`mlnotes`) each module imports, recorded as it runs.

    For a process that runs many scripts (the figure builder's warm workers): a module an
    earlier script imported is already in `sys.modules`, so the difference of
    `sys.modules` before and after a script misses it. Instead `install` wraps
    `builtins.__import__` (every `import` statement) and `importlib.import_module`, and
    records an edge from the importing module (its `__name__`) to each module of the
    package it names, cached or not: a module's top-level imports run once, when it is
    first loaded, and stay recorded for the life of the process; an import inside a
    function is recorded each time it runs. `imported_by(name)` follows the edges from a
    module: what running it made available to it, whichever script loaded it first. It may
    include a module that another script's call path imported inside a function (more
    re-runs, never a stale figure).

    `install` first removes the package's modules already loaded (their imports ran
    unseen), so they load again under the recorder. An import by other means
    (`importlib.util` loaders, `runpy`, `exec`) is not seen.
    """

    def __init__(self, package: str):
        self.package = package
        self.edges: dict[str, set[str]] = {}
        self._lock = threading.Lock()  # imports may run in several threads
        self._originals = None

    def _ours(self, name: str) -> bool:
        return name == self.package or name.startswith(self.package + ".")

    def install(self) -> ImportRecorder:
        for name in [m for m in sys.modules if self._ours(m)]:
            del sys.modules[name]
        original_import, original_import_module = builtins.__import__, importlib.import_module

        def recording_import(name, globals=None, locals=None, fromlist=(), level=0):
            module = original_import(name, globals, locals, fromlist, level)
            self._record(name, globals, fromlist, level)
            return module

        def recording_import_module(name, package=None):
            module = original_import_module(name, package)
            importer = sys._getframe(1).f_globals  # the caller's module
            self._record(module.__name__, importer, (), 0)
            return module

        self._originals = (original_import, original_import_module)
        builtins.__import__ = recording_import
        importlib.import_module = recording_import_module
        return self

    def uninstall(self) -> None:
        """Put back the import functions `install` wrapped (what it recorded is kept)."""
        if self._originals is not None:
            builtins.__import__, importlib.import_module = self._originals
            self._originals = None

    def __enter__(self) -> ImportRecorder:
        return self.install()

    def __exit__(self, *exc) -> None:
        self.uninstall()

    def _record(self, name: str, globals, fromlist, level: int) -> None:
        globals = globals or {}
        importer = globals.get("__name__") or ""
        if level:
            package = globals.get("__package__")
            if package is None:
                package = importer if "__path__" in globals else importer.rpartition(".")[0]
            name = importlib.util.resolve_name("." * level + name, package)
        parts = name.split(".")
        targets = {".".join(parts[: i + 1]) for i in range(len(parts))}  # its packages too
        targets |= {f"{name}.{x}" for x in fromlist or () if f"{name}.{x}" in sys.modules}
        ours = {t for t in targets if self._ours(t) and t != importer}
        if ours:
            with self._lock:
                self.edges.setdefault(importer, set()).update(ours)

    @staticmethod
    def format_exception(exc: BaseException) -> str:
        """`exc`'s traceback as `traceback.format_exception` writes it, without the frames of
        this module: an import that failed while recorded is reported at the importing line
        (a figure script's), not at the recorder's."""
        import traceback

        here = os.path.normcase(os.path.abspath(__file__))
        shown = traceback.TracebackException.from_exception(exc)
        for te in _chain(shown):
            frames = [f for f in te.stack if os.path.normcase(os.path.abspath(f.filename)) != here]
            te.stack = traceback.StackSummary.from_list(frames)
        return "".join(shown.format())

    def forget(self, name: str) -> None:
        """Drop what module `name` imported (before it runs again, from a new version)."""
        with self._lock:
            self.edges.pop(name, None)

    def imported_by(self, name: str) -> set[str]:
        """The package's modules that module `name` imported, directly or through others."""
        seen: set[str] = set()
        todo = [name]
        with self._lock:
            edges = {k: set(v) for k, v in self.edges.items()}
        while todo:
            for module in edges.get(todo.pop(), ()):
                if module not in seen:
                    seen.add(module)
                    todo.append(module)
        return seen

    def files(self, name: str) -> list[str]:
        """The source files of `imported_by(name)` (the package included, as any import of
        a submodule runs it), relative to the package's folder: `["__init__.py", "alpha.py"]`."""
        package = sys.modules.get(self.package)
        if package is None:
            return []
        folder = Path(package.__path__[0])
        found = set()
        for module in self.imported_by(name) | {self.package}:
            file = getattr(sys.modules.get(module), "__file__", None)
            if file and Path(file).is_relative_to(folder):
                found.add(Path(file).relative_to(folder).as_posix())
        return sorted(found)


def _chain(te):
    """A TracebackException and those it was caused by or raised during."""
    seen = set()
    while te is not None and id(te) not in seen:
        seen.add(id(te))
        yield te
        te = te.__cause__ or (None if te.__suppress_context__ else te.__context__)
