"""Bad and extreme input for every public function of mlnotes.

Two kinds of property:

- *bad input* (NaN, ±inf, booleans, complex numbers, None, strings, floats where an
  integer is meant, integer/bool/complex dtypes, ragged or non-finite arrays) raises a
  `TypeError`/`ValueError`/`IndexError` whose message names the argument;
- *extreme but valid input* (huge and tiny magnitudes, empty arrays, NumPy scalars)
  returns what the reference library (scipy.stats, numpy, torch, exact arithmetic)
  returns.

The public functions are found, not listed: every module of the `mlnotes` package whose
name does not start with `_`, every callable in its `__all__` (or, without one, every
public callable it defines) and the public methods of its classes.
`test_every_public_function_has_bad_input_cases` fails, saying what to add, when one of
them has no entry in `SIGNATURES` or an argument without a kind.
"""

from __future__ import annotations

import importlib
import inspect
import math
import os
import pkgutil
import re
import sys
from decimal import Decimal, localcontext
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy import stats

import mlnotes
from mlnotes import cnn, distributions, embeddings, linalg, plotting, probability

# Few examples per property in `make test` (every public function is covered, on a
# shared 2-core machine); MLNOTES_EXAMPLES=500 runs a deeper search.
EXAMPLES = settings(
    max_examples=int(os.environ.get("MLNOTES_EXAMPLES", "12")),
    suppress_health_check=[HealthCheck.too_slow],
)
MODULE = embeddings.SinusoidalEmbeddings(16, 4)

