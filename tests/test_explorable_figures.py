"""The explorable figure scripts: their EXPLORE grids, their frames and their caption values.

A script is explorable when it declares a literal `EXPLORE` dict (issue 31): its parameters,
each with a label, a unit and the author's grid. Here: each `EXPLORE` is well formed and
matches the keyword defaults of `make_figure` and `caption_values`; the default point is still
the figure the page's text describes; every point's frame in the built site, in both
palettes, has axes and the default's size; and the numbers `caption_values` states at every point match a computation
that does not go through the `mlnotes` call the script makes (a formula written out, the
definition, mpmath, torch's own convolution, a count over the same seeded draws).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import itertools
import math
import re
from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import mpmath  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.collections import Collection  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from mlnotes.plotting import style  # noqa: E402

FIGURES = Path(__file__).resolve().parent.parent / "scripts" / "figures"


def _explore(path: Path):
    """The script's EXPLORE, read as the builder reads it: a literal, without running it."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "EXPLORE" for t in node.targets
        ):
            return ast.literal_eval(node.value)
    return None


EXPLORABLE = {p.stem: _explore(p) for p in sorted(FIGURES.glob("*.py")) if _explore(p)}
_MODULES = {}


def _module(name):
    if name not in _MODULES:
        spec = importlib.util.spec_from_file_location(f"_explorable_{name}", FIGURES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _MODULES[name] = module
    return _MODULES[name]


def _points(explore):
    names = list(explore)
    return [
        dict(zip(names, values))
        for values in itertools.product(*(explore[n]["grid"] for n in names))
    ]


def _defaults(name):
    parameters = inspect.signature(_module(name).make_figure).parameters
    return {p: parameters[p].default for p in EXPLORABLE[name]}


POINTS = [(name, point) for name, explore in EXPLORABLE.items() for point in _points(explore)]


def _id(name, point):
    return name + "".join(f"-{k}={v}" for k, v in point.items())


def test_at_least_six_explorable_figures_and_the_budget():
    assert len(EXPLORABLE) >= 6, sorted(EXPLORABLE)
    assert len(POINTS) <= 100, f"{len(POINTS)} grid points: the site's budget is about 100"


# --- EXPLORE ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXPLORABLE))
def test_explore_is_well_formed_and_matches_the_defaults(name):
    explore, module = EXPLORABLE[name], _module(name)
    assert module.EXPLORE == explore  # the literal the builder reads is what the script uses
    assert 1 <= len(explore) <= 2, f"{name}: one or two parameters, got {list(explore)}"
    product = math.prod(len(spec["grid"]) for spec in explore.values())
    assert 2 <= product <= 30, f"{name}: {product} points"
    for param, spec in explore.items():
        assert set(spec) <= {"label", "unit", "grid", "format"}, f"{name}.{param}: {set(spec)}"
        assert isinstance(spec["label"], str) and spec["label"].strip(), f"{name}.{param}: label"
        assert isinstance(spec["unit"], str), f"{name}.{param}: unit"
        grid = spec["grid"]
        assert isinstance(grid, tuple) and len(grid) >= 2, f"{name}.{param}: grid {grid!r}"
        assert len(set(grid)) == len(grid), f"{name}.{param}: repeated values in {grid}"
        assert all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in grid)
        assert list(grid) == sorted(grid), f"{name}.{param}: a slider's grid goes in order"
        shown = [spec.get("format", "{}").format(v) for v in grid]
        assert len(set(shown)) == len(shown), f"{name}.{param}: two values shown alike: {shown}"

    for function in (module.make_figure, module.caption_values):
        parameters = inspect.signature(function).parameters
        assert list(parameters) == list(explore), f"{name}.{function.__name__}: {list(parameters)}"
        for param, spec in explore.items():
            default = parameters[param].default
            assert default in spec["grid"], f"{name}.{function.__name__}: {param}={default!r}"
    defaults = _defaults(name)
    caption_defaults = {
        p: inspect.signature(module.caption_values).parameters[p].default for p in explore
    }
    assert defaults == caption_defaults, f"{name}: the caption's default is not the figure's"


# --- the default is the figure of the text -------------------------------------------


