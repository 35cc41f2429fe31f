"""An explorable figure's grid: its script's `EXPLORE`, read without running the script.

A figure script is explorable when it has, at module level, a literal dict `EXPLORE`
(parameter -> {"label", "unit", "grid", optional "format"}, one or two parameters),
`make_figure` keyword parameters whose defaults (a point of the grid) draw today's figure,
and `caption_values(**point)`, the caption's values at a point. The figure builder draws
every point (figure_builder.py) and writes a manifest per figure (`manifest_path`): each
point's parameters, its two files and its caption values; the figure block reads it
(plugins/figure_blocks.py). A point's files are `<name>/<param>=<value>[,...].svg` and
`-dark.svg` under the figures' folder, the default point's today's `<name>.svg`.
"""

from __future__ import annotations

import ast
import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path

MANIFEST = "manifest.json"  # in the figure's folder of frames: docs/figures/<name>/
MAX_PARAMETERS = 2
MAX_POINTS = 30  # per figure: every point is drawn twice (light and dark) at each cold build
SPEC_KEYS = {"label", "unit", "grid", "format"}
_TOKEN = re.compile(r"[\w.+-]+")  # a value as a file name shows it


class ExploreError(ValueError):
    """A script's `EXPLORE` that the builder cannot draw (the message names the script)."""


@dataclass(frozen=True)
class Parameter:
    """One control: the `make_figure` keyword `name`, its visible `label`, `unit` and grid."""

    name: str
    label: str
    unit: str
    grid: tuple
    format: str = "{}"

    def shown(self, value) -> str:
        """The value as the reader reads it, with its unit (after a no-break space)."""
        text = self.format.format(value)
        return f"{text}\u00a0{self.unit}" if self.unit else text


@dataclass(frozen=True)
class Explore:
    """A figure's grid: its `parameters` and the `default` point (make_figure's defaults)."""

    parameters: tuple[Parameter, ...]
    default: dict

    def points(self) -> list[dict]:
        """Every point of the grid, the last parameter varying fastest (the page's order)."""
        names = [p.name for p in self.parameters]
        return [dict(zip(names, values)) for values in itertools.product(*self.grids)]

    @property
    def grids(self) -> list[tuple]:
        return [p.grid for p in self.parameters]

    def point_id(self, point: dict) -> str:
        """`alpha=0.05` or `n=3,p=0.5`: the point in its files' names and the manifest."""
        return point_id({p.name: point[p.name] for p in self.parameters})

    def files(self, name: str, point: dict) -> tuple[str, str]:
        """The point's light and dark files, relative to the figures' folder."""
        if point == self.default:
            return f"{name}.svg", f"{name}-dark.svg"
        stem = f"{name}/{self.point_id(point)}"
        return f"{stem}.svg", f"{stem}-dark.svg"


def token(value) -> str:
    """A grid value as a file name and the manifest write it (`repr` of a number)."""
    return value if isinstance(value, str) else repr(value)


def point_id(point: dict) -> str:
    """`alpha=0.05` or `n=3,p=0.5` (in the grid's order of parameters)."""
    return ",".join(f"{name}={token(value)}" for name, value in point.items())


def call(point: dict, function: str = "make_figure") -> str:
    """`make_figure(alpha=0.1)`: how a frame was drawn (its SVG's description)."""
    return f"{function}(" + ", ".join(f"{k}={v!r}" for k, v in point.items()) + ")"


def _assigned(tree: ast.Module, name: str) -> ast.expr | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return node.value
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == name:
            return node.value
    return None


def _function(tree: ast.Module, name: str) -> ast.FunctionDef | None:
    found = None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            found = node
    return found