# "module.name" -> (callable, valid keyword arguments, {argument: kind})
# kinds: int, real, prob (real in [0, 1]), array (finite reals), array_inf (±inf
# allowed), int_seq (sequence of ints), tensor (floating torch tensor), positions
# (integer torch tensor), dtype (floating torch dtype), bool, theme (one of some names)
KINDS = "int real prob array array_inf int_seq tensor positions dtype bool theme".split()
SIGNATURES = {
    # embeddings
    "embeddings.frequencies": (
        embeddings.frequencies,
        {"embed_dim": 8},
        {"embed_dim": "int", "base": "real"},
    ),
    "embeddings.sinusoidal_embeddings": (
        embeddings.sinusoidal_embeddings,
        {"max_pos": 5, "embed_dim": 4},
        {"max_pos": "int", "embed_dim": "int", "base": "real", "dtype": "dtype"},
    ),
    "embeddings.SinusoidalEmbeddings": (
        embeddings.SinusoidalEmbeddings,
        {"max_pos": 5, "embed_dim": 4},
        {"max_pos": "int", "embed_dim": "int", "base": "real", "dtype": "dtype"},
    ),
    "embeddings.SinusoidalEmbeddings.forward": (
        lambda positions: MODULE(positions),
        {"positions": torch.tensor([0, 3])},
        {"positions": "positions"},
    ),
    "embeddings.shift_matrix": (
        embeddings.shift_matrix,
        {"k": 2, "embed_dim": 4},
        {"k": "real", "embed_dim": "int", "base": "real", "dtype": "dtype"},
    ),
    "embeddings.pairwise_distances": (
        embeddings.pairwise_distances,
        {"embeddings": torch.tensor([[0.0, 1.0], [2.0, 3.0], [4.0, -1.0]])},
        {"embeddings": "tensor", "chunk_size": "int"},
    ),
    "embeddings.distance_at_offset": (
        embeddings.distance_at_offset,
        {"k": [0, 1, 5], "embed_dim": 8},
        {"k": "array", "embed_dim": "int", "base": "real"},
    ),
    "embeddings.rounding_error": (
        embeddings.rounding_error,
        {"positions": [1, 10], "embed_dim": 8},
        {"positions": "array", "embed_dim": "int", "base": "real", "dtype": "dtype"},
    ),
    # probability
    "probability.normal_pdf": (
        probability.normal_pdf,
        {"x": [0.0, 1.0]},
        {"x": "array_inf", "mu": "real", "sigma": "real"},
    ),
    "probability.normal_cdf": (
        probability.normal_cdf,
        {"x": [0.0, 1.0]},
        {"x": "array_inf", "mu": "real", "sigma": "real"},
    ),
    "probability.normal_ppf": (
        probability.normal_ppf,
        {"q": [0.1, 0.5]},
        {"q": "prob", "mu": "real", "sigma": "real"},
    ),
    "probability.central_interval": (
        probability.central_interval,
        {"coverage": 0.9},
        {"coverage": "prob", "mu": "real", "sigma": "real"},
    ),
    "probability.marginal": (
        probability.marginal,
        {"joint": [[0.3, 0.2], [0.2, 0.3]], "axis": 0},
        {"joint": "array", "axis": "int"},
    ),
    "probability.is_independent": (
        probability.is_independent,
        {"joint": [[0.25, 0.25], [0.25, 0.25]]},
        {"joint": "array", "rtol": "real", "atol": "real"},
    ),
    "probability.bayes_posterior": (
        probability.bayes_posterior,
        {"prior": [0.5, 0.5], "likelihood": [0.9, 0.2]},
        {"prior": "array", "likelihood": "array"},
    ),
    "probability.monty_hall_posterior": (
        probability.monty_hall_posterior,
        {"chosen": 1, "opened": 3},
        {"chosen": "int", "opened": "int"},
    ),
    "probability.monty_hall_wins": (
        probability.monty_hall_wins,
        {"n_games": 10, "switch": True},
        {"n_games": "int", "switch": "bool", "seed": "int"},
    ),
    "probability.simulate_monty_hall": (
        probability.simulate_monty_hall,
        {"n_games": 10, "switch": True},
        {"n_games": "int", "switch": "bool", "seed": "int"},
    ),
    # distributions
    "distributions.bernoulli_pmf": (
        distributions.bernoulli_pmf,
        {"y": [0, 1], "theta": 0.3},
        {"y": "array", "theta": "prob"},
    ),
    "distributions.binomial_pmf": (
        distributions.binomial_pmf,
        {"y": [0, 2], "n": 5, "theta": 0.3},
        {"y": "array", "n": "int", "theta": "prob"},
    ),
    "distributions.poisson_pmf": (
        distributions.poisson_pmf,
        {"y": [0, 2], "lam": 2.0},
        {"y": "array", "lam": "real"},
    ),
    "distributions.geometric_pmf": (
        distributions.geometric_pmf,
        {"y": [1, 2], "theta": 0.3},
        {"y": "array", "theta": "prob"},
    ),
    "distributions.bernoulli_mean_var": (
        distributions.bernoulli_mean_var,
        {"theta": 0.3},
        {"theta": "prob"},
    ),
    "distributions.binomial_mean_var": (
        distributions.binomial_mean_var,
        {"n": 5, "theta": 0.3},
        {"n": "int", "theta": "prob"},
    ),
    "distributions.poisson_mean_var": (
        distributions.poisson_mean_var,
        {"lam": 2.0},
        {"lam": "real"},
    ),
    "distributions.geometric_mean_var": (
        distributions.geometric_mean_var,
        {"theta": 0.3},
        {"theta": "prob"},
    ),
    "distributions.pmf_mean_var": (
        distributions.pmf_mean_var,
        {"support": [0, 1, 2], "probabilities": [0.25, 0.5, 0.25]},
        {"support": "array", "probabilities": "array"},
    ),
    "distributions.binomial_poisson_distance": (
        distributions.binomial_poisson_distance,
        {"lam": 2.0, "n": 10},
        {"lam": "real", "n": "int"},
    ),
    # linalg
    "linalg.gram_schmidt": (
        linalg.gram_schmidt,
        {"X": [[3.0, 2.0], [1.0, 2.0]]},
        {"X": "array", "normalize": "bool", "rtol": "real"},
    ),
    "linalg.project": (
        linalg.project,
        {"y": [2.0, 1.0], "A": [[3.0], [1.0]]},
        {"y": "array", "A": "array"},
    ),
    "linalg.distance_point_point": (
        linalg.distance_point_point,
        {"p": [1.0, 2.0], "q": [4.0, 6.0]},
        {"p": "array", "q": "array"},
    ),
    "linalg.distance_point_point_scalar": (
        linalg.distance_point_point_scalar,
        {"x1": 1.0, "y1": 2.0, "x2": 4.0, "y2": 6.0},
        dict.fromkeys(["x1", "y1", "x2", "y2"], "real"),
    ),
    "linalg.distance_point_plane": (
        linalg.distance_point_plane,
        {"p": [0.0, 0.0, 0.0], "q": [6.0, 0.0, 0.0], "normal": [1.0, 2.0, 2.0]},
        {"p": "array", "q": "array", "normal": "array"},
    ),
    "linalg.distance_point_plane_scalar": (
        linalg.distance_point_plane_scalar,
        {"x0": 0.0, "y0": 0.0, "z0": 0.0, "a": 1.0, "b": 2.0, "c": 2.0, "d": -6.0},
        dict.fromkeys(["x0", "y0", "z0", "a", "b", "c", "d"], "real"),
    ),
    "linalg.distance_point_line": (
        linalg.distance_point_line,
        {"p": [1.0, 2.0, 3.0], "q": [0.0, 0.0, 0.0], "u": [1.0, 0.0, 0.0]},
        {"p": "array", "q": "array", "u": "array"},
    ),
    "linalg.distance_point_line_scalar": (
        linalg.distance_point_line_scalar,
        {"x0": 1.0, "y0": 0.0, "a": 1.0, "b": -1.0, "c": 1.0},
        dict.fromkeys(["x0", "y0", "a", "b", "c"], "real"),
    ),
    "linalg.distance_line_line": (
        linalg.distance_line_line,
        {"p": [0.0, 0.0, 0.0], "u": [1.0, 0.0, 0.0], "q": [0.0, 5.0, 2.0], "v": [0.0, 1.0, 0.0]},
        {"p": "array", "u": "array", "q": "array", "v": "array"},
    ),
    "linalg.distance_line_line_scalar": (
        linalg.distance_line_line_scalar,
        {"a1": 1.0, "b1": 0.0, "c1": -1.0, "a2": -1.0, "b2": 0.0, "c2": 3.0},
        dict.fromkeys(["a1", "b1", "c1", "a2", "b2", "c2"], "real"),
    ),
    "linalg.diagonalize": (
        linalg.diagonalize,
        {"A": [[2.0, 1.0], [1.0, 2.0]]},
        {"A": "array", "cond_max": "real"},
    ),
    # cnn
    "cnn.conv_output_size": (
        cnn.conv_output_size,
        {"n": 7, "kernel_size": 3},
        dict.fromkeys(["n", "kernel_size", "stride", "padding", "dilation"], "int"),
    ),
    "cnn.kernel_positions": (
        cnn.kernel_positions,
        {"n": 7, "kernel_size": 3},
        dict.fromkeys(["n", "kernel_size", "stride", "padding", "dilation"], "int"),
    ),
    "cnn.receptive_field": (
        cnn.receptive_field,
        {"kernel_sizes": [3, 3], "strides": [2, 1]},
        {"kernel_sizes": "int_seq", "strides": "int_seq", "dilations": "int_seq"},
    ),
    # plotting
    "plotting.style": (plotting.style, {"theme": "light"}, {"theme": "theme"}),
}