def _rounded(values) -> list:
    array = np.asarray(values, dtype=float).ravel()
    return [float(f"{v:.6g}") for v in array]


def fingerprint(fig) -> str:
    """What a figure shows, independent of how a backend writes it: every text with its
    place, every line's data, every patch's and collection's outline and colour, and the
    axes' limits, after a draw (which lays the figure out), rounded to 6 digits."""
    fig.canvas.draw()
    parts = []
    for artist in fig.findobj(lambda a: a.get_visible()):
        kind = type(artist).__name__
        if isinstance(artist, Text):
            if artist.get_text():
                parts.append((kind, artist.get_text(), _rounded(artist.get_position())))
        elif isinstance(artist, Line2D):
            parts.append(
                (kind, _rounded(artist.get_xydata()), artist.get_color(), artist.get_linestyle())
            )
        elif isinstance(artist, Patch):
            path = artist.get_path().transformed(artist.get_patch_transform())
            parts.append((kind, _rounded(path.vertices), _rounded(artist.get_facecolor())))
        elif isinstance(artist, Collection):
            paths = [_rounded(p.vertices) for p in artist.get_paths()]
            parts.append(
                (kind, paths, _rounded(artist.get_offsets()), _rounded(artist.get_facecolor()))
            )
    for ax in fig.axes:
        parts.append(("limits", _rounded(ax.get_xlim()), _rounded(ax.get_ylim())))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


# The fingerprints (light style) of the figures the pages' text describes, taken from the
# scripts before they became explorable (commit c5d1c8b); their SVG files, light and dark,
# were then byte for byte those of the explorable scripts' defaults. A change here changes the
# figure every static copy shows (print, PDF, JavaScript off): check the page's text and its
# caption, then update the fingerprint.
TODAY = {
    "cnn_kernel_positions": "8baea6304c43430a",
    "linear_algebra_eigenvectors": "8b9edb2666f819c7",
    "probability_monty_hall": "71f143f37fc66207",
    "probability_normal_quantiles": "1a36d4fabb501edd",
    "probability_poisson_binomial": "0148d36a12e9d055",
    "se_distance_offset": "1bf2078df6bdb077",
}


@pytest.mark.parametrize("name", sorted(EXPLORABLE))
def test_the_default_point_is_the_figure_of_the_text(name):
    assert name in TODAY, f"{name}: record the fingerprint of the figure its page describes"
    other = next(p for p in _points(EXPLORABLE[name]) if p != _defaults(name))
    prints = []
    for point in ({}, other):  # the default, and another point: the fingerprint tells them apart
        with style("light"):
            fig = _module(name).make_figure(**point)
        prints.append(fingerprint(fig))
        plt.close(fig)
    assert prints[0] == TODAY[name]
    assert prints[1] != prints[0], f"{name}: {other} draws the default figure"


# --- every point draws ----------------------------------------------------------------


SVG_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)pt" height="([\d.]+)pt"')


@pytest.mark.parametrize("name", sorted(EXPLORABLE))
def test_every_point_drew_axes_in_the_default_frame_in_both_styles(site, name):
    """Every point's frame, as the site serves it (the SVG the builder saved: its tight
    box and matplotlib's 0.1 in padding around it), in both palettes, has axes and the default frame's size within 2%, so that
    moving a control does not make the page jump. (The site's build drew every point;
    tests/test_site.py checks that each was drawn, with its parameters.)"""
    from mlnotes_site import explore

    grid = explore.read(FIGURES / f"{name}.py")
    assert grid is not None and _points(EXPLORABLE[name]) == grid.points(), name
    figures = site.path / "figures"

    def frame(file):
        svg = (figures / file).read_text(encoding="utf-8")
        assert '<g id="axes_1">' in svg, f"{file}: no axes"
        width, height = map(float, SVG_SIZE.search(svg).groups())
        return width, height

    default = [frame(f) for f in grid.files(name, grid.default)]
    for point in grid.points():
        for file, (width, height), (w0, h0) in zip(
            grid.files(name, point), map(frame, grid.files(name, point)), default, strict=True
        ):
            assert width == pytest.approx(w0, rel=0.02), f"{file}: width {width} pt, default {w0}"
            assert height == pytest.approx(h0, rel=0.02), (
                f"{file}: height {height} pt, default {h0}"
            )


