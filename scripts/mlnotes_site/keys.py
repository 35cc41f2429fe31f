"""Content keys: the one way the build decides that cached work is still valid.

The build's caches are keyed here (all but the typeset math's, typeset.py, which
hashes its page's expressions itself): the figures (figure_builder.py, one key a figure
and one for the code the warm workers have imported), the executed notebooks
(notebooks.py) and `make serve`'s incremental
rebuilds (incremental.py). A key is a SHA-256 over *named parts*:

    key = Key("figure").add("builder", "1").file(script, root).code(module, root)
    key.hexdigest()

- `Key.add`: a value (bytes or text) under a name of the caller's choosing.
- `Key.file`: a file's bytes, named by its path relative to `root`.
- `Key.code`: a Python module's code without docstrings, comments and layout
  (`code_digest`), named by its path relative to `root`: a docstring or comment edit
  keeps the key, any change of behaviour changes it.
- `imports`: the modules of a package (`mlnotes`) a script imports, transitively, found
  by reading its source (what the keys of notebooks cover, and of a figure not yet drawn).
- `ImportRecorder`: the modules of the package a script imported, recorded as it ran
  (what the key of a figure drawn before covers: figure_builder.py).

Each part is framed by its kind and length, so no two different lists of parts hash
alike (`("ab", "c")` and `("a", "bc")` differ). A key holds no absolute path and no
modification time: a cache restored on another machine, or in another checkout of the
project, stays valid (the workflows restore `.cache/` from earlier runs;
tests/test_workflows.py). `Key.file` and `Key.code` refuse a path outside `root`.
Parses are memoised within a process on a file's bytes, never on its modification time.
"""

from __future__ import annotations

import ast
import builtins
import functools
import hashlib
import importlib
import json
import importlib.util
import os
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

__all__ = [
    "ImportRecorder",
    "Key",
    "code_digest",
    "digest",
    "imports",
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
    `__doc__` at run time (tests/test_hooks.py checks it of mlnotes and the figures).
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