SLOTS = [
    (name, arg, kind) for name, (_, _, kinds) in SIGNATURES.items() for arg, kind in kinds.items()
]


def call(name, **override):
    fn, valid, _ = SIGNATURES[name]
    return fn(**{**valid, **override})


def valid_value(name, arg):
    """The valid value of `arg`, or its default."""
    fn, valid, _ = SIGNATURES[name]
    if arg in valid:
        return valid[arg]
    return inspect.signature(fn).parameters[arg].default


# ----------------------------------------------------- finding the public functions
def public_modules(package=mlnotes):
    """Every module of `package` whose name does not start with `_`, imported."""
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_"):
            yield importlib.import_module(f"{package.__name__}.{info.name}")


def public_callables(module):
    """("name", callable) for the public callables of `module`: those in its
    `__all__` (without one, those it defines whose names do not start with `_`), and
    the public methods defined in each of its classes ("Class.method")."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            name
            for name, obj in vars(module).items()
            if not name.startswith("_") and getattr(obj, "__module__", None) == module.__name__
        ]
    for name in names:
        obj = getattr(module, name)
        if inspect.isclass(obj):
            yield name, obj
            for method, function in vars(obj).items():
                if not method.startswith("_") and inspect.isfunction(function):
                    yield f"{name}.{method}", function
        elif callable(obj):
            yield name, obj


def arguments(function) -> list[str]:
    """The parameters a caller passes (not `self`, `*args` or `**kwargs`)."""
    return [
        name
        for name, parameter in inspect.signature(function).parameters.items()
        if name != "self"
        and parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
    ]


def coverage_problems(package=mlnotes, signatures=SIGNATURES) -> list[str]:
    """What `SIGNATURES` lacks for the public callables of `package`, as instructions."""
    problems = []
    for module in public_modules(package):
        short = module.__name__.removeprefix(f"{package.__name__}.")
        for name, function in public_callables(module):
            key, args = f"{short}.{name}", arguments(function)
            if not args:
                continue  # nothing a caller could get wrong
            if key not in signatures:
                problems.append(
                    f"{module.__name__}.{name}{inspect.signature(function)} has no bad-input "
                    f'case: add "{key}": ({short}.{name}, {{valid keyword arguments}}, '
                    f"{{argument: kind}}) to SIGNATURES in tests/test_bad_input.py, with a "
                    f"kind for each of {args} (kinds: {', '.join(KINDS)})"
                )
                continue
            missing = [a for a in args if a not in signatures[key][2]]
            if missing:
                problems.append(
                    f'SIGNATURES["{key}"] gives no kind for {missing}: add one for each '
                    f"(kinds: {', '.join(KINDS)})"
                )
    return problems


def test_every_public_function_has_bad_input_cases():
    problems = coverage_problems()
    assert not problems, "\n".join(problems)
    for name, (fn, valid, kinds) in SIGNATURES.items():
        assert set(kinds.values()) <= set(KINDS), name
        if not name.endswith(".forward"):  # the method is called through its module
            assert set(kinds) | set(valid) <= set(arguments(fn)), name


def test_a_new_module_with_a_public_function_is_found_and_asked_for(tmp_path, monkeypatch):
    """A module added to the package later (written to a folder put on the package's path,
    under a name no module of the package has: an author's real mlnotes/activations.py
    would otherwise answer for it) is found without editing this file, and the coverage
    test says what to add for its function."""
    name = "new_module_of_this_test"
    assert not os.path.exists(os.path.join(os.path.dirname(mlnotes.__file__), f"{name}.py"))
    (tmp_path / f"{name}.py").write_text(
        '"""Activations."""\n\n__all__ = ["softmax"]\n\n\n'
        "def softmax(x, axis=-1):\n    return x\n\n\n"
        "def _helper(x):\n    return x\n"
    )
    monkeypatch.setattr(mlnotes, "__path__", [*mlnotes.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, f"mlnotes.{name}", raising=False)
    try:
        problems = coverage_problems()
    finally:
        sys.modules.pop(f"mlnotes.{name}", None)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"mlnotes.{name}.softmax(x, axis=-1) has no bad-input")
    assert f'"{name}.softmax"' in problems[0] and "tests/test_bad_input.py" in problems[0]
    assert "['x', 'axis']" in problems[0]


# ------------------------------------------------------------------ bad values
NOT_REAL = st.one_of(
    st.booleans(),
    st.builds(np.bool_, st.booleans()),
    st.complex_numbers(max_magnitude=1e6, allow_nan=False).filter(lambda z: z.imag != 0),
    st.builds(np.complex128, st.just(1 + 2j)),
    st.none(),
    st.text(max_size=3),
    st.just([1.0, 2.0]) | st.just(object()),
)
NON_FINITE = st.sampled_from([math.nan, math.inf, -math.inf, np.float64("nan"), np.float32("inf")])
NOT_INTEGER = st.one_of(
    NOT_REAL.filter(lambda v: not isinstance(v, list)),
    st.floats(allow_nan=True, allow_infinity=True),  # even 3.0
    st.builds(np.float64, st.floats(-10, 10)),
)


def bad_scalar(kind):
    """(value, expected exception) pairs for a scalar argument of `kind`."""
    if kind == "int":
        return NOT_INTEGER.map(lambda v: (v, TypeError))
    if kind == "bool":
        return st.one_of(st.integers(0, 1), st.floats(0, 1), st.none(), st.text(max_size=2)).map(
            lambda v: (v, TypeError)
        )
    if kind == "theme":  # a name: other strings are wrong values, the rest wrong types
        return st.one_of(
            st.sampled_from(["sepia", "", "Light", "dark "]).map(lambda v: (v, ValueError)),
            NOT_REAL.filter(lambda v: not isinstance(v, str)).map(lambda v: (v, TypeError)),
        )
    type_errors = NOT_REAL.map(lambda v: (v, TypeError))
    value_errors = NON_FINITE.map(lambda v: (v, ValueError))
    if kind == "prob":
        value_errors = value_errors | st.sampled_from([-1e-300, -0.5, 1 + 1e-15, 2.0, 1e300]).map(
            lambda v: (v, ValueError)
        )
    return type_errors | value_errors


def bad_array(valid, kind, draw):
    """A (value, expected exception) pair: `valid` spoiled at one entry, or retyped."""
    arr = np.array(valid, dtype=float)
    how = draw(st.sampled_from(["nonfinite", "bool", "complex", "none", "str", "ragged", "object"]))
    if how == "nonfinite":
        bad = draw(
            st.sampled_from([math.nan, math.inf, -math.inf] if kind != "array_inf" else [math.nan])
        )
        index = draw(st.integers(0, arr.size - 1))
        arr.flat[index] = bad
        as_list = draw(st.booleans())
        return (arr.tolist() if as_list else arr), ValueError
    if how == "bool":
        return arr.astype(bool), TypeError
    if how == "complex":
        return arr.astype(complex) + 1j, TypeError
    if how == "none":
        return None, TypeError
    if how == "str":
        return draw(st.sampled_from(["abc", "1.0"])), TypeError
    if how == "ragged":
        return [[1.0, 2.0], [3.0]], (TypeError, ValueError)
    return [object()] * max(arr.size, 1), TypeError


def bad_tensor(valid, kind, draw):
    if kind == "positions":
        dtype = draw(st.sampled_from([torch.float32, torch.float64, torch.bool, torch.complex64]))
        return valid.to(dtype), TypeError
    how = draw(st.sampled_from(["nonfinite", "int", "bool", "complex", "numpy"]))
    if how == "nonfinite":
        x = valid.clone()
        x.view(-1)[draw(st.integers(0, x.numel() - 1))] = draw(
            st.sampled_from([math.nan, math.inf, -math.inf])
        )
        return x, ValueError
    if how == "numpy":
        return valid.numpy(), TypeError
    dtype = {"int": torch.int64, "bool": torch.bool, "complex": torch.complex64}[how]
    return valid.to(dtype), TypeError


def bad_dtype(draw):
    return draw(
        st.sampled_from(
            [
                torch.int64,
                torch.int8,
                torch.uint8,
                torch.bool,
                torch.complex64,
                "float32",
                np.float32,
            ]
        )
    ), TypeError


@pytest.mark.parametrize(("name", "arg", "kind"), SLOTS, ids=[f"{n}-{a}" for n, a, _ in SLOTS])
@EXAMPLES
@given(data=st.data())
def test_bad_input_raises_a_clear_error_naming_the_argument(name, arg, kind, data):
    if kind in ("int", "real", "prob", "bool", "theme") and not (
        kind == "prob" and isinstance(valid_value(name, arg), list)
    ):
        value, error = data.draw(bad_scalar(kind))
    elif kind in ("array", "array_inf", "prob"):
        value, error = bad_array(valid_value(name, arg), kind, data.draw)
    elif kind == "int_seq":
        value, error = data.draw(
            st.one_of(
                st.integers(1, 5).map(lambda v: (v, TypeError)),  # one int, not a list
                NOT_INTEGER.map(lambda v: ([3, v], TypeError)),  # a bad entry
            )
        )
    elif kind in ("tensor", "positions"):
        value, error = bad_tensor(valid_value(name, arg), kind, data.draw)
    elif kind == "dtype":
        value, error = bad_dtype(data.draw)
    else:
        raise AssertionError(kind)
    with pytest.raises(error) as info:
        call(name, **{arg: value})
    assert re.search(rf"\b{re.escape(arg)}\b", str(info.value)), (
        f"{name}({arg}={value!r}): {info.value}"
    )


# ------------------------------------------------- NumPy scalars are numbers too
def same(a, b):
    if isinstance(a, torch.Tensor):
        return torch.equal(a, b)
    if isinstance(a, torch.nn.Module):
        return torch.equal(a.embeddings, b.embeddings)
    if isinstance(a, dict):
        return a == b
    if isinstance(a, tuple):
        return all(same(x, y) for x, y in zip(a, b))
    return np.array_equal(np.asarray(a), np.asarray(b))


SCALAR_SLOTS = [
    (n, a, k)
    for n, a, k in SLOTS
    if k in ("int", "real", "prob") and not isinstance(valid_value(n, a), list)
]


@pytest.mark.parametrize(
    ("name", "arg", "kind"), SCALAR_SLOTS, ids=[f"{n}-{a}" for n, a, _ in SCALAR_SLOTS]
)
def test_numpy_scalars_give_the_same_result_as_python_numbers(name, arg, kind):
    value = valid_value(name, arg)
    np_types = (np.int64, np.int32, np.uint8) if kind == "int" else (np.float64, np.float32)
    reference = call(name, **{arg: value})
    for np_type in np_types:
        try:
            converted = np_type(value)
        except OverflowError:  # 256 in uint8
            continue
        if float(converted) != float(value):
            continue  # e.g. 0.3 in float32
        assert same(call(name, **{arg: converted}), reference), np_type


# --------------------------------------------------------------- empty arrays
ARRAY_SLOTS = [
    (n, a, k)
    for n, a, k in SLOTS
    if k in ("array", "array_inf", "int_seq") or (k == "prob" and n == "probability.normal_ppf")
]


@pytest.mark.parametrize(
    ("name", "arg", "kind"), ARRAY_SLOTS, ids=[f"{n}-{a}" for n, a, _ in ARRAY_SLOTS]
)
def test_empty_arrays_give_an_empty_result_or_an_error_naming_them(name, arg, kind):
    try:
        result = call(name, **{arg: []})
    except ValueError as error:
        assert arg in str(error)
    else:
        assert (result.numel() if isinstance(result, torch.Tensor) else np.size(result)) == 0, (
            result
        )


def test_empty_and_single_rows_in_pairwise_distances():
    for d in (0, 3):
        assert embeddings.pairwise_distances(torch.zeros(0, d)).shape == (0, 0)
        assert torch.equal(
            embeddings.pairwise_distances(torch.ones(1, d, dtype=torch.float64)),
            torch.zeros(1, 1, dtype=torch.float64),
        )
    assert torch.equal(embeddings.pairwise_distances(torch.ones(4, 0)), torch.zeros(4, 4))


# ---------------------------------------------------- extreme but valid input
magnitudes = st.floats(allow_nan=False, allow_infinity=False)
positive = st.floats(min_value=5e-324, allow_infinity=False)
probabilities = st.floats(0.0, 1.0)


@EXAMPLES
@given(
    x=st.lists(st.floats(allow_nan=False), min_size=1, max_size=5), mu=magnitudes, sigma=positive
)
def test_normal_matches_scipy_at_any_magnitude(x, mu, sigma):
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(
            probability.normal_pdf(x, mu, sigma), stats.norm.pdf(x, mu, sigma)
        )
        np.testing.assert_array_equal(
            probability.normal_cdf(x, mu, sigma), stats.norm.cdf(x, mu, sigma)
        )


@EXAMPLES
@given(q=st.lists(probabilities, min_size=1, max_size=5), mu=magnitudes, sigma=positive)
def test_normal_ppf_matches_scipy_at_any_magnitude(q, mu, sigma):
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(
            probability.normal_ppf(q, mu, sigma), stats.norm.ppf(q, mu, sigma)
        )


integer_values = st.one_of(st.integers(-5, 50), st.integers(-(10**15), 10**15)).map(float)


@EXAMPLES
@given(
    y=st.lists(integer_values, min_size=1, max_size=4),
    n=st.integers(0, 10**15),
    theta=probabilities,
)
def test_binomial_pmf_matches_scipy_for_any_n(y, n, theta):
    try:
        expected = stats.binom.pmf(y, n, theta)
    except OverflowError:  # scipy fails for theta near 2.2e-308; ours falls back to log space
        expected = None
    got = distributions.binomial_pmf(y, n, theta)
    assert np.all((got >= 0) & (got <= 1))
    if expected is not None:
        np.testing.assert_array_equal(got, expected)


@EXAMPLES
@given(
    y=st.lists(integer_values, min_size=1, max_size=4),
    lam=st.floats(0, 1e300),
    theta=st.floats(5e-324, 1.0),
)
def test_poisson_geometric_bernoulli_at_any_magnitude(y, lam, theta):
    """Poisson: scipy's values; Bernoulli: the formula, correctly rounded; geometric:
    within its documented 5e-13 of 40-digit arithmetic where that is a normal float,
    within the smallest normal float of it elsewhere."""
    np.testing.assert_array_equal(distributions.poisson_pmf(y, lam), stats.poisson.pmf(y, lam))
    bernoulli = [theta if v == 1 else 1 - theta if v == 0 else 0.0 for v in y]
    assert distributions.bernoulli_pmf(y, theta).tolist() == bernoulli
    got = distributions.geometric_pmf(y, theta)
    with mpmath.workdps(40):
        t = mpmath.mpf(theta)
        for value, v in zip(got, y):
            exact = mpmath.exp((v - 1) * mpmath.log1p(-t)) * t if v >= 1 else mpmath.mpf(0)
            if exact >= sys.float_info.min:
                assert abs(value - exact) <= 5e-13 * exact, (v, theta)
            else:
                assert abs(value - exact) <= sys.float_info.min, (v, theta)


def as_float(x: Fraction) -> float:
    try:
        return float(x)
    except OverflowError:
        return math.inf


@EXAMPLES
@given(theta=st.floats(5e-324, 1.0), lam=st.floats(0, 1e300), n=st.integers(0, 10**15))
def test_means_and_variances_are_exact_and_match_scipy_at_any_magnitude(theta, lam, n):
    """Within 2 ulps of the exact rational value; scipy's variances cancel near
    theta = 1 (relative error 5e-12 at theta = 0.99999), so they are matched to 1e-12
    of E[Y^2]."""
    t = Fraction(theta)
    with np.errstate(all="ignore"):
        for ours, exact, ref in [
            (
                distributions.geometric_mean_var(theta),
                (1 / t, (1 - t) / t**2),
                stats.geom.stats(theta, moments="mv"),
            ),
            (
                distributions.poisson_mean_var(lam),
                (Fraction(lam), Fraction(lam)),
                stats.poisson.stats(lam, moments="mv"),
            ),
            (
                distributions.bernoulli_mean_var(theta),
                (t, t * (1 - t)),
                stats.bernoulli.stats(theta, moments="mv"),
            ),
            (
                distributions.binomial_mean_var(n, theta),
                (n * t, n * t * (1 - t)),
                stats.binom.stats(n, theta, moments="mv"),
            ),
        ]:
            np.testing.assert_allclose(ours, [as_float(e) for e in exact], rtol=4.5e-16, atol=0)
            (mean, var), (ref_mean, ref_var) = ours, (float(r) for r in ref)
            assert mean == pytest.approx(ref_mean, rel=1e-12)
            if math.isinf(var) or math.isinf(ref_var):
                assert var == ref_var
            else:  # scipy's variance is E[Y^2] - E[Y]^2: it cancels near theta = 1
                assert abs(var - ref_var) <= 1e-12 * (var + mean * mean)


def test_binomial_pmf_at_a_trillion_trials_is_within_its_bound():
    """1e-11 + 1e-14 sqrt(N) = 1e-8 at N = 1e12, against 40-digit arithmetic."""
    n = 10**12
    with mpmath.workdps(40):
        for y in (3 * 10**11, 3 * 10**11 + 10**6):
            exact = mpmath.exp(
                mpmath.loggamma(n + 1)
                - mpmath.loggamma(y + 1)
                - mpmath.loggamma(n - y + 1)
                + y * mpmath.log(mpmath.mpf(0.3))
                + (n - y) * mpmath.log1p(-mpmath.mpf(0.3))
            )
            got = distributions.binomial_pmf(y, n, 0.3)
            assert abs(got - exact) <= 1e-8 * exact


def exact_norm(values) -> float:
    """sqrt(sum of squares) of exact rationals, correctly rounded enough (60 digits)."""
    with localcontext() as ctx:
        ctx.prec = 60
        square = sum(Decimal(v.numerator) / Decimal(v.denominator) for v in (f * f for f in values))
        return float(square.sqrt())


def exact_sqrt_ratio(numerator: Fraction, denominator: Fraction) -> float:
    """sqrt(numerator / denominator) of exact rationals, rounded once (60 digits, then float)."""
    with localcontext() as ctx:
        ctx.prec = 60
        ratio = (Decimal(numerator.numerator) * Decimal(denominator.denominator)) / (
            Decimal(numerator.denominator) * Decimal(denominator.numerator)
        )
        return float(ratio.sqrt())  # inf beyond the largest float


coordinates = st.one_of(st.floats(-1e300, 1e300), st.floats(-1e-300, 1e-300), st.floats(-10, 10))


@EXAMPLES
@given(
    p=st.lists(coordinates, min_size=2, max_size=2), q=st.lists(coordinates, min_size=2, max_size=2)
)
def test_point_point_distances_are_exact_at_any_magnitude(p, q):
    expected = exact_norm([Fraction(b) - Fraction(a) for a, b in zip(p, q)])
    assert linalg.distance_point_point(p, q) == pytest.approx(expected, rel=1e-15, abs=0)
    assert linalg.distance_point_point_scalar(*p, *q) == pytest.approx(expected, rel=1e-15, abs=0)


@EXAMPLES
@given(
    point=st.lists(coordinates, min_size=3, max_size=3),
    normal=st.lists(coordinates, min_size=3, max_size=3),
    d=coordinates,
)
def test_point_plane_distance_is_accurate_at_any_magnitude(point, normal, d):
    assume(any(normal))
    residual = sum(Fraction(a) * Fraction(x) for a, x in zip(normal, point)) + Fraction(d)
    expected = exact_sqrt_ratio(residual * residual, sum(Fraction(a) ** 2 for a in normal))
    got = linalg.distance_point_plane_scalar(*point, *normal, d)
    assert got == expected or abs(got - expected) <= max(1e-15 * expected, 5e-324)  # exact, rounded
    if normal[2] == 0:  # a vertical plane: the distance of (x0, y0) to the line ax + by + d = 0
        line = linalg.distance_point_line_scalar(point[0], point[1], normal[0], normal[1], d)
        assert line == expected or abs(line - expected) <= max(1e-15 * expected, 5e-324)


@EXAMPLES
@given(
    p=st.lists(coordinates, min_size=3, max_size=3),
    q=st.lists(coordinates, min_size=3, max_size=3),
    normal=st.lists(coordinates, min_size=3, max_size=3),
)
def test_vector_point_plane_distance_is_accurate_at_any_magnitude(p, q, normal):
    """Exact, rounded at the end: within 1e-15 of the exact distance, or within the
    smallest subnormal of it below the normal range."""
    assume(any(normal))
    dot = sum((Fraction(b) - Fraction(a)) * Fraction(n) for a, b, n in zip(p, q, normal))
    expected = exact_sqrt_ratio(dot * dot, sum(Fraction(n) ** 2 for n in normal))
    got = linalg.distance_point_plane(p, q, normal)
    assert got == expected or abs(got - expected) <= max(1e-15 * expected, 5e-324)


@EXAMPLES
@given(
    line=st.lists(coordinates, min_size=3, max_size=3),
    k=st.sampled_from([-3.0, -0.5, 2.0, 1e100, 1e-100]),
    c2=coordinates,
)
def test_parallel_lines_distance_is_exact_at_any_magnitude(line, k, c2):
    a1, b1, c1 = line
    assume(not a1 == b1 == 0 and math.isfinite(k * a1) and math.isfinite(k * b1))
    assume(not k * a1 == k * b1 == 0)
    a2, b2 = k * a1, k * b1  # a parallel line (rounding may tilt it by 1e-16: within 1e-12)
    a1f, b1f, c1f, a2f, b2f, c2f = (Fraction(v) for v in (a1, b1, c1, a2, b2, c2))
    gap = c1f - (a1f * a2f + b1f * b2f) / (a2f * a2f + b2f * b2f) * c2f
    expected = exact_sqrt_ratio(gap * gap, a1f * a1f + b1f * b1f)
    assert linalg.distance_line_line_scalar(a1, b1, c1, a2, b2, c2) == pytest.approx(
        expected, rel=1e-14, abs=0
    )


@EXAMPLES
@given(
    scale_exp=st.integers(-140, 120),
    n=st.integers(2, 12),
    d=st.integers(1, 8),
    seed=st.integers(0, 10**6),
    dtype=st.sampled_from([torch.float32, torch.float64]),
    clustered=st.booleans(),
)
def test_pairwise_distances_are_finite_and_accurate_at_any_magnitude(
    scale_exp, n, d, seed, dtype, clustered
):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g, dtype=torch.float64)
    if clustered:
        x = 1e3 + 1e-3 * x
    x = (x * 2.0**scale_exp).to(dtype)
    assume(bool(torch.isfinite(x).all()))  # the input itself must be finite
    got = embeddings.pairwise_distances(x)
    rows = x.double().tolist()
    finfo = torch.finfo(dtype)
    for i in range(n):
        for j in range(n):
            exact = exact_norm([Fraction(b) - Fraction(a) for a, b in zip(rows[i], rows[j])])
            if exact > finfo.max:
                assert math.isinf(got[i, j])
            elif exact > 100 * finfo.tiny:
                assert got[i, j].item() == pytest.approx(
                    exact, rel=1e-4 if dtype == torch.float32 else 1e-10
                )
    assert torch.equal(got, got.T)


def test_pairwise_distances_of_large_float32_rows_are_finite():
    x = torch.tensor([[1e20, 0.0], [0.0, 1e20], [-1e20, 3e20]])
    got = embeddings.pairwise_distances(x)
    expected = torch.cdist(x.double(), x.double())
    assert torch.isfinite(got).all()
    torch.testing.assert_close(got.double(), expected, rtol=1e-6, atol=0)


def test_gram_schmidt_is_orthogonal_on_the_hilbert_matrix():
    hilbert = 1.0 / (np.arange(8)[:, None] + np.arange(8)[None, :] + 1)
    q = linalg.gram_schmidt(hilbert)
    assert np.abs(q.T @ q - np.eye(8)).max() < 1e-15 * 8
    one_pass = 9e-8  # measured: modified Gram-Schmidt without re-orthogonalisation
    assert np.abs(q.T @ q - np.eye(8)).max() < one_pass / 1e6


@EXAMPLES
@given(n=st.integers(2, 8), log_cond=st.floats(0, 9), seed=st.integers(0, 10**6))
def test_gram_schmidt_orthogonality_on_ill_conditioned_matrices(n, log_cond, seed):
    """The docstring's measured claim: max|Q^T Q - I| < 1e-13 up to condition 1e9."""
    rng = np.random.default_rng(seed)
    u, _ = np.linalg.qr(rng.standard_normal((n + 2, n)))
    v, _ = np.linalg.qr(rng.standard_normal((n, n)))
    X = u @ np.diag(np.logspace(0, -log_cond, n)) @ v.T
    q = linalg.gram_schmidt(X)
    assert np.abs(q.T @ q - np.eye(n)).max() < 1e-13