# --- the caption's values, against an independent computation -----------------------

NUMBER = r"−?-?[\d,]*\.?\d+"


def _num(text: str) -> float:
    return float(text.replace(",", "").replace("−", "-"))


def _find(pattern: str, text: str) -> list[str]:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not in {text!r}"
    return list(match.groups())


def check_probability_normal_quantiles(text, alpha):
    q_lo, lo, q_hi, hi = _find(
        rf"PPF\(({NUMBER})\) = ({NUMBER}) and PPF\(({NUMBER})\) = ({NUMBER})", text
    )
    assert (_num(q_lo), _num(q_hi)) == pytest.approx((alpha / 2, 1 - alpha / 2), abs=1e-12)
    assert "-" not in lo, "a minus sign, not a hyphen"
    with mpmath.workdps(30):  # the quantile from its definition, at high precision
        exact = [
            float(mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(q) - 1))
            for q in (alpha / 2, 1 - alpha / 2)
        ]
    assert _num(lo) == round(exact[0], 3) and _num(hi) == round(exact[1], 3)
    between, tail = _find(
        rf"({NUMBER})% of the mass lies between them, ({NUMBER})% in each tail", text
    )
    assert _num(between) == pytest.approx(100 * (1 - alpha)) and _num(tail) == pytest.approx(
        50 * alpha
    )


def check_probability_poisson_binomial(text, n):
    N, distance, bound = _find(
        rf"N = ({NUMBER}),.* is ({NUMBER}), under Le Cam's bound λ²/N = ({NUMBER})\.", text
    )
    assert _num(N) == n
    lam, theta = 3.0, 3.0 / n
    # the two pmfs written out, in exact rationals times mpmath's exponential, summed to y = 100
    # (both tails beyond it are below 1e-60 at lambda = 3)
    with mpmath.workdps(40):
        th = mpmath.mpf(3) / n
        total = mpmath.mpf(0)
        for y in range(101):
            binomial = math.comb(n, y) * th**y * (1 - th) ** (n - y) if y <= n else 0
            poisson = mpmath.mpf(3) ** y * mpmath.exp(-3) / math.factorial(y)
            total += abs(binomial - poisson)
        exact = float(total / 2)
    assert _num(distance) == float(f"{exact:.2g}"), (text, exact)
    assert _num(bound) == pytest.approx(lam**2 / n) and exact < lam**2 / n
    assert theta == pytest.approx(lam / n)


def check_probability_monty_hall(text, seed):
    won, games, rate, lost, stay_rate = _find(
        rf"switching won ({NUMBER}) of the ({NUMBER}) games \(({NUMBER})\), staying ({NUMBER}) \(({NUMBER})\)",
        text,
    )
    n_games = int(_num(games))
    # The same seeded draws, counted by the puzzle's own argument: monty_hall_wins draws the
    # prize doors, then the first choices; switching wins exactly when the first choice is wrong.
    rng = np.random.default_rng(seed)
    prize = rng.integers(0, 3, size=n_games)
    chosen = rng.integers(0, 3, size=n_games)
    wins = chosen != prize
    assert int(_num(won)) == wins.sum() and int(_num(lost)) == n_games - wins.sum()
    assert _num(rate) == round(wins.mean(), 3) and _num(stay_rate) == round(1 - wins.mean(), 3)
    n = np.arange(1, n_games + 1)
    running = np.cumsum(wins) / n
    p = Fraction(2, 3)
    outside = np.abs(running - float(p)) > 2 * np.sqrt(float(p * (1 - p)) / n)
    if "never leave" in text:
        assert not outside.any()
    else:
        count, total, last = _find(
            rf"bands for ({NUMBER}) of the ({NUMBER}) values of n, the last at n = ({NUMBER})\.",
            text,
        )
        assert int(_num(total)) == n_games
        assert int(_num(count)) == outside.sum() and int(_num(last)) == n[outside][-1]