def _defaults(function: ast.FunctionDef) -> dict[str, ast.expr]:
    """The keyword parameters of `function` that have a default, and the default's node."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    with_default = dict(
        zip([a.arg for a in positional[len(positional) - len(args.defaults) :]], args.defaults)
    )
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        if default is not None:
            with_default[arg.arg] = default
    return with_default


def read(script: Path, shown: str | None = None) -> Explore | None:
    """The grid `script` declares in `EXPLORE`, checked; None if it has none.

    Raises `ExploreError` naming the script (`shown`, default its path) and the parameter:
    `EXPLORE` not a literal dict of one or two parameters, a parameter's spec without a
    label, a unit or a grid of distinct values, more than `MAX_POINTS` points, a parameter
    `make_figure` lacks or has no literal default for, a default not on the grid, or no
    `caption_values` function. A script that does not parse is not read here: the builder
    runs it and reports its error."""
    shown = shown or str(script)
    try:
        tree = ast.parse(Path(script).read_text(encoding="utf-8"))
    except SyntaxError:
        return None
    node = _assigned(tree, "EXPLORE")
    if node is None:
        return None

    def fail(problem: str) -> ExploreError:
        return ExploreError(f"{shown}: EXPLORE: {problem}")

    try:
        spec = ast.literal_eval(node)
    except ValueError as error:
        raise fail(f"not a literal dict ({error})") from None
    if not isinstance(spec, dict) or not 1 <= len(spec) <= MAX_PARAMETERS:
        raise fail(f"must be a dict of 1 to {MAX_PARAMETERS} parameters, not {spec!r:.80}")
    make_figure = _function(tree, "make_figure")
    defaults = _defaults(make_figure) if make_figure else {}
    if _function(tree, "caption_values") is None:
        raise fail("the script defines no caption_values(**point) function (the caption's values)")
    parameters, default = [], {}
    for name, entry in spec.items():
        where = f"parameter {name!r}"
        if not isinstance(name, str) or not name.isidentifier():
            raise fail(f"{where}: a parameter is a keyword of make_figure, an identifier")
        if (
            not isinstance(entry, dict)
            or set(entry) - SPEC_KEYS
            or not {"label", "unit", "grid"} <= set(entry)
        ):
            raise fail(f"{where}: needs exactly the keys label, unit, grid (and optional format)")
        label, unit, grid = entry["label"], entry["unit"], entry["grid"]
        fmt = entry.get("format", "{}")
        if not isinstance(label, str) or not label.strip():
            raise fail(f"{where}: its label must be a non-empty string")
        if not isinstance(unit, str) or not isinstance(fmt, str):
            raise fail(f"{where}: its unit and format must be strings")
        if not isinstance(grid, (tuple, list)) or len(grid) < 2:
            raise fail(f"{where}: its grid must be a tuple of at least two values")
        for value in grid:
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                raise fail(f"{where}: grid value {value!r} is not a number or a string")
            if not _TOKEN.fullmatch(token(value)):
                raise fail(f"{where}: grid value {value!r} cannot name a file")
            try:
                fmt.format(value)
            except (ValueError, IndexError, KeyError) as error:
                raise fail(f"{where}: format {fmt!r} cannot show {value!r} ({error})") from None
        if len({token(v) for v in grid}) != len(grid):
            raise fail(f"{where}: its grid repeats a value")
        if name not in defaults:
            raise fail(
                f"{where}: make_figure has no keyword parameter {name!r} with a default"
                if make_figure
                else f"{where}: the script defines no make_figure function"
            )
        try:
            value = ast.literal_eval(defaults[name])
        except ValueError:
            raise fail(f"{where}: make_figure's default for {name!r} is not a literal") from None
        if value not in grid or isinstance(value, bool):
            raise fail(
                f"{where}: make_figure's default {name}={value!r} is not on its grid {tuple(grid)}"
            )
        default[name] = grid[list(grid).index(value)]
        parameters.append(Parameter(name, label, unit, tuple(grid), fmt))
    explore = Explore(tuple(parameters), default)
    count = len(explore.points())
    if count > MAX_POINTS:
        raise fail(f"its grid has {count} points, more than {MAX_POINTS}")
    return explore


def manifest_path(out: Path, name: str) -> Path:
    """The manifest of figure `name` in the figures' folder `out`."""
    return Path(out) / name / MANIFEST


def read_manifest(out: Path, name: str) -> dict | None:
    """The manifest the builder wrote for figure `name`, or None (none, or unreadable):
    {"parameters": [names], "points": {point id: {"params", "files", "caption"}}}."""
    try:
        data = json.loads(manifest_path(out, name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("points"), dict) else None