@EXAMPLES
@given(
    px=st.lists(st.floats(1e-300, 1.0), min_size=1, max_size=4),
    py=st.lists(st.floats(1e-300, 1.0), min_size=1, max_size=4),
)
def test_is_independent_accepts_outer_products_with_rare_values(px, py):
    px, py = np.array(px) / sum(px), np.array(py) / sum(py)
    assert probability.is_independent(np.outer(px, py))


@pytest.mark.parametrize("p", [1e-3, 1e-10, 1e-100, 1e-300])
def test_is_independent_sees_dependence_on_rare_values(p):
    """X = Y with P(X = 0) = p: dependent, however small p (an absolute 1e-9 missed it)."""
    assert not probability.is_independent([[p, 0.0], [0.0, 1.0 - p]])


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64])
def test_forward_takes_positions_of_any_integer_dtype(dtype):
    positions = torch.tensor([[0, 3], [15, 1]], dtype=dtype)
    assert torch.equal(MODULE(positions), MODULE.embeddings[positions.long()])


@pytest.mark.parametrize(
    "dtype", [None, torch.float32, torch.float64, torch.float16, torch.bfloat16]
)
def test_shift_matrix_applies_to_the_table_of_the_same_dtype(dtype):
    table = embeddings.sinusoidal_embeddings(20, 8, dtype=dtype)
    m = embeddings.shift_matrix(3, 8, dtype=dtype)
    assert m.dtype == table.dtype == (dtype or torch.get_default_dtype())
    tol = {torch.float16: 1e-2, torch.bfloat16: 5e-2}.get(dtype, 1e-5)
    torch.testing.assert_close(m @ table[5], table[8], rtol=0, atol=tol)
    module = embeddings.SinusoidalEmbeddings(20, 8, dtype=dtype)
    assert module.embeddings.dtype == table.dtype