def check_se_distance_offset(text, embed_dim):
    d, largest, at, side, root, first, then = _find(
        rf"d = ({NUMBER}): over the offsets 0 to 999 the largest distance is ({NUMBER}) \(at k = ({NUMBER})\), "
        rf"(below|above) √d ≈ ({NUMBER}); it first decreases from k = ({NUMBER}) to k = ({NUMBER})\.",
        text,
    )
    assert int(_num(d)) == embed_dim
    # the definition: SE(t) with columns sin(t w_i), cos(t w_i), and the distance from SE(0)
    i = np.arange(embed_dim // 2)
    omega = 10000.0 ** (-2.0 * i / embed_dim)
    k = np.arange(1000)[:, None]
    table = np.empty((1000, embed_dim))
    table[:, 0::2], table[:, 1::2] = np.sin(k * omega), np.cos(k * omega)
    dist = np.linalg.norm(table - table[0], axis=1)
    assert _num(largest) == round(dist.max(), 2) and int(_num(at)) == dist.argmax()
    assert side == ("below" if dist.max() < math.sqrt(embed_dim) else "above")
    assert _num(root) == round(math.sqrt(embed_dim), 2)
    decreases = np.nonzero(dist[1:] < dist[:-1])[0]
    assert int(_num(first)) == decreases[0] and int(_num(then)) == decreases[0] + 1


def check_linear_algebra_eigenvectors(text, c):
    shown_c, l1, l2, angle = _find(
        rf"c = ({NUMBER}): λ₁ = ({NUMBER}) and λ₂ = ({NUMBER}); .* meet at ({NUMBER})°", text
    )
    assert _num(shown_c) == c
    # A = [[2, 1], [c, 1.5]]: lambda = (trace ± sqrt(trace² - 4 det)) / 2, and (1, lambda - 2)
    # is an eigenvector for lambda (the first row of (A - lambda I) x = 0)
    trace, det = 3.5, 3.0 - c
    root = math.sqrt(trace**2 - 4 * det)
    lambdas = ((trace + root) / 2, (trace - root) / 2)
    assert (_num(l1), _num(l2)) == (float(f"{lambdas[0]:.3g}"), float(f"{lambdas[1]:.3g}"))
    u, v = np.array([1.0, lambdas[0] - 2]), np.array([1.0, lambdas[1] - 2])
    expected = math.degrees(math.acos(abs(u @ v) / (np.linalg.norm(u) * np.linalg.norm(v))))
    assert _num(angle) == round(expected, 1)
    assert ("is symmetric" in text) == (c == 1) and ("not symmetric" in text) == (c != 1)


def check_cnn_kernel_positions(text, kernel, padding):
    k, p, one, two, reads = _find(
        rf"k = ({NUMBER}), p = ({NUMBER}): ({NUMBER}) outputs? at stride 1 .* and ({NUMBER}) at stride 2; "
        rf"each position reads ({NUMBER}) cells?\.",
        text,
    )
    assert (int(_num(k)), int(_num(p)), int(_num(reads))) == (kernel, padding, kernel)
    x = torch.ones(1, 1, 7)  # torch's own convolution says how long the output is
    w = torch.ones(1, 1, kernel)
    sizes = [torch.nn.functional.conv1d(x, w, stride=s, padding=padding).shape[-1] for s in (1, 2)]
    assert [int(_num(one)), int(_num(two))] == sizes
    assert ("1 output " in text) == (sizes[0] == 1)  # the count's plural agrees with it
    relation = "the input's length" if sizes[0] == 7 else ("more" if sizes[0] > 7 else "fewer")
    assert relation in text


CHECKS = {
    name[len("check_") :]: f for name, f in dict(globals()).items() if name.startswith("check_")
}


@pytest.mark.parametrize("name, point", POINTS, ids=[_id(*p) for p in POINTS])
def test_caption_values_match_an_independent_computation(name, point):
    assert name in CHECKS, f"{name}: add a check_{name} computing its caption's values anew"
    text = _module(name).caption_values(**point)
    assert isinstance(text, str) and text.endswith(".") and "$" not in text, text
    assert "\n" not in text and len(text) < 300, text
    CHECKS[name](text, **point)
