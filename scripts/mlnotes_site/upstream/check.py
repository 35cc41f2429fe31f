"""The checks the adapters run when `make serve` starts: does the installed package still
have what the adapter uses, with the kind it must have?"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from importlib import metadata
from typing import NoReturn

from mkdocs.exceptions import PluginError


def installed(dist: str) -> str:
    """The installed version of the distribution `dist`, or "not installed"."""
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def named(cls: type, name: str) -> bool:
    """Does a function of `cls` (or of its bases) name the attribute `name`? (An attribute
    first assigned in an event, `self.name = ...`, exists only once that event has run:
    this is how its existence is checked before.)"""
    for klass in getattr(cls, "__mro__", ()):
        for value in vars(klass).values():
            code = getattr(getattr(value, "__func__", value), "__code__", None)
            if code is not None and name in code.co_names:
                return True
    return False


@dataclass(frozen=True)
class Checker:
    """Checks for one upstream package: `owner` names what is checked in messages (a
    plugin's name, or the package's), `dist` the distribution, `pin` the version the
    adapter `module` was written against."""

    owner: str
    dist: str
    pin: str
    module: str

    def fail(self, attribute: str, kind: str) -> NoReturn:
        raise PluginError(
            f"mlnotes-incremental uses {self.owner}'s `{attribute}` ({kind}), which "
            f"{self.dist} {installed(self.dist)} does not have: it was written against "
            f"{self.dist}=={self.pin} (pyproject.toml pins it); install that version, or "
            f"update {self.module.replace('.', '/')}.py"
        )

    def klass(self, module: str, name: str) -> type:
        """The class `name` of `module` (which the plugin makes the object of later)."""
        try:
            value = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            value = None
        if not isinstance(value, type):
            self.fail(f"{module}.{name}", "a class")
        return value

    def need(self, owner: object, path: str, kind: type | str) -> None:
        """`owner` has the attribute (the last name of `path`) of the kind `kind` (a type,
        or "callable"); a class, or an object without it yet, must assign it in a method."""
        name = path.rsplit(".", 1)[-1]
        label = (
            "a function"
            if kind == "callable"
            else "an attribute"
            if kind is object
            else f"a {kind.__name__}"
        )
        if isinstance(owner, type) or not hasattr(owner, name):
            cls = owner if isinstance(owner, type) else type(owner)
            value = getattr(cls, name, None)
            if value is not None and kind != "callable" and not isinstance(value, kind):
                self.fail(path, label)
            if value is None and not named(cls, name):
                self.fail(path, label)
            return
        value = getattr(owner, name)
        ok = callable(value) if kind == "callable" else isinstance(value, kind)
        if not ok and not (kind is not object and value is None and named(type(owner), name)):
            self.fail(path, label)