@EXAMPLES
@given(k=st.lists(st.floats(-1e300, 1e300), min_size=1, max_size=4))
def test_distance_at_offset_stays_in_range_for_huge_offsets(k):
    """Against ||SE(k) - SE(0)|| from the table's own formula, in float64."""
    got = embeddings.distance_at_offset(k, 8)
    angles = np.array(k)[:, None] * embeddings.frequencies(8).numpy()
    reference = np.sqrt((np.sin(angles) ** 2 + (np.cos(angles) - 1) ** 2).sum(-1))
    np.testing.assert_allclose(got.numpy(), reference, rtol=0, atol=1e-12)
    assert (got <= 4.0).all()  # 2 sqrt(d / 2): each frequency adds at most 4 to the square


@EXAMPLES
@given(data=st.data())
def test_complex_matrices_are_rejected_not_truncated(data):
    A = data.draw(st.sampled_from([[[1j, 0], [0, 1]], np.eye(2) * (1 + 1e-3j)]))
    with pytest.raises(TypeError, match="A must hold real numbers, not complex"):
        linalg.diagonalize(A)


@pytest.mark.parametrize(
    "dtype", [torch.int16, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64]
)
def test_distance_at_offset_takes_tensors_of_any_real_dtype(dtype):
    k = torch.tensor([0, 1, 10], dtype=dtype)
    expected = embeddings.distance_at_offset([0.0, 1.0, 10.0], 16)
    assert torch.equal(embeddings.distance_at_offset(k, 16), expected)


@pytest.mark.parametrize(
    ("call", "value"),
    [
        (lambda v: probability.bayes_posterior([0.5, 0.5], v), [True, 1]),
        (lambda v: linalg.gram_schmidt(v), [[True, 1.0], [0.0, 1.0]]),
        (lambda v: linalg.distance_point_point(v, [0.0, 0.0]), (1, False)),
        (lambda v: distributions.poisson_pmf(v, 1.0), [0, True]),
    ],
)
def test_a_boolean_among_numbers_in_a_list_is_rejected(call, value):
    """NumPy makes [True, 1] an integer array; the validation layer still sees the bool."""
    with pytest.raises(TypeError, match="not booleans"):
        call(value)
